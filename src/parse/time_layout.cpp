#include <gapscan/parse/time_layout.hpp>
#include <gapscan/parse/zone.hpp>

#include <fmt/format.h>

#include <cstring>

namespace gapscan::parse {
namespace {

inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }
inline bool is_alpha(char c) { return static_cast<unsigned char>((c | 0x20) - 'a') < 26; }

bool read_number(std::string_view text, std::size_t& pos, int min, int max, int& value) {
  int n = 0, v = 0;
  while (n < max && pos + static_cast<std::size_t>(n) < text.size() &&
         is_digit(text[pos + static_cast<std::size_t>(n)])) {
    v = v * 10 + (text[pos + static_cast<std::size_t>(n)] - '0');
    ++n;
  }
  if (n < min) return false;
  pos += static_cast<std::size_t>(n);
  value = v;
  return true;
}

constexpr std::string_view k_directives = "YymdeHkIMSfpbBaAzZsTF%";

}  // namespace

Expected<TimeLayout> TimeLayout::compile(std::string_view layout, const std::string& where) {
  TimeLayout result;
  result.m_text = std::string(layout);
  std::string literal;
  auto flush = [&] {
    if (!literal.empty()) result.m_tokens.push_back({0, literal});
    literal.clear();
  };
  for (std::size_t i = 0; i < layout.size(); ++i) {
    if (layout[i] != '%') {
      literal += layout[i];
      continue;
    }
    if (i + 1 >= layout.size()) {
      return unexpected(make_error(where, "time layout ends with a lone '%'", "write %% for a literal percent sign"));
    }
    const char d = layout[++i];
    if (k_directives.find(d) == std::string_view::npos) {
      return unexpected(make_error(where, fmt::format("unknown directive %{} in time layout '{}'", d, layout),
                                   "known: %Y %y %m %d %e %H %k %I %M %S %f %p %b %B %a %A %z %Z %s %T %F %%"));
    }
    if (d == '%') {
      literal += '%';
      continue;
    }
    flush();
    if (d == 'T') {
      result.m_tokens.push_back({'H', {}});
      result.m_tokens.push_back({0, ":"});
      result.m_tokens.push_back({'M', {}});
      result.m_tokens.push_back({0, ":"});
      result.m_tokens.push_back({'S', {}});
    } else if (d == 'F') {
      result.m_tokens.push_back({'Y', {}});
      result.m_tokens.push_back({0, "-"});
      result.m_tokens.push_back({'m', {}});
      result.m_tokens.push_back({0, "-"});
      result.m_tokens.push_back({'d', {}});
    } else {
      result.m_tokens.push_back({d, {}});
    }
  }
  flush();
  bool has_time = false;
  for (const Token& token : result.m_tokens)
    has_time |= token.directive == 'H' || token.directive == 'k' || token.directive == 'I' || token.directive == 's';
  if (!has_time) {
    return unexpected(
        make_error(where, fmt::format("time layout '{}' has no hour (%H, %k, %I) or epoch (%s)", layout)));
  }
  return result;
}

namespace {

/// %Z: UTC, GMT, an abbreviation such as PDT or CEST, or a zone identifier such as Europe/Berlin.
bool read_zone_field(std::string_view text, std::size_t& pos, StampFields& out) {
  if (text.substr(pos, 3) == "UTC" || text.substr(pos, 3) == "GMT") {
    pos += 3;
    out.has_zone = true;
    return true;
  }
  if (const std::size_t length = take_zone_abbreviation(text.substr(pos), out)) {
    pos += length;
    return true;
  }
  const std::size_t name = Zone::name_length(text.substr(pos));
  if (name == 0) return false;
  out.zone_name = text.substr(pos, name);
  pos += name;
  return true;
}

/// Digits of a fraction of a second (%f): nanoseconds from the first nine, `digits` how many
/// were written (at most 9; more are read and dropped); false when there is none.
bool read_fraction(std::string_view text, std::size_t& pos, std::int64_t& nanos, int& digits) {
  nanos = 0;
  digits = 0;
  while (pos < text.size() && is_digit(text[pos])) {
    if (digits < 9) {
      nanos = nanos * 10 + (text[pos] - '0');
      ++digits;
    }
    ++pos;
  }
  for (int i = digits; i < 9; ++i) nanos *= 10;
  return digits > 0;
}

/// A literal of the layout: a space matches one or more spaces or tabs, any other byte itself.
bool read_literal(std::string_view text, std::size_t& pos, std::string_view literal) {
  for (char c : literal) {
    if (c == ' ') {
      if (pos >= text.size() || (text[pos] != ' ' && text[pos] != '\t')) return false;
      while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
    } else {
      if (pos >= text.size() || text[pos] != c) return false;
      ++pos;
    }
  }
  return true;
}

/// %z: Z, or +hh[:]mm / -hh[:]mm (minutes optional).
bool read_offset_field(std::string_view text, std::size_t& pos, StampFields& out) {
  if (pos < text.size() && text[pos] == 'Z') {
    ++pos;
    out.has_zone = true;
    return true;
  }
  if (pos >= text.size() || (text[pos] != '+' && text[pos] != '-')) return false;
  const int sign = text[pos++] == '-' ? -1 : 1;
  int hours = 0, minutes = 0;
  if (!read_number(text, pos, 2, 2, hours)) return false;
  if (pos < text.size() && text[pos] == ':') ++pos;
  read_number(text, pos, 2, 2, minutes);
  out.has_zone = true;
  out.offset_seconds = sign * (hours * 3600 + minutes * 60);
  return true;
}

/// %p: AM or PM, any case.
bool read_meridiem(std::string_view text, std::size_t& pos, bool& pm) {
  if (pos + 2 > text.size()) return false;
  const char a = static_cast<char>(text[pos] | 0x20), m = static_cast<char>(text[pos + 1] | 0x20);
  if ((a != 'a' && a != 'p') || m != 'm') return false;
  pm = a == 'p';
  pos += 2;
  return true;
}

/// After every field: a 12-hour clock made 24-hour, and the fields in range.
bool complete_fields(StampFields& out, bool meridiem, bool pm) {
  if (meridiem) {
    if (out.hour < 1 || out.hour > 12) return false;
    if (pm && out.hour != 12) out.hour += 12;
    if (!pm && out.hour == 12) out.hour = 0;
  }
  if (!out.absolute && out.month >= 0 && (out.month < 1 || out.month > 12 || out.day < 1 || out.day > 31)) return false;
  return out.absolute || (out.hour <= 23 && out.minute <= 59);
}

/// %s: epoch seconds of any length, optional fraction: the layout says what it is.
bool read_epoch_field(std::string_view text, std::size_t& pos, StampFields& out) {
  std::int64_t seconds = 0;
  const std::size_t start = pos;
  while (pos < text.size() && is_digit(text[pos]) && pos - start < 12) seconds = seconds * 10 + (text[pos++] - '0');
  if (pos == start) return false;
  std::int64_t fraction = 0;
  int digits = 0;
  if (pos + 1 < text.size() && text[pos] == '.' && is_digit(text[pos + 1])) {
    ++pos;
    read_fraction(text, pos, fraction, digits);
  }
  out.absolute = true;
  out.has_zone = true;
  out.instant = to_time_ns(seconds, fraction);
  out.digits = static_cast<std::uint8_t>(digits);
  return true;
}

}  // namespace

bool TimeLayout::read(std::string_view text, StampFields& out) const {
  out = StampFields{};
  std::size_t pos = 0;
  bool pm = false, meridiem = false;
  for (const Token& token : m_tokens) {
    if (token.directive == 0) {
      if (!read_literal(text, pos, token.literal)) return false;
      continue;
    }
    int value = 0;
    switch (token.directive) {
      case 'Y':
        if (!read_number(text, pos, 4, 4, out.year)) return false;
        if (out.year < k_min_stamp_year || out.year > k_max_stamp_year) return false;
        break;
      case 'y':
        if (!read_number(text, pos, 2, 2, value)) return false;
        out.year = 2000 + value;
        break;
      case 'm':
        if (!read_number(text, pos, 1, 2, out.month)) return false;
        break;
      case 'd':
      case 'e':
        while (token.directive == 'e' && pos < text.size() && text[pos] == ' ') ++pos;
        if (!read_number(text, pos, 1, 2, out.day)) return false;
        break;
      case 'H':
      case 'k':
      case 'I':
        while (token.directive == 'k' && pos < text.size() && text[pos] == ' ') ++pos;
        if (!read_number(text, pos, 1, 2, out.hour)) return false;
        break;
      case 'M':
        if (!read_number(text, pos, 2, 2, out.minute)) return false;
        break;
      case 'S':
        if (!read_number(text, pos, 2, 2, out.second)) return false;
        break;
      case 'f': {
        int digits = 0;
        if (!read_fraction(text, pos, out.nanos, digits)) return false;
        out.digits = static_cast<std::uint8_t>(digits);
        break;
      }
      case 'p':
        if (!read_meridiem(text, pos, pm)) return false;
        meridiem = true;
        break;
      case 'b':
      case 'B': {
        std::size_t length = 0;
        out.month = read_month_name(text.substr(pos), length);
        if (out.month == 0) return false;
        pos += length;
        break;
      }
      case 'a':
      case 'A':
        while (pos < text.size() && is_alpha(text[pos])) ++pos;
        break;
      case 'z':
        if (!read_offset_field(text, pos, out)) return false;
        break;
      case 'Z':
        if (!read_zone_field(text, pos, out)) return false;
        break;
      case 's':
        if (!read_epoch_field(text, pos, out)) return false;
        break;
      default:
        return false;
    }
  }
  while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
  return pos == text.size() && complete_fields(out, meridiem, pm);
}

}  // namespace gapscan::parse
