#include <gapscan/parse/zone.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>

namespace gapscan::parse {
namespace {

std::int64_t read_be(const std::string& data, std::size_t at, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i)
    value = (value << 8) | static_cast<unsigned char>(data[at + static_cast<std::size_t>(i)]);
  if (bytes == 4) return static_cast<std::int32_t>(static_cast<std::uint32_t>(value));
  return static_cast<std::int64_t>(value);
}

/// Parses "+01:00", "-0700", "+5", "+5:30", "UTC"; nullopt otherwise.
std::optional<int> parse_offset(const std::string& text) {
  if (text.empty() || text == "UTC" || text == "Z" || text == "GMT") return 0;
  if (text.size() < 2 || (text[0] != '+' && text[0] != '-')) return std::nullopt;
  const std::string body = text.substr(1);
  auto digits = [](const std::string& part) {
    return !part.empty() && part.size() <= 2 && part.find_first_not_of("0123456789") == std::string::npos;
  };
  std::string hours, minutes = "0";
  if (const auto colon = body.find(':'); colon != std::string::npos) {
    hours = body.substr(0, colon);
    minutes = body.substr(colon + 1);
    if (minutes.size() != 2) return std::nullopt;
  } else if (body.size() == 4) {
    hours = body.substr(0, 2);
    minutes = body.substr(2);
  } else {
    hours = body;
  }
  if (!digits(hours) || !digits(minutes)) return std::nullopt;
  const int h = std::stoi(hours), m = std::stoi(minutes);
  if (h > 23 || m > 59) return std::nullopt;
  return (text[0] == '-' ? -1 : 1) * (h * 3600 + m * 60);
}

/// Reads a POSIX TZ offset or time "[+-]hh[:mm[:ss]]" at `at`; seconds, or nullopt.
std::optional<int> posix_seconds(const std::string& text, std::size_t& at) {
  int sign = 1;
  if (at < text.size() && (text[at] == '+' || text[at] == '-')) sign = text[at++] == '-' ? -1 : 1;
  int total = 0;
  for (int part = 0; part < 3; ++part) {
    if (part > 0) {
      if (at >= text.size() || text[at] != ':') break;
      ++at;
    }
    const std::size_t start = at;
    int value = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9' && at - start < 3)
      value = value * 10 + (text[at++] - '0');
    if (at == start) return std::nullopt;
    total += value * (part == 0 ? 3600 : part == 1 ? 60 : 1);
  }
  return sign * total;
}

/// Skips a zone abbreviation ("CET" or "<+03>").
bool skip_abbreviation(const std::string& text, std::size_t& at) {
  const std::size_t start = at;
  if (at < text.size() && text[at] == '<') {
    at = text.find('>', at);
    if (at == std::string::npos) return false;
    ++at;
    return true;
  }
  while (at < text.size() && ((text[at] >= 'A' && text[at] <= 'Z') || (text[at] >= 'a' && text[at] <= 'z'))) ++at;
  return at - start >= 3;
}

/// A POSIX TZ rule date: "Mm.w.d", "Jn" (1..365, no Feb 29) or "n" (0..365), with "/time".
struct RuleDate {
  char kind = 'M';
  int month = 0, week = 0, weekday = 0, day = 0;
  int time = 7200;

  /// The local seconds since the epoch at which the rule fires in `year`.
  std::int64_t local_seconds(std::int64_t year) const {
    std::int64_t days = 0;
    if (kind == 'M') {
      const std::int64_t first = days_from_civil(year, static_cast<unsigned>(month), 1);
      const int first_weekday = static_cast<int>(((first % 7) + 11) % 7);  // 1970-01-01 was a Thursday
      days = first + (weekday - first_weekday + 7) % 7 + static_cast<std::int64_t>(week - 1) * 7;
      const unsigned next_month = month == 12 ? 1U : static_cast<unsigned>(month) + 1;
      const std::int64_t end = days_from_civil(month == 12 ? year + 1 : year, next_month, 1);
      while (days >= end) days -= 7;  // week 5: the last such weekday
    } else {
      const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
      days = days_from_civil(year, 1, 1) + day - (kind == 'J' ? 1 : 0);
      if (kind == 'J' && leap && day >= 60) ++days;
    }
    return days * 86400 + time;
  }
};

std::optional<RuleDate> parse_rule_date(const std::string& text, std::size_t& at) {
  RuleDate date;
  auto number = [&](int& out) {
    const std::size_t start = at;
    out = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9' && at - start < 3)
      out = out * 10 + (text[at++] - '0');
    return at > start;
  };
  if (at < text.size() && text[at] == 'M') {
    ++at;
    if (!number(date.month) || at >= text.size() || text[at++] != '.' || !number(date.week) || at >= text.size() ||
        text[at++] != '.' || !number(date.weekday)) {
      return std::nullopt;
    }
    if (date.month < 1 || date.month > 12 || date.week < 1 || date.week > 5 || date.weekday > 6) return std::nullopt;
  } else {
    date.kind = at < text.size() && text[at] == 'J' ? 'J' : 'n';
    if (date.kind == 'J') ++at;
    if (!number(date.day) || date.day > 365) return std::nullopt;
  }
  if (at < text.size() && text[at] == '/') {
    ++at;
    const auto time = posix_seconds(text, at);
    if (!time) return std::nullopt;
    date.time = *time;
  }
  return date;
}

}  // namespace

void Zone::extend_with_rule(const std::string& rule, std::int64_t until_year) {
  // "CET-1CEST,M3.5.0,M10.5.0/3": std name, offset west of UTC, dst name [offset], start, end.
  std::size_t at = 0;
  if (!skip_abbreviation(rule, at)) return;
  const auto std_west = posix_seconds(rule, at);
  if (!std_west) return;
  const int std_offset = -*std_west;
  if (at == rule.size()) {  // no daylight saving time
    if (m_transitions.empty()) m_initial_offset = std_offset;
    return;
  }
  if (!skip_abbreviation(rule, at)) return;
  int dst_offset = std_offset + 3600;
  if (at < rule.size() && rule[at] != ',') {
    const auto dst_west = posix_seconds(rule, at);
    if (!dst_west) return;
    dst_offset = -*dst_west;
  }
  if (at >= rule.size() || rule[at++] != ',') return;
  const auto start = parse_rule_date(rule, at);
  if (!start || at >= rule.size() || rule[at++] != ',') return;
  const auto end = parse_rule_date(rule, at);
  if (!end || at != rule.size()) return;
  const std::int64_t last = m_transitions.empty() ? 0 : m_transitions.back();
  const std::int64_t first_year = year_of_day(last >= 0 ? last / 86400 : (last - 86399) / 86400);
  for (std::int64_t year = first_year; year <= until_year; ++year) {
    // The start is given in standard time, the end in daylight time.
    std::int64_t on = start->local_seconds(year) - std_offset;
    std::int64_t off = end->local_seconds(year) - dst_offset;
    std::pair<std::int64_t, int> changes[2] = {{on, dst_offset}, {off, std_offset}};
    if (off < on) std::swap(changes[0], changes[1]);
    for (const auto& [when, offset] : changes) {
      if (!m_transitions.empty() && when <= m_transitions.back()) continue;
      if (m_transitions.empty() && offset == m_initial_offset) continue;
      if (!m_offsets.empty() && m_offsets.back() == offset) continue;
      m_transitions.push_back(when);
      m_offsets.push_back(offset);
    }
  }
}

std::shared_ptr<const Zone> Zone::find(std::string_view name) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const Zone>, std::less<>> cache;
  const std::lock_guard lock(mutex);
  if (const auto it = cache.find(name); it != cache.end()) return it->second;
  auto loaded = load(std::string(name));
  auto zone = loaded ? std::make_shared<const Zone>(std::move(*loaded)) : nullptr;
  if (cache.size() < 1024) cache.emplace(std::string(name), zone);
  return zone;
}

std::size_t Zone::name_length(std::string_view text) {
  static constexpr std::string_view k_areas[] = {"Africa/", "America/",  "Antarctica/", "Arctic/",
                                                 "Asia/",   "Atlantic/", "Australia/",  "Europe/",
                                                 "Indian/", "Pacific/",  "Etc/"};
  bool area = false;
  for (std::string_view prefix : k_areas) area = area || text.starts_with(prefix);
  if (!area) return 0;
  std::size_t length = 0;
  while (length < text.size() && length < 64) {
    const char c = text[length];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' || c == '_' ||
          c == '-' || c == '+')) {
      break;
    }
    ++length;
  }
  return text[length - 1] == '/' ? 0 : length;
}

Zone Zone::fixed(int offset_seconds) {
  Zone zone;
  zone.m_initial_offset = offset_seconds;
  zone.m_name = offset_seconds == 0
                    ? "UTC"
                    : fmt::format("{:+03d}:{:02d}", offset_seconds / 3600, std::abs(offset_seconds) / 60 % 60);
  return zone;
}

Expected<Zone> Zone::load(const std::string& name) {
  if (const auto offset = parse_offset(name)) return fixed(*offset);
  const bool safe =
      !name.empty() && name.find("..") == std::string::npos && name[0] != '/' &&
      name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/_+-") == std::string::npos;
  if (!safe) return unexpected(make_error("", fmt::format("'{}' is not a time zone name", name)));
  const char* dir = std::getenv("TZDIR");
  const std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : "/usr/share/zoneinfo") + "/" + name;
  std::ifstream in(path, std::ios::binary);
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.size() < 44 || data.compare(0, 4, "TZif") != 0) {
    return unexpected(
        make_error("", fmt::format("unknown time zone '{}' (no zone file {})", name, path),
                   "give a name such as Europe/Berlin (package tzdata), UTC, or an offset such as +01:00"));
  }
  // Version 1 block, then (version 2+) the same with 64-bit times, which is what we read.
  auto counts = [&](std::size_t at, std::int64_t(&c)[6]) {
    for (int i = 0; i < 6; ++i) c[i] = read_be(data, at + 20 + static_cast<std::size_t>(i) * 4, 4);
  };
  std::int64_t c[6];
  counts(0, c);
  std::size_t block = 44;
  int time_size = 4;
  if (data[4] >= '2') {
    block = 44 + static_cast<std::size_t>(c[3] * 5 + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0]);
    if (block + 44 > data.size()) return unexpected(make_error(path, "damaged zone file"));
    counts(block, c);
    block += 44;
    time_size = 8;
  }
  const auto transitions = static_cast<std::size_t>(c[3]), types = static_cast<std::size_t>(c[4]);
  const std::size_t needed = block + transitions * static_cast<std::size_t>(time_size + 1) + types * 6;
  if (types == 0 || needed > data.size()) return unexpected(make_error(path, "damaged zone file"));
  Zone zone;
  zone.m_name = name;
  const std::size_t index_at = block + transitions * static_cast<std::size_t>(time_size);
  const std::size_t types_at = index_at + transitions;
  auto offset_of = [&](std::size_t type) { return static_cast<int>(read_be(data, types_at + type * 6, 4)); };
  // Before the first transition: the first non-DST type (RFC 8536 §3.2), else type 0.
  zone.m_initial_offset = offset_of(0);
  for (std::size_t t = 0; t < types; ++t) {
    if (data[types_at + t * 6 + 4] == 0) {
      zone.m_initial_offset = offset_of(t);
      break;
    }
  }
  for (std::size_t i = 0; i < transitions; ++i) {
    const auto type = static_cast<unsigned char>(data[index_at + i]);
    if (type >= types) return unexpected(make_error(path, "damaged zone file"));
    zone.m_transitions.push_back(read_be(data, block + i * static_cast<std::size_t>(time_size), time_size));
    zone.m_offsets.push_back(offset_of(type));
  }
  zone.read_abbreviations(data, types_at, types, static_cast<std::size_t>(c[5]), index_at, transitions);
  // Version 2+: the footer's POSIX TZ rule covers the times after the last transition (slim
  // zone files stop at the present); spell it out as transitions to the last year a stamp may name.
  if (time_size == 8) {
    const std::size_t footer = needed + static_cast<std::size_t>(c[5]) + static_cast<std::size_t>(c[2]) * 12 +
                               static_cast<std::size_t>(c[1]) + static_cast<std::size_t>(c[0]);
    if (footer < data.size() && data[footer] == '\n') {
      const std::size_t end = data.find('\n', footer + 1);
      if (end != std::string::npos) zone.extend_with_rule(data.substr(footer + 1, end - footer - 1), k_max_stamp_year);
    }
  }
  return zone;
}

void Zone::read_abbreviations(const std::string& data, std::size_t types_at, std::size_t types, std::size_t chars,
                              std::size_t index_at, std::size_t transitions) {
  // Abbreviations ("PST", "CEST") with the offset each stands for in this zone; where one was
  // used with several offsets over the years, the latest use wins.
  const std::size_t chars_at = types_at + types * 6;
  if (chars_at + chars > data.size()) return;
  const std::string_view all(data.data() + chars_at, chars);
  auto note = [&](std::size_t type) {
    const auto index = static_cast<unsigned char>(data[types_at + type * 6 + 5]);
    if (index >= chars) return;
    std::string_view abbreviation = all.substr(index);
    abbreviation = abbreviation.substr(0, abbreviation.find('\0'));
    if (abbreviation.empty() || abbreviation.front() == '+' || abbreviation.front() == '-') return;  // "+03"
    const int offset = static_cast<int>(read_be(data, types_at + type * 6, 4));
    for (auto& [known, known_offset] : m_abbreviations) {
      if (known == abbreviation) {
        known_offset = offset;
        return;
      }
    }
    m_abbreviations.emplace_back(abbreviation, offset);
  };
  for (std::size_t t = 0; t < types; ++t) {  // the type in force before the first transition
    if (data[types_at + t * 6 + 4] == 0) {
      note(t);
      break;
    }
  }
  for (std::size_t i = 0; i < transitions; ++i) note(static_cast<unsigned char>(data[index_at + i]));
}

std::optional<int> Zone::abbreviation_offset(std::string_view abbreviation) const {
  for (const auto& [known, offset] : m_abbreviations) {
    if (known == abbreviation) return offset;
  }
  return std::nullopt;
}

int Zone::offset_at(std::int64_t utc_seconds) const {
  const auto it = std::upper_bound(m_transitions.begin(), m_transitions.end(), utc_seconds);
  if (it == m_transitions.begin()) return m_initial_offset;
  return m_offsets[static_cast<std::size_t>(it - m_transitions.begin() - 1)];
}

TimeNs Zone::to_utc(TimeNs local, TimeNs previous) const {
  if (m_transitions.empty()) return local - static_cast<TimeNs>(m_initial_offset) * k_ns_per_s;
  const std::int64_t local_seconds = local >= 0 ? local / k_ns_per_s : (local - k_ns_per_s + 1) / k_ns_per_s;
  // The offsets in force a day either side are the only candidates.
  int candidates[2];
  int count = 0;
  for (std::int64_t probe : {local_seconds - 86400, local_seconds + 86400}) {
    const int offset = offset_at(probe);
    if (count == 0 || candidates[0] != offset) candidates[count++] = offset;
  }
  TimeNs chosen = INT64_MIN;
  TimeNs valid[2];
  int valid_count = 0;
  for (int i = 0; i < count; ++i) {
    if (offset_at(local_seconds - candidates[i]) == candidates[i]) {
      valid[valid_count++] = local - static_cast<TimeNs>(candidates[i]) * k_ns_per_s;
    }
  }
  if (valid_count == 0) {  // in the spring gap: the offset before the change
    return local - static_cast<TimeNs>(candidates[0]) * k_ns_per_s;
  }
  if (valid_count == 1) return valid[0];
  // Ambiguous (autumn): the candidate at or after the previous line, else the later one.
  const TimeNs early = std::min(valid[0], valid[1]), late = std::max(valid[0], valid[1]);
  chosen = previous != INT64_MIN && early >= previous ? early : (previous == INT64_MIN ? early : late);
  return chosen;
}

}  // namespace gapscan::parse
