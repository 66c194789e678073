#pragma once
// Timestamp families: hand-written readers for the shapes logs write their time in
// (docs/formats.md lists them; docs/notes/corpus-timestamp-survey.md measured them). Each
// reads a stamp that begins exactly at a given byte and fails fast on the first byte that
// does not fit. They return the calendar fields as written; turning them into an instant
// (missing years, time-only stamps, zones) is StampClock's job.

#include <gapscan/core/time.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gapscan::parse {

/// The fields of one timestamp as written. Absent date fields are -1.
struct StampFields {
  int year = -1;                         ///< four-digit (or expanded two-digit) year; -1 when not written
  int month = -1;                        ///< 1-12; -1 for a time-only stamp
  int day = -1;                          ///< 1-31; -1 for a time-only stamp
  int hour = 0, minute = 0, second = 0;  ///< second may exceed 59: it is normalised, not rejected
  std::int64_t nanos = 0;
  std::uint8_t digits = 0;             ///< fraction digits written
  bool has_zone = false;               ///< Z, UTC, GMT or a numeric offset was written
  int offset_seconds = 0;              ///< east of UTC
  std::string_view zone_name;          ///< a zone identifier written after the time ("Asia/Seoul"), if any
  std::string_view zone_abbreviation;  ///< a zone abbreviation written after the time ("PDT", "CET", "CST"), if
                                       ///< any; an unambiguous one also sets has_zone and the offset
  bool absolute = false;               ///< an epoch or TAI64N stamp: `instant` holds the time
  TimeNs instant = 0;
};

enum class StampFamily : std::uint8_t {
  ymd,         ///< 2026-11-29 21:03:04.123+01:00, 2026/11/29 - 21:03:04, 2014:07:02-00:17:45, 2011.11.21 14:29:16
  month_name,  ///< Nov 29 21:03:04, Sun Nov 29 21:03:04 2026, Apr-07-13 07:08:36, Thu, 14 Oct 2021 15:24:12 UTC
  epoch,       ///< 1764450184, 1764450184.123, 1764450184123 (ms)
  clf,         ///< 29/Nov/2026:21:03:04 +0000, 29-Nov-2026 21:03:04.123, 29/Nov/2026 21:03:04
  month_day,   ///< 11-29 21:03:04.123 (logcat), 11.29 21:03:04, 1129 21:03:04.123456 (glog)
  time_only,   ///< 21:03:04.123, 9:03PM
  compact,     ///< 261129 210304, 20261129-21:3:4:123 (integer ms), 261129  9:03:04
  numeric,     ///< 11/29/26 21:03:04, 29-11-2026 21:03:04, 26/11/29 21:03:04 (order chosen per file)
  tai64n,      ///< @4000000069...: TAI64N label
  uptime,      ///< "   12.345678]": seconds since boot in dmesg and journalctl -o short-monotonic
  epoch_long,  ///< 16 digits (microseconds) or 19 digits (nanoseconds); only under a time-like key
};
inline constexpr int k_stamp_families = 11;

std::string_view to_string(StampFamily family);

/// Field order of the `numeric` family, chosen per input from its lines.
enum class NumericOrder : std::uint8_t { month_day_year, day_month_year, year_month_day };

/// Reads a stamp of `family` that starts at `pos`. Returns its length, or 0 if none starts there.
std::size_t scan_stamp(StampFamily family, std::string_view line, std::size_t pos, StampFields& out,
                       NumericOrder order = NumericOrder::month_day_year);

/// Month number (1-12) for a month name or abbreviation in English, French or German, any
/// case, with Latin-1 or UTF-8 accents and an optional final dot; a prefix of at least two
/// letters is enough when it names one month ("de" is December, "ju" is refused). Sets
/// `length` to the bytes read. 0 when `text` does not start with a month name.
int read_month_name(std::string_view text, std::size_t& length);

/// A zone abbreviation at the start of `text` (3 or 4 capital letters, then no letter) that
/// gapscan knows: its length, and in `offset_seconds` the offset east of UTC when it names one
/// offset wherever it is used (PST, PDT, CET, CEST, JST, AEST, …); `ambiguous` is set for those
/// that name several (CST: US Central or China; IST: India, Ireland or Israel; AST), which
/// only the input's zone (--tz) can resolve. 0 when `text` does not start with one.
std::size_t read_zone_abbreviation(std::string_view text, int& offset_seconds, bool& ambiguous);

/// The same, stored in `out`: zone_abbreviation, and has_zone with the offset when unambiguous.
std::size_t take_zone_abbreviation(std::string_view text, StampFields& out);

}  // namespace gapscan::parse
