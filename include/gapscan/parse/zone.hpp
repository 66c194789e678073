#pragma once
// Time zones for stamps that do not carry one (--tz): UTC, a fixed offset, or a named zone
// from the system's zone database (TZif files in /usr/share/zoneinfo, or $TZDIR).
//
// A local time is turned into UTC with the offset in force at that instant. Around a change
// of offset (daylight saving time) a local time may exist twice (autumn) or not at all
// (spring): of two candidates the one at or after the previous line's instant is taken, so
// that a log written through the change neither jumps back nor gains an invented hour; a
// time in the spring gap is read with the offset before the change.

#include <gapscan/core/expected.hpp>
#include <gapscan/core/time.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gapscan::parse {

class Zone {
 public:
  /// "UTC", "Z", "GMT", "+01:00", "-0700", "+5", or a zone name such as "Europe/Berlin".
  static Expected<Zone> load(const std::string& name);

  /// A zone by name from a process-wide cache (loaded once, thread-safe); null when the
  /// name is not a zone this system knows.
  static std::shared_ptr<const Zone> find(std::string_view name);

  /// The length of a zone identifier such as "Asia/Seoul" or "America/Argentina/Salta" at the
  /// start of `text` (an IANA area followed by '/'), or 0.
  static std::size_t name_length(std::string_view text);

  /// A fixed offset east of UTC, in seconds.
  static Zone fixed(int offset_seconds);

  /// The instant of local wall-clock time `local` (ns, as if it were UTC); `previous` is the
  /// instant of the line before (for the choice around changes), or INT64_MIN.
  TimeNs to_utc(TimeNs local, TimeNs previous) const;

  /// The offset (seconds east of UTC) in force at a UTC instant (seconds).
  int offset_at(std::int64_t utc_seconds) const;

  /// The offset (seconds east of UTC) a zone abbreviation stands for in this zone ("PDT" in
  /// America/Los_Angeles: -25200), from the zone file; nullopt when the zone does not use it.
  std::optional<int> abbreviation_offset(std::string_view abbreviation) const;

  const std::string& name() const { return m_name; }
  bool is_utc() const { return m_transitions.empty() && m_initial_offset == 0; }

 private:
  /// Appends the transitions of a POSIX TZ rule ("CET-1CEST,M3.5.0,M10.5.0/3") after the
  /// last one, up to `until_year`; an unreadable rule adds nothing.
  void extend_with_rule(const std::string& rule, std::int64_t until_year);

  /// Reads the abbreviation of each type used (TZif counts and offsets as in load()).
  void read_abbreviations(const std::string& data, std::size_t types_at, std::size_t types, std::size_t chars,
                          std::size_t index_at, std::size_t transitions);

  std::string m_name;
  int m_initial_offset = 0;                                  // before the first transition (or always, if none)
  std::vector<std::int64_t> m_transitions;                   // UTC seconds, ascending
  std::vector<int> m_offsets;                                // offset from each transition on
  std::vector<std::pair<std::string, int>> m_abbreviations;  // "CEST" -> 7200
};

}  // namespace gapscan::parse
