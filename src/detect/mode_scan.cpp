#include <gapscan/detect/mode_scan.hpp>
#include <gapscan/detect/probability.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace gapscan::detect {
namespace {

constexpr double k_lambda_floor = 1e-6;

/// Expected count per unit z at x: F(x) = sum_i w_i K_b(x - z_i), with K_b a Gaussian of
/// standard deviation b approximated by three passes of a box filter over linearly binned
/// points (O(cells) per evaluation of the whole grid, no exp per point).
class Background {
 public:
  static constexpr int k_box = 17;  // cells per box; three passes give sd = sqrt((17^2 - 1) / 4) cells
  static constexpr double k_sd_cells = 8.48528137423857;

  Background(const std::vector<ScanPoint>& points, double bandwidth) : m_bandwidth(bandwidth) {
    m_step = bandwidth / k_sd_cells;
    m_low = points.front().z - 4 * bandwidth;
    const auto cells = static_cast<std::size_t>((points.back().z + 4 * bandwidth - m_low) / m_step) + 2;
    m_grid.assign(cells, 0.0);
    for (const ScanPoint& p : points) {
      const double position = (p.z - m_low) / m_step;
      const auto cell = static_cast<std::size_t>(position);
      const double fraction = position - static_cast<double>(cell);
      m_grid[cell] += p.weight * (1 - fraction);
      m_grid[cell + 1] += p.weight * fraction;
    }
    std::vector<double> scratch(cells);
    for (int pass = 0; pass < 3; ++pass) box_filter(m_grid, scratch);
    for (double& value : m_grid) value /= m_step;
    // The discrete kernel's value at its centre, per unit z (for the window's own points).
    std::vector<double> impulse(3 * k_box, 0.0), impulse_scratch(3 * k_box);
    impulse[impulse.size() / 2] = 1;
    for (int pass = 0; pass < 3; ++pass) box_filter(impulse, impulse_scratch);
    m_peak = impulse[impulse.size() / 2] / m_step;
  }

  double at(double x) const {
    const double position = (x - m_low) / m_step;
    if (position < 0 || position >= static_cast<double>(m_grid.size() - 1)) return 0;
    const auto cell = static_cast<std::size_t>(position);
    const double fraction = position - static_cast<double>(cell);
    return m_grid[cell] * (1 - fraction) + m_grid[cell + 1] * fraction;
  }

  /// The contribution of `count` points spread over a window of half-width w to F at its
  /// centre (the kernel averaged over the window).
  double own(double count, double w) const {
    return count * m_peak * std::max(0.0, 1 - w * w / (6 * m_bandwidth * m_bandwidth));
  }

 private:
  /// Centred moving sum over k_box cells divided by k_box, zero outside.
  static void box_filter(std::vector<double>& values, std::vector<double>& scratch) {
    const std::size_t n = values.size();
    const std::size_t half = k_box / 2;
    double sum = 0;
    for (std::size_t i = 0; i < std::min(n, half); ++i) sum += values[i];
    for (std::size_t i = 0; i < n; ++i) {
      if (i + half < n) sum += values[i + half];
      if (i > half) sum -= values[i - half - 1];
      scratch[i] = sum / k_box;
    }
    values.swap(scratch);
  }

  double m_bandwidth;
  double m_step = 1;
  double m_low = 0;
  double m_peak = 0;
  std::vector<double> m_grid;
};

/// ln(k!) for integer counts, from a table below 4096.
double log_factorial(double k) {
  static const std::vector<double> table = [] {
    std::vector<double> values(4096);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = log_gamma(static_cast<double>(i) + 1);
    return values;
  }();
  const auto index = static_cast<std::size_t>(k);
  return index < table.size() && static_cast<double>(index) == k ? table[index] : log_gamma(k + 1);
}

/// ln P(Poisson(lambda) = k): a lower bound of the tail P(X >= k), cheap enough to prune with.
double log_poisson_pmf(double lambda, double k) { return -lambda + k * std::log(lambda) - log_factorial(k); }

double self_bandwidth(const std::vector<ScanPoint>& points, double total) {
  double mean = 0;
  for (const ScanPoint& p : points) mean += p.weight * p.z;
  mean /= total;
  double variance = 0;
  for (const ScanPoint& p : points) variance += p.weight * (p.z - mean) * (p.z - mean);
  const double sd = std::sqrt(variance / total);
  // Wide (0.3) so that a spike does not raise its own background, but never much wider than
  // the data: against a kernel wider than a narrow distribution (a jittered sleep loop,
  // sd 0.2), the distribution's own peak would look like a mode.
  return std::max(std::min(0.3, 0.35 * sd), 1.06 * sd * std::pow(total, -0.2));
}

/// Half-width in z of a window of scale `relative` near z, never below the resolution.
double half_width(double relative_log, double z, double resolution_ns) {
  return std::max(relative_log, std::log1p(resolution_ns / std::exp(z)));
}

/// Smallest k with ln P(Poisson(lambda) >= k) <= target (target < 0).
double critical_count(double lambda, double target) {
  double low = std::max(1.0, std::floor(lambda));
  if (log_poisson_tail(lambda, low) <= target) return low;
  double high = low * 2 + 8;
  while (log_poisson_tail(lambda, high) > target) high = high * 2 + 8;
  while (high - low > 1) {
    const double middle = std::floor((low + high) / 2);
    if (log_poisson_tail(lambda, middle) <= target)
      high = middle;
    else
      low = middle;
  }
  return high;
}

struct Best {
  double log_p = 0;  // ln of the local p-value
  double count = 0, expected = 0, z_lo = 0, z_hi = 0;
  std::size_t first = 0, last = 0;  // point index range [first, last)
  int scale = -1;
};

using ScaleLogs = std::array<double, 3>;  // ln(1 + h) for each half-width h

/// What one scan (one pass of the loop in scan_modes) tests its windows on.
struct Scan {
  const std::vector<ScanPoint>& points;  ///< sorted by z
  const std::vector<double>& prefix;     ///< prefix[i]: the weight of points[0, i)
  const Background& background;
  const ScaleLogs& scale_log;
  const ScanOptions& options;
  double range = 0;  ///< z of the last point - z of the first
};

/// prefix[i] = the total weight of points[0, i), for i = 0 … points.size().
void weight_prefix(const std::vector<ScanPoint>& points, std::vector<double>& prefix) {
  prefix.assign(points.size() + 1, 0.0);
  for (std::size_t i = 0; i < points.size(); ++i) prefix[i + 1] = prefix[i] + points[i].weight;
}

/// The background of one scan: of `points` and, merged with them into `merged`, the points of
/// the broad modes accepted so far; its bandwidth is the fixed one or the self rule over both.
Background background_of(const std::vector<ScanPoint>& points, const std::vector<ScanPoint>& broad_points,
                         std::vector<ScanPoint>& merged, double total, const ScanOptions& options) {
  // The points of accepted broad modes stay in the background: a broad mode is often the
  // bulk of a narrow distribution seen against the wide kernel, and the points left between
  // the holes its removal leaves would otherwise look like narrow modes.
  const std::vector<ScanPoint>* background_points = &points;
  if (!broad_points.empty()) {
    merged.assign(points.begin(), points.end());
    merged.insert(merged.end(), broad_points.begin(), broad_points.end());
    std::sort(merged.begin(), merged.end(), [](const ScanPoint& a, const ScanPoint& b) { return a.z < b.z; });
    background_points = &merged;
  }
  double background_total = total;
  for (const ScanPoint& p : broad_points) background_total += p.weight;
  const double bandwidth =
      options.bandwidth > 0 ? options.bandwidth : self_bandwidth(*background_points, background_total);
  return Background(*background_points, bandwidth);
}

/// The number of half-overlapping windows covering `range`, summed over the scales (per unit
/// of Naus factor): the Bonferroni multiplicity.
double disjoint_windows_of(double range, const ScaleLogs& scale_log) {
  double disjoint_windows = 0;
  for (double w : scale_log) disjoint_windows += std::max(1.0, (range + 2 * w) / (2 * w));
  return disjoint_windows;
}

/// lambda of the window of half-width w centred at `centre` holding `count`: the background
/// without (most of) the window's own points, floored at k_lambda_floor.
double window_lambda(const Scan& scan, double centre, double count, double w) {
  const double self_weight = scan.options.self_weight;
  // Leave (most of) the window's own points out of its background, and renormalise by
  // the share of a flat density's kernel mass that this removes, so that the estimate
  // stays unbiased where there is no mode (without it the broad windows of a large
  // request see about 15 % too little background).
  const double removed = (1 - self_weight) * scan.background.own(1, w) * 2 * w;
  return std::max(k_lambda_floor, 2 * w *
                                      (scan.background.at(centre) - (1 - self_weight) * scan.background.own(count, w)) /
                                      std::max(0.5, 1 - removed));
}

/// Tests every window of scale `s` anchored at a point; `best` becomes the one with the
/// smallest local p below its current log_p.
void scan_scale(const Scan& scan, int s, Best& best) {
  const std::vector<ScanPoint>& points = scan.points;
  const ScanOptions& options = scan.options;
  const double scale = scan.scale_log[static_cast<std::size_t>(s)];
  // Below z_resolution the window must widen to two clock ticks; above it, w = scale and
  // the window end advances monotonically (two pointers).
  const double z_resolution = std::log(options.resolution_ns / std::expm1(scale)) - scale;
  std::size_t end = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i > 0 && points[i].z == points[i - 1].z) continue;
    const double w =
        points[i].z >= z_resolution ? scale : half_width(scale, points[i].z + scale, options.resolution_ns);
    const double z_hi = points[i].z + 2 * w;
    if (w == scale && end >= i) {
      while (end < points.size() && points[end].z <= z_hi) ++end;
    } else {
      end = static_cast<std::size_t>(std::upper_bound(points.begin() + static_cast<std::ptrdiff_t>(i), points.end(),
                                                      z_hi, [](double z, const ScanPoint& p) { return z < p.z; }) -
                                     points.begin());
    }
    const double count = scan.prefix[end] - scan.prefix[i];
    if (count < options.min_count) continue;
    const double centre = points[i].z + w;
    const double lambda = window_lambda(scan, centre, count, w);
    if (count < options.min_enrichment * lambda || count <= lambda) continue;
    if (log_poisson_pmf(lambda, count) >= best.log_p) continue;
    const double log_p = log_poisson_tail(lambda, count);
    if (log_p < best.log_p) {
      best = Best{log_p, count, lambda, points[i].z, z_hi, i, end, s};
    }
  }
}

/// ln of the discrete union bound (Tarone) over the grid of half-overlapping windows:
/// ln(p_local × max(1, Σ_j max(1, k*_j - lambda_j) P(Poisson(lambda_j) >= k*_j) / p_local)).
double union_bound_log_p(const Scan& scan, double best_log_p) {
  double ratio_sum = 0;  // sum of P_j / p_local
  for (double w : scan.scale_log) {
    const double start = scan.points.front().z - w;
    const auto count = static_cast<std::size_t>(std::ceil((scan.range + 2 * w) / (2 * w)));
    for (std::size_t j = 0; j <= count; ++j) {
      const double centre = start + static_cast<double>(j) * 2 * w;
      const double lambda = std::max(k_lambda_floor, 2 * w * scan.background.at(centre));
      const double k_star = critical_count(lambda, best_log_p);
      ratio_sum += std::max(1.0, k_star - lambda) * std::exp(log_poisson_tail(lambda, k_star) - best_log_p);
    }
  }
  return best_log_p + std::log(std::max(1.0, ratio_sum));
}

/// The best window's p corrected for the windows tested.
double global_log_p(const Scan& scan, const Best& best, double disjoint_windows, double log_alpha) {
  // Correct for the windows tested. Windows slide continuously over the data, so a cluster
  // of k points can be caught by about (k - lambda) distinct positions per window length
  // (Naus's scan-statistic approximation): the multiplicity of a scale is
  // (range / window length) x max(1, k - lambda). Bonferroni first; where that is not
  // enough, the discrete union bound over the same windows (Tarone).
  const double shift_factor = std::max(1.0, best.count - best.expected);
  double log_p_global = best.log_p + std::log(disjoint_windows * shift_factor);
  if (log_p_global > log_alpha && scan.options.union_bound) {
    log_p_global = std::min(log_p_global, union_bound_log_p(scan, best.log_p));
  }
  return log_p_global;
}

/// The mode of the best window, its members the ids of points[best.first, best.last).
ScanMode mode_of(const Best& best, const std::vector<ScanPoint>& points, double log_p_global) {
  ScanMode mode;
  mode.z_lo = best.z_lo;
  mode.z_hi = best.z_hi;
  mode.count = best.count;
  mode.expected = best.expected;
  mode.log10_p_local = to_log10(best.log_p);
  mode.log10_p = std::min(0.0, to_log10(log_p_global));
  mode.scale = best.scale;
  for (std::size_t j = best.first; j < best.last; ++j) mode.members.push_back(points[j].id);
  return mode;
}

}  // namespace

std::vector<ScanMode> scan_modes(std::vector<ScanPoint> points, const ScanOptions& options) {
  std::sort(points.begin(), points.end(),
            [](const ScanPoint& a, const ScanPoint& b) { return a.z != b.z ? a.z < b.z : a.id < b.id; });
  std::vector<ScanMode> modes;
  std::vector<double> prefix;
  std::vector<ScanPoint> broad_points, merged;
  const double log_alpha = std::log(options.alpha);
  ScaleLogs scale_log{};
  for (std::size_t s = 0; s < scale_log.size(); ++s) scale_log[s] = std::log1p(options.half_widths[s]);

  while (modes.size() < options.max_modes && !points.empty()) {
    weight_prefix(points, prefix);
    const double total = prefix.back();
    if (total < options.min_count) break;
    const Background background = background_of(points, broad_points, merged, total, options);
    const Scan scan{points, prefix, background, scale_log, options, points.back().z - points.front().z};

    // Windows whose p could not survive even the smallest correction are not worth an exact
    // tail: the Poisson probability of exactly C is a lower bound of the tail.
    const double disjoint_windows = disjoint_windows_of(scan.range, scale_log);
    Best best;
    best.log_p = log_alpha - std::log(disjoint_windows);
    for (int s = 0; s < static_cast<int>(scale_log.size()); ++s) scan_scale(scan, s, best);
    if (best.scale < 0) break;
    const double log_p_global = global_log_p(scan, best, disjoint_windows, log_alpha);
    if (log_p_global > log_alpha) break;

    modes.push_back(mode_of(best, points, log_p_global));
    if (best.scale == static_cast<int>(scale_log.size()) - 1) {
      broad_points.insert(broad_points.end(), points.begin() + static_cast<std::ptrdiff_t>(best.first),
                          points.begin() + static_cast<std::ptrdiff_t>(best.last));
    }
    points.erase(points.begin() + static_cast<std::ptrdiff_t>(best.first),
                 points.begin() + static_cast<std::ptrdiff_t>(best.last));
  }
  return modes;
}

double cfar_p_value(const std::vector<ScanPoint>& points, double z_lo, double z_hi) {
  const double width = z_hi - z_lo;
  const double centre = (z_lo + z_hi) / 2;
  const double inner = std::log(1.06), outer = std::log(1.30);
  const double cell = (outer - inner) / 6;
  auto weight_between = [&](double lo, double hi) {
    double sum = 0;
    auto it = std::lower_bound(points.begin(), points.end(), lo, [](const ScanPoint& p, double z) { return p.z < z; });
    for (; it != points.end() && it->z < hi; ++it) sum += it->weight;
    return sum;
  };
  const double count = weight_between(z_lo, z_hi + 1e-12);
  double reference[12];
  for (int k = 0; k < 6; ++k) {
    const double offset = inner + k * cell;
    reference[k] = weight_between(centre - offset - cell, centre - offset) * width / cell;
    reference[6 + k] = weight_between(centre + offset, centre + offset + cell) * width / cell;
  }
  double mean = 0;
  for (double r : reference) mean += r;
  mean /= 12;
  double variance = 0;
  for (double r : reference) variance += (r - mean) * (r - mean);
  const double sd = std::sqrt(variance / 11);
  const double scale = std::max({sd, std::sqrt(mean), 1.0});  // at least one count of noise
  return student_t_upper_tail((count - mean) / scale, 11);
}

}  // namespace gapscan::detect
