#pragma once
// A log format: a name, a sample line, and a parser factory. Adding a format means adding
// one file under src/parse/formats/ and one line to the table in format_registry.cpp.

#include <gapscan/parse/record.hpp>
#include <gapscan/parse/zone.hpp>

#include <climits>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::parse {

enum class ParseStatus {
  parsed,           ///< the line is a record of this format; Record filled
  not_this_format,  ///< the line does not look like this format at all
  malformed,        ///< it starts like this format but a field is invalid (reason() says which)
  untimed,          ///< a line of this format that carries no time (MediaWiki's debug log without
                    ///< $wgDebugTimestamps); it yields to any format that parses the line
  part,             ///< a line of a multi-line entry that this format gathers (a slow log's header
                    ///< lines); the entry's record comes with a later line, this one is a continuation
};

/// What an input's stamps do not say, as the user or the file tells it.
struct TimeSettings {
  int default_year = 1970;               ///< for yearless stamps when no stamp of the input has a year
  std::int64_t default_day = INT64_MIN;  ///< for time-only stamps before any date: the file's
                                         ///< modification day (days since the epoch), if known
  std::shared_ptr<const Zone> zone;      ///< for stamps without a zone (--tz); null: UTC

  /// The settings of one input: `year` is --year (0: none), `modified` the file's modification
  /// time (0: stdin or unknown). --year wins over the file's year and gives no default day.
  static TimeSettings of_input(int year, TimeNs modified, std::shared_ptr<const Zone> zone) {
    TimeSettings settings;
    settings.default_year = year != 0 ? year : modified != 0 ? year_of(modified) : 1970;
    if (year == 0 && modified != 0) settings.default_day = modified / k_ns_per_s / 86400;
    settings.zone = std::move(zone);
    return settings;
  }
};

/// Parses lines of one format. Holds per-input scratch state (e.g. a JSON parser), so one
/// instance serves one input at a time.
class LineParser {
 public:
  virtual ~LineParser() = default;
  virtual ParseStatus parse(std::string_view line, Record& record) = 0;
  /// Learns the input's layout from its first lines, before any parse() (generic formats).
  virtual void learn(const std::vector<std::string>& sample, const TimeSettings& settings) {
    (void)sample;
    (void)settings;
  }
  /// Forgets what parse() remembered from earlier lines (e.g. the last date for time-only
  /// stamps), keeping what learn() learnt: the sample lines are parsed again after detection.
  virtual void restart() {}
  /// The learnt layout, for messages ("month-name at line start"); empty for fixed formats.
  virtual std::string layout() const { return {}; }
  /// Why the last line was malformed, e.g. "month 13 out of range".
  virtual std::string_view reason() const { return {}; }
  /// Whether parse() reads each line on its own: its result does not depend on the lines
  /// parsed before (no date carried to time-only stamps, no year chain), so another instance
  /// that learnt the same sample may parse any line of the input in any order (lines are
  /// then parsed on several threads: RecordReader::prepare).
  virtual bool context_free() const { return false; }
};

struct FormatInfo {
  std::string name;         ///< stable identifier, e.g. "mediawiki-line"
  std::string description;  ///< one line for `gapscan formats`
  std::string sample;       ///< a line in this format (an entry's lines, separated by '\n', for a format
                            ///< that gathers entries); tests parse it: its last line is a record
  std::function<std::unique_ptr<LineParser>()> make_parser;
  bool generic = false;  ///< parses lines of many layouts (e.g. any ISO-8601 line); chosen by
                         ///< detection only when no specific format parses half as many lines
};

/// Built-in formats in detection priority order: specific layouts before generic ones.
std::span<const FormatInfo> builtin_formats();

}  // namespace gapscan::parse
