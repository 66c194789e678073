#pragma once
// Where a line came from: which input, which physical line, which byte.

#include <cstdint>

namespace gapscan {

/// Index of an input in the run's source table (see source/input.hpp).
using SourceId = std::uint32_t;

/// A physical line of an input. `line` is 1-based; `offset` is the byte offset of the
/// line's first byte in the decoded stream of that input.
struct LineLocation {
  SourceId source = 0;
  std::uint64_t line = 0;
  std::uint64_t offset = 0;
};

}  // namespace gapscan
