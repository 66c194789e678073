#include <gapscan/stats/gap_series.hpp>

#include <algorithm>
#include <numeric>

namespace gapscan::stats {

std::uint64_t location_hash(const LineLocation& location) {
  std::uint64_t x = (static_cast<std::uint64_t>(location.salt) << 32) ^ location.line ^ 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

double location_uniform(const LineLocation& location) {
  return static_cast<double>(location_hash(location) >> 11) * 0x1.0p-53;
}

GapSeries build_gap_series(const stream::StreamWindow& window) {
  GapSeries series;
  const auto& entries = window.entries;
  const std::size_t n = entries.size();
  series.order.resize(n);
  std::iota(series.order.begin(), series.order.end(), 0u);
  if (n == 0) return series;

  // Segments: a line more than k_clock_step behind the latest time so far, followed by a
  // line that stays behind too, means the clock was set back (NTP step, a VM restored, a
  // zone change the reader did not know of): the lines after it start a new segment, and
  // no gap is measured across the step. A lone line behind is only out of order (a line
  // stamped at a request's start but written at its end) and is sorted in.
  std::vector<std::uint32_t> starts{0};
  TimeNs latest = entries[0].time;
  for (std::size_t i = 1; i < n; ++i) {
    const TimeNs time = entries[i].time;
    if (time < latest - k_clock_step && i + 1 < n && entries[i + 1].time < latest - k_clock_step) {
      const DurationNs step = latest - time;
      ++series.clock_steps;
      if (step > series.largest_clock_step) {
        series.largest_clock_step = step;
        series.largest_clock_step_at = entries[i].location;
      }
      starts.push_back(static_cast<std::uint32_t>(i));
      latest = time;
      continue;
    }
    if (time < entries[i - 1].time) ++series.out_of_order;
    latest = std::max(latest, time);
  }
  starts.push_back(static_cast<std::uint32_t>(n));
  if (series.out_of_order > 0) {
    for (std::size_t s = 0; s + 1 < starts.size(); ++s) {
      std::stable_sort(series.order.begin() + starts[s], series.order.begin() + starts[s + 1],
                       [&](std::uint32_t a, std::uint32_t b) { return entries[a].time < entries[b].time; });
    }
  }

  // Resolution: the largest power of ten dividing every sub-second part (loggers tick in
  // powers of ten; a gcd such as 7 ms only means the lines were regular), trusted when
  // there are enough lines for it not to be a coincidence; never finer than the digits the
  // logger wrote.
  std::int64_t decimal = k_ns_per_s;
  std::uint8_t digits = 0;
  for (const auto& entry : entries) {
    std::int64_t sub = entry.time % k_ns_per_s;
    if (sub < 0) sub += k_ns_per_s;
    while (decimal > 1 && sub % decimal != 0) decimal /= 10;
    digits = std::max(digits, entry.time_digits);
  }
  std::int64_t nominal = 1;
  for (int i = digits; i < 9; ++i) nominal *= 10;
  series.resolution = n >= 16 ? std::max(decimal, nominal) : nominal;

  series.gaps.reserve(n - 1);
  std::size_t segment = 0;
  for (std::size_t s = 0; s + 1 < starts.size(); ++s) {
    series.span += entries[series.order[starts[s + 1] - 1]].time - entries[series.order[starts[s]]].time;
  }
  for (std::size_t i = 1; i < n; ++i) {
    if (i == starts[segment + 1]) {  // the first line after a clock step: no gap
      ++segment;
      continue;
    }
    const stream::Entry& previous = entries[series.order[i - 1]];
    const stream::Entry& current = entries[series.order[i]];
    const DurationNs raw = current.time - previous.time;
    if (raw == 0) {
      ++series.zero_gaps;
      continue;
    }
    Gap gap;
    gap.raw = raw;
    gap.value = static_cast<double>(raw) + dither_offset(current.location, series.resolution);
    // Times finer than the digits their stamps were written with (a slow-log entry's whole-second
    // start plus its Query_time): the gap may be below the resolution, never below zero.
    if (gap.value <= 0) gap.value = static_cast<double>(raw);
    gap.after = static_cast<std::uint32_t>(i);
    series.gaps.push_back(gap);
  }
  return series;
}

}  // namespace gapscan::stats
