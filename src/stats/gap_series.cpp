#include <gapscan/stats/gap_series.hpp>

#include <algorithm>
#include <numeric>

namespace gapscan::stats {

std::uint64_t location_hash(const LineLocation& location) {
  std::uint64_t x = (static_cast<std::uint64_t>(location.source) << 48) ^ location.line ^ 0x9e3779b97f4a7c15ull;
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
  bool sorted = true;
  for (std::size_t i = 1; i < n; ++i) {
    if (entries[i].time < entries[i - 1].time) {
      ++series.out_of_order;
      sorted = false;
    }
  }
  if (!sorted) {
    std::stable_sort(series.order.begin(), series.order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return entries[a].time < entries[b].time; });
  }
  if (n == 0) return series;

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

  series.span = entries[series.order.back()].time - entries[series.order.front()].time;
  series.gaps.reserve(n - 1);
  const double resolution = static_cast<double>(series.resolution);
  for (std::size_t i = 1; i < n; ++i) {
    const stream::Entry& previous = entries[series.order[i - 1]];
    const stream::Entry& current = entries[series.order[i]];
    const DurationNs raw = current.time - previous.time;
    if (raw == 0) {
      ++series.zero_gaps;
      continue;
    }
    Gap gap;
    gap.raw = raw;
    gap.value = static_cast<double>(raw);
    if (series.resolution > 1) gap.value += (location_uniform(current.location) - 0.5) * resolution;
    gap.after = static_cast<std::uint32_t>(i);
    series.gaps.push_back(gap);
  }
  return series;
}

}  // namespace gapscan::stats
