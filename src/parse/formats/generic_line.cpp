// Generic timestamped lines: any line whose time is one of the stamp families (stamp.hpp) at
// one of the anchors (anchor.hpp). The layout is learnt from the input's first lines:
//   1. every family is tried at every anchor of every sample line (except blank and '#'
//      lines); a stamp lying inside a longer one on the same line is dropped;
//   2. each (family, anchor) gets one vote per line where it reads a stamp;
//   3. they are ranked by votes, then by how much the key names a time (time, timestamp,
//      ts, …), then by the smaller mean offset; JSON and key=value anchors come first when
//      most sample lines are JSON;
//   4. each line tries the ranked list, then any family at the line start, after a leading
//      '[', after a glued tag, under a JSON or key=value key or after an RFC 5424 header.
// The year of yearless stamps comes from the first sample line whose stamp has one.
// Group key: a request id (reqId=, request_id=, trace_id=, or the same JSON keys), else the
// syslog tag "program[pid]".

#include "formats.hpp"

#include <gapscan/parse/anchor.hpp>
#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/stamp.hpp>
#include <gapscan/parse/stamp_clock.hpp>
#include <gapscan/parse/statement.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace gapscan::parse::formats {
namespace {

constexpr std::size_t k_ranked = 8;
constexpr std::array<StampFamily, k_stamp_families> k_families = {
    StampFamily::ymd,       StampFamily::month_name, StampFamily::epoch,     StampFamily::clf,
    StampFamily::month_day, StampFamily::time_only,  StampFamily::compact,   StampFamily::numeric,
    StampFamily::tai64n,    StampFamily::uptime,     StampFamily::epoch_long};

/// Long epochs (µs, ns) look like ids: they are read only at the start of the line (or of
/// a bracket there) or under a key that says time.
bool admissible(StampFamily family, const Anchor& anchor) {
  if (family == StampFamily::epoch_long) {
    return anchor.kind == AnchorKind::line_start || anchor.kind == AnchorKind::after_bracket ||
           (anchor.keyed() && time_key_rank(anchor.key) < 100);
  }
  if (family == StampFamily::uptime) {
    return anchor.kind == AnchorKind::after_bracket || anchor.kind == AnchorKind::field ||
           anchor.kind == AnchorKind::line_start;
  }
  return true;
}

bool is_comment(std::string_view line) { return !line.empty() && line[0] == '#'; }

bool is_blank_line(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

/// "prog[1234]" of a syslog-style tag after the stamp, or empty.
std::string_view syslog_tag(std::string_view rest) {
  const std::size_t colon = rest.find("]:");
  if (colon == std::string_view::npos || colon > 80) return {};
  const std::size_t open = rest.rfind('[', colon);
  if (open == std::string_view::npos || open + 1 >= colon) return {};
  for (std::size_t i = open + 1; i < colon; ++i) {
    if (rest[i] < '0' || rest[i] > '9') return {};
  }
  std::size_t start = open;
  while (start > 0 && rest[start - 1] != ' ') --start;
  if (start == open) return {};
  return rest.substr(start, colon + 1 - start);
}

inline bool all_digits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

/// A process or connection key where the layout has one: strace -f ("[pid 1234] …" or
/// "1234 <time> …"), Redis ("1234:M <time> …"), PostgreSQL ("<time> [1234] …") and nginx's
/// error log ("[error] 1234#0: *57 …", by connection).
std::string_view process_key(std::string_view line, std::string_view message, std::string& scratch) {
  if (line.starts_with("[pid ")) {  // strace pads the pid: "[pid  4242]"
    const std::size_t close = line.find(']');
    std::size_t digits = 5;
    while (digits < line.size() && line[digits] == ' ') ++digits;
    if (close != std::string_view::npos && close > digits && all_digits(line.substr(digits, close - digits))) {
      return line.substr(1, close - 1);
    }
  }
  const std::size_t space = line.find(' ');
  if (space != std::string_view::npos && space > 0 && space <= 10) {
    const std::string_view first = line.substr(0, space);
    if (all_digits(first) && first.size() <= 7 && message.data() > line.data() + space) return first;
    const std::size_t colon = first.find(':');
    if (colon != std::string_view::npos && colon + 2 == first.size() && all_digits(first.substr(0, colon)))
      return first;
  }
  // PHP-FPM: the slow log's "[pool www] pid 4242" and the master's "[pool www] child 4242, …"
  // or "child 4242 exited …": the same key as the worker output the envelope unwraps.
  if (const std::size_t pool = message.substr(0, 30).find("[pool "); pool != std::string_view::npos) {
    const std::size_t close = message.find("] ", pool);
    if (close != std::string_view::npos) {
      std::size_t at = close + 2;
      std::string_view rest = message.substr(at);
      const bool pid = rest.starts_with("pid "), child = rest.starts_with("child ");
      if (pid || child) {
        at += pid ? 4 : 6;
        std::size_t end = at;
        while (end < message.size() && message[end] >= '0' && message[end] <= '9') ++end;
        if (end > at && child) return message.substr(at - 6, end - at + 6);
        if (end > at) {
          scratch.assign("child ").append(message.substr(at, end - at));
          return scratch;
        }
      }
    }
  }
  // Apache 2.4's error log: "[module:level] [pid 1234:tid 140245123456768] …".
  if (const std::size_t pid = message.substr(0, 54).find("[pid "); pid != std::string_view::npos) {
    const std::size_t close = message.find(']', pid);
    if (close != std::string_view::npos && close < pid + 48) return message.substr(pid + 1, close - pid - 1);
  }
  if (message.starts_with('[')) {
    const std::size_t close = message.find(']');
    if (close != std::string_view::npos && close > 1 && all_digits(message.substr(1, close - 1))) {
      return message.substr(0, close + 1);
    }
    // nginx: [level] pid#tid: *connection
    const std::size_t hash = message.find('#', close);
    if (close != std::string_view::npos && hash != std::string_view::npos && hash < close + 12) {
      const std::size_t star = message.find(": *", hash);
      if (star != std::string_view::npos && star < hash + 8) {
        std::size_t end = star + 3;
        while (end < message.size() && message[end] >= '0' && message[end] <= '9') ++end;
        if (end > star + 3) return message.substr(star + 2, end - star - 2);
      }
    }
  }
  return {};
}

/// PHP-FPM's worker output without decoration (decorate_workers_output = no): PHP's messages
/// through the SAPI logger, "NOTICE: PHP message: …", which carry no time.
bool is_fpm_worker_message(std::string_view line) {
  for (std::string_view level : {"NOTICE: ", "WARNING: ", "ERROR: ", "DEBUG: ", "ALERT: "}) {
    if (line.starts_with(level)) return line.substr(level.size()).starts_with("PHP message: ");
  }
  return false;
}

/// MediaWiki's exception and error messages start with "[<reqId>] <url>   …"; in a
/// LegacyLogger group file: "<time> <host> <wiki>: [<reqId>] …".
std::string_view bracketed_request_id(std::string_view message) {
  const std::size_t open = message.substr(0, 84).find(": [");
  if (open == std::string_view::npos) return {};
  const std::size_t start = open + 3;
  std::size_t end = start;
  bool digit = false;
  while (end < message.size() && end - start <= 40) {
    const char c = message[end];
    if (c >= '0' && c <= '9') {
      digit = true;
    } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '@' || c == '_')) {
      break;
    }
    ++end;
  }
  if (!digit || end - start < 16 || end - start > 40 || message.substr(end, 2) != "] ") return {};
  return message.substr(start, end - start);
}

/// A request id in brackets near the start of a message, as tagged loggers write it (Rails'
/// `log_tags = [:request_id]`: "INFO [4f2a…-…] Started GET …", log4j's `[%X{requestId}]`): a
/// UUID or 16 to 64 hex digits (in groups split by '-'), so that a thread's name in brackets
/// (`[http-nio-8080-exec-2]`) is never taken for one.
std::string_view bracketed_hex_id(std::string_view message) {
  std::size_t pos = 0;
  const std::string_view head = message.substr(0, 100);
  while ((pos = head.find('[', pos)) != std::string_view::npos) {
    const std::size_t start = ++pos;
    std::size_t end = start, digits = 0;
    while (end < message.size() && end - start <= 64) {
      const char c = message[end];
      if (std::isxdigit(static_cast<unsigned char>(c)) != 0) {
        ++digits;
      } else if (c != '-' || end == start) {
        break;
      }
      ++end;
    }
    if (end < message.size() && message[end] == ']' && digits >= 16 && digits <= 64 && message[end - 1] != '-')
      return message.substr(start, end - start);
  }
  return {};
}

std::string_view request_id(std::string_view line) {
  std::string_view id = find_request_id_pair(line);
  if (!id.empty()) return id;
  if (line.find('{') != std::string_view::npos) {
    for (std::string_view key :
         {"reqId", "request_id", "requestId", "req_id", "req", "correlation_id", "trace_id", "traceId", "txn",
          "transaction_id", "conn", "connection_id", "session_id", "span_id"}) {
      id = json_string_field(line, key);
      if (!id.empty() && id.find_first_of(" \t") == std::string_view::npos) return id;
    }
    for (std::string_view key : {"_PID", "pid", "process_id", "thread", "tid"}) {  // journald, bunyan, …
      id = json_path_value(line, key);
      if (!id.empty()) return id;
    }
  }
  return {};
}

class GenericLineParser final : public LineParser {
 public:
  void learn(const std::vector<std::string>& sample, const TimeSettings& settings) override {
    m_ranked.clear();
    m_default_year = settings.default_year;
    m_zone = settings.zone;
    m_default_day = settings.default_day;
    m_clock = StampClock(0, m_default_year);
    m_clock.set_zone(m_zone);
    m_clock.set_default_day(m_default_day);
    std::vector<std::string_view> lines;
    for (const std::string& line : sample) {
      if (!is_blank_line(line) && !is_comment(line)) lines.emplace_back(line);
    }
    choose_numeric_order(lines);
    m_group_key = learn_group_key(lines);

    struct Tally {
      StampFamily family;
      Anchor anchor;
      int votes = 0;
      double offsets = 0;
      std::size_t last_line = SIZE_MAX;  // one vote per line
    };
    std::vector<Tally> tallies;
    std::size_t json_lines = 0;
    struct Candidate {
      StampFamily family;
      const AnchorHit* hit;
      std::size_t end;
    };
    std::vector<Candidate> found;
    StampFields fields;
    for (std::size_t index = 0; index < lines.size(); ++index) {
      const std::string_view line = lines[index];
      if (line.find('{') != std::string_view::npos && line.find('"') != std::string_view::npos) ++json_lines;
      enumerate_anchors(line, m_hits);
      found.clear();
      for (const AnchorHit& hit : m_hits) {
        for (StampFamily family : k_families) {
          if (!admissible(family, hit.anchor)) continue;
          const std::size_t length = scan_stamp(family, line, hit.pos, fields, m_order);
          if (length > 0) found.push_back({family, &hit, hit.pos + length});
        }
      }
      // Drop stamps strictly inside a longer one (the time part of a full stamp).
      for (const Candidate& candidate : found) {
        const bool inside = std::any_of(found.begin(), found.end(), [&](const Candidate& other) {
          return other.hit->pos <= candidate.hit->pos && other.end >= candidate.end &&
                 (other.end - other.hit->pos) > (candidate.end - candidate.hit->pos);
        });
        if (inside) continue;
        auto it = std::find_if(tallies.begin(), tallies.end(), [&](const Tally& t) {
          return t.family == candidate.family && t.anchor == candidate.hit->anchor;
        });
        if (it == tallies.end()) {
          tallies.push_back({candidate.family, candidate.hit->anchor, 0, 0, SIZE_MAX});
          it = tallies.end() - 1;
        }
        if (it->last_line == index) continue;
        it->last_line = index;
        ++it->votes;
        it->offsets += static_cast<double>(candidate.hit->pos);
      }
    }
    const bool mostly_json = json_lines * 2 > lines.size();
    std::stable_sort(tallies.begin(), tallies.end(), [&](const Tally& a, const Tally& b) {
      if (a.votes != b.votes) return a.votes > b.votes;
      if (mostly_json && a.anchor.keyed() != b.anchor.keyed()) return a.anchor.keyed();
      const int ka = a.anchor.keyed() ? time_key_rank(a.anchor.key) : 60;
      const int kb = b.anchor.keyed() ? time_key_rank(b.anchor.key) : 60;
      if (ka != kb) return ka < kb;
      return a.offsets / a.votes < b.offsets / b.votes;
    });
    for (const Tally& tally : tallies) {
      if (m_ranked.size() >= k_ranked) break;
      m_ranked.push_back({tally.family, tally.anchor});
    }
    learn_base_year(lines);
    // Dates written before a time no anchor points at are looked for only when the first lines
    // have one: every other input with times of day would pay for the search on every line.
    m_dated_times = true;
    m_dated_times = std::any_of(lines.begin(), lines.end(), [&](std::string_view line) {
      StampFields stamp;
      std::size_t start = 0;
      const std::size_t end = find_stamp_at(line, stamp, start);
      if (end == 0 || stamp.month >= 0 || stamp.absolute) return false;
      find_stamp(line, stamp);
      return stamp.month >= 0;  // a date was found before the time
    });
  }

  /// The year for yearless stamps: the first sample stamp that has one.
  void learn_base_year(const std::vector<std::string_view>& lines) {
    for (std::string_view line : lines) {
      StampFields stamp;
      if (find_stamp(line, stamp) == 0) continue;
      if (stamp.year >= 0 || stamp.absolute) {
        m_base_year = stamp.year >= 0 ? stamp.year : year_of(stamp.instant);
        m_clock.set_base_year(m_base_year);
        break;
      }
    }
  }

  void restart() override {
    m_history = 0;
    StampClock fresh(0, m_default_year);
    fresh.set_zone(m_zone);
    fresh.set_default_day(m_default_day);
    if (m_clock.has_base_year()) fresh.set_base_year(m_base_year);
    m_clock = fresh;
  }

  /// The process or thread of a line whose group is a request id: a syslog tag, a process key
  /// of the layout, or a pid=, tid= or thread= field.
  std::string_view process_of(std::string_view line, std::string_view message) {
    std::string_view process = syslog_tag(message);
    if (process.empty()) process = process_key(line, message, m_key);
    for (const std::string_view key : {std::string_view("pid"), std::string_view("tid"), std::string_view("thread")}) {
      if (!process.empty()) break;
      process = key_value(line, key);
    }
    return process.substr(0, 64);
  }

  ParseStatus parse(std::string_view line, Record& record) override {
    if (line.starts_with("# Time: ")) return parse_slow_log_header(line, record);  // MySQL slow log
    if (line.empty()) return ParseStatus::not_this_format;
    if (is_comment(line)) {
      // W3C extended logs (IIS): "#Date: 2026-12-05 12:00:00" dates the time-only rows below.
      if (line.starts_with("#Date:")) date_from_header(line.substr(6));
      // Shell history with times (bash's HISTTIMEFORMAT "#1733400000", tcsh's "#+1733400000"):
      // the stamp times the command on the next line, which is the record.
      if (const TimeNs when = history_stamp(line); when != 0) {
        m_history = when;
        m_history_seen = true;
        return ParseStatus::part;
      }
      return ParseStatus::not_this_format;
    }
    if (m_history != 0) {
      record.time = m_history;
      record.time_digits = 0;
      record.zoned = true;
      record.message = line;
      m_history = 0;
      return ParseStatus::parsed;
    }
    StampFields stamp;
    std::size_t end = find_stamp(line, stamp);
    if (end == 0) {
      if (is_fpm_worker_message(line)) return ParseStatus::untimed;
      // A date printed once per day or per file above time-only lines ("=== 2026-12-05 ===",
      // "--- Day changed Sat Dec 06 2026"): it dates the lines below and carries no time.
      if (time_only_layout() && date_from_header(line)) return ParseStatus::untimed;
      return ParseStatus::not_this_format;
    }
    if (stamp.month < 0) {
      // The date in a field of its own (FortiGate: "date=2024-10-14 time=13:46:40").
      const std::string_view date = key_value(line, "date");
      int year = 0, month = 0, day = 0;
      if (!date.empty() && read_numeric_date(date, 0, year, month, day))
        m_clock.set_date(year, month, day, DateOrigin::field);
    }
    record.time = m_clock.instant(stamp);
    record.time_digits = stamp.digits;
    record.zoned = m_clock.last_zoned();
    if (stamp.digits == 0 && !stamp.absolute) {
      // A syslog or journald envelope in whole seconds around an application's own finer stamp
      // ("Dec  5 12:00:00 host app[123]: 2026-12-05 12:00:00.144 INFO …"): the finer one.
      // Only a stamp that refines the envelope's (the same date, its time of day within
      // 2 s: the delivery) is taken; a replayed or re-stamped line keeps the envelope's time.
      StampFields inner;
      if (const std::size_t inner_end = carried_stamp(line, end, inner)) {
        const std::int64_t outer_second = stamp.hour * 3600 + stamp.minute * 60 + stamp.second;
        const std::int64_t inner_second = inner.hour * 3600 + inner.minute * 60 + inner.second;
        const bool same_date =
            inner.month < 0 || stamp.month < 0 || (inner.month == stamp.month && inner.day == stamp.day);
        const bool same_zone = inner.has_zone == stamp.has_zone && inner.offset_seconds == stamp.offset_seconds;
        if (same_date && same_zone && std::abs(inner_second - outer_second) <= 2) {
          record.time += (inner_second - outer_second) * k_ns_per_s + inner.nanos;
          record.time_digits = inner.digits;
          end = inner_end;
        }
      }
    }
    std::size_t rest = end;
    while (rest < line.size() && (line[rest] == ' ' || line[rest] == ']' || line[rest] == '"')) ++rest;
    record.message = line.substr(std::min(rest, line.size()));
    record.channel = {};
    record.level = {};
    record.group = request_id(line);
    if (record.group.empty() && !m_group_key.known && !m_group_key.key.empty())
      record.group = key_value(line, m_group_key.key);
    if (record.group.empty()) record.group = bracketed_hex_id(record.message);
    record.process = {};
    if (!record.group.empty()) record.process = process_of(line, record.message);
    if (record.group.empty()) record.group = syslog_tag(record.message);
    if (record.group.empty()) record.group = bracketed_request_id(record.message);
    if (record.group.empty()) record.group = process_key(line, record.message, m_key);
    // A JSON line's keys may come before its stamp (Traefik writes `time` last): all of them.
    find_duration(line.front() == '{' ? line : record.message, record.duration, record.duration_digits, &record.phases);
    if (record.duration >= 0) record.statement = postgres_statement(record.message);
    return ParseStatus::parsed;
  }

  /// "# Time: 2026-11-29T21:03:04.123456Z" or "# Time: 261129 21:03:04": a slow-log record.
  ParseStatus parse_slow_log_header(std::string_view line, Record& record) {
    StampFields stamp;
    std::size_t length = scan_stamp(StampFamily::ymd, line, 8, stamp);
    if (length == 0) length = scan_stamp(StampFamily::compact, line, 8, stamp);
    if (length == 0) return ParseStatus::not_this_format;
    record = Record{};
    record.time = m_clock.instant(stamp);
    record.time_digits = stamp.digits;
    record.zoned = m_clock.last_zoned();
    record.message = line;
    return ParseStatus::parsed;
  }

  std::string layout() const override {
    if (m_history_seen) return "shell history: a #<epoch seconds> line before each command";
    if (m_ranked.empty()) return {};
    std::string out = std::string(to_string(m_ranked.front().family)) + " at " + describe(m_ranked.front().anchor);
    if (m_ranked.front().family == StampFamily::uptime) {
      out += "; times since boot or since the program started: gaps exact, no wall-clock time";
    }
    switch (m_clock.date_origin()) {
      case DateOrigin::header:
        out += "; dates from a header line";
        break;
      case DateOrigin::field:
        out += "; dates from the date= field";
        break;
      case DateOrigin::modification_time:
        out +=
            fmt::format("; dates from the file's modification time ({}), the lines have none", day_text(m_default_day));
        break;
      case DateOrigin::assumed:
        out += fmt::format("; no date on the lines or in a header: {}-01-01 assumed, gaps exact (--year sets it)",
                           m_default_year);
        break;
      case DateOrigin::none:
      case DateOrigin::stamp:
        break;
    }
    if (m_group_key.known) {
      out += "; requests by " + m_group_key.key + "=";
    } else if (!m_group_key.key.empty()) {
      out +=
          fmt::format("; requests by {}= (learnt: {} values on {} of the first lines, each one's lines close together)",
                      m_group_key.key, m_group_key.values, m_group_key.lines);
    }
    return out;
  }

 private:
  GroupKeyChoice m_group_key;
  struct Choice {
    StampFamily family;
    Anchor anchor;
  };

  /// Reads the line's stamp: the ranked layouts first, then any family at the common
  /// places. Returns the end offset of the stamp, or 0. A time of day with a date written
  /// just before it, where no anchor points ("job=12|12/05/2026 12:00:00.100|…"), is read with
  /// that date.
  std::size_t find_stamp(std::string_view line, StampFields& stamp) {
    std::size_t start = 0;
    const std::size_t end = find_stamp_at(line, stamp, start);
    if (!m_dated_times || end == 0 || stamp.month >= 0 || stamp.absolute || start == 0) return end;
    constexpr std::array<StampFamily, 4> k_dated = {StampFamily::ymd, StampFamily::numeric, StampFamily::clf,
                                                    StampFamily::month_name};
    for (std::size_t pos = start > 24 ? start - 24 : 0; pos < start; ++pos) {
      if (pos > 0 && std::isalnum(static_cast<unsigned char>(line[pos - 1])) != 0) continue;
      for (StampFamily family : k_dated) {
        StampFields dated;
        const std::size_t length = scan_stamp(family, line, pos, dated, m_order);
        if (length > 0 && pos + length >= end && dated.month >= 0) {
          stamp = dated;
          return pos + length;
        }
      }
    }
    return end;
  }

  std::size_t find_stamp_at(std::string_view line, StampFields& stamp, std::size_t& start) {
    for (const Choice& choice : m_ranked) {
      locate(choice.anchor, line, m_positions);
      for (std::size_t pos : m_positions) {
        if (const std::size_t length = scan_stamp(choice.family, line, pos, stamp, m_order)) {
          start = pos;
          return pos + length;
        }
      }
    }
    enumerate_anchors(line, m_hits);
    std::size_t best_pos = line.size(), best_end = 0;
    StampFields best;
    for (const AnchorHit& hit : m_hits) {
      const AnchorKind kind = hit.anchor.kind;
      const bool common = kind == AnchorKind::line_start || kind == AnchorKind::after_bracket ||
                          kind == AnchorKind::after_paren || (kind == AnchorKind::glued_tag && hit.anchor.field == 0) ||
                          kind == AnchorKind::rfc5424 || (hit.anchor.keyed() && time_key_rank(hit.anchor.key) < 100);
      if (!common || hit.pos >= best_pos) continue;
      for (StampFamily family : k_families) {
        if (!admissible(family, hit.anchor)) continue;
        if (family == StampFamily::epoch && !hit.anchor.keyed()) continue;  // bare numbers are too often ids
        StampFields fields;
        if (const std::size_t length = scan_stamp(family, line, hit.pos, fields, m_order)) {
          best_pos = hit.pos;
          best_end = hit.pos + length;
          best = fields;
          break;
        }
      }
    }
    if (best_end == 0) return 0;
    stamp = best;
    start = best_pos;
    return best_end;
  }

  /// The instant of "#1733400000" or "#+1733400000" alone on its line (epoch seconds from
  /// 2000 to 2100), else 0.
  static TimeNs history_stamp(std::string_view line) {
    std::size_t at = line.size() > 1 && line[1] == '+' ? 2 : 1;
    std::size_t end = line.size();
    while (end > at && (line[end - 1] == '\r' || line[end - 1] == ' ')) --end;
    if (end - at != 10) return 0;
    std::int64_t seconds = 0;
    for (; at < end; ++at) {
      if (line[at] < '0' || line[at] > '9') return 0;
      seconds = seconds * 10 + (line[at] - '0');
    }
    if (seconds < 946684800 || seconds > 4102444800) return 0;
    return to_time_ns(seconds, 0);
  }

  bool time_only_layout() const { return !m_ranked.empty() && m_ranked.front().family == StampFamily::time_only; }

  static std::string day_text(std::int64_t day) {
    const int year = year_of_day(day);
    const std::int64_t day_of_year = day - days_from_civil(year, 1, 1);
    int month = 1;
    while (month < 12 &&
           days_from_civil(year, static_cast<unsigned>(month + 1), 1) - days_from_civil(year, 1, 1) <= day_of_year) {
      ++month;
    }
    const std::int64_t mday = day - days_from_civil(year, static_cast<unsigned>(month), 1) + 1;
    return fmt::format("{:04}-{:02}-{:02}", year, month, mday);
  }

  /// A date without a time in the first 80 bytes of `text` (2026-12-05, 2026/12/05, Sat Dec 06
  /// 2026, 06 Dec 2026, Dec 6, 2026): it becomes the date of the time-only stamps after it.
  bool date_from_header(std::string_view text) {
    const std::string_view head = text.substr(0, 80);
    for (std::size_t i = 0; i < head.size(); ++i) {
      const bool word_start = i == 0 || !std::isalnum(static_cast<unsigned char>(head[i - 1]));
      if (!word_start) continue;
      int year = 0, month = 0, day = 0;
      if (read_numeric_date(head, i, year, month, day) || read_named_date(head, i, year, month, day)) {
        m_clock.set_date(year, month, day);
        return true;
      }
    }
    return false;
  }

  static bool digits_at(std::string_view text, std::size_t& pos, std::size_t min, std::size_t max, int& value) {
    std::size_t n = 0;
    value = 0;
    while (pos + n < text.size() && n < max && std::isdigit(static_cast<unsigned char>(text[pos + n])) != 0)
      value = value * 10 + (text[pos + n++] - '0');
    if (n < min || (pos + n < text.size() && std::isdigit(static_cast<unsigned char>(text[pos + n])) != 0))
      return false;
    pos += n;
    return true;
  }

  /// YYYY-MM-DD, YYYY/MM/DD or YYYY.MM.DD, not followed by a digit or a time.
  static bool read_numeric_date(std::string_view text, std::size_t pos, int& year, int& month, int& day) {
    if (!digits_at(text, pos, 4, 4, year) || pos >= text.size()) return false;
    const char sep = text[pos];
    if (sep != '-' && sep != '/' && sep != '.') return false;
    ++pos;
    if (!digits_at(text, pos, 1, 2, month) || pos >= text.size() || text[pos] != sep) return false;
    ++pos;
    if (!digits_at(text, pos, 1, 2, day)) return false;
    return year >= k_min_stamp_year && year <= k_max_stamp_year && month >= 1 && month <= 12 && day >= 1 && day <= 31;
  }

  /// [Weekday ]Month DD[,] YYYY or DD Month YYYY.
  static bool read_named_date(std::string_view text, std::size_t pos, int& year, int& month, int& day) {
    const auto skip_blanks = [&](std::size_t& at) {
      const std::size_t before = at;
      while (at < text.size() && (text[at] == ' ' || text[at] == ',' || text[at] == '-' || text[at] == '/')) ++at;
      return at > before;
    };
    std::size_t length = 0;
    std::size_t at = pos;
    if (std::isdigit(static_cast<unsigned char>(text[at])) != 0) {
      if (!digits_at(text, at, 1, 2, day) || !skip_blanks(at)) return false;
      month = read_month_name(text.substr(at), length);
      if (month == 0) return false;
      at += length;
    } else {
      month = read_month_name(text.substr(at), length);
      if (month == 0) return false;
      at += length;
      if (!skip_blanks(at) || !digits_at(text, at, 1, 2, day)) return false;
    }
    if (!skip_blanks(at) || !digits_at(text, at, 4, 4, year)) return false;
    if (at < text.size() && text[at] == ':') return false;  // a time, not a year
    return year >= k_min_stamp_year && year <= k_max_stamp_year && day >= 1 && day <= 31;
  }

  /// The end of a stamp with a fraction that starts the message after a syslog tag
  /// ("host app[123]: ", "host app: ", also inside a '['), or 0.
  std::size_t carried_stamp(std::string_view line, std::size_t from, StampFields& inner) const {
    const std::string_view head = line.substr(from, 120);
    const std::size_t colon = head.find(": ");
    if (colon == std::string_view::npos) return 0;
    std::size_t pos = from + colon + 2;
    if (pos < line.size() && line[pos] == '[') ++pos;
    constexpr std::array<StampFamily, 5> k_carried = {StampFamily::ymd, StampFamily::clf, StampFamily::month_name,
                                                      StampFamily::numeric, StampFamily::time_only};
    for (StampFamily family : k_carried) {
      if (const std::size_t length = scan_stamp(family, line, pos, inner, m_order); length > 0 && inner.digits > 0)
        return pos + length;
    }
    return 0;
  }

  /// The field order of numeric dates: the one valid on most sample lines; ties follow the
  /// usual conventions: day first with '-' or '.', and with '/' when a ':' joins the date to
  /// the time (as in CLF); month first with '/' otherwise.
  void choose_numeric_order(const std::vector<std::string_view>& lines) {
    constexpr std::array<NumericOrder, 3> k_orders = {NumericOrder::month_day_year, NumericOrder::year_month_day,
                                                      NumericOrder::day_month_year};
    std::array<int, 3> valid{};
    bool day_first = false, decided = false;
    StampFields fields;
    for (std::string_view line : lines) {
      enumerate_anchors(line, m_hits);
      for (std::size_t o = 0; o < k_orders.size(); ++o) {
        for (const AnchorHit& hit : m_hits) {
          const std::size_t length = scan_stamp(StampFamily::numeric, line, hit.pos, fields, k_orders[o]);
          if (length == 0) continue;
          ++valid[o];
          if (!decided) {
            decided = true;
            const std::string_view stamp = line.substr(hit.pos, length);
            const std::size_t first = stamp.find_first_of("/-.");
            const char separator = first == std::string_view::npos ? '/' : stamp[first];
            const std::size_t second = stamp.find(separator, first + 1);
            std::size_t after_year = second + 1;
            while (after_year < stamp.size() && stamp[after_year] >= '0' && stamp[after_year] <= '9') ++after_year;
            day_first = separator != '/' || (after_year < stamp.size() && stamp[after_year] == ':');
          }
          break;
        }
      }
    }
    std::array<std::size_t, 3> preference = {0, 1, 2};
    if (day_first) preference = {2, 0, 1};
    std::size_t best = preference[0];
    for (std::size_t index : preference) {
      if (valid[index] > valid[best]) best = index;
    }
    m_order = k_orders[best];
  }

  std::vector<Choice> m_ranked;
  NumericOrder m_order = NumericOrder::month_day_year;
  StampClock m_clock;
  std::shared_ptr<const Zone> m_zone;  // the input's, for zone abbreviations
  std::string m_key;                   // a group key the line does not spell out (PHP-FPM slow log: "child 4242")
  int m_base_year = 1970;
  int m_default_year = 1970;
  std::int64_t m_default_day = INT64_MIN;
  bool m_dated_times = true;  // a time of day may have its date before it, where no anchor points
  TimeNs m_history = 0;       // the time of the shell command on the next line
  bool m_history_seen = false;
  std::vector<AnchorHit> m_hits;
  std::vector<std::size_t> m_positions;
};

}  // namespace

FormatInfo generic_line() {
  return {"generic",
          "Any line with a timestamp in a common shape at a place learnt from the first lines (ISO-8601, syslog, "
          "CLF, epoch, ctime, logcat, glog, time-only, …)",
          "Nov 29 21:03:04 web1 php-fpm[4242]: [WARNING] child 4243 exited on signal 15",
          [] { return std::unique_ptr<LineParser>(std::make_unique<GenericLineParser>()); }, true};
}

}  // namespace gapscan::parse::formats
