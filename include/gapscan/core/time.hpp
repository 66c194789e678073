#pragma once
// Time vocabulary shared by every stage: instants and spans as integer nanoseconds,
// so that gaps computed from decimal timestamps are exact.

#include <climits>
#include <cstdint>

namespace gapscan {

/// An instant: nanoseconds since 1970-01-01T00:00:00Z (UTC), leap seconds ignored.
using TimeNs = std::int64_t;

/// A signed span of time in nanoseconds (a gap, a logged duration, a tolerance).
using DurationNs = std::int64_t;

inline constexpr DurationNs k_ns_per_us = 1'000;
inline constexpr DurationNs k_ns_per_ms = 1'000'000;
inline constexpr DurationNs k_ns_per_s = 1'000'000'000;

/// The years a written stamp may name: every log's, and narrow enough that every instant of
/// them fits in TimeNs (1677-09-21 to 2262-04-11). A stamp naming another year is not a time.
inline constexpr int k_min_stamp_year = 1900;
inline constexpr int k_max_stamp_year = 2200;

/// Whole seconds and nanoseconds since the epoch as an instant, saturating at TimeNs's range
/// (a yearless or time-only stamp chain counted past 2262 by a hostile input stays defined).
constexpr TimeNs to_time_ns(std::int64_t seconds, std::int64_t nanos) {
  constexpr std::int64_t k_limit = INT64_MAX / k_ns_per_s - 1;
  if (seconds > k_limit) return INT64_MAX;
  if (seconds < -k_limit) return INT64_MIN + 1;
  return seconds * k_ns_per_s + nanos;
}

/// Days since 1970-01-01 for a proleptic Gregorian date (any year, month 1-12, day 1-31).
/// Exact for the whole int64 range the callers use; no validation of the day of month.
constexpr std::int64_t days_from_civil(std::int64_t year, unsigned month, unsigned day) {
  year -= month <= 2 ? 1 : 0;
  const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
  const auto year_of_era = static_cast<unsigned>(year - era * 400);
  const unsigned day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const unsigned day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + static_cast<std::int64_t>(day_of_era) - 719468;
}

/// The proleptic Gregorian year of a day count since 1970-01-01 (inverse of days_from_civil).
constexpr int year_of_day(std::int64_t days) {
  days += 719468;
  const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto day_of_era = static_cast<unsigned>(days - era * 146097);
  const unsigned year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const unsigned day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const unsigned month_index = (5 * day_of_year + 2) / 153;  // March = 0
  return static_cast<int>(static_cast<std::int64_t>(year_of_era) + era * 400 + (month_index >= 10 ? 1 : 0));
}

/// The UTC year of an instant.
constexpr int year_of(TimeNs time) {
  const std::int64_t seconds = time >= 0 ? time / k_ns_per_s : (time - k_ns_per_s + 1) / k_ns_per_s;
  return year_of_day(seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400);
}

/// `time + d`, saturating at TimeNs's range (an instant from a hostile line plus its duration).
constexpr TimeNs add_saturating(TimeNs time, DurationNs d) {
  if (d > 0 && time > INT64_MAX - d) return INT64_MAX;
  if (d < 0 && time < INT64_MIN - d) return INT64_MIN;
  return time + d;
}

/// Milliseconds as a double, for printing and for comparing with catalog values.
constexpr double to_ms(DurationNs d) { return static_cast<double>(d) / 1e6; }

}  // namespace gapscan
