#include <gapscan/parse/timestamp.hpp>

#include <cstring>

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

/// The last "YYYY-MM-DD?HH:MM" prefix seen and its instant: most lines of a log share the
/// minute of their predecessor, so only the seconds and the fraction are read for them.
struct MinuteCache {
  char prefix[16] = {};
  std::int64_t seconds = 0;  // epoch seconds at the start of that minute (no offset applied)
};

}  // namespace

std::optional<ParsedTime> parse_iso8601(std::string_view text) {
  if (text.size() < 19) return std::nullopt;
  const char* t = text.data();
  auto digit = [t](std::size_t i) { return static_cast<unsigned>(t[i] - '0'); };
  thread_local MinuteCache cache;
  std::int64_t minute_seconds = 0;
  if (std::memcmp(t, cache.prefix, 16) == 0) {
    if (t[16] != ':' || digit(17) > 9 || digit(18) > 9) return std::nullopt;
    minute_seconds = cache.seconds;
  } else {
    for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u, 11u, 12u, 14u, 15u, 17u, 18u}) {
      if (digit(i) > 9) return std::nullopt;
    }
    if (t[4] != '-' || t[7] != '-' || (t[10] != 'T' && t[10] != ' ') || t[13] != ':' || t[16] != ':') {
      return std::nullopt;
    }
    const unsigned year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3);
    const unsigned month = digit(5) * 10 + digit(6);
    const unsigned day = digit(8) * 10 + digit(9);
    const unsigned hour = digit(11) * 10 + digit(12);
    const unsigned minute = digit(14) * 10 + digit(15);
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return std::nullopt;
    if (year < k_min_stamp_year || year > k_max_stamp_year) return std::nullopt;
    minute_seconds = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60;
    std::memcpy(cache.prefix, t, 16);
    cache.seconds = minute_seconds;
  }
  const unsigned second = digit(17) * 10 + digit(18);
  if (second > 60) return std::nullopt;
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
  const std::int64_t seconds = minute_seconds + second - offset_seconds;
  parsed.time = seconds * k_ns_per_s + fraction_ns;
  parsed.length = pos;
  return parsed;
}

}  // namespace gapscan::parse
