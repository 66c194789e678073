// MediaWiki's main debug log ($wgDebugLogFile, LegacyLogger), which has no request id and,
// in current MediaWiki, no time at all. Core brackets each request:
//   Start request GET /w/index.php?title=Main_Page      (or: Start command line script …)
//   IP: 203.0.113.7 / HTTP HEADERS: / NAME: value … / (end headers)
//   [memcached] get(mywiki:messages:en)                  (PSR-3 channels: never a time)
//   Request ended normally
// Old MediaWiki with $wgDebugTimestamps wrote, on wfDebug() lines only, the seconds since the
// request started (%6.4f) and the memory in MiB (%5.1fM), after $wgDebugLogPrefix:
//   web1 0.0412   6.0M  Article::view using parser cache: yes
//
// Each request is one group ("#<n> <METHOD> <URL>", n counting Start lines in the input).
// A timed line's instant is the request's base plus its elapsed seconds, the base being the
// latest instant of the requests before (the log gives no absolute time): gaps inside a
// request are exact to 100 µs, gaps between requests mean nothing and are never measured
// because each request is its own stream. Every other line of such a log is untimed.

#include "formats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace gapscan::parse::formats {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

struct Elapsed {
  TimeNs elapsed = 0;
  std::size_t message = 0;  ///< where the message starts
};

/// "0.0412   6.0M  " at `pos`: seconds with four decimals, spaces, MiB with one decimal and
/// 'M', two spaces.
bool read_elapsed_at(std::string_view line, std::size_t pos, Elapsed& out) {
  std::size_t i = pos;
  TimeNs seconds = 0;
  const std::size_t start = i;
  while (i < line.size() && is_digit(line[i]) && i - start < 6) seconds = seconds * 10 + (line[i++] - '0');
  if (i == start || i + 5 > line.size() || line[i] != '.') return false;
  ++i;
  TimeNs tenths_of_ms = 0;
  for (int k = 0; k < 4; ++k, ++i) {
    if (!is_digit(line[i])) return false;
    tenths_of_ms = tenths_of_ms * 10 + (line[i] - '0');
  }
  if (i >= line.size() || line[i] != ' ') return false;
  while (i < line.size() && line[i] == ' ') ++i;
  const std::size_t mem = i;
  while (i < line.size() && is_digit(line[i])) ++i;
  if (i == mem || i + 5 > line.size() || line[i] != '.' || !is_digit(line[i + 1]) || line[i + 2] != 'M' ||
      line[i + 3] != ' ' || line[i + 4] != ' ') {
    return false;
  }
  out.elapsed = seconds * k_ns_per_s + tenths_of_ms * 100 * k_ns_per_us;
  out.message = i + 5;
  return true;
}

/// An elapsed/memory prefix after any $wgDebugLogPrefix (ending in a space) or leading spaces.
bool find_elapsed(std::string_view line, Elapsed& out) {
  const std::size_t limit = std::min<std::size_t>(line.size(), 96);
  for (std::size_t pos = 0; pos < limit; ++pos) {
    if ((pos == 0 || line[pos - 1] == ' ') && is_digit(line[pos]) && read_elapsed_at(line, pos, out)) return true;
  }
  return false;
}

bool is_start(std::string_view line) {
  return line.starts_with("Start request ") || line.starts_with("Start command line script ");
}

class MediaWikiDebugParser final : public LineParser {
 public:
  void learn(const std::vector<std::string>& sample, const TimeSettings& settings) override {
    (void)settings;
    Elapsed elapsed;
    m_learnt_active = std::any_of(sample.begin(), sample.end(), [&](const std::string& line) {
      return is_start(line) || find_elapsed(line, elapsed);
    });
    restart();
  }

  void restart() override {
    m_active = m_learnt_active;
    m_requests = 0;
    m_group = "#0";
    m_base = 0;
    m_latest = 0;
  }

  std::string layout() const override {
    return "times, with $wgDebugTimestamps, since each request started: gaps inside a request exact, no wall-clock "
           "time";
  }

  ParseStatus parse(std::string_view line, Record& record) override {
    Elapsed elapsed;
    if (is_start(line)) {
      m_active = true;
      ++m_requests;
      const std::string_view what = line.substr(line[6] == 'r' ? 14 : 26);
      m_group = fmt::format("#{} {}", m_requests, what.substr(0, 120));
      m_base = m_latest;
      fill(record, m_base, line, 0);
      return ParseStatus::parsed;
    }
    if (find_elapsed(line, elapsed)) {
      m_active = true;
      const TimeNs time = m_base + elapsed.elapsed;
      m_latest = std::max(m_latest, time);
      fill(record, time, line, elapsed.message);
      return ParseStatus::parsed;
    }
    return m_active ? ParseStatus::untimed : ParseStatus::not_this_format;
  }

 private:
  void fill(Record& record, TimeNs time, std::string_view line, std::size_t message) const {
    record.time = time;
    record.time_digits = 4;
    record.zoned = true;  // relative times: no zone applies
    record.group = m_group;
    record.message = line.substr(message);
    record.channel = {};
    record.level = {};
  }

  bool m_learnt_active = false;
  bool m_active = false;
  std::uint64_t m_requests = 0;
  std::string m_group = "#0";
  TimeNs m_base = 0;
  TimeNs m_latest = 0;
};

}  // namespace

FormatInfo mediawiki_debug() {
  return {"mediawiki-debug",
          "MediaWiki's main debug log (LegacyLogger, $wgDebugLogFile): requests bounded by 'Start request' "
          "lines; times only from $wgDebugTimestamps (seconds since the request started)",
          "web1 0.0412   6.0M  Article::view using parser cache: yes",
          [] { return std::unique_ptr<LineParser>(std::make_unique<MediaWikiDebugParser>()); }};
}

}  // namespace gapscan::parse::formats
