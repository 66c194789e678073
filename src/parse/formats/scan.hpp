#pragma once
// Helpers shared by the hand-written format scanners.

#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/format.hpp>
#include <gapscan/parse/stamp_clock.hpp>

#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

/// A format whose stamps carry a date: its clock knows the input's default year and zone (for
/// zone abbreviations), learnt before the first line and kept over a restart.
class ClockedParser : public LineParser {
 public:
  void learn(const std::vector<std::string>& sample, const TimeSettings& settings) override {
    (void)sample;
    m_default_year = settings.default_year;
    m_default_day = settings.default_day;
    m_zone = settings.zone;
    restart();
  }
  void restart() override {
    m_clock = StampClock(0, m_default_year);
    m_clock.set_zone(m_zone);
    m_clock.set_default_day(m_default_day);
  }

 protected:
  StampClock m_clock;

 private:
  std::shared_ptr<const Zone> m_zone;  // the input's, for zone abbreviations
  int m_default_year = 1970;
  std::int64_t m_default_day = INT64_MIN;
};

/// The named fields method and path of an HTTP request line ("GET /x HTTP/1.1"), appended to a
/// Record::fields block.
inline void request_line_fields(std::string& fields, std::string_view request_line) {
  const std::size_t space = request_line.find(' ');
  if (space == std::string_view::npos) return;
  append_field(fields, "method", request_line.substr(0, space));
  const std::size_t path_end = request_line.find(' ', space + 1);
  append_field(fields, "path", request_line.substr(space + 1, path_end - space - 1));
}

}  // namespace gapscan::parse::formats
