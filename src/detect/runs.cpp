#include <gapscan/detect/probability.hpp>
#include <gapscan/detect/runs.hpp>
#include <gapscan/stats/gap_series.hpp>

#include <algorithm>
#include <cmath>
#include <deque>

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
  if (found.size() > k_max_candidates) {
    std::partial_sort(found.begin(), found.begin() + k_max_candidates, found.end(),
                      [](const Stretch& a, const Stretch& b) { return a.length > b.length; });
    found.resize(k_max_candidates);
  }

  // Bonferroni over the centres a run could have had: one per starting gap.
  const double log_trials = std::log(static_cast<double>(n));
  const double log_alpha = std::log(options.alpha);
  const double floor = 1.0 / (10.0 * static_cast<double>(n));
  std::vector<double> sorted;
  for (const Stretch& s : found) {
    sorted.assign(gaps.begin() + static_cast<std::ptrdiff_t>(s.first),
                  gaps.begin() + static_cast<std::ptrdiff_t>(s.first + s.length));
    std::sort(sorted.begin(), sorted.end());
    const double centre = sorted[sorted.size() / 2];
    if (centre < options.min_centre_ns) continue;
    if (centre < stats::k_min_resolution_ticks * options.resolution_ns) continue;
    // The band: ±rho around the centre, never narrower than the resolution allows.
    const double tolerance = std::max(centre * options.rho, 2 * options.resolution_ns);
    const double z_lo = std::log(std::max(centre - tolerance, 0.0) + tau0);
    const double z_hi = std::log(centre + tolerance + tau0);

    // Leave-run-out Gaussian KDE of the other gaps, with the wide self bandwidth.
    double mean = 0, m2 = 0;
    std::size_t outside = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (i >= s.first && i < s.first + s.length) continue;
      ++outside;
      const double delta = z[i] - mean;
      mean += delta / static_cast<double>(outside);
      m2 += delta * (z[i] - mean);
    }
    double p_band = floor;
    if (outside > 0) {
      const double sd = outside > 1 ? std::sqrt(m2 / static_cast<double>(outside - 1)) : 0;
      const double bandwidth = std::max(0.3, 1.06 * sd * std::pow(static_cast<double>(outside), -0.2));
      double mass = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (i >= s.first && i < s.first + s.length) continue;
        mass += normal_cdf((z_hi - z[i]) / bandwidth) - normal_cdf((z_lo - z[i]) / bandwidth);
      }
      p_band = std::max(floor, mass / static_cast<double>(outside));
    }
    // P(a run of L gaps in the band somewhere among n gaps).
    const double length = static_cast<double>(s.length);
    const double log_rate = std::log(static_cast<double>(n) - length + 1) + std::log1p(-std::min(p_band, 1 - 1e-12)) +
                            length * std::log(p_band);
    double log_p = log_rate > std::log(1e-8) ? std::log(-std::expm1(-std::exp(log_rate))) : log_rate;
    log_p = std::min(0.0, log_p + log_trials);
    if (log_p > log_alpha) continue;

    GapRun run;
    run.first = s.first;
    run.length = s.length;
    run.centre_ns = centre;
    run.spread = sorted.back() / sorted.front() - 1;
    for (double g : sorted) run.sum_ns += g;
    run.p_band = p_band;
    run.log10_p = to_log10(log_p);
    runs.push_back(run);
  }
  // Best first, without overlaps.
  std::sort(runs.begin(), runs.end(), [](const GapRun& a, const GapRun& b) { return a.log10_p < b.log10_p; });
  std::vector<GapRun> kept;
  for (const GapRun& run : runs) {
    const bool overlaps = std::any_of(kept.begin(), kept.end(), [&](const GapRun& k) {
      return run.first < k.first + k.length && k.first < run.first + run.length;
    });
    if (!overlaps) kept.push_back(run);
    if (kept.size() >= options.max_runs) break;
  }
  return kept;
}

}  // namespace gapscan::detect
