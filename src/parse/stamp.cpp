// Timestamp families. Every reader works on bytes through a Cursor, accepts exactly the shapes
// listed in stamp.hpp, and leaves conversion to an instant to StampClock.

#include <gapscan/parse/stamp.hpp>
#include <gapscan/parse/zone.hpp>

#include <array>
#include <cstring>

namespace gapscan::parse {
namespace {

inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }
inline bool is_alpha(char c) { return static_cast<unsigned char>((c | 0x20) - 'a') < 26; }
inline char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

struct Cursor {
  std::string_view s;
  std::size_t p;

  char peek(std::size_t k = 0) const { return p + k < s.size() ? s[p + k] : '\0'; }
  bool eat(char c) {
    if (peek() != c) return false;
    ++p;
    return true;
  }
  bool eat(std::string_view text) {
    if (s.substr(p, text.size()) != text) return false;
    p += text.size();
    return true;
  }
  /// Reads between `min` and `max` digits; false (and nothing consumed) if fewer than `min`.
  bool number(int min, int max, int& value) {
    int n = 0, v = 0;
    while (n < max && is_digit(peek(static_cast<std::size_t>(n))))
      v = v * 10 + (peek(static_cast<std::size_t>(n++)) - '0');
    if (n < min) return false;
    p += static_cast<std::size_t>(n);
    value = v;
    return true;
  }
  /// Skips at least `min` spaces (or tabs); false if there are fewer.
  bool spaces(int min = 1) {
    int n = 0;
    while (peek() == ' ' || peek() == '\t') {
      ++p;
      ++n;
    }
    return n >= min;
  }
  bool at_word_end() const { return !is_alpha(peek()) && !is_digit(peek()); }
};

/// Fraction after the seconds: '.' or ',' and at least one digit; at most 9 digits count.
void read_fraction(Cursor& c, StampFields& out) {
  if ((c.peek() != '.' && c.peek() != ',') || !is_digit(c.peek(1))) return;
  ++c.p;
  std::int64_t value = 0;
  int digits = 0;
  while (is_digit(c.peek())) {
    if (digits < 9) {
      value = value * 10 + (c.peek() - '0');
      ++digits;
    }
    ++c.p;
  }
  static constexpr std::array<std::int64_t, 10> k_scale = {1000000000, 100000000, 10000000, 1000000, 100000,
                                                           10000,      1000,      100,      10,      1};
  out.nanos = value * k_scale[static_cast<std::size_t>(digits)];
  out.digits = static_cast<std::uint8_t>(digits);
}

/// " AM" / "PM" (any case, with or without a space) after a 12-hour time.
void read_meridiem(Cursor& c, StampFields& out) {
  Cursor t = c;
  t.spaces(0);
  const char a = lower(t.peek()), m = lower(t.peek(1));
  if ((a != 'a' && a != 'p') || m != 'm' || is_alpha(t.peek(2))) return;
  if (out.hour < 1 || out.hour > 12) return;
  if (a == 'p' && out.hour != 12) out.hour += 12;
  if (a == 'a' && out.hour == 12) out.hour = 0;
  t.p += 2;
  c = t;
}

/// H[H]:MM:SS[.frac] or H[H]:MM[ ]AM|PM. Hours above 23 are refused; minutes and seconds
/// up to 99 are accepted and normalised later (some loggers write 10:49:83).
bool read_time(Cursor& c, StampFields& out) {
  Cursor t = c;
  int hour = 0, minute = 0, second = 0;
  if (!t.number(1, 2, hour) || !t.eat(':') || !t.number(2, 2, minute) || hour > 23) return false;
  out.hour = hour;
  out.minute = minute;
  out.second = 0;
  if (t.peek() == ':' && is_digit(t.peek(1)) && is_digit(t.peek(2))) {
    ++t.p;
    t.number(2, 2, second);
    out.second = second;
    read_fraction(t, out);
    // Milliseconds after a third colon (Java's "HH:mm:ss:SSS", OpenAM's and some C++ loggers').
    if (out.digits == 0 && t.peek() == ':' && is_digit(t.peek(1)) && is_digit(t.peek(2)) && is_digit(t.peek(3)) &&
        !is_digit(t.peek(4))) {
      out.nanos = ((t.peek(1) - '0') * 100 + (t.peek(2) - '0') * 10 + (t.peek(3) - '0')) * k_ns_per_ms;
      out.digits = 3;
      t.p += 4;
    }
    read_meridiem(t, out);
  } else {
    Cursor m = t;
    read_meridiem(m, out);
    if (m.p == t.p) return false;  // HH:MM alone is too ambiguous to be a time
    t = m;
  }
  if (is_digit(t.peek())) return false;
  c = t;
  return true;
}

/// Optional zone: Z, ±HH[:MM], ±HHMM (directly or after one space), UTC or GMT.
void read_zone(Cursor& c, StampFields& out) {
  Cursor t = c;
  if (t.peek() == 'Z' && !is_alpha(t.peek(1))) {
    out.has_zone = true;
    c.p = t.p + 1;
    return;
  }
  const bool spaced = t.eat(' ');
  if (t.peek() == '+' || t.peek() == '-') {
    const int sign = t.peek() == '-' ? -1 : 1;
    ++t.p;
    int hours = 0, minutes = 0;
    if (!t.number(2, 2, hours)) return;
    if (t.eat(':')) {
      if (!t.number(2, 2, minutes)) return;
    } else if (!t.number(2, 2, minutes)) {
      if (spaced) return;  // " -07" alone is more likely text than an offset
    }
    if (is_digit(t.peek()) || hours > 23 || minutes > 59) return;
    out.has_zone = true;
    out.offset_seconds = sign * (hours * 3600 + minutes * 60);
    c = t;
    return;
  }
  if ((t.eat("UTC") || t.eat("GMT")) && !is_alpha(t.peek())) {
    out.has_zone = true;
    c = t;
    return;
  }
  // A zone abbreviation (date(1), syslog-ng, Java's SimpleDateFormat 'z'): "PDT", "CEST", "CST".
  if (const std::size_t length = take_zone_abbreviation(t.s.substr(std::min(t.p, t.s.size())), out)) {
    c.p = t.p + length;
    return;
  }
  // A zone identifier (PHP's error_log writes date.timezone: "[29-Nov-2026 21:03:04 Asia/Seoul]").
  const std::size_t name = Zone::name_length(t.s.substr(std::min(t.p, t.s.size())));
  if (name > 0) {
    out.zone_name = t.s.substr(t.p, name);
    c.p = t.p + name;
  }
}

struct ZoneAbbreviation {
  std::string_view name;
  int offset_minutes;
  bool ambiguous;
};

// Abbreviations in use in logs, with the offset each names. Where one names several offsets
// (CST: US Central -6 or China +8; IST: India, Ireland, Israel; AST: Atlantic or Arabia), only
// the input's zone can tell, and its zone file does (Zone::abbreviation_offset).
constexpr ZoneAbbreviation k_zone_abbreviations[] = {
    {"EST", -300, false}, {"EDT", -240, false}, {"CDT", -300, false},  {"MST", -420, false},  {"MDT", -360, false},
    {"PST", -480, false}, {"PDT", -420, false}, {"AKST", -540, false}, {"AKDT", -480, false}, {"HST", -600, false},
    {"NST", -210, false}, {"NDT", -150, false}, {"WET", 0, false},     {"WEST", 60, false},   {"BST", 60, false},
    {"CET", 60, false},   {"CEST", 120, false}, {"MET", 60, false},    {"MEST", 120, false},  {"EET", 120, false},
    {"EEST", 180, false}, {"MSK", 180, false},  {"SAST", 120, false},  {"CAT", 120, false},   {"EAT", 180, false},
    {"WAT", 60, false},   {"PKT", 300, false},  {"WIB", 420, false},   {"HKT", 480, false},   {"SGT", 480, false},
    {"AWST", 480, false}, {"JST", 540, false},  {"KST", 540, false},   {"ACST", 570, false},  {"ACDT", 630, false},
    {"AEST", 600, false}, {"AEDT", 660, false}, {"NZST", 720, false},  {"NZDT", 780, false},  {"CST", -360, true},
    {"IST", 330, true},   {"AST", -240, true},
};

bool valid_date(int month, int day) { return month >= 1 && month <= 12 && day >= 1 && day <= 31; }

// ---- month and weekday names ----------------------------------------------------------

/// Lower-cased letters of a name with accents folded (é è ê ë → e, û ü → u, ä → a, in
/// Latin-1 or UTF-8); stops at the first byte that is not a letter. Returns the bytes read.
std::size_t fold_word(std::string_view text, char* out, std::size_t max, std::size_t& letters) {
  std::size_t i = 0;
  letters = 0;
  while (i < text.size() && letters < max) {
    const auto c = static_cast<unsigned char>(text[i]);
    char folded = 0;
    std::size_t width = 1;
    if (is_alpha(static_cast<char>(c))) {
      folded = lower(static_cast<char>(c));
    } else if (c == 0xC3 && i + 1 < text.size()) {  // UTF-8 Latin-1 supplement
      const auto d = static_cast<unsigned char>(text[i + 1]);
      width = 2;
      if (d >= 0xA8 && d <= 0xAB)
        folded = 'e';
      else if (d >= 0x88 && d <= 0x8B)
        folded = 'e';
      else if (d >= 0xB9 && d <= 0xBC)
        folded = 'u';
      else if (d >= 0x99 && d <= 0x9C)
        folded = 'u';
      else if (d >= 0xA0 && d <= 0xA4)
        folded = 'a';
      else if (d >= 0x80 && d <= 0x84)
        folded = 'a';
      else if (d == 0xBB || d == 0xB4 || d == 0xB6)
        folded = 'o';
    } else if (c >= 0xE8 && c <= 0xEB) {  // Latin-1
      folded = 'e';
    } else if (c >= 0xF9 && c <= 0xFC) {
      folded = 'u';
    } else if (c >= 0xE0 && c <= 0xE4) {
      folded = 'a';
    }
    if (folded == 0) break;
    out[letters++] = folded;
    i += width;
  }
  return i;
}

struct MonthName {
  const char* name;
  int month;
};
constexpr MonthName k_month_names[] = {
    {"january", 1},
    {"february", 2},
    {"march", 3},
    {"april", 4},
    {"may", 5},
    {"june", 6},
    {"july", 7},
    {"august", 8},
    {"september", 9},
    {"october", 10},
    {"november", 11},
    {"december", 12},
    {"janvier", 1},
    {"fevrier", 2},
    {"mars", 3},
    {"avril", 4},
    {"mai", 5},
    {"juin", 6},
    {"juillet", 7},
    {"aout", 8},
    {"septembre", 9},
    {"octobre", 10},
    {"novembre", 11},
    {"decembre", 12},
    {"januar", 1},
    {"februar", 2},
    {"marz", 3},
    {"maerz", 3},
    {"juni", 6},
    {"juli", 7},
    {"oktober", 10},
    {"dezember", 12},
    // Spanish, Italian, Portuguese, Dutch and Polish (java.util.logging and others write the
    // locale's names: "kwi 21, 2017 4:45:51 PM")
    {"enero", 1},
    {"febrero", 2},
    {"marzo", 3},
    {"abril", 4},
    {"mayo", 5},
    {"junio", 6},
    {"julio", 7},
    {"agosto", 8},
    {"septiembre", 9},
    {"octubre", 10},
    {"noviembre", 11},
    {"diciembre", 12},
    {"gennaio", 1},
    {"febbraio", 2},
    {"aprile", 4},
    {"maggio", 5},
    {"giugno", 6},
    {"luglio", 7},
    {"settembre", 9},
    {"ottobre", 10},
    {"dicembre", 12},
    {"fevereiro", 2},
    {"marco", 3},
    {"maio", 5},
    {"junho", 6},
    {"julho", 7},
    {"setembro", 9},
    {"outubro", 10},
    {"dezembro", 12},
    {"januari", 1},
    {"februari", 2},
    {"maart", 3},
    {"mei", 5},
    {"augustus", 8},
    {"styczen", 1},
    {"luty", 2},
    {"marzec", 3},
    {"kwiecien", 4},
    {"maj", 5},
    {"czerwiec", 6},
    {"lipiec", 7},
    {"sierpien", 8},
    {"wrzesien", 9},
    {"pazdziernik", 10},
    {"listopad", 11},
    {"grudzien", 12},
};

constexpr const char* k_weekdays[] = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};

bool read_weekday(Cursor& c) {
  char word[12];
  std::size_t letters = 0;
  const std::size_t bytes = fold_word(c.s.substr(c.p), word, sizeof word, letters);
  if (letters < 3) return false;
  for (const char* day : k_weekdays) {
    const std::size_t full = std::strlen(day);
    if ((letters == 3 || letters == full) && std::strncmp(day, word, letters) == 0) {
      c.p += bytes;
      return true;
    }
  }
  return false;
}

bool read_month(Cursor& c, int& month) {
  std::size_t length = 0;
  month = read_month_name(c.s.substr(c.p), length);
  if (month == 0) return false;
  c.p += length;
  return true;
}

// ---- families ---------------------------------------------------------------------------

std::size_t scan_ymd(Cursor c, StampFields& out) {
  const std::size_t start = c.p;
  int year = 0, month = 0, day = 0;
  if (!c.number(4, 4, year)) return 0;
  const char sep = c.peek();
  if (sep != '-' && sep != '/' && sep != '.' && sep != ':') return 0;
  ++c.p;
  if (sep == '-' && is_digit(c.peek(2)) && !is_digit(c.peek(3))) {  // day of the year: 2026-339 12:00:00
    int ordinal = 0;
    c.number(3, 3, ordinal);
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    if (ordinal < 1 || ordinal > (leap ? 366 : 365)) return 0;
    static constexpr std::array<int, 13> k_before = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365};
    month = 1;
    while (month < 12 && ordinal > k_before[static_cast<std::size_t>(month)] + (leap && month >= 2 ? 1 : 0)) ++month;
    day = ordinal - k_before[static_cast<std::size_t>(month - 1)] - (leap && month > 2 ? 1 : 0);
  } else if (!c.number(1, 2, month) || !c.eat(sep) || !c.number(1, 2, day) || !valid_date(month, day)) {
    return 0;
  }
  // Between date and time: T, blanks, a tab, " - ", or '-' (never '_': file names carry stamps).
  if (!c.eat('T') && !c.eat(" - ") && !c.spaces() && !(sep != '-' && c.eat('-'))) return 0;
  if (!read_time(c, out)) return 0;
  read_zone(c, out);
  out.year = year;
  out.month = month;
  out.day = day;
  return c.p - start;
}

std::size_t scan_month_name(Cursor c, StampFields& out) {
  const std::size_t start = c.p;
  Cursor weekday = c;
  if (read_weekday(weekday)) {
    weekday.eat(',');
    if (!weekday.spaces()) return 0;
    c = weekday;
  }
  int month = 0, day = 0, year = -1;
  if (is_digit(c.peek())) {  // RFC 1123: 14 Oct 2021 15:24:12; Redis 3 and older: 30 May 12:23:52.442
    if (!c.number(1, 2, day) || !c.spaces() || !read_month(c, month) || !c.spaces()) return 0;
    Cursor with_year = c;
    int y = 0;
    if (with_year.number(4, 4, y) && with_year.spaces()) {
      year = y;
      c = with_year;
    }
  } else {
    if (!read_month(c, month)) return 0;
    if (c.eat('-')) {  // Apr-07-13 07:08:36
      if (!c.number(2, 2, day) || !c.eat('-')) return 0;
      int short_year = 0;
      const std::size_t before = c.p;
      if (!c.number(2, 4, short_year)) return 0;
      year = c.p - before == 2 ? 2000 + short_year : short_year;
      if (!c.spaces()) return 0;
    } else {
      if (!c.spaces() || !c.number(1, 2, day)) return 0;
      c.eat(',');
      if (!c.spaces()) return 0;
      Cursor with_year = c;  // Oct 27 2015 09:24:46
      int y = 0;
      if (with_year.number(4, 4, y) && with_year.spaces()) {
        year = y;
        c = with_year;
      }
    }
  }
  if (!valid_date(month, day) || !read_time(c, out)) return 0;
  if (year < 0) {  // ctime: Sun Nov 29 21:03:04 2026
    Cursor with_year = c;
    int y = 0;
    if (with_year.spaces() && with_year.number(4, 4, y) && !is_digit(with_year.peek())) {
      year = y;
      c = with_year;
    }
  }
  read_zone(c, out);
  if (year < 0) {  // date(1), MediaWiki's DB error log: Sun Nov 9 9:28:45 UTC 2025, … CET 2025
    Cursor with_year = c;
    if (!out.has_zone && out.zone_abbreviation.empty() && with_year.spaces()) {
      const std::size_t letters = with_year.p;
      while (with_year.peek() >= 'A' && with_year.peek() <= 'Z' && with_year.p - letters < 6) ++with_year.p;
      if (with_year.p - letters < 3) with_year.p = c.s.size();  // no abbreviation: no year either
    }
    int y = 0;
    if (with_year.p < c.s.size() && with_year.spaces() && with_year.number(4, 4, y) && !is_digit(with_year.peek())) {
      year = y;
      c = with_year;
    }
  }
  out.year = year;
  out.month = month;
  out.day = day;
  return c.p - start;
}

std::size_t scan_epoch(Cursor c, StampFields& out) {
  const std::size_t start = c.p;
  if (start > 0 && is_digit(c.s[start - 1])) return 0;
  std::int64_t value = 0;
  int digits = 0;
  while (is_digit(c.peek()) && digits < 14) {
    value = value * 10 + (c.peek() - '0');
    ++digits;
    ++c.p;
  }
  if (is_digit(c.peek())) return 0;
  if (digits == 10) {
    if (value < 946684800 || value > 4102444800) return 0;  // 2000 to 2100
    StampFields fraction;
    read_fraction(c, fraction);
    out.instant = value * k_ns_per_s + fraction.nanos;
    out.digits = fraction.digits;
  } else if (digits == 13) {
    if (value < 946684800000 || value > 4102444800000) return 0;
    out.instant = value * k_ns_per_ms;
    out.digits = 3;
  } else {
    return 0;
  }
  out.absolute = true;
  out.has_zone = true;
  return c.p - start;
}

std::size_t scan_clf(Cursor c, StampFields& out) {
  const std::size_t start = c.p;
  int day = 0, month = 0, year = 0;
  if (!c.number(1, 2, day)) return 0;
  const char sep = c.peek();
  if (sep != '/' && sep != '-') return 0;
  ++c.p;
  if (!read_month(c, month) || !c.eat(sep) || !c.number(4, 4, year) || !valid_date(month, day)) return 0;
  if (!c.eat("::") && !c.eat(':') && !c.spaces()) return 0;  // "::": Erlang's SASL reports (4-Sep-2017::17:14:09)
  if (!read_time(c, out)) return 0;
  read_zone(c, out);
  out.year = year;
  out.month = month;
  out.day = day;
  return c.p - start;
}

std::size_t scan_month_day(Cursor c, StampFields& out) {
  const std::size_t start = c.p;
  int month = 0, day = 0;
  if (is_digit(c.peek(2)) && c.number(4, 4, month)) {  // glog: MMDD hh:mm:ss.uuuuuu
    day = month % 100;
    month /= 100;
  } else {
    if (!c.number(2, 2, month)) return 0;
    const bool slash = c.eat('/');  // Snort's alerts: 06/11-15:38:03.670923
    if (!slash && !c.eat('-') && !c.eat('.')) return 0;
    if (!c.number(2, 2, day)) return 0;
    if (slash && !c.eat('-')) return 0;
    if (slash) {
      if (!valid_date(month, day) || !read_time(c, out)) return 0;
      out.month = month;
      out.day = day;
      return c.p - start;
    }
  }
  if (!valid_date(month, day) || !c.spaces() || !read_time(c, out)) return 0;
  out.month = month;
  out.day = day;
  return c.p - start;
}

std::size_t scan_time_only(Cursor c, StampFields& out) {
  const std::size_t start = c.p;
  if (start > 0 && (is_digit(c.s[start - 1]) || c.s[start - 1] == ':')) return 0;
  if (!read_time(c, out)) return 0;
  out.month = out.day = -1;
  return c.p - start;
}

std::size_t scan_compact(Cursor c, StampFields& out) {
  const std::size_t start = c.p;
  int date = 0;
  Cursor t = c;
  if (t.number(8, 8, date) && t.eat('-')) {  // 20171223-22:15:35:11 (HealthApp: last field in whole ms)
    int hour = 0, minute = 0, second = 0, millis = 0;
    if (!t.number(1, 2, hour) || !t.eat(':') || !t.number(1, 2, minute) || !t.eat(':') || !t.number(1, 2, second) ||
        !t.eat(':') || !t.number(1, 3, millis) || is_digit(t.peek())) {
      return 0;
    }
    const int year = date / 10000, month = date / 100 % 100, day = date % 100;
    if (!valid_date(month, day) || hour > 23) return 0;
    out.year = year;
    out.month = month;
    out.day = day;
    out.hour = hour;
    out.minute = minute;
    out.second = second;
    out.nanos = millis * k_ns_per_ms;
    out.digits = 3;
    return t.p - start;
  }
  if (!c.number(6, 6, date) || !c.spaces()) return 0;
  const int year = 2000 + date / 10000, month = date / 100 % 100, day = date % 100;
  if (!valid_date(month, day)) return 0;
  int clock = 0;
  Cursor six = c;
  if (six.number(6, 6, clock) && !is_digit(six.peek())) {  // 081109 203615
    out.hour = clock / 10000;
    out.minute = clock / 100 % 100;
    out.second = clock % 100;
    if (out.hour > 23) return 0;
    c = six;
  } else if (!read_time(c, out)) {  // 130324  0:04:00
    return 0;
  }
  out.year = year;
  out.month = month;
  out.day = day;
  return c.p - start;
}

std::size_t scan_numeric(Cursor c, StampFields& out, NumericOrder order) {
  const std::size_t start = c.p;
  int a = 0, b = 0, year = 0;
  if (!c.number(1, 2, a)) return 0;
  const char sep = c.peek();
  if (sep != '/' && sep != '-' && sep != '.') return 0;
  ++c.p;
  if (!c.number(1, 2, b) || !c.eat(sep)) return 0;
  const std::size_t before = c.p;
  if (!c.number(2, 4, year) || c.p - before == 3) return 0;
  const bool short_year = c.p - before == 2;
  int month = 0, day = 0;
  switch (order) {
    case NumericOrder::month_day_year:
      month = a, day = b;
      break;
    case NumericOrder::day_month_year:
      day = a, month = b;
      break;
    case NumericOrder::year_month_day:
      if (!short_year || year > 31) return 0;
      day = year, month = b, year = a;
      break;
  }
  if (short_year || order == NumericOrder::year_month_day) year += 2000;
  if (!valid_date(month, day)) return 0;
  // Between date and time: blanks, ':', '-' or ", ".
  if (!c.eat(", ") && !c.eat(" - ") && !c.spaces() && !c.eat(':') && !c.eat('-')) return 0;
  if (!read_time(c, out)) return 0;
  read_zone(c, out);
  out.year = year;
  out.month = month;
  out.day = day;
  return c.p - start;
}

int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  const char l = lower(c);
  return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
}

std::size_t scan_tai64n(Cursor c, StampFields& out) {
  const std::size_t start = c.p;
  if (!c.eat('@')) return 0;
  std::uint64_t label = 0, nanos = 0;
  for (int i = 0; i < 24; ++i) {
    const int v = hex_value(c.peek());
    if (v < 0) return 0;
    if (i < 16)
      label = label * 16 + static_cast<std::uint64_t>(v);
    else
      nanos = nanos * 16 + static_cast<std::uint64_t>(v);
    ++c.p;
  }
  if (label < (std::uint64_t{1} << 62)) return 0;
  out.absolute = true;
  out.has_zone = true;
  // The label less 2^62, as fail2ban and most readers take it. libtai's tai_now() (multilog)
  // writes 2^62 + 10 + the Unix time, so such stamps read 10 s late: the gaps are unchanged.
  out.instant =
      to_time_ns(static_cast<std::int64_t>(label - (std::uint64_t{1} << 62)), static_cast<TimeNs>(nanos % k_ns_per_s));
  out.digits = 9;
  return c.p - start;
}

/// Seconds since boot or since the process started, an instant near 1970 that keeps the gaps
/// right: after a leading '[', dmesg's and journalctl -o short-monotonic's "[ 1234.567890]"
/// and the JVM's unified logging decorations "[0.512s]" (uptime), "[512ms]" (uptimemillis),
/// "[512345678ns]" (uptimenanos); after a field "[003] " (the CPU) or a pid, perf script's
/// "12345.678901: ".
std::size_t scan_uptime(Cursor c, StampFields& out) {
  const std::size_t start = c.p;
  const bool bracketed = start > 0 && c.s[start - 1] == '[';
  if (bracketed) c.spaces(0);
  const std::size_t digits_at = c.p;
  std::int64_t value = 0;
  while (is_digit(c.peek()) && c.p - digits_at < 18) value = value * 10 + (c.s[c.p++] - '0');
  if (c.p == digits_at || is_digit(c.peek())) return 0;
  if (c.p - digits_at > 10 && c.s.substr(c.p, 3) != "ns]") return 0;  // only nanoseconds run that long
  StampFields fraction;
  if (c.peek() == '.' && is_digit(c.peek(1))) read_fraction(c, fraction);
  out.absolute = true;
  out.has_zone = true;
  if (!bracketed && start == 0) {  // JDK 8's -XX:+PrintGCTimeStamps: "0.486: [GC (Allocation Failure) …"
    if (fraction.digits != 3 || !c.eat(": ") || c.peek() != '[') return 0;
    out.instant = to_time_ns(value, fraction.nanos);
    out.digits = 3;
    return c.p - start - 1;
  }
  if (!bracketed) {  // perf script: "<comm> <pid> [<cpu>] <s.µs>: "
    if (fraction.digits < 6 || !c.eat(':') || c.peek() != ' ' || start < 3 || c.s[start - 1] != ' ') return 0;
    std::size_t before = start - 1;
    const bool cpu = c.s[before - 1] == ']';
    if (cpu) --before;
    std::size_t digits = before;
    while (digits > 0 && is_digit(c.s[digits - 1])) --digits;
    if (digits == before || digits == 0 || (cpu ? c.s[digits - 1] != '[' : c.s[digits - 1] != ' ')) return 0;
    out.instant = to_time_ns(value, fraction.nanos);
    out.digits = fraction.digits;
    return c.p - start;
  }
  if (fraction.digits > 0 && c.eat(']')) {  // dmesg
    out.instant = to_time_ns(value, fraction.nanos);
    out.digits = fraction.digits;
    return c.p - start;
  }
  if (fraction.digits > 0 && c.eat("s]")) {  // JVM uptime, "%.3fs"
    out.instant = to_time_ns(value, fraction.nanos);
    out.digits = fraction.digits;
    return c.p - start;
  }
  if (fraction.digits == 0 && c.eat("ms]")) {
    out.instant = value * k_ns_per_ms;
    out.digits = 3;
    return c.p - start;
  }
  if (fraction.digits == 0 && c.eat("ns]")) {
    out.instant = value;
    out.digits = 9;
    return c.p - start;
  }
  return 0;
}

std::size_t scan_epoch_long(Cursor c, StampFields& out) {
  const std::size_t start = c.p;
  std::int64_t value = 0;
  int digits = 0;
  while (is_digit(c.peek()) && digits < 19) {  // 19 digits fit in int64; a 20th refuses the number below
    value = value * 10 + (c.peek() - '0');
    ++digits;
    ++c.p;
  }
  if (is_digit(c.peek())) return 0;
  if (digits == 16) {
    if (value < 946684800000000 || value > 4102444800000000) return 0;
    out.instant = value * k_ns_per_us;
    out.digits = 6;
  } else if (digits == 19) {
    if (value < 946684800000000000 || value > 4102444800000000000) return 0;
    out.instant = value;
    out.digits = 9;
  } else {
    return 0;
  }
  out.absolute = true;
  out.has_zone = true;
  return c.p - start;
}

std::size_t scan_family(StampFamily family, const Cursor& c, StampFields& out, NumericOrder order) {
  switch (family) {
    case StampFamily::ymd:
      return scan_ymd(c, out);
    case StampFamily::month_name:
      return scan_month_name(c, out);
    case StampFamily::epoch:
      return scan_epoch(c, out);
    case StampFamily::clf:
      return scan_clf(c, out);
    case StampFamily::month_day:
      return scan_month_day(c, out);
    case StampFamily::time_only:
      return scan_time_only(c, out);
    case StampFamily::compact:
      return scan_compact(c, out);
    case StampFamily::numeric:
      return scan_numeric(c, out, order);
    case StampFamily::tai64n:
      return scan_tai64n(c, out);
    case StampFamily::uptime:
      return scan_uptime(c, out);
    case StampFamily::epoch_long:
      return scan_epoch_long(c, out);
  }
  return 0;
}

}  // namespace

std::size_t read_zone_abbreviation(std::string_view text, int& offset_seconds, bool& ambiguous) {
  std::size_t length = 0;
  while (length < text.size() && length < 6 && text[length] >= 'A' && text[length] <= 'Z') ++length;
  if (length < 3 || length > 4 || (length < text.size() && is_alpha(text[length]))) return 0;
  for (const ZoneAbbreviation& known : k_zone_abbreviations) {
    if (known.name == text.substr(0, length)) {
      offset_seconds = known.offset_minutes * 60;
      ambiguous = known.ambiguous;
      return length;
    }
  }
  return 0;
}

std::size_t take_zone_abbreviation(std::string_view text, StampFields& out) {
  int offset = 0;
  bool ambiguous = false;
  const std::size_t length = read_zone_abbreviation(text, offset, ambiguous);
  if (length == 0) return 0;
  out.zone_abbreviation = text.substr(0, length);
  if (!ambiguous) {
    out.has_zone = true;
    out.offset_seconds = offset;
  }
  return length;
}

int read_month_name(std::string_view text, std::size_t& length) {
  char word[12];
  std::size_t letters = 0;
  const std::size_t bytes = fold_word(text, word, sizeof word, letters);
  if (letters < 2) return 0;
  int found = 0;
  for (const MonthName& name : k_month_names) {
    if (std::strlen(name.name) >= letters && std::strncmp(name.name, word, letters) == 0) {
      if (found != 0 && found != name.month) return 0;  // ambiguous prefix (ju, ma)
      found = name.month;
    }
  }
  if (found == 0) return 0;
  length = bytes;
  if (length < text.size() && text[length] == '.') ++length;
  return found;
}

std::string_view to_string(StampFamily family) {
  switch (family) {
    case StampFamily::ymd:
      return "ymd";
    case StampFamily::month_name:
      return "month-name";
    case StampFamily::epoch:
      return "epoch";
    case StampFamily::clf:
      return "clf";
    case StampFamily::month_day:
      return "month-day";
    case StampFamily::time_only:
      return "time";
    case StampFamily::compact:
      return "compact";
    case StampFamily::numeric:
      return "numeric";
    case StampFamily::tai64n:
      return "tai64n";
    case StampFamily::uptime:
      return "uptime";
    case StampFamily::epoch_long:
      return "epoch-long";
  }
  return "?";
}

std::size_t scan_stamp(StampFamily family, std::string_view line, std::size_t pos, StampFields& out,
                       NumericOrder order) {
  if (pos >= line.size()) return 0;
  out = StampFields{};
  const Cursor c{line, pos};
  const std::size_t length = scan_family(family, c, out, order);
  // A written year outside the range of real logs is not a time (and would not fit in TimeNs).
  if (length > 0 && out.year >= 0 && (out.year < k_min_stamp_year || out.year > k_max_stamp_year)) return 0;
  return length;
}

}  // namespace gapscan::parse
