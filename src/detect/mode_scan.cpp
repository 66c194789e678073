#include <gapscan/detect/mode_scan.hpp>
#include <gapscan/detect/probability.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gapscan::detect {
namespace {

constexpr double k_lambda_floor = 1e-6;
constexpr double k_inv_sqrt_2pi = 0.39894228040143267794;
constexpr std::size_t k_binned_above = 256;  // points; above this the KDE is evaluated on a grid

/// Expected count per unit z at x: F(x) = sum_i w_i phi_b(x - z_i). Exact for few points,
/// linear-binned convolution on a grid of step b/16 for many.
class Background {
 public:
  Background(const std::vector<ScanPoint>& points, double bandwidth)
      : m_points(points), m_bandwidth(bandwidth), m_norm(k_inv_sqrt_2pi / bandwidth) {
    if (points.size() <= k_binned_above) return;
    m_binned = true;
    m_step = bandwidth / 16;
    m_low = points.front().z - 5 * bandwidth;
    const auto cells = static_cast<std::size_t>((points.back().z + 5 * bandwidth - m_low) / m_step) + 2;
    std::vector<double> mass(cells, 0.0);
    for (const ScanPoint& p : points) {
      const double position = (p.z - m_low) / m_step;
      const auto cell = static_cast<std::size_t>(position);
      const double fraction = position - static_cast<double>(cell);
      mass[cell] += p.weight * (1 - fraction);
      mass[cell + 1] += p.weight * fraction;
    }
    const int reach = 4 * 16;  // 4 bandwidths
    std::vector<double> kernel(2 * reach + 1);
    for (int k = -reach; k <= reach; ++k) {
      const double u = k / 16.0;
      kernel[static_cast<std::size_t>(k + reach)] = m_norm * std::exp(-0.5 * u * u);
    }
    m_grid.assign(cells, 0.0);
    for (std::size_t i = 0; i < cells; ++i) {
      if (mass[i] == 0) continue;
      const std::size_t from = i >= static_cast<std::size_t>(reach) ? i - reach : 0;
      const std::size_t to = std::min(cells - 1, i + reach);
      for (std::size_t j = from; j <= to; ++j) {
        m_grid[j] += mass[i] * kernel[j + reach - i];
      }
    }
  }

  double at(double x) const {
    if (m_binned) {
      const double position = (x - m_low) / m_step;
      if (position < 0 || position >= static_cast<double>(m_grid.size() - 1)) return 0;
      const auto cell = static_cast<std::size_t>(position);
      const double fraction = position - static_cast<double>(cell);
      return m_grid[cell] * (1 - fraction) + m_grid[cell + 1] * fraction;
    }
    double sum = 0;
    const double reach = 5 * m_bandwidth;
    auto it = std::lower_bound(m_points.begin(), m_points.end(), x - reach,
                               [](const ScanPoint& p, double z) { return p.z < z; });
    for (; it != m_points.end() && it->z <= x + reach; ++it) sum += it->weight * kernel(x - it->z);
    return sum;
  }

  double kernel(double d) const {
    const double u = d / m_bandwidth;
    return m_norm * std::exp(-0.5 * u * u);
  }

 private:
  const std::vector<ScanPoint>& m_points;
  double m_bandwidth;
  double m_norm;
  bool m_binned = false;
  double m_low = 0, m_step = 1;
  std::vector<double> m_grid;
};

double self_bandwidth(const std::vector<ScanPoint>& points, double total) {
  double mean = 0;
  for (const ScanPoint& p : points) mean += p.weight * p.z;
  mean /= total;
  double variance = 0;
  for (const ScanPoint& p : points) variance += p.weight * (p.z - mean) * (p.z - mean);
  const double sd = std::sqrt(variance / total);
  return std::max(0.3, 1.06 * sd * std::pow(total, -0.2));
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

}  // namespace

std::vector<ScanMode> scan_modes(std::vector<ScanPoint> points, const ScanOptions& options) {
  std::sort(points.begin(), points.end(),
            [](const ScanPoint& a, const ScanPoint& b) { return a.z != b.z ? a.z < b.z : a.id < b.id; });
  std::vector<ScanMode> modes;
  std::vector<double> prefix;
  const double log_alpha = std::log(options.alpha);
  std::array<double, 3> scale_log{};
  for (std::size_t s = 0; s < scale_log.size(); ++s) scale_log[s] = std::log1p(options.half_widths[s]);

  while (modes.size() < options.max_modes && !points.empty()) {
    prefix.assign(points.size() + 1, 0.0);
    for (std::size_t i = 0; i < points.size(); ++i) prefix[i + 1] = prefix[i] + points[i].weight;
    const double total = prefix.back();
    if (total < options.min_count) break;
    const double bandwidth = options.bandwidth > 0 ? options.bandwidth : self_bandwidth(points, total);
    const Background background(points, bandwidth);

    Best best;
    for (int s = 0; s < static_cast<int>(scale_log.size()); ++s) {
      for (std::size_t i = 0; i < points.size(); ++i) {
        if (i > 0 && points[i].z == points[i - 1].z) continue;
        const double w = half_width(scale_log[static_cast<std::size_t>(s)],
                                    points[i].z + scale_log[static_cast<std::size_t>(s)], options.resolution_ns);
        const double z_hi = points[i].z + 2 * w;
        const auto end =
            static_cast<std::size_t>(std::upper_bound(points.begin() + static_cast<std::ptrdiff_t>(i), points.end(),
                                                      z_hi, [](double z, const ScanPoint& p) { return z < p.z; }) -
                                     points.begin());
        const double count = prefix[end] - prefix[i];
        if (count < options.min_count) continue;
        const double centre = points[i].z + w;
        double inside = 0;
        if (end - i <= 64) {
          for (std::size_t j = i; j < end; ++j) inside += points[j].weight * background.kernel(centre - points[j].z);
        } else {
          inside = count * background.kernel(0) * (1 - w * w / (6 * bandwidth * bandwidth));
        }
        const double lambda =
            std::max(k_lambda_floor, 2 * w * (background.at(centre) - (1 - options.self_weight) * inside));
        if (count < options.min_enrichment * lambda) continue;
        if (log_poisson_tail_bound(lambda, count) >= best.log_p) continue;
        const double log_p = log_poisson_tail(lambda, count);
        if (log_p < best.log_p) {
          best = Best{log_p, count, lambda, points[i].z, z_hi, i, end, s};
        }
      }
    }
    if (best.scale < 0 || best.log_p > log_alpha) break;

    // Correct for the windows tested. Windows slide continuously over the data, so a cluster
    // of k points can be caught by about (k - lambda) distinct positions per window length
    // (Naus's scan-statistic approximation): the multiplicity of a scale is
    // (range / window length) x max(1, k - lambda). Bonferroni first; where that is not
    // enough, the discrete union bound over the same windows (Tarone).
    const double range = points.back().z - points.front().z;
    const double shift_factor = std::max(1.0, best.count - best.expected);
    double windows = 0;
    for (double w : scale_log) windows += std::max(1.0, (range + 2 * w) / (2 * w));
    double log_p_global = best.log_p + std::log(windows * shift_factor);
    if (log_p_global > log_alpha) {
      double ratio_sum = 0;  // sum of P_j / p_local
      for (double w : scale_log) {
        const double start = points.front().z - w;
        const auto count = static_cast<std::size_t>(std::ceil((range + 2 * w) / (2 * w)));
        for (std::size_t j = 0; j <= count; ++j) {
          const double centre = start + static_cast<double>(j) * 2 * w;
          const double lambda = std::max(k_lambda_floor, 2 * w * background.at(centre));
          const double k_star = critical_count(lambda, best.log_p);
          ratio_sum += std::max(1.0, k_star - lambda) * std::exp(log_poisson_tail(lambda, k_star) - best.log_p);
        }
      }
      log_p_global = std::min(log_p_global, best.log_p + std::log(std::max(1.0, ratio_sum)));
    }
    if (log_p_global > log_alpha) break;

    ScanMode mode;
    mode.z_lo = best.z_lo;
    mode.z_hi = best.z_hi;
    mode.count = best.count;
    mode.expected = best.expected;
    mode.log10_p_local = to_log10(best.log_p);
    mode.log10_p = std::min(0.0, to_log10(log_p_global));
    mode.scale = best.scale;
    for (std::size_t j = best.first; j < best.last; ++j) mode.members.push_back(points[j].id);
    modes.push_back(std::move(mode));
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
