// strace -r: each line starts with the seconds since the previous syscall started,
//        0.044123 sendto(3, "set k 0 0 1 noreply\r\n", 21, MSG_NOSIGNAL, NULL, 0) = 21
// with -f, after the process: "[pid  4242]      0.000051 recvfrom(…)" or "4242       0.000051 …".
// A line's time is the sum of the deltas so far (µs, from the start of the trace); the group
// is the process when the line names one.

#include "formats.hpp"

#include <cstdint>

namespace gapscan::parse::formats {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name(char c) { return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_'; }

class StraceRelativeParser final : public LineParser {
 public:
  void restart() override { m_total = 0; }

  std::string layout() const override { return "times since the trace started: gaps exact, no wall-clock time"; }

  ParseStatus parse(std::string_view line, Record& record) override {
    std::size_t pos = 0;
    std::string_view process;
    if (line.starts_with("[pid ")) {
      const std::size_t close = line.find(']');
      if (close == std::string_view::npos || close > 16) return ParseStatus::not_this_format;
      process = line.substr(1, close - 1);
      pos = close + 1;
    } else {
      while (pos < line.size() && is_digit(line[pos])) ++pos;
      if (pos > 0 && pos < line.size() && line[pos] == ' ') {
        process = line.substr(0, pos);
      } else {
        pos = 0;
      }
    }
    while (pos < line.size() && line[pos] == ' ') ++pos;
    // seconds "." six digits, then one space
    const std::size_t start = pos;
    std::int64_t seconds = 0;
    while (pos < line.size() && is_digit(line[pos]) && pos - start < 6) seconds = seconds * 10 + (line[pos++] - '0');
    if (pos == start || pos + 8 > line.size() || line[pos] != '.') return ParseStatus::not_this_format;
    std::int64_t micros = 0;
    for (int k = 1; k <= 6; ++k) {
      if (!is_digit(line[pos + static_cast<std::size_t>(k)])) return ParseStatus::not_this_format;
      micros = micros * 10 + (line[pos + static_cast<std::size_t>(k)] - '0');
    }
    pos += 7;
    if (line[pos] != ' ') return ParseStatus::not_this_format;
    ++pos;
    // then a syscall "name(", a resumption "<... name resumed>", a signal "---" or an exit "+++"
    const std::string_view rest = line.substr(pos);
    if (!rest.starts_with("<... ") && !rest.starts_with("--- ") && !rest.starts_with("+++ ")) {
      std::size_t name = 0;
      while (name < rest.size() && is_name(rest[name])) ++name;
      if (name == 0 || name >= rest.size() || rest[name] != '(') return ParseStatus::not_this_format;
    }
    m_total += seconds * k_ns_per_s + micros * k_ns_per_us;
    record.time = m_total;
    record.time_digits = 6;
    record.zoned = true;  // relative to the start of the trace: no zone applies
    record.group = process;
    record.message = rest;
    record.channel = {};
    record.level = {};
    return ParseStatus::parsed;
  }

 private:
  TimeNs m_total = 0;
};

}  // namespace

FormatInfo strace_relative() {
  return {"strace-relative",
          "strace -r: seconds since the previous syscall, summed into a time from the start of the trace",
          "     0.044123 sendto(3, \"set k 0 0 1 noreply\\r\\n\", 21, MSG_NOSIGNAL, NULL, 0) = 21",
          [] { return std::unique_ptr<LineParser>(std::make_unique<StraceRelativeParser>()); }};
}

}  // namespace gapscan::parse::formats
