#include <gapscan/detect/probability.hpp>
#include <gapscan/detect/wait_points.hpp>
#include <gapscan/stats/gap_pool.hpp>

#include <algorithm>
#include <cmath>

namespace gapscan::detect {

int WaitPoints::bin_of(double gap_ns) {
  if (gap_ns < 1e3) return 0;
  const int bin = static_cast<int>(std::floor(std::log2(gap_ns / 1e3) * k_bins_per_octave));
  return std::clamp(bin, 0, k_bins - 1);
}

double WaitPoints::bin_lo(int bin) { return 1e3 * std::exp2(static_cast<double>(bin) / k_bins_per_octave); }

void WaitPoints::add(const stream::StreamWindow& window, const stats::GapSeries& series) {
  if (series.gaps.empty()) return;
  const SourceId input = window.entries[series.order.front()].location.source;
  Background& background = m_all[input];
  if (background.bins.empty()) background.bins.assign(k_bins, 0);
  const double span =
      static_cast<double>(window.entries[series.order.back()].time - window.entries[series.order.front()].time);
  // Templates seen in this window, and whether a stall followed them: each window counts once.
  m_scratch.clear();
  std::vector<std::uint64_t> stalled;
  for (const stats::Gap& gap : series.gaps) {
    const stream::Entry& before = window.entries[series.order[gap.after - 1]];
    const int bin = bin_of(static_cast<double>(gap.raw));
    ++background.bins[static_cast<std::size_t>(bin)];
    ++background.gaps;
    ++m_gaps;
    if (!window.key.empty()) {  // the request's first line came before the operation the line after logs began
      const stream::Entry& after = window.entries[series.order[gap.after]];
      if (after.duration_us != stream::Entry::k_no_duration && after.duration_us >= 5'000) {
        ++background.timed;
        const auto since = static_cast<double>(after.time - window.entries[series.order.front()].time);
        if (since < 0.5 * 1e3 * static_cast<double>(after.duration_us) - 1e6) {
          ++background.early;
          background.early_us += after.duration_us;
        }
      }
    }
    const std::uint32_t id = before.template_id;
    const std::uint64_t key = key_of(input, id);
    auto it = m_templates.find(key);
    if (id == 0 || (it == m_templates.end() && m_templates.size() >= m_options.max_templates)) {
      ++m_untracked;
      continue;
    }
    if (it == m_templates.end()) it = m_templates.emplace(key, Template{}).first;
    Template& entry = it->second;
    entry.input = input;
    if (entry.bins.empty()) entry.bins.assign(k_bins, 0);
    ++entry.bins[static_cast<std::size_t>(bin)];
    ++entry.gaps;
    entry.times.add(before.time, static_cast<double>(gap.raw));
    m_scratch.push_back(key);
    if (static_cast<double>(gap.raw) >= m_options.stall_min_ns) {
      const stream::Entry& after = window.entries[series.order[gap.after]];
      if (after.duration_us != stream::Entry::k_no_duration) {
        const double logged = static_cast<double>(after.duration_us) * 1e3, raw = static_cast<double>(gap.raw);
        if (logged >= 0.5 * raw && logged <= 1.1 * raw + 2e6) {
          if (entry.reported.empty()) entry.reported.assign(k_bins, 0);
          ++entry.reported[static_cast<std::size_t>(bin)];
        }
      }
      keep_example(entry, window, series, gap, stats::location_hash(after.location));
      stalled.push_back(key);
    }
  }
  for (std::vector<std::uint64_t>* keys : {&m_scratch, &stalled}) {
    std::sort(keys->begin(), keys->end());
    keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
  }
  for (const std::uint64_t key : m_scratch) ++m_templates[key].windows;
  for (const std::uint64_t key : stalled) {
    Template& entry = m_templates[key];
    ++entry.stall_windows;
    entry.stall_span_ns += span;
  }
}

WaitPoints::Timing WaitPoints::timing(SourceId input) const {
  const auto it = m_all.find(input);
  if (it == m_all.end()) return {};
  const Background& b = it->second;
  const double mean_ns = b.early == 0 ? 0 : 1e3 * static_cast<double>(b.early_us) / static_cast<double>(b.early);
  return {b.timed, b.early, mean_ns};
}

std::pair<double, std::uint64_t> WaitPoints::share_in(SourceId input, std::uint32_t id, double lo_ns,
                                                      double hi_ns) const {
  const auto it = m_templates.find(key_of(input, id));
  if (it == m_templates.end() || it->second.bins.empty() || it->second.gaps == 0) return {0, 0};
  std::uint64_t in = 0;
  for (int b = bin_of(lo_ns); b <= bin_of(hi_ns) && b < k_bins; ++b) in += it->second.bins[static_cast<std::size_t>(b)];
  return {static_cast<double>(in) / static_cast<double>(it->second.gaps), it->second.gaps};
}

std::pair<double, std::uint64_t> WaitPoints::input_share_in(SourceId input, double lo_ns, double hi_ns) const {
  const auto it = m_all.find(input);
  if (it == m_all.end() || it->second.gaps == 0) return {0, 0};
  std::uint64_t in = 0;
  for (int b = bin_of(lo_ns); b <= bin_of(hi_ns) && b < k_bins; ++b) in += it->second.bins[static_cast<std::size_t>(b)];
  return {static_cast<double>(in) / static_cast<double>(it->second.gaps), it->second.gaps};
}

namespace {

/// The examples' order: the longest stalls first (ties by hash), then the rest by hash.
bool longer(const stats::GapSample& a, const stats::GapSample& b) {
  return a.gap != b.gap ? a.gap > b.gap : a.hash < b.hash;
}

}  // namespace

void WaitPoints::trim_examples(std::vector<stats::GapSample>& examples) const {
  // Three quarters the longest stalls (the stalls of a rare wait are the template's longest gaps),
  // the rest by line hash among the others (what a stall after this line usually looks like): the
  // same in any grouping of merges.
  const std::size_t longest = longest_examples();
  if (examples.size() <= m_options.examples) return;
  std::sort(examples.begin(), examples.end(), longer);
  std::sort(examples.begin() + static_cast<std::ptrdiff_t>(longest), examples.end(),
            [](const stats::GapSample& a, const stats::GapSample& b) { return a.hash < b.hash; });
  examples.resize(m_options.examples);
}

void WaitPoints::keep_example(Template& entry, const stream::StreamWindow& window, const stats::GapSeries& series,
                              const stats::Gap& gap, std::uint64_t hash) {
  stats::GapSample sample;
  const stream::Entry& after = window.entries[series.order[gap.after]];
  sample.hash = hash;
  sample.gap = gap.raw;
  sample.end = after.time;
  sample.stream = window.key.empty() ? std::string() : std::string(window.key.substr(0, 64));
  for (std::uint32_t back = 2; back >= 1; --back) {
    if (gap.after >= back)
      sample.before.push_back(stats::evidence_line(window, window.entries[series.order[gap.after - back]]));
  }
  sample.after = stats::evidence_line(window, after);
  // The request's first and last lines, for evidence of scope "request".
  sample.context.push_back(stats::evidence_line(window, window.entries[series.order.front()]));
  sample.context.push_back(stats::evidence_line(window, window.entries[series.order.back()]));
  entry.examples.push_back(std::move(sample));
  if (entry.examples.size() >= 2 * m_options.examples) trim_examples(entry.examples);
}

void WaitPoints::merge(WaitPoints&& other) {
  for (auto& [input, from] : other.m_all) {
    Background& into = m_all[input];
    if (into.bins.empty()) into.bins.assign(k_bins, 0);
    for (std::size_t b = 0; b < from.bins.size(); ++b) into.bins[b] += from.bins[b];
    into.gaps += from.gaps;
    into.timed += from.timed;
    into.early += from.early;
    into.early_us += from.early_us;
  }
  m_gaps += other.m_gaps;
  m_untracked += other.m_untracked;
  // The other's templates in the order of their keys, so that which are kept beyond the cap does
  // not depend on a hash table's order.
  std::vector<std::uint64_t> keys;
  keys.reserve(other.m_templates.size());
  for (const auto& [key, entry] : other.m_templates) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  for (const std::uint64_t key : keys) {
    Template& from = other.m_templates[key];
    auto it = m_templates.find(key);
    if (it == m_templates.end()) {
      if (m_templates.size() >= m_options.max_templates) {
        m_untracked += from.gaps;
        continue;
      }
      m_templates.emplace(key, std::move(from));
      continue;
    }
    Template& into = it->second;
    if (into.bins.empty()) into.bins.assign(k_bins, 0);
    for (std::size_t b = 0; b < from.bins.size(); ++b) into.bins[b] += from.bins[b];
    if (!from.reported.empty()) {
      if (into.reported.empty()) into.reported.assign(k_bins, 0);
      for (std::size_t b = 0; b < from.reported.size(); ++b) into.reported[b] += from.reported[b];
    }
    into.gaps += from.gaps;
    into.windows += from.windows;
    into.stall_windows += from.stall_windows;
    into.stall_span_ns += from.stall_span_ns;
    into.times.merge(from.times);
    for (stats::GapSample& sample : from.examples) into.examples.push_back(std::move(sample));
    trim_examples(into.examples);
  }
}

namespace {

/// The value below which `share` of the counts in bins [lo, hi] lie, interpolated in its bin.
double quantile(const std::vector<std::uint32_t>& bins, int lo, int hi, double share) {
  std::uint64_t total = 0;
  for (int b = lo; b <= hi; ++b) total += bins[static_cast<std::size_t>(b)];
  if (total == 0) return WaitPoints::bin_lo(lo);
  const double want = share * static_cast<double>(total);
  double seen = 0;
  for (int b = lo; b <= hi; ++b) {
    const double count = bins[static_cast<std::size_t>(b)];
    if (count > 0 && seen + count >= want) {
      const double f = std::clamp((want - seen) / count, 0.0, 1.0);
      return WaitPoints::bin_lo(b) * std::exp2(f / WaitPoints::k_bins_per_octave);
    }
    seen += count;
  }
  return WaitPoints::bin_hi(hi);
}

}  // namespace

WaitPoints::Band WaitPoints::test_band(const Template& entry, int lo, int hi) const {
  Band band{lo, hi, 0, 0};
  std::uint64_t all = 0, reported = 0;
  const Background& background = m_all.at(entry.input);
  for (int b = lo; b <= hi; ++b) {
    band.count += entry.bins[static_cast<std::size_t>(b)];
    all += background.bins[static_cast<std::size_t>(b)];
    if (!entry.reported.empty()) reported += entry.reported[static_cast<std::size_t>(b)];
  }
  band.reported = reported;
  const auto n = static_cast<double>(entry.gaps);
  const auto k = static_cast<double>(band.count);
  // Null 1, the line before does not matter: the input's other templates' gaps say how often a
  // gap lands in the band.
  const double others = static_cast<double>(background.gaps - entry.gaps);
  const double others_in = static_cast<double>(all - band.count);
  const double q_others = (others_in + 0.5) / (others + 1);
  const double log_p_others = log_poisson_tail(n * q_others, k);
  // Null 2, the band is the tail of this template's own gaps: the gaps below it, their top fifth
  // read as a power-law tail (Hill's estimator over the bins: xi = the mean of ln(x / u) above
  // u, their 80th percentile), extrapolated to the band: P(X >= L) = 0.2 (L / u)^(-1/xi).
  std::uint64_t below = 0;
  for (int b = 0; b < lo; ++b) below += entry.bins[static_cast<std::size_t>(b)];
  double log_p_self = 0;
  if (below > 0) {
    const double u = quantile(entry.bins, 0, lo - 1, 0.8);
    double above = 0, excess = 0;
    for (int b = 0; b < lo; ++b) {
      const double mid = std::sqrt(bin_lo(b) * bin_hi(b));
      if (mid <= u) continue;
      above += entry.bins[static_cast<std::size_t>(b)];
      excess += entry.bins[static_cast<std::size_t>(b)] * std::log(mid / u);
    }
    // At least one bin's width: a body that ends in one bin has no tail to speak of.
    const double xi = std::max(std::log(2.0) / k_bins_per_octave, above > 0 ? excess / above : 0.0);
    const double share = 0.2 * static_cast<double>(below) / n;
    const double tail = share * std::exp(-std::log(std::max(1.0, bin_lo(lo) / u)) / xi);
    log_p_self = log_poisson_tail(n * tail, k);
  }
  // Both nulls must fail (the larger p); where the input has few other gaps, or the line after
  // reports most of the band's stalls as waits, only the second.
  const bool reported_waits = static_cast<double>(reported) >= k_reported_share * static_cast<double>(band.count);
  band.log10_p =
      to_log10(others >= k_min_background && !reported_waits ? std::max(log_p_others, log_p_self) : log_p_self);
  return band;
}

std::optional<Finding> WaitPoints::test(const Template& entry, std::uint32_t id, double log10_correction) const {
  if (entry.gaps < m_options.min_gaps || entry.bins.empty()) return std::nullopt;
  const int last = k_bins - 1;
  const double p10 = quantile(entry.bins, 0, last, 0.1);
  const double threshold = std::max(m_options.stall_min_ns, m_options.min_ratio * p10);
  // The first bin wholly at or above the threshold.
  int first_stall = bin_of(threshold);
  if (bin_lo(first_stall) < threshold) ++first_stall;
  if (first_stall > last) return std::nullopt;
  std::uint64_t stalls = 0;
  int lo = -1, hi = -1;
  for (int b = first_stall; b <= last; ++b) {
    const std::uint32_t count = entry.bins[static_cast<std::size_t>(b)];
    if (count == 0) continue;
    stalls += count;
    if (lo < 0) lo = b;
    hi = b;
  }
  if (stalls < m_options.min_stalls ||
      static_cast<double>(stalls) > m_options.max_stall_share * static_cast<double>(entry.gaps))
    return std::nullopt;
  // Bands tried: all the stalls (a wait without a value of its own); each cluster of them (stalls
  // with less than an octave of empty bins between them); the tightest three bins (~30 %: a timer).
  std::vector<Band> bands{test_band(entry, lo, hi)};
  std::vector<std::pair<int, int>> clusters;
  for (int b = lo; b <= hi; ++b) {
    if (entry.bins[static_cast<std::size_t>(b)] == 0) continue;
    if (!clusters.empty() && b - clusters.back().second <= k_bins_per_octave)
      clusters.back().second = b;
    else
      clusters.emplace_back(b, b);
  }
  if (clusters.size() > 1) {
    for (const auto& [from, to] : clusters) {
      std::uint64_t count = 0;
      for (int b = from; b <= to; ++b) count += entry.bins[static_cast<std::size_t>(b)];
      if (count >= m_options.min_stalls) bands.push_back(test_band(entry, from, to));
    }
  }
  Band tight{0, 0, 0, 0};
  for (int b = lo; b + 2 <= hi; ++b) {
    std::uint64_t count = 0;
    for (int k = b; k <= b + 2; ++k) count += entry.bins[static_cast<std::size_t>(k)];
    if (count > tight.count) tight = {b, b + 2, count, 0};
  }
  if (tight.count >= m_options.min_stalls && tight.count * 2 >= stalls && (tight.lo != lo || tight.hi != hi))
    bands.push_back(test_band(entry, tight.lo, tight.hi));
  std::size_t chosen = 0;
  for (std::size_t i = 1; i < bands.size(); ++i)
    if (bands[i].log10_p < bands[chosen].log10_p) chosen = i;
  const Band best = bands[chosen];
  const bool cluster = chosen > 0;
  const double log10_p = best.log10_p + log10_correction + std::log10(static_cast<double>(bands.size()));
  if (log10_p > std::log10(m_options.alpha)) return std::nullopt;

  Finding f;
  f.timing = entry.times.timing(bin_lo(best.lo), bin_hi(best.hi));
  f.lo_ns = quantile(entry.bins, best.lo, best.hi, 0.1);
  f.centre_ns = quantile(entry.bins, best.lo, best.hi, 0.5);
  f.hi_ns = quantile(entry.bins, best.lo, best.hi, 0.9);
  // The kept stalls in the band give exact values: their median is the centre when enough.
  // The centre from the examples kept by hash (those kept for being longest would pull it up),
  // or all of them when none was cut.
  std::vector<double> exact;
  std::vector<stats::GapSample> examples = entry.examples;
  const bool cut = examples.size() > m_options.examples;
  trim_examples(examples);
  for (std::size_t i = 0; i < examples.size(); ++i) {
    const stats::GapSample& sample = examples[i];
    const double gap = static_cast<double>(sample.gap);
    if (gap >= bin_lo(best.lo) && gap < bin_hi(best.hi)) {
      if (!cut || i >= longest_examples()) exact.push_back(gap);
      f.samples.push_back(sample);
    }
  }
  if (exact.size() >= 3) {
    std::sort(exact.begin(), exact.end());
    f.centre_ns = exact[exact.size() / 2];
    f.lo_ns = std::min(f.lo_ns, f.centre_ns);
    f.hi_ns = std::max(f.hi_ns, f.centre_ns);
  }
  std::stable_sort(f.samples.begin(), f.samples.end(), [&](const stats::GapSample& a, const stats::GapSample& b) {
    return std::abs(static_cast<double>(a.gap) - f.centre_ns) < std::abs(static_cast<double>(b.gap) - f.centre_ns);
  });
  f.rel_width = (f.hi_ns - f.lo_ns) / f.centre_ns;
  f.gaps = best.count;
  f.requests = std::min<std::uint64_t>(entry.stall_windows, best.count);
  f.requests_detected = 0;
  double member = 0;
  for (int b = best.lo; b <= best.hi; ++b)
    member += entry.bins[static_cast<std::size_t>(b)] * std::sqrt(bin_lo(b) * bin_hi(b));
  f.member_time_ns = member;
  f.requests_span_ns = std::max(entry.stall_span_ns, member);
  f.wall_share = f.requests_span_ns > 0 ? std::min(1.0, member / f.requests_span_ns) : 0;
  f.shape = static_cast<double>(best.count) > 1.5 * static_cast<double>(std::max<std::uint64_t>(1, f.requests))
                ? Shape::per_op
                : Shape::one_off;
  f.log10_p = log10_p;
  f.log10_p_pooled = log10_p;
  WaitPointDetail detail;
  detail.template_id = id;
  detail.gaps_after = entry.gaps;
  detail.stalls = stalls;
  detail.in_band = best.count;
  detail.threshold_ns = threshold;
  detail.usual_ns = quantile(entry.bins, 0, std::max(0, first_stall - 1), 0.5);
  detail.cluster = cluster;
  detail.reported = best.reported;
  f.wait_point = detail;
  return f;
}

std::vector<Finding> WaitPoints::finish() const {
  std::size_t tested = 0;
  for (const auto& [key, entry] : m_templates) tested += entry.gaps >= m_options.min_gaps ? 1 : 0;
  const double correction = std::log10(static_cast<double>(std::max<std::size_t>(1, tested)));
  std::vector<std::uint64_t> keys;
  for (const auto& [key, entry] : m_templates) keys.push_back(key);
  std::sort(keys.begin(), keys.end());  // the same order on any machine
  std::vector<Finding> found;
  for (const std::uint64_t key : keys) {
    if (auto f = test(m_templates.at(key), static_cast<std::uint32_t>(key), correction)) found.push_back(std::move(*f));
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const Finding& a, const Finding& b) { return a.log10_p < b.log10_p; });
  if (found.size() > m_options.max_findings) found.resize(m_options.max_findings);
  return found;
}

}  // namespace gapscan::detect
