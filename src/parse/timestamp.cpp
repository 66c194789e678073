#include <gapscan/parse/timestamp.hpp>

namespace gapscan::parse {
namespace {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Reads exactly `count` digits at `pos`; false if any is not a digit.
inline bool read_digits(std::string_view text, std::size_t pos, std::size_t count, unsigned& value) {
  if (pos + count > text.size()) return false;
  unsigned v = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const char c = text[pos + i];
    if (!is_digit(c)) return false;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  value = v;
  return true;
}

constexpr std::int64_t k_pow10[10] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};

}  // namespace

std::optional<ParsedTime> parse_iso8601(std::string_view text) {
  unsigned year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!read_digits(text, 0, 4, year) || text.size() < 19 || text[4] != '-' || !read_digits(text, 5, 2, month) ||
      text[7] != '-' || !read_digits(text, 8, 2, day) || (text[10] != 'T' && text[10] != ' ') ||
      !read_digits(text, 11, 2, hour) || text[13] != ':' || !read_digits(text, 14, 2, minute) || text[16] != ':' ||
      !read_digits(text, 17, 2, second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  ParsedTime parsed;
  parsed.date_time_t = text[10] == 'T';
  std::size_t pos = 19;
  std::int64_t fraction_ns = 0;
  if (pos + 1 < text.size() && (text[pos] == '.' || text[pos] == ',') && is_digit(text[pos + 1])) {
    ++pos;
    std::size_t digits = 0;
    std::int64_t value = 0;
    while (pos < text.size() && is_digit(text[pos])) {
      if (digits < 9) {
        value = value * 10 + (text[pos] - '0');
        ++digits;
      }
      ++pos;
    }
    fraction_ns = value * k_pow10[9 - digits];
    parsed.digits = static_cast<std::uint8_t>(digits);
  }
  std::int64_t offset_seconds = 0;
  if (pos < text.size() && text[pos] == 'Z') {
    parsed.has_offset = true;
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const bool negative = text[pos] == '-';
    unsigned oh = 0, om = 0;
    std::size_t p = pos + 1;
    if (read_digits(text, p, 2, oh)) {
      p += 2;
      if (p < text.size() && text[p] == ':' && read_digits(text, p + 1, 2, om)) {
        p += 3;
      } else if (read_digits(text, p, 2, om)) {
        p += 2;
      }
      if (oh <= 23 && om <= 59) {
        offset_seconds = (static_cast<std::int64_t>(oh) * 3600 + om * 60) * (negative ? -1 : 1);
        parsed.has_offset = true;
        pos = p;
      }
    }
  }
  const std::int64_t days = days_from_civil(year, month, day);
  const std::int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  parsed.time = seconds * k_ns_per_s + fraction_ns;
  parsed.length = pos;
  return parsed;
}

}  // namespace gapscan::parse
