#include <gapscan/detect/timeline.hpp>

#include <gapscan/stats/log_histogram.hpp>

#include <algorithm>

namespace gapscan::detect {
namespace {

constexpr std::size_t k_step = TimelineKeeper::k_max_points - 1;  // stretches overlap by one line

/// The stretch a gap belongs to: the one holding both its lines.
std::size_t stretch_of(const stats::Gap& gap) { return (gap.after - 1) / k_step; }

bool in(double value, double lo, double hi) { return value >= lo && value <= hi; }

}  // namespace

void TimelineKeeper::add(const stream::StreamWindow& window, const stats::GapSeries& series) {
  if (series.gaps.empty()) return;
  std::size_t chunk = stretch_of(series.gaps.front());
  for (const stats::Gap& gap : series.gaps) {
    const std::size_t c = stretch_of(gap);
    if (c != chunk) {
      offer(window, series, chunk);
      chunk = c;
    }
    const std::size_t bin = stats::LogHistogram::index_of(static_cast<std::uint64_t>(gap.raw), k_sub_bits);
    if (bin >= k_bins) continue;
    if (m_counts[bin]++ == 0) m_touched.push_back(bin);
    m_time[bin] += static_cast<double>(gap.raw);
  }
  offer(window, series, chunk);
}

void TimelineKeeper::offer(const stream::StreamWindow& window, const stats::GapSeries& series, std::size_t chunk) {
  const std::size_t first = chunk * k_step;
  const std::size_t last = std::min(series.order.size() - 1, first + k_step);
  std::optional<std::uint64_t> hash;
  std::shared_ptr<const Timeline> captured;
  for (std::size_t bin : m_touched) {
    const std::uint32_t count = m_counts[bin];
    const double time = m_time[bin];
    m_counts[bin] = 0;
    m_time[bin] = 0;
    std::optional<Candidate>& best = m_best[bin];
    if (best && (count < best->count || (count == best->count && time < best->time))) continue;
    if (!hash) hash = stats::location_hash(window.entries[series.order[first]].location);
    if (best && count == best->count && time == best->time && *hash >= best->hash) continue;
    if (!captured) captured = std::make_shared<const Timeline>(capture(window, series, first, last));
    best = Candidate{count, time, *hash, captured};
  }
  m_touched.clear();
}

void TimelineKeeper::merge(const TimelineKeeper& other) {
  for (std::size_t bin = 0; bin < k_bins; ++bin) {
    const std::optional<Candidate>& theirs = other.m_best[bin];
    std::optional<Candidate>& best = m_best[bin];
    if (!theirs) continue;
    if (best && (theirs->count < best->count || (theirs->count == best->count && theirs->time < best->time))) continue;
    if (best && theirs->count == best->count && theirs->time == best->time && theirs->hash >= best->hash) continue;
    best = theirs;
  }
}

Timeline TimelineKeeper::capture_most(const stream::StreamWindow& window, const stats::GapSeries& series,
                                      const std::vector<std::uint32_t>& gap_ids) {
  // The lines after the member gaps, in order; the stretch of k_max_points lines whose first
  // gap is a member's and that holds the most members (two pointers).
  std::vector<std::size_t> afters;
  afters.reserve(gap_ids.size());
  for (std::uint32_t id : gap_ids) afters.push_back(series.gaps[id].after);
  std::sort(afters.begin(), afters.end());
  std::size_t first = 0, most = 0;
  for (std::size_t begin = 0, end = 0; begin < afters.size(); ++begin) {
    while (end < afters.size() && afters[end] - afters[begin] < k_step) ++end;
    if (end - begin > most) {
      most = end - begin;
      first = afters[begin] - 1;
    }
  }
  const std::size_t lines = series.order.size();
  if (lines > k_max_points)
    first = std::min(first, lines - k_max_points);  // a full stretch
  else
    first = 0;
  return capture(window, series, first, std::min(lines - 1, first + k_step));
}

Timeline TimelineKeeper::capture(const stream::StreamWindow& window, const stats::GapSeries& series, std::size_t first,
                                 std::size_t last) {
  Timeline timeline;
  timeline.stream = window.key.empty() ? std::string() : std::string(window.key.substr(0, 64));
  timeline.window_lines = series.order.size();
  timeline.first_index = first;
  timeline.points.reserve(last - first + 1);
  const TimeNs start = window.entries[series.order[first]].time;
  DurationNs previous = 0;
  for (std::size_t i = first; i <= last; ++i) {
    const stream::Entry& entry = window.entries[series.order[i]];
    // After a step back of the clock the order restarts; the axis does not go back with it.
    previous = std::max(previous, entry.time - start);
    timeline.points.push_back({previous, entry.location});
  }
  timeline.first = stats::evidence_line(window, window.entries[series.order[first]]);
  timeline.last = stats::evidence_line(window, window.entries[series.order[last]]);
  return timeline;
}

std::optional<Timeline> TimelineKeeper::worst(double lo_ns, double hi_ns, std::string_view prefer) const {
  if (!(hi_ns >= lo_ns) || hi_ns <= 0) return std::nullopt;
  const std::size_t lo_bin =
      stats::LogHistogram::index_of(static_cast<std::uint64_t>(std::max(0.0, lo_ns)), k_sub_bits);
  const std::size_t hi_bin =
      std::min(k_bins - 1, stats::LogHistogram::index_of(static_cast<std::uint64_t>(hi_ns), k_sub_bits));
  const Candidate* chosen = nullptr;
  std::uint64_t chosen_count = 0;
  double chosen_time = 0;
  for (std::size_t bin = lo_bin; bin <= hi_bin; ++bin) {
    if (!m_best[bin]) continue;
    const Candidate& candidate = *m_best[bin];
    std::uint64_t count = 0;
    double time = 0;
    const auto& points = candidate.timeline->points;
    for (std::size_t i = 1; i < points.size(); ++i) {
      const auto gap = static_cast<double>(points[i].offset - points[i - 1].offset);
      if (gap > 0 && in(gap, lo_ns, hi_ns)) {
        ++count;
        time += gap;
      }
    }
    if (count == 0) continue;
    bool better = chosen == nullptr || count > chosen_count;
    if (!better && count == chosen_count) {
      const bool preferred = candidate.timeline->stream == prefer;
      const bool chosen_preferred = chosen->timeline->stream == prefer;
      if (preferred != chosen_preferred) {
        better = preferred;
      } else if (time != chosen_time) {
        better = time > chosen_time;
      } else {
        better = candidate.hash < chosen->hash;
      }
    }
    if (better) {
      chosen = &candidate;
      chosen_count = count;
      chosen_time = time;
    }
  }
  if (chosen == nullptr) return std::nullopt;
  Timeline timeline = *chosen->timeline;
  timeline.lo_ns = lo_ns;
  timeline.hi_ns = hi_ns;
  return timeline;
}

}  // namespace gapscan::detect
