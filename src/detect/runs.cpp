#include <gapscan/detect/probability.hpp>
#include <gapscan/detect/runs.hpp>
#include <gapscan/stats/gap_series.hpp>

#include <algorithm>
#include <cmath>
#include <deque>
#include <optional>
#include <utility>

namespace gapscan::detect {
namespace {

constexpr std::size_t k_max_candidates = 256;  // stretches scored per stream (the longest)

struct Stretch {
  std::size_t first = 0, length = 0;
};

/// Maximal stretches of consecutive values with max - min <= width, at least `min_length`
/// long: two monotone deques, O(n).
std::vector<Stretch> stretches(const std::vector<double>& z, double width, std::size_t min_length) {
  std::vector<Stretch> out;
  std::deque<std::size_t> low, high;  // indices with increasing / decreasing values
  std::size_t left = 0;
  for (std::size_t right = 0; right < z.size(); ++right) {
    while (!low.empty() && z[low.back()] >= z[right]) low.pop_back();
    low.push_back(right);
    while (!high.empty() && z[high.back()] <= z[right]) high.pop_back();
    high.push_back(right);
    while (z[high.front()] - z[low.front()] > width) {
      ++left;
      if (low.front() < left) low.pop_front();
      if (high.front() < left) high.pop_front();
    }
    // [left, right] is maximal when the next value would break it.
    const bool last = right + 1 == z.size();
    const bool breaks =
        last || std::max(z[high.front()], z[right + 1]) - std::min(z[low.front()], z[right + 1]) > width;
    if (breaks && right + 1 - left >= min_length) out.push_back({left, right + 1 - left});
  }
  return out;
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

/// The `k_max_candidates` longest of `found` (all of them when there are fewer), so a stream
/// of many short stretches costs a bounded number of scorings.
void keep_longest(std::vector<Stretch>& found) {
  if (found.size() <= k_max_candidates) return;
  std::partial_sort(found.begin(), found.begin() + k_max_candidates, found.end(),
                    [](const Stretch& a, const Stretch& b) { return a.length > b.length; });
  found.resize(k_max_candidates);
}

/// What every stretch of one stream is scored against: its gaps, their logs and the constants
/// of the test.
struct RunContext {
  const std::vector<double>& gaps;
  const std::vector<double>& z;  ///< ln(gap + tau0)
  const RunOptions& options;
  double tau0 = 0;
  double log_trials = 0;  ///< ln(n): Bonferroni over the centres a run could have had
  double log_alpha = 0;
  double floor = 0;  ///< the least p_band, 1 / (10 n)
};

/// p_band: the mass in [z_lo, z_hi] of a leave-run-out Gaussian KDE of the gaps outside `s`,
/// with the wide self bandwidth; `context.floor` when no gap is outside or the mass is smaller.
double band_probability(const RunContext& context, const Stretch& s, double z_lo, double z_hi) {
  const std::vector<double>& z = context.z;
  const std::size_t n = z.size();
  double mean = 0, m2 = 0;
  std::size_t outside = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i >= s.first && i < s.first + s.length) continue;
    ++outside;
    const double delta = z[i] - mean;
    mean += delta / static_cast<double>(outside);
    m2 += delta * (z[i] - mean);
  }
  double p_band = context.floor;
  if (outside > 0) {
    const double sd = outside > 1 ? std::sqrt(m2 / static_cast<double>(outside - 1)) : 0;
    const double bandwidth = std::max(0.3, 1.06 * sd * std::pow(static_cast<double>(outside), -0.2));
    double mass = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (i >= s.first && i < s.first + s.length) continue;
      mass += normal_cdf((z_hi - z[i]) / bandwidth) - normal_cdf((z_lo - z[i]) / bandwidth);
    }
    p_band = std::max(context.floor, mass / static_cast<double>(outside));
  }
  return p_band;
}

/// ln P(a run of `length` gaps in a band of probability `p_band` somewhere among n gaps),
/// corrected for the centres tried and capped at 0.
double run_log_p(const RunContext& context, std::size_t length_gaps, double p_band) {
  const double n = static_cast<double>(context.z.size());
  const double length = static_cast<double>(length_gaps);
  const double log_rate =
      std::log(n - length + 1) + std::log1p(-std::min(p_band, 1 - 1e-12)) + length * std::log(p_band);
  double log_p = log_rate > std::log(1e-8) ? std::log(-std::expm1(-std::exp(log_rate))) : log_rate;
  return std::min(0.0, log_p + context.log_trials);
}

/// The run that stretch `s` makes, or nothing when its centre is too short a gap or the run is
/// not significant at `options.alpha`.
std::optional<GapRun> score_stretch(const RunContext& context, const Stretch& s, std::vector<double>& sorted) {
  const RunOptions& options = context.options;
  sorted.assign(context.gaps.begin() + static_cast<std::ptrdiff_t>(s.first),
                context.gaps.begin() + static_cast<std::ptrdiff_t>(s.first + s.length));
  std::sort(sorted.begin(), sorted.end());
  const double centre = sorted[sorted.size() / 2];
  if (centre < options.min_centre_ns) return std::nullopt;
  if (centre < stats::k_min_resolution_ticks * options.resolution_ns) return std::nullopt;
  // The band: ±rho around the centre, never narrower than the resolution allows.
  const double tolerance = std::max(centre * options.rho, 2 * options.resolution_ns);
  const double z_lo = std::log(std::max(centre - tolerance, 0.0) + context.tau0);
  const double z_hi = std::log(centre + tolerance + context.tau0);
  const double p_band = band_probability(context, s, z_lo, z_hi);
  const double log_p = run_log_p(context, s.length, p_band);
  if (log_p > context.log_alpha) return std::nullopt;

  GapRun run;
  run.first = s.first;
  run.length = s.length;
  run.centre_ns = centre;
  run.spread = sorted.back() / sorted.front() - 1;
  for (double g : sorted) run.sum_ns += g;
  run.p_band = p_band;
  run.log10_p = to_log10(log_p);
  return run;
}

/// `runs` best first (lowest p), dropping each that overlaps a better one, at most `max_runs`.
std::vector<GapRun> best_without_overlaps(std::vector<GapRun> runs, std::size_t max_runs) {
  std::sort(runs.begin(), runs.end(), [](const GapRun& a, const GapRun& b) { return a.log10_p < b.log10_p; });
  std::vector<GapRun> kept;
  for (const GapRun& run : runs) {
    const bool overlaps = std::any_of(kept.begin(), kept.end(), [&](const GapRun& k) {
      return run.first < k.first + k.length && k.first < run.first + run.length;
    });
    if (!overlaps) kept.push_back(run);
    if (kept.size() >= max_runs) break;
  }
  return kept;
}

}  // namespace

std::vector<GapRun> find_runs(const std::vector<double>& gaps, const RunOptions& options) {
  const std::size_t n = gaps.size();
  std::vector<GapRun> runs;
  if (n < options.min_length) return runs;
  const double tau0 = std::max(2 * options.resolution_ns, 1000.0);
  std::vector<double> z(n);
  for (std::size_t i = 0; i < n; ++i) z[i] = std::log(gaps[i] + tau0);
  const double half = std::log1p(options.rho);

  std::vector<Stretch> found = stretches(z, 2 * half, options.min_length);
  if (found.empty()) return runs;
  keep_longest(found);

  const RunContext context{gaps,
                           z,
                           options,
                           tau0,
                           std::log(static_cast<double>(n)),
                           std::log(options.alpha),
                           1.0 / (10.0 * static_cast<double>(n))};
  std::vector<double> sorted;
  for (const Stretch& s : found) {
    if (std::optional<GapRun> run = score_stretch(context, s, sorted)) runs.push_back(*run);
  }
  return best_without_overlaps(std::move(runs), options.max_runs);
}

}  // namespace gapscan::detect
