#include <gapscan/detect/durations.hpp>
#include <gapscan/detect/lattice_fold.hpp>
#include <gapscan/detect/mode_scan.hpp>
#include <gapscan/detect/probability.hpp>
#include <gapscan/stats/gap_series.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gapscan::detect {
namespace {

/// Keeps the elements with the smallest hashes: candidates under a falling threshold, cut back
/// to `keep` when they are twice as many (O(1) per element, the same set for any order).
template <typename T>
void keep_smallest(std::vector<T>& items, std::uint64_t& threshold, std::size_t keep) {
  if (items.size() < 2 * keep) return;
  const auto middle = items.begin() + static_cast<std::ptrdiff_t>(keep);
  std::nth_element(items.begin(), middle, items.end(), [](const T& a, const T& b) { return a.hash < b.hash; });
  threshold = middle->hash;
  items.resize(keep);
}

}  // namespace

void DurationAnalyzer::add(std::string_view group_key, DurationNs value, std::uint8_t digits, const LineLocation& where,
                           std::string_view line, std::string_view fields, TimeNs time) {
  if (value <= 0) return;
  ++m_values;
  group_key = group_key.substr(0, 64);
  auto it = m_groups.find(group_key);
  if (it == m_groups.end()) {
    // The max_groups groups with the first keys (in key order) are kept: the same groups for any
    // order of lines and any grouping of merged analyses.
    if (m_groups.size() >= m_options.max_groups) {
      if (group_key >= m_groups.rbegin()->first) {
        ++m_dropped_values;
        return;
      }
      m_dropped_values += m_groups.rbegin()->second.seen;
      m_groups.erase(std::prev(m_groups.end()));
    }
    it = m_groups.emplace(std::string(group_key), Group{}).first;
  }
  Group& group = it->second;
  ++group.seen;
  group.digits = std::max(group.digits, digits);
  const std::uint64_t hash = stats::location_hash(where);
  if (hash < group.threshold) {
    // Dequantised like gaps: a value written with d fraction digits is spread over its last
    // digit, so that the logger's rounding does not make modes.
    DurationNs resolution = 1;
    for (int d = digits; d < 9; ++d) resolution *= 10;
    const double spread = static_cast<double>(value) + stats::dither_offset(where, resolution);
    group.values.push_back({hash, value, std::max(1.0, spread), time});
    keep_smallest(group.values, group.threshold, m_options.max_values);
  }
  if (hash < group.example_threshold) {
    group.examples.push_back(
        {hash, value, where, std::string(line.substr(0, 320)), std::string(fields.substr(0, 512))});
    keep_smallest(group.examples, group.example_threshold, k_examples);
  }
}

namespace {

/// One mode of a group's durations: its members' values (sorted) and its p-value.
struct DurationMode {
  std::vector<double> members;
  double log10_p = 0;
  std::size_t parts = 1;  ///< scan modes folded into it
};

/// Folds neighbouring modes that are one band: a service time with a spread of ±10 % comes out
/// of the scan as two or three tight modes side by side (the scan removes the first and finds
/// the next in what is left). Two modes are one band when the values between them are at least
/// half as dense (per unit of ln value) as the sparser of the two.
std::vector<DurationMode> fold_bands(std::vector<DurationMode> modes, const std::vector<double>& sorted_values) {
  std::sort(modes.begin(), modes.end(),
            [](const DurationMode& a, const DurationMode& b) { return a.members.front() < b.members.front(); });
  const auto count_between = [&](double lo, double hi) {
    return static_cast<double>(std::upper_bound(sorted_values.begin(), sorted_values.end(), hi) -
                               std::lower_bound(sorted_values.begin(), sorted_values.end(), lo));
  };
  const auto density = [](const DurationMode& m) {
    const double width = std::max(1e-3, std::log(m.members.back() / m.members.front()));
    return static_cast<double>(m.members.size()) / width;
  };
  std::vector<DurationMode> out;
  for (DurationMode& mode : modes) {
    if (!out.empty()) {
      DurationMode& last = out.back();
      const double lo = last.members.back(), hi = mode.members.front();
      if (hi / lo < 1.25) {
        // Overlapping modes (the scan took the first one's points out) are one band outright.
        const double between = std::max(0.0, count_between(lo, hi) - 2);  // the two ends are members
        const double width = std::max(1e-3, std::log(hi / lo));
        if (hi <= lo || between / width >= 0.5 * std::min(density(last), density(mode))) {
          // One band: every value from the first mode's low end to the second's high end.
          const auto from = std::lower_bound(sorted_values.begin(), sorted_values.end(), last.members.front());
          const auto to = std::upper_bound(sorted_values.begin(), sorted_values.end(), mode.members.back());
          const double last_high = last.members.back();
          last.members.assign(from,
                              std::max(to, std::upper_bound(sorted_values.begin(), sorted_values.end(), last_high)));
          last.log10_p = std::min(last.log10_p, mode.log10_p);
          last.parts += mode.parts;
          continue;
        }
      }
    }
    out.push_back(std::move(mode));
  }
  return out;
}

/// The centre (median) and the shortest interval holding 80 % of the sorted members.
void describe_members(const std::vector<double>& members, Finding& f) {
  const std::size_t n = members.size();
  f.centre_ns = n % 2 == 1 ? members[n / 2] : (members[n / 2 - 1] + members[n / 2]) / 2;
  const auto k = static_cast<std::size_t>(std::ceil(0.8 * static_cast<double>(n)));
  double best = members.back() - members.front();
  f.lo_ns = members.front();
  f.hi_ns = members.back();
  for (std::size_t i = 0; i + k <= n && k > 0; ++i) {
    if (members[i + k - 1] - members[i] < best) {
      best = members[i + k - 1] - members[i];
      f.lo_ns = members[i];
      f.hi_ns = members[i + k - 1];
    }
  }
  f.rel_width = f.centre_ns > 0 ? (f.hi_ns - f.lo_ns) / f.centre_ns : 0;
}

/// Whether the mode described in `f` is the ceiling of its group's `sorted` values: a tight
/// pile at a round value (a multiple of 100 ms from 1 s, of 50 ms from 100 ms, else of 10 ms),
/// at or just above it (a timer fires late, never early), none longer but a stray one in 200,
/// and a tenth of the pile or more that ended sooner.
std::optional<CapDetail> cap_of(const Finding& f, const std::vector<double>& sorted, std::size_t members) {
  constexpr double k_max_rel_width = 0.01;
  if (f.rel_width > k_max_rel_width || f.centre_ns < 10e6 || sorted.empty()) return std::nullopt;
  const double step = f.centre_ns >= 1e9 ? 100e6 : f.centre_ns >= 100e6 ? 50e6 : 10e6;
  const double value = std::round(f.lo_ns / step) * step;
  if (value <= 0 || f.lo_ns < value * 0.998 - 0.5e6 || f.centre_ns > value * 1.01 + 3e6) return std::nullopt;
  CapDetail cap;
  cap.value_ns = value;
  const double above = f.hi_ns * 1.002 + 2e6, below = f.lo_ns * 0.98;
  cap.longer = static_cast<std::uint64_t>(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), above));
  cap.shorter = static_cast<std::uint64_t>(std::lower_bound(sorted.begin(), sorted.end(), below) - sorted.begin());
  const auto n = static_cast<double>(sorted.size());
  if (static_cast<double>(cap.longer) > std::max(1.0, 0.005 * n)) return std::nullopt;
  if (cap.shorter < std::max<std::size_t>(5, members / 10)) return std::nullopt;
  return cap;
}

/// When the stalls (values within [lo, hi]) happened among all the group's values (`timed`:
/// (time, value), sorted by time): a window holds 90 % of them in the fewest values (grown over
/// the stalls next to it), 80 % or
/// more of its values are stalls, 5 % or less of the values outside it (10 of them at least, and
/// as many as the stalls), and so many stalls in so few values has p <= 1e-6; else scattered
/// when their counts in 4-10 stretches of equally many values fit one steady rate (chi-square
/// p >= 0.01), the stalls are half of the values or fewer and span half the run or more.
std::optional<TimingDetail> timing_of(const std::vector<std::pair<TimeNs, double>>& timed, double lo, double hi) {
  constexpr std::size_t k_min_stalls = 5;
  std::vector<std::size_t> stalls;  // indices into `timed`
  for (std::size_t i = 0; i < timed.size(); ++i) {
    if (timed[i].second >= lo && timed[i].second <= hi) stalls.push_back(i);
  }
  const std::size_t n = timed.size(), m = stalls.size();
  if (m < k_min_stalls || n < 2 * k_min_stalls || timed.back().first <= timed.front().first) return std::nullopt;
  const double rate = static_cast<double>(m) / static_cast<double>(n);
  // The window: 90 % of the stalls in the fewest values.
  const auto k = static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(m)));
  std::size_t best = 0;
  for (std::size_t i = 0; i + k <= m; ++i) {
    if (stalls[i + k - 1] - stalls[i] < stalls[best + k - 1] - stalls[best]) best = i;
  }
  // Grown over the stalls next to it: inside a dead server's stretch every value is one.
  const auto is_stall = [&](std::size_t i) { return timed[i].second >= lo && timed[i].second <= hi; };
  std::size_t first = stalls[best], last = stalls[best + k - 1];
  while (first > 0 && is_stall(first - 1)) --first;
  while (last + 1 < n && is_stall(last + 1)) ++last;
  TimingDetail window;
  window.start = timed[first].first;
  window.end = timed[last].first;
  for (std::size_t i = 0; i < n; ++i) {
    const bool in = timed[i].first >= window.start && timed[i].first <= window.end;
    const bool stall = is_stall(i);
    (in ? window.inside : window.outside) += 1;
    (in ? window.inside_stalls : window.outside_stalls) += stall ? 1 : 0;
  }
  const double inside_rate = static_cast<double>(window.inside_stalls) / static_cast<double>(window.inside);
  const double outside_rate =
      window.outside > 0 ? static_cast<double>(window.outside_stalls) / static_cast<double>(window.outside) : 1;
  window.log10_p = to_log10(log_binomial_tail(window.inside, window.inside_stalls, rate));
  if (inside_rate >= 0.8 && outside_rate <= 0.05 && window.outside >= std::max<std::size_t>(10, m) &&
      window.log10_p <= -6)
    return window;

  // A steady rate: the stalls' counts in stretches of equally many values.
  if (rate > 0.5) return std::nullopt;
  const std::size_t bins = std::clamp<std::size_t>(m / 4, 4, 10);
  double chi2 = 0;
  std::size_t s = 0;
  for (std::size_t b = 0; b < bins; ++b) {
    const std::size_t from = b * n / bins, to = (b + 1) * n / bins;
    std::size_t count = 0;
    while (s < m && stalls[s] < to) {
      ++count;
      ++s;
    }
    const double expected = rate * static_cast<double>(to - from);
    chi2 += (static_cast<double>(count) - expected) * (static_cast<double>(count) - expected) / expected;
  }
  const double dof = static_cast<double>(bins - 1);
  const double p = 1 - std::exp(log_gamma_p(dof / 2, chi2 / 2));
  const TimeNs run = timed.back().first - timed.front().first;
  const TimeNs span = timed[stalls.back()].first - timed[stalls.front()].first;
  if (p < 0.01 || static_cast<double>(span) < 0.5 * static_cast<double>(run)) return std::nullopt;
  TimingDetail scattered;
  scattered.kind = TimingDetail::Kind::scattered;
  scattered.start = timed.front().first;
  scattered.end = timed.back().first;
  scattered.inside = n;
  scattered.inside_stalls = m;
  scattered.log10_p = std::log10(std::max(p, 1e-300));
  return scattered;
}

}  // namespace

std::vector<double> DurationAnalyzer::scan_group(Group& group, std::vector<std::vector<double>>& modes,
                                                 std::vector<double>& log10_ps) const {
  std::sort(group.values.begin(), group.values.end(), [](const Value& a, const Value& b) { return a.hash < b.hash; });
  if (group.values.size() > m_options.max_values) group.values.resize(m_options.max_values);
  std::vector<ScanPoint> points;
  points.reserve(group.values.size());
  for (std::size_t i = 0; i < group.values.size(); ++i)
    points.push_back({std::log(group.values[i].spread), 1.0, static_cast<std::uint32_t>(i)});
  double resolution = 1;
  for (int d = group.digits; d < 9; ++d) resolution *= 10;
  ScanOptions options;
  options.alpha = m_options.alpha;
  options.min_count = m_options.min_members;
  options.resolution_ns = resolution;
  for (const ScanMode& mode : scan_modes(std::move(points), options)) {
    std::vector<double> members;
    for (std::uint32_t id : mode.members) members.push_back(static_cast<double>(group.values[id].value));
    std::sort(members.begin(), members.end());
    modes.push_back(std::move(members));
    log10_ps.push_back(mode.log10_p);
  }
  std::vector<double> sorted;
  sorted.reserve(group.values.size());
  for (const Value& v : group.values) sorted.push_back(static_cast<double>(v.value));
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

void DurationAnalyzer::fold_group_lattice(const Group& group, std::vector<Finding>& group_findings) const {
  // Durations analysed as gaps are: operations that each wait whole timer ticks (44, 48, 88,
  // 92 ms at HZ=250) are one finding on a 4 ms lattice, not one per multiple.
  if (group_findings.size() < 2) return;
  std::vector<double> values;
  values.reserve(group.values.size());
  for (const Value& v : group.values) values.push_back(v.spread);
  QuantisationOptions options;
  options.alpha = m_options.alpha;
  double resolution = 1;
  for (int d = group.digits; d < 9; ++d) resolution *= 10;
  options.resolution_ns = resolution;
  const std::optional<Quantisation> q = find_quantisation(values, options);
  if (!q) return;
  fold_lattice_modes(group_findings, *q, values, [](const Finding&) { return true; });
}

void DurationAnalyzer::add_examples(const std::string& key, const Group& group, Finding& f) const {
  // Examples: the kept lines whose value lies in the mode, nearest the centre first.
  std::vector<const Example*> near;
  for (const Example& e : group.examples) {
    const auto v = static_cast<double>(e.value);
    if (v >= f.lo_ns * 0.995 && v <= f.hi_ns * 1.005) near.push_back(&e);
  }
  std::sort(near.begin(), near.end(), [&](const Example* a, const Example* b) {
    return std::abs(static_cast<double>(a->value) - f.centre_ns) <
           std::abs(static_cast<double>(b->value) - f.centre_ns);
  });
  for (const Example* e : near) {
    if (f.samples.size() >= m_options.max_samples) break;
    stats::GapSample sample;
    sample.hash = e->hash;
    sample.gap = e->value;
    sample.stream = key;
    // The line that logs a duration names the operation that took it and its result: it is
    // both the call before the wait and the line after it, for evidence of any scope.
    sample.after = {e->where, e->line, e->fields};
    sample.before = {sample.after};
    f.samples.push_back(std::move(sample));
  }
}

void DurationAnalyzer::merge(DurationAnalyzer&& other) {
  m_profile.merge(other.m_profile);
  for (auto& [key, theirs] : other.m_groups) {
    auto found = m_groups.find(key);
    if (found == m_groups.end()) {
      m_groups.emplace(key, std::move(theirs));
      continue;
    }
    Group& group = found->second;
    group.seen += theirs.seen;
    group.digits = std::max(group.digits, theirs.digits);
    const auto merge_kept = [](auto& into, std::uint64_t& threshold, auto& from, std::uint64_t from_threshold,
                               std::size_t keep) {
      threshold = std::min(threshold, from_threshold);
      const std::uint64_t limit = threshold;
      std::erase_if(into, [limit](const auto& item) { return item.hash >= limit; });
      for (auto& item : from)
        if (item.hash < limit) into.push_back(std::move(item));
      keep_smallest(into, threshold, keep);
    };
    merge_kept(group.values, group.threshold, theirs.values, theirs.threshold, m_options.max_values);
    merge_kept(group.examples, group.example_threshold, theirs.examples, theirs.example_threshold, k_examples);
  }
  while (m_groups.size() > m_options.max_groups) {
    m_dropped_values += m_groups.rbegin()->second.seen;
    m_groups.erase(std::prev(m_groups.end()));
  }
  m_values += other.m_values;
  m_dropped_values += other.m_dropped_values;
}

std::vector<Finding> DurationAnalyzer::finish() {
  std::vector<Finding> findings;
  for (auto& [key, group] : m_groups) {
    // The examples with the smallest hashes, as many as any grouping of merges keeps.
    std::sort(group.examples.begin(), group.examples.end(),
              [](const Example& a, const Example& b) { return a.hash < b.hash; });
    if (group.examples.size() > k_examples) group.examples.resize(k_examples);
  }
  std::size_t tested = 0;
  for (const auto& [key, group] : m_groups) tested += group.seen >= m_options.min_values ? 1 : 0;
  const double log10_groups = std::log10(static_cast<double>(std::max<std::size_t>(1, tested)));
  for (auto& [key, group] : m_groups) {
    if (group.seen < m_options.min_values) continue;
    std::vector<std::vector<double>> members;
    std::vector<double> log10_ps;
    const std::vector<double> sorted = scan_group(group, members, log10_ps);
    // The kept values in the order their operations began (a line logs its duration when the
    // operation ends), for when the stalls happened.
    std::vector<std::pair<TimeNs, double>> timed;
    timed.reserve(group.values.size());
    const bool times_known =
        std::all_of(group.values.begin(), group.values.end(), [](const Value& v) { return v.time != 0; });
    for (const Value& v : group.values) {
      if (times_known) timed.emplace_back(add_saturating(v.time, -v.value), static_cast<double>(v.value));
    }
    std::sort(timed.begin(), timed.end());
    std::vector<DurationMode> modes;
    for (std::size_t m = 0; m < members.size(); ++m) modes.push_back({std::move(members[m]), log10_ps[m], 1});
    const double total = std::accumulate(sorted.begin(), sorted.end(), 0.0);
    std::vector<Finding> group_findings;
    double resolution = 1;
    for (int d = group.digits; d < 9; ++d) resolution *= 10;
    for (DurationMode& mode : fold_bands(std::move(modes), sorted)) {
      Finding f;
      f.values = ValueKind::duration;
      f.group = key;
      describe_members(mode.members, f);
      if (f.rel_width > (mode.parts > 1 ? m_options.max_band_rel_width : m_options.max_rel_width)) continue;
      // Values of one or two steps of the resolution they are written in (HAProxy's connect
      // time of 1 ms) are the log's rounding, not a delay.
      if (f.hi_ns <= 2 * resolution) continue;
      f.gaps = mode.members.size();
      f.member_time_ns = std::accumulate(mode.members.begin(), mode.members.end(), 0.0);
      f.wall_share = total > 0 ? f.member_time_ns / total : 0;  // of all logged time in the group
      f.shape = Shape::one_off;
      f.log10_p = f.log10_p_pooled = std::min(0.0, mode.log10_p + log10_groups);
      f.duration_values = group.values.size();
      f.cap = cap_of(f, sorted, mode.members.size());
      f.timing = timing_of(timed, mode.members.front(), mode.members.back());
      add_examples(key, group, f);
      if (f.log10_p <= std::log10(m_options.alpha)) group_findings.push_back(std::move(f));
    }
    fold_group_lattice(group, group_findings);
    for (Finding& f : group_findings) findings.push_back(std::move(f));
  }
  if (std::optional<Finding> saturation = m_profile.saturation()) findings.push_back(std::move(*saturation));
  std::sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) { return a.log10_p < b.log10_p; });
  return findings;
}

void add_duration_findings(DetectionResult& result, std::vector<Finding> durations) {
  for (Finding& duration : durations) {
    Finding* overlap = nullptr;
    for (Finding& gap : result.findings) {
      if (gap.values != ValueKind::gap || gap.shape == Shape::periodic) continue;
      const double margin = 0.02 * std::max(gap.centre_ns, duration.centre_ns);
      if (duration.lo_ns <= gap.hi_ns + margin && gap.lo_ns <= duration.hi_ns + margin) {
        overlap = &gap;
        break;
      }
    }
    if (overlap != nullptr) {
      overlap->logged_durations += duration.gaps;
      overlap->log10_p = std::min(overlap->log10_p, duration.log10_p);
      continue;
    }
    result.findings.push_back(std::move(duration));
  }
  std::stable_sort(result.findings.begin(), result.findings.end(), [](const Finding& a, const Finding& b) {
    return a.log10_p != b.log10_p ? a.log10_p < b.log10_p : a.centre_ns < b.centre_ns;
  });
}

}  // namespace gapscan::detect
