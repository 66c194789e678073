#pragma once
// Helpers shared by the hand-written format scanners.

#include <cstddef>
#include <cstring>
#include <string_view>

namespace gapscan::parse::formats {

/// The token starting at `pos` up to the next space; advances `pos` past that space.
/// Empty when `pos` is at a space or the end.
inline std::string_view next_token(std::string_view line, std::size_t& pos) {
  const std::size_t start = pos;
  const char* data = line.data();
  const std::size_t size = line.size();
  while (pos < size && data[pos] != ' ') ++pos;  // tokens are short: a loop beats memchr's call
  const std::string_view token(data + start, pos - start);
  if (pos < line.size()) ++pos;
  return token;
}

inline bool is_upper_word(std::string_view word) {
  if (word.empty()) return false;
  for (char c : word) {
    if (c < 'A' || c > 'Z') return false;
  }
  return true;
}

}  // namespace gapscan::parse::formats
