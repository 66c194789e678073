#include <gapscan/detect/probability.hpp>
#include <gapscan/detect/wall_clock.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace gapscan::detect {
namespace {

constexpr std::array<int, 10> k_widths = {1, 2, 3, 4, 5, 6, 8, 10, 12, 15};
constexpr int k_windows = WallClockSlowdown::k_bins * static_cast<int>(k_widths.size());
constexpr double k_min_ratio = 1.2;                          // inside over outside, geometric means
constexpr double k_min_slower = 0.7;                         // of the cycles
constexpr std::size_t k_min_draws = 199, k_max_draws = 999;  // of the turned-cycles null
constexpr double k_min_variance = 1e-4;                      // of ln value within a cycle's sides (1 %)
constexpr std::size_t k_max_beaten = 1;                      // draws at or above the observed best: p <= 2 / 200
constexpr std::size_t k_examples = 8;
constexpr double k_job_share = 0.6;  // of a template's lines in the window or the bin before it

constexpr DurationNs cycle_length(WallClock::Fold fold) {
  return fold == WallClock::Fold::minute ? 60 * k_ns_per_s : 3600 * k_ns_per_s;
}
constexpr std::size_t min_cycles(WallClock::Fold fold) { return fold == WallClock::Fold::minute ? 10 : 4; }

/// The cycle an instant falls in and its bin there.
std::pair<std::int64_t, int> place(TimeNs at, DurationNs cycle) {
  std::int64_t index = at / cycle;
  if (at % cycle < 0) --index;
  const DurationNs into = at - index * cycle;
  return {index, std::clamp(static_cast<int>(into / (cycle / WallClock::k_bins)), 0, WallClock::k_bins - 1)};
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// A window: its start bin and its width's index in k_widths.
struct Window {
  int start, width;
};
Window window_of(int index) {
  return {index % WallClock::k_bins, k_widths[static_cast<std::size_t>(index / WallClock::k_bins)]};
}
bool inside(int bin, int start, int width) { return (bin - start + WallClock::k_bins) % WallClock::k_bins < width; }

/// One cycle's contrast in one window: the kinds' weighted mean of (mean ln inside − mean ln
/// outside), and its variance (their pooled variance of ln value within the two sides over the
/// sum of weights); `d` is NaN where no kind has values on both sides.
struct Contrast {
  float d = std::numeric_limits<float>::quiet_NaN();
  float v = 0;
};

/// Per window, the cycles' contrasts as one random-effects mean (DerSimonian-Laird): each
/// cycle's variance plus tau², the spread of the cycles beyond what their own values explain
/// (a slow spell in one minute, load that changes from minute to minute). Two passes: add(), then
/// settle(), then add_again() with the same contrasts.
struct Tally {
  std::array<double, k_windows> w{}, wd{}, wd2{}, w2{}, tau2{}, rw{}, rwd{};
  std::array<std::uint32_t, k_windows> count{}, slower{};
  void add(int i, const Contrast& c) {
    const auto j = static_cast<std::size_t>(i);
    const double u = 1 / static_cast<double>(c.v), d = c.d;
    w[j] += u;
    wd[j] += u * d;
    wd2[j] += u * d * d;
    w2[j] += u * u;
    ++count[j];
    slower[j] += d > 0 ? 1 : 0;
  }
  void settle() {
    for (std::size_t j = 0; j < tau2.size(); ++j) {
      if (count[j] < 2 || w[j] <= 0) continue;
      const double q = wd2[j] - wd[j] * wd[j] / w[j];
      const double c = w[j] - w2[j] / w[j];
      tau2[j] = c > 0 ? std::max(0.0, (q - (count[j] - 1)) / c) : 0;
    }
  }
  void add_again(int i, const Contrast& c) {
    const auto j = static_cast<std::size_t>(i);
    const double u = 1 / (static_cast<double>(c.v) + tau2[j]);
    rw[j] += u;
    rwd[j] += u * c.d;
  }
  double mean(int i) const {
    const auto j = static_cast<std::size_t>(i);
    return rw[j] > 0 ? rwd[j] / rw[j] : 0;
  }
  double z(int i) const { return mean(i) * std::sqrt(rw[static_cast<std::size_t>(i)]); }
  double score(int i, std::size_t floor_cycles) const {
    const auto j = static_cast<std::size_t>(i);
    if (count[j] < floor_cycles || mean(i) < std::log(k_min_ratio) || slower[j] < k_min_slower * count[j])
      return -std::numeric_limits<double>::infinity();
    return z(i);
  }
  std::pair<int, double> best(std::size_t floor_cycles) const {
    int at = -1;
    double top = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < k_windows; ++i) {
      const double s = score(i, floor_cycles);
      if (s > top) top = s, at = i;
    }
    return {at, top};
  }
};

/// Each cycle's contrast in every window (cycles: cycle -> its kinds' cells).
template <typename Cycles>
std::vector<Contrast> contrasts(const Cycles& cycles) {
  constexpr int k_bins = WallClock::k_bins;
  std::vector<Contrast> contrast(cycles.size() * k_windows);
  {
    std::size_t c = 0;
    std::array<double, k_windows> weighted{}, weights{}, within{}, dof{};
    for (const auto& [index, records] : cycles) {
      weighted.fill(0);
      weights.fill(0);
      within.fill(0);
      dof.fill(0);
      for (const auto* cells : records) {
        std::array<double, k_bins + 1> n{}, sum{}, sq{};
        for (int b = 0; b < k_bins; ++b) {
          const auto i = static_cast<std::size_t>(b);
          n[i + 1] = n[i] + cells->n[i];
          sum[i + 1] = sum[i] + cells->sum[i];
          sq[i + 1] = sq[i] + cells->squares[i];
        }
        const double total_n = n[k_bins], total_sum = sum[k_bins], total_sq = sq[k_bins];
        if (total_n < 3) continue;
        for (int w = 0; w < k_windows; ++w) {
          const auto [start, width] = window_of(w);
          const auto a = static_cast<std::size_t>(start);
          const auto e = static_cast<std::size_t>(start + width);
          const auto part_of = [&](const std::array<double, k_bins + 1>& x) {
            return e <= k_bins ? x[e] - x[a] : x[k_bins] - x[a] + x[e - k_bins];
          };
          const double in_n = part_of(n), out_n = total_n - in_n;
          if (in_n < 1 || out_n < 2) continue;
          const double in_sum = part_of(sum), out_sum = total_sum - in_sum;
          const double in_sq = part_of(sq), out_sq = total_sq - in_sq;
          const double h = in_n * out_n / total_n;
          const auto i = static_cast<std::size_t>(w);
          weighted[i] += h * (in_sum / in_n - out_sum / out_n);
          weights[i] += h;
          within[i] +=
              std::max(0.0, in_sq - in_sum * in_sum / in_n) + std::max(0.0, out_sq - out_sum * out_sum / out_n);
          dof[i] += total_n - 2;
        }
      }
      for (std::size_t i = 0; i < static_cast<std::size_t>(k_windows); ++i) {
        if (weights[i] <= 0 || dof[i] <= 0) continue;
        const double variance = std::max(within[i] / dof[i], k_min_variance);
        contrast[c * k_windows + i] = {static_cast<float>(weighted[i] / weights[i]),
                                       static_cast<float>(variance / weights[i])};
      }
      ++c;
    }
  }
  return contrast;
}

/// The values inside the slowdown's window and outside it, and the longest inside as examples.
template <typename Part>
void describe_window(const Part& p, WallClockSlowdown& out) {
  constexpr int k_bins = WallClock::k_bins;
  const int start = out.start, width = out.width;
  double in_n = 0, in_sum = 0, out_n = 0, out_sum = 0;
  for (const auto& [key, cells] : p.records) {
    for (int b = 0; b < k_bins; ++b) {
      const auto j = static_cast<std::size_t>(b);
      (inside(b, start, width) ? in_n : out_n) += cells.n[j];
      (inside(b, start, width) ? in_sum : out_sum) += cells.sum[j];
    }
  }
  out.values_in = static_cast<std::uint64_t>(in_n);
  out.values_out = static_cast<std::uint64_t>(out_n);
  out.inside_ns = in_n > 0 ? 1e6 * std::exp(in_sum / in_n) : 0;
  out.outside_ns = out_n > 0 ? 1e6 * std::exp(out_sum / out_n) : 0;
  for (int b = 0; b < k_bins; ++b) {
    const stats::GapSample& e = p.examples[static_cast<std::size_t>(b)];
    if (inside(b, start, width) && e.gap > 0) out.examples.push_back(e);
  }
  std::sort(out.examples.begin(), out.examples.end(),
            [](const stats::GapSample& a, const stats::GapSample& b) { return a.gap > b.gap; });
  if (out.examples.size() > k_examples) out.examples.resize(k_examples);
}

/// log10 of the normal distribution's upper tail at z.
double log10_normal_tail(double z) {
  if (z < 30) return std::log10(std::max(0.5 * std::erfc(z / std::sqrt(2.0)), 1e-300));
  return -(z * z / 2 + std::log(z * std::sqrt(2 * 3.14159265358979323846))) / std::log(10.0);
}

/// The kind of a request or a gap: the templates of its first and last lines (of the lines before
/// and after it): one operation, whatever else runs at that moment.
std::uint32_t pair_kind(const stream::Entry& first, const stream::Entry& last) {
  return static_cast<std::uint32_t>(mix((std::uint64_t{first.template_id} << 32) | last.template_id));
}

}  // namespace

std::string_view to_string(WallClockSlowdown::Series series) {
  switch (series) {
    case WallClockSlowdown::Series::durations:
      return "durations";
    case WallClockSlowdown::Series::requests:
      return "requests";
    case WallClockSlowdown::Series::gaps:
      return "gaps";
  }
  return "durations";
}

template <typename Example>
void WallClock::fold(Series series, TimeNs at, double value_ns, std::uint32_t kind, Example&& example) {
  if (!(value_ns > 0)) return;
  const float ln = std::log(static_cast<float>(value_ns / 1e6));  // of ms: squares stay small
  for (const Fold f : {Fold::minute, Fold::hour}) {
    const DurationNs cycle = cycle_length(f);
    if (value_ns > static_cast<double>(cycle) / 10) {
      ++m_unfolded;
      continue;
    }
    const auto [index, bin] = place(at, cycle);
    Part& p = part(series, f);
    if (index >= p.cycle_limit) {
      ++m_unfolded;
      continue;
    }
    Cells& cells = p.records[key_of(index, kind)];
    ++cells.n[static_cast<std::size_t>(bin)];
    cells.sum[static_cast<std::size_t>(bin)] += ln;
    cells.squares[static_cast<std::size_t>(bin)] += ln * ln;
    ++m_folded;
    stats::GapSample& kept = p.examples[static_cast<std::size_t>(bin)];
    if (static_cast<double>(kept.gap) < value_ns) kept = example(static_cast<DurationNs>(value_ns));
    if (p.records.size() > k_max_records) bound(p);
  }
}

void WallClock::bound(Part& p) {
  while (p.records.size() > k_max_records) {
    std::int64_t last = INT64_MIN;
    for (const auto& [key, cells] : p.records) last = std::max(last, cycle_of(key));
    std::erase_if(p.records, [&](const auto& record) {
      if (cycle_of(record.first) != last) return false;
      for (const std::uint32_t n : record.second.n) {
        m_unfolded += n;
        m_folded -= std::min<std::uint64_t>(m_folded, n);
      }
      return true;
    });
    p.cycle_limit = std::min(p.cycle_limit, last);
  }
}

void WallClock::add_line(const stream::StreamWindow& window, const stream::Entry& entry) {
  auto it = m_lines.find(entry.template_id);
  if (it == m_lines.end()) {
    if (m_lines.size() >= k_max_line_templates) return;
    it = m_lines.emplace(entry.template_id, LineTemplate{}).first;
  }
  LineTemplate& t = it->second;
  ++t.lines;
  for (const Fold f : {Fold::minute, Fold::hour})
    ++t.bins[static_cast<std::size_t>(f)][static_cast<std::size_t>(place(entry.time, cycle_length(f)).second)];
  if (entry.time < t.first_time) {
    t.first_time = entry.time;
    t.first = stats::evidence_line(window, entry);
  }
}

void WallClock::add(const stream::StreamWindow& window, const stats::GapSeries& series, bool pacing) {
  if (series.order.empty()) return;
  const std::string stream = window.key.empty() ? std::string() : std::string(window.key.substr(0, 64));
  for (const stream::Entry& entry : window.entries) {
    if (entry.duration_us == stream::Entry::k_no_duration || entry.duration_us == 0) continue;
    const double value = 1e3 * static_cast<double>(entry.duration_us);
    fold(Series::durations, entry.time - static_cast<TimeNs>(value / 2), value, entry.template_id, [&](DurationNs v) {
      stats::GapSample s;
      s.gap = v;
      s.end = entry.time;
      s.stream = stream;
      s.after = stats::evidence_line(window, entry);
      return s;
    });
  }
  const bool keyed = !window.key.empty();
  if (keyed && !pacing && series.order.size() >= 2) {
    const stream::Entry& first = window.entries[series.order.front()];
    const stream::Entry& last = window.entries[series.order.back()];
    const auto span = static_cast<double>(last.time - first.time);
    const auto sample = [&](const stream::Entry& before, const stream::Entry& after) {
      return [&](DurationNs v) {
        stats::GapSample s;
        s.gap = v;
        s.end = after.time;
        s.stream = stream;
        s.before.push_back(stats::evidence_line(window, before));
        s.after = stats::evidence_line(window, after);
        return s;
      };
    };
    fold(Series::requests, first.time + static_cast<TimeNs>(span / 2), span, pair_kind(first, last),
         sample(first, last));
    for (const stats::Gap& gap : series.gaps) {
      if (gap.raw < k_min_gap) continue;
      const stream::Entry& before = window.entries[series.order[gap.after - 1]];
      const stream::Entry& after = window.entries[series.order[gap.after]];
      fold(Series::gaps, before.time + gap.raw / 2, static_cast<double>(gap.raw), pair_kind(before, after),
           sample(before, after));
    }
  }
  // Lines outside requests: of a whole-input stream, of a stream of three lines or fewer (a job's
  // own pid), of a sparse stream (a scheduler's thread: a line every 10 s or less often).
  const auto span =
      static_cast<double>(window.entries[series.order.back()].time - window.entries[series.order.front()].time);
  const bool sparse = span >= 10e9 * static_cast<double>(window.entries.size() - 1);
  if (pacing) {  // its lines are finished requests, but for those that log no duration
    for (const stream::Entry& entry : window.entries)
      if (entry.duration_us == stream::Entry::k_no_duration) add_line(window, entry);
  } else if (!keyed || window.entries.size() <= 3 || sparse) {
    for (const stream::Entry& entry : window.entries) add_line(window, entry);
  }
}

void WallClock::merge(WallClock&& other) {
  m_folded += other.m_folded;
  m_unfolded += other.m_unfolded;
  const auto drop = [&](const Cells& cells) {
    for (const std::uint32_t n : cells.n) {
      m_unfolded += n;
      m_folded -= std::min<std::uint64_t>(m_folded, n);
    }
  };
  for (std::size_t i = 0; i < m_parts.size(); ++i) {
    Part& into = m_parts[i];
    Part& from = other.m_parts[i];
    into.cycle_limit = std::min(into.cycle_limit, from.cycle_limit);
    for (auto& [key, cells] : from.records) {
      if (cycle_of(key) >= into.cycle_limit) {
        drop(cells);
        continue;
      }
      Cells& to = into.records[key];
      for (int b = 0; b < k_bins; ++b) {
        to.n[static_cast<std::size_t>(b)] += cells.n[static_cast<std::size_t>(b)];
        to.sum[static_cast<std::size_t>(b)] += cells.sum[static_cast<std::size_t>(b)];
        to.squares[static_cast<std::size_t>(b)] += cells.squares[static_cast<std::size_t>(b)];
      }
    }
    // Records past a limit set by the other's bound go too.
    std::erase_if(into.records, [&](const auto& record) {
      if (cycle_of(record.first) < into.cycle_limit) return false;
      drop(record.second);
      return true;
    });
    bound(into);
    for (int b = 0; b < k_bins; ++b) {
      stats::GapSample& kept = into.examples[static_cast<std::size_t>(b)];
      stats::GapSample& offered = from.examples[static_cast<std::size_t>(b)];
      if (offered.gap > kept.gap) kept = std::move(offered);
    }
  }
  for (auto& [id, t] : other.m_lines) {
    auto it = m_lines.find(id);
    if (it == m_lines.end()) {
      if (m_lines.size() < k_max_line_templates) m_lines.emplace(id, std::move(t));
      continue;
    }
    LineTemplate& into = it->second;
    into.lines += t.lines;
    for (std::size_t f = 0; f < into.bins.size(); ++f)
      for (std::size_t b = 0; b < into.bins[f].size(); ++b) into.bins[f][b] += t.bins[f][b];
    if (t.first_time < into.first_time) {
      into.first_time = t.first_time;
      into.first = std::move(t.first);
    }
  }
}

std::vector<WallClockSlowdown> WallClock::finish(double alpha) const {
  const double log10_tests = std::log10(static_cast<double>(k_series * k_folds * k_windows));
  std::vector<WallClockSlowdown> found;
  for (const Fold f : {Fold::minute, Fold::hour}) {
    std::optional<WallClockSlowdown> best;
    for (const Series s : {Series::durations, Series::requests, Series::gaps}) {
      std::optional<WallClockSlowdown> one = test(s, f, log10_tests, alpha);
      if (one && (!best || one->log10_p < best->log10_p)) best = std::move(one);
    }
    if (best) {
      name_jobs(*best);
      found.push_back(std::move(*best));
    }
  }
  std::sort(found.begin(), found.end(),
            [](const WallClockSlowdown& a, const WallClockSlowdown& b) { return a.log10_p < b.log10_p; });
  return found;
}

std::optional<WallClockSlowdown> WallClock::test(Series series, Fold fold, double log10_tests, double alpha) const {
  const Part& p = part(series, fold);
  if (p.records.empty()) return std::nullopt;
  // The cycles, in order, each with its kinds' records.
  std::map<std::int64_t, std::vector<const Cells*>> cycles;
  for (const auto& [key, cells] : p.records) cycles[cycle_of(key)].push_back(&cells);
  if (cycles.size() < min_cycles(fold)) return std::nullopt;
  const std::size_t n_cycles = cycles.size();
  const std::vector<Contrast> contrast = contrasts(cycles);
  const std::size_t floor_cycles = min_cycles(fold);
  const auto tally = [&](const std::vector<int>* turns) {
    Tally t;
    for (const bool again : {false, true}) {
      for (std::size_t c = 0; c < n_cycles; ++c) {
        const Contrast* row = &contrast[c * k_windows];
        const int turn = turns != nullptr ? (*turns)[c] : 0;
        for (int w = 0; w < k_windows; ++w) {
          const int start = w % k_bins;
          const Contrast& x = row[(start - turn + k_bins) % k_bins + (w - start)];
          if (std::isnan(x.d)) continue;
          if (again)
            t.add_again(w, x);
          else
            t.add(w, x);
        }
      }
      if (!again) t.settle();
    }
    return t;
  };
  const Tally observed = tally(nullptr);
  const auto [at, top] = observed.best(floor_cycles);
  if (at < 0) return std::nullopt;
  const double log10_p = std::min(0.0, std::max(-300.0, log10_normal_tail(top)) + log10_tests);
  if (log10_p > std::log10(alpha)) return std::nullopt;
  // The null: each cycle turned by its own offset, the wall clock's place lost.
  WallClockSlowdown out;
  std::vector<int> turns(n_cycles);
  // As many draws as 3·10^8 contrasts allow, from 199 to 999: at most one may do as well.
  const auto draws = std::clamp<std::size_t>(300'000'000 / std::max<std::size_t>(1, 2 * n_cycles * k_windows),
                                             k_min_draws, k_max_draws);
  for (std::size_t draw = 0; draw < draws; ++draw) {
    std::size_t c = 0;
    for (const auto& [index, records] : cycles)
      turns[c++] = static_cast<int>(mix((static_cast<std::uint64_t>(index) << 8) ^ draw) % k_bins);
    ++out.draws;
    if (tally(&turns).best(floor_cycles).second >= top && ++out.beaten > k_max_beaten) return std::nullopt;
  }
  // Described by the slowest of the windows inside it that is nearly as clear: a wider window
  // with the slow one inside may have the best t by the noise of ten cycles' spread.
  int shown = at;
  for (int w = 0; w < k_windows; ++w) {
    const auto [s0, w0] = window_of(w);
    const auto [s1, w1] = window_of(at);
    const bool within = (s0 - s1 + k_bins) % k_bins + w0 <= w1;
    if (!within || observed.score(w, floor_cycles) < 0.75 * top) continue;
    // The mean contrast times the root of the width: what a window of the slowdown's own
    // width maximises (a part of it is as slow but holds fewer values; more of the cycle is
    // slower by less).
    const auto excess = [&](int v) { return observed.mean(v) * std::sqrt(static_cast<double>(window_of(v).width)); };
    if (excess(w) > excess(shown)) shown = w;
  }
  const auto i = static_cast<std::size_t>(shown);
  const auto [start, width] = window_of(shown);
  out.series = series;
  out.fold = fold;
  out.start = start;
  out.width = width;
  out.ratio = std::exp(observed.mean(shown));
  out.cycles = observed.count[i];
  out.slower = observed.slower[i];
  out.z = observed.z(shown);
  out.log10_p = log10_p;
  describe_window(p, out);
  return out;
}

void WallClock::name_jobs(WallClockSlowdown& slowdown) const {
  const auto f = static_cast<std::size_t>(slowdown.fold);
  const int from = (slowdown.start - 1 + k_bins) % k_bins;
  const int width = slowdown.width + 1;
  const double window_share = static_cast<double>(width) / k_bins;
  for (const auto& [id, t] : m_lines) {
    if (t.lines < 3) continue;
    std::uint64_t aligned = 0;
    for (int b = 0; b < k_bins; ++b) aligned += inside(b, from, width) ? t.bins[f][static_cast<std::size_t>(b)] : 0;
    const double share = static_cast<double>(aligned) / static_cast<double>(t.lines);
    if (share < std::max(k_job_share, 2 * window_share)) continue;
    slowdown.job_lines.push_back({t.first, t.first_time, t.lines, aligned});
  }
  std::sort(slowdown.job_lines.begin(), slowdown.job_lines.end(), [](const auto& a, const auto& b) {
    return a.aligned != b.aligned ? a.aligned > b.aligned : a.time < b.time;
  });
  if (slowdown.job_lines.size() > 3) slowdown.job_lines.resize(3);
}

}  // namespace gapscan::detect
