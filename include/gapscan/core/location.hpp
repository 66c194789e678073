#pragma once
// Where a line came from: which input, which physical line, which byte.

#include <cstdint>
#include <string_view>

namespace gapscan {

/// Index of an input in the run's source table (see source/input.hpp).
using SourceId = std::uint32_t;

/// A physical line of an input. `line` is 1-based; `offset` is the byte offset of the
/// line's first byte in the decoded stream of that input. `salt` stands for the input in line
/// hashes (source_salt of its first line): the samples kept by line hash are then the same
/// whatever the input's name or place in the run, so that partial scans merge into the report
/// of one scan.
struct LineLocation {
  SourceId source = 0;
  std::uint32_t salt = 0;  // beside source: the struct stays 24 bytes
  std::uint64_t line = 0;
  std::uint64_t offset = 0;
};

/// The salt of an input's lines: FNV-1a of its first line, folded to 32 bits.
constexpr std::uint32_t source_salt(std::string_view first_line) noexcept {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : first_line) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return static_cast<std::uint32_t>(hash ^ (hash >> 32));
}

}  // namespace gapscan
