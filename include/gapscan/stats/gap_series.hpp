#pragma once
// The gaps of one stream window.

#include <gapscan/core/time.hpp>
#include <gapscan/stream/stream_table.hpp>

#include <cstdint>
#include <vector>

namespace gapscan::stats {

/// A step back in time larger than this, held by the next line too, is a clock step.
inline constexpr DurationNs k_clock_step = 1'000'000'000;

/// Gaps shorter than this many ticks of the timestamps' resolution are never reported as a mode
/// or a run: a gap written as one or two ticks says only that the lines came within (0, 3)
/// ticks of each other (with stamps cut to the second, every busy stretch of a log would show
/// a "mode" of 1 s gaps).
inline constexpr double k_min_resolution_ticks = 2.5;

struct Gap {
  DurationNs raw = 0;       ///< exact gap between the two timestamps (> 0)
  double value = 0;         ///< raw gap dequantised by a deterministic uniform offset within
                            ///< ±resolution/2, so that ticks of the logger's clock do not look
                            ///< like modes; used by the log-domain tests
  std::uint32_t after = 0;  ///< index into GapSeries::order of the line after the gap
};

struct GapSeries {
  std::vector<std::uint32_t> order;  ///< entry indices sorted by time (stable)
  std::vector<Gap> gaps;             ///< positive gaps, in time order
  std::uint64_t zero_gaps = 0;       ///< consecutive lines with the same timestamp
  std::uint64_t out_of_order = 0;    ///< lines whose time is before the previous line's
  std::uint64_t clock_steps = 0;     ///< times the clock went back by more than k_clock_step
  DurationNs largest_clock_step = 0;
  LineLocation largest_clock_step_at;  ///< the first line after the largest step
  DurationNs resolution = 1;           ///< the timestamps' effective resolution
  DurationNs span = 0;                 ///< last time - first time, summed over the segments
                                       ///< between clock steps
};

/// Splits the window at clock steps back, sorts each segment by time (stably), counts
/// out-of-order lines and zero gaps,
/// estimates the resolution (the largest power of ten dividing the exact gcd of the
/// sub-second parts when there are at least 16 lines, never finer than the digits the logger
/// wrote) and computes the gaps.
GapSeries build_gap_series(const stream::StreamWindow& window);

/// A deterministic value in [0, 1) from a line location (splitmix64); used for
/// dequantisation and for reproducible sampling.
double location_uniform(const LineLocation& location);

/// The offset within ±resolution/2 by which a line's time is dithered (deterministic, from its
/// location): the same one that dequantises the gap ending at that line (Gap::value), so that
/// stamps cut to the second or millisecond do not look like ticks of a clock.
inline double dither_offset(const LineLocation& location, DurationNs resolution) {
  return resolution > 1 ? (location_uniform(location) - 0.5) * static_cast<double>(resolution) : 0.0;
}

/// The entry's time moved by its dither_offset.
inline TimeNs dithered_time(const stream::Entry& entry, DurationNs resolution) {
  return entry.time + static_cast<TimeNs>(dither_offset(entry.location, resolution));
}
std::uint64_t location_hash(const LineLocation& location);

}  // namespace gapscan::stats
