#pragma once
// Turns the fields of a timestamp into an instant, for one input, applying the conventions
// for what a stamp does not say:
// - no zone: the input's zone (UTC unless --tz says otherwise);
// - a zone abbreviation (PDT, CEST): the offset it stands for in the input's zone, else the
//   offset it names everywhere; an ambiguous one (CST, IST) the input's zone does not use is
//   read as if there were none;
// - no year: the year of the input's first stamp that has one (set_base_year for a look-ahead),
//   rising by one whenever the month is smaller than the previous yearless stamp's month
//   (New Year in a syslog file);
// - no date: the previous stamp's date, one day later when the time of day went back.
// Seconds above 59 are carried over, not refused.

#include <gapscan/parse/stamp.hpp>

#include <climits>
#include <memory>

namespace gapscan::parse {

class Zone;

/// Where the date of a time-only stamp came from.
enum class DateOrigin : std::uint8_t {
  none,               ///< no time-only stamp was read
  stamp,              ///< an earlier stamp of the input that had a date
  header,             ///< a header or date line of the input (W3C "#Date:", "=== 2026-12-05 ===")
  field,              ///< a date field of the same line ("date=2024-10-14 time=13:46:40")
  modification_time,  ///< the day the file was last modified
  assumed,            ///< none known: 1 January of the default year (stdin)
};

class StampClock {
 public:
  explicit StampClock(int zone_offset_seconds = 0, int fallback_year = 1970)
      : m_zone_offset(zone_offset_seconds), m_base_year(fallback_year) {}

  /// The year for yearless stamps, when known before they are read (e.g. from a later line).
  void set_base_year(int year) {
    m_base_year = year;
    m_have_base = true;
  }
  bool has_base_year() const { return m_have_base; }
  /// The day (since the epoch) a time-only stamp takes when no stamp before it had a date: the
  /// file's modification day.
  void set_default_day(std::int64_t day) { m_default_day = day; }
  /// The date of the time-only stamps that follow, from a header or a date line (or a field).
  void set_date(int year, int month, int day, DateOrigin origin = DateOrigin::header);
  /// Where the first time-only stamp got its date.
  DateOrigin date_origin() const { return m_date_origin; }
  /// The input's zone (--tz, or a format file's zone): resolves zone abbreviations it uses
  /// ("CST" in America/Chicago or Asia/Shanghai), before gapscan's table of unambiguous ones.
  void set_zone(std::shared_ptr<const Zone> zone) { m_zone = std::move(zone); }

  TimeNs instant(const StampFields& fields);

  /// Whether the last instant had its zone from the stamp (an offset, or a zone name this
  /// system knows); if not, it was read as UTC and the input's zone (--tz) still applies.
  bool last_zoned() const { return m_last_zoned; }

 private:
  int m_zone_offset;
  int m_base_year;
  bool m_have_base = false;
  int m_chain_year = 0;
  int m_chain_month = 0;  // month of the previous yearless stamp; 0 before the first
  std::int64_t m_last_day = 0;
  std::int64_t m_default_day = INT64_MIN;
  DateOrigin m_date_origin = DateOrigin::none;
  DateOrigin m_day_origin = DateOrigin::none;  // of m_last_day
  std::int64_t m_last_second_of_day = -1;      // -1 before the first stamp
  TimeNs m_last_named = INT64_MIN;             // the last instant read in a named zone
  bool m_last_zoned = false;
  std::shared_ptr<const Zone> m_zone;
};

}  // namespace gapscan::parse
