// Renewal periodicity from pair differences; the method is described in renewal.hpp.

#include <gapscan/detect/probability.hpp>
#include <gapscan/detect/renewal.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace gapscan::detect {
namespace {

constexpr double k_bin = 0.0025;                          // ln units
constexpr std::array<double, 2> k_scales = {0.02, 0.06};  // half-widths of a tooth, ln units
constexpr int k_teeth = 3;
constexpr int k_cells = 12;  // reference cells on each side of a tooth
constexpr double k_max_pairs = 4e6;

}  // namespace

std::optional<Renewal> find_renewal(const std::vector<TimeNs>& times, const RenewalOptions& options) {
  std::vector<TimeNs> onsets;
  onsets.reserve(times.size());
  for (TimeNs t : times) {
    if (onsets.empty() || static_cast<double>(t - onsets.back()) > options.burst_ns) onsets.push_back(t);
  }
  const std::size_t n = onsets.size();
  if (n < options.min_onsets) return std::nullopt;
  const double span = static_cast<double>(onsets.back() - onsets.front());
  if (span <= 0) return std::nullopt;

  // The longest difference kept: three teeth and their reference cells of the longest period,
  // within the pair budget and within K onsets for most lines.
  std::vector<double> reach;
  for (std::size_t i = 0; i + options.pairs < n; i += std::max<std::size_t>(1, n / 256))
    reach.push_back(static_cast<double>(onsets[i + options.pairs] - onsets[i]));
  if (reach.empty()) return std::nullopt;
  std::sort(reach.begin(), reach.end());
  const double k_reach = reach[reach.size() / 10];  // 90 % of the lines see this far within K
  const double budget = k_max_pairs * span / (static_cast<double>(n) * static_cast<double>(n));
  const double d_max = std::min({options.max_period_ns * k_teeth * 1.6, k_reach, budget});
  const double p_max = d_max / (k_teeth * 1.3);
  const double p_min = options.min_period_ns;
  if (p_max <= p_min * 1.1 || span < static_cast<double>(options.min_beats) * p_min) return std::nullopt;

  // Histogram of ln d.
  const double ln_lo = std::log(p_min / 1.35);
  const auto bins = static_cast<std::size_t>((std::log(d_max) - ln_lo) / k_bin) + 2;
  std::vector<double> counts(bins, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n && j <= i + options.pairs; ++j) {
      const auto d = static_cast<double>(onsets[j] - onsets[i]);
      if (d > d_max) break;
      const double position = (std::log(d) - ln_lo) / k_bin;
      if (position < 0) continue;
      counts[static_cast<std::size_t>(position)] += 1;
    }
  }
  std::vector<double> prefix(bins + 1, 0);
  for (std::size_t b = 0; b < bins; ++b) prefix[b + 1] = prefix[b] + counts[b];
  const auto sum_between = [&](double ln_a, double ln_b) {
    const double a = std::clamp((ln_a - ln_lo) / k_bin, 0.0, static_cast<double>(bins));
    const double b = std::clamp((ln_b - ln_lo) / k_bin, 0.0, static_cast<double>(bins));
    const auto ia = static_cast<std::size_t>(a), ib = static_cast<std::size_t>(b);
    // Whole bins, plus the covered fractions of the partial ones.
    double total = prefix[ib] - prefix[ia];
    if (ia < bins) total -= counts[ia] * (a - static_cast<double>(ia));
    if (ib < bins) total += counts[ib] * (b - static_cast<double>(ib));
    return total;
  };

  // The comb at one tooth half-width w (ln units), with reference cells from 3w to 3w + 0.24.
  struct Scan {
    double z = 0, ln_p = 0, log10_p = 0;
  };
  const auto scan = [&](double w) {
    const double inner = 3 * w, outer = 3 * w + 0.24;
    const double cell = (outer - inner) / k_cells;
    const double top = std::min(std::log(p_max), std::log(d_max / k_teeth) - outer);
    Scan best;
    for (double ln_p = std::log(p_min); ln_p <= top; ln_p += w / 2) {  // half a tooth: no loop falls between
      double comb = 0;
      std::array<double, 2 * k_cells> reference{};
      std::array<double, k_teeth> excess{};  // each tooth over its own cells' mean
      for (int m = 1; m <= k_teeth; ++m) {
        const double centre = ln_p + std::log(static_cast<double>(m));
        const double tooth = sum_between(centre - w, centre + w);
        comb += tooth;
        double cells = 0;
        for (int c = 0; c < k_cells; ++c) {
          const double lo = inner + c * cell;
          const double scale = 2 * w / cell;
          const double above = scale * sum_between(centre + lo, centre + lo + cell);
          const double below = scale * sum_between(centre - lo - cell, centre - lo);
          reference[static_cast<std::size_t>(c)] += above;
          reference[static_cast<std::size_t>(k_cells + c)] += below;
          cells += above + below;
        }
        excess[static_cast<std::size_t>(m - 1)] = tooth - cells / (2 * k_cells);
      }
      // A loop of period P fills all three teeth; P/2 or P/3 would fill only the one at P.
      const double largest = *std::max_element(excess.begin(), excess.end());
      if (excess[0] < 0.25 * largest || excess[1] < 0.25 * largest) continue;
      // The differences' density slopes (it grows with d while the K neighbours reach
      // further): the cells are symmetric around the teeth, so a straight line through them
      // has the mean as its value at the teeth, and the scatter around that line is the noise.
      double mean = 0;
      for (double r : reference) mean += r;
      mean /= static_cast<double>(reference.size());
      double sxy = 0, sxx = 0;
      for (int c = 0; c < k_cells; ++c) {
        const double x = inner + (c + 0.5) * cell;
        sxy += x * (reference[static_cast<std::size_t>(c)] - reference[static_cast<std::size_t>(k_cells + c)]);
        sxx += 2 * x * x;
      }
      const double slope = sxy / sxx;
      double residual = 0;
      for (int c = 0; c < k_cells; ++c) {
        const double x = inner + (c + 0.5) * cell;
        const double above = reference[static_cast<std::size_t>(c)] - mean - slope * x;
        const double below = reference[static_cast<std::size_t>(k_cells + c)] - mean + slope * x;
        residual += above * above + below * below;
      }
      const double sd = std::sqrt(residual / static_cast<double>(reference.size() - 2));
      const double z = (comb - mean) / std::max({sd, std::sqrt(mean), 1.0});
      if (comb >= 1.1 * mean && z > best.z) {
        best.z = z;
        best.ln_p = ln_p;
      }
    }
    const double candidates = std::max(1.0, (top - std::log(p_min)) / (2 * w));
    best.log10_p = best.z > 0
                       ? std::min(0.0, std::log10(std::max(1e-300, student_t_upper_tail(best.z, 2 * k_cells - 2))) +
                                           std::log10(candidates * static_cast<double>(k_scales.size())))
                       : 0.0;
    return best;
  };
  Scan best;
  double tooth_width = k_scales.front();
  for (double w : k_scales) {
    const Scan found = scan(w);
    if (found.z > 0 && found.log10_p < best.log10_p) {
      best = found;
      tooth_width = w;
    }
  }
  if (best.z <= 0 || best.log10_p > std::log10(options.alpha)) return std::nullopt;
  const double best_z = best.z, best_ln = best.ln_p, log10_p = best.log10_p;

  // Refine: the median difference in the first tooth.
  const double lo = std::exp(best_ln - tooth_width), hi = std::exp(best_ln + tooth_width);
  std::vector<double> tooth;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n && j <= i + options.pairs; ++j) {
      const auto d = static_cast<double>(onsets[j] - onsets[i]);
      if (d > hi) break;
      if (d >= lo) tooth.push_back(d);
    }
  }
  if (tooth.empty()) return std::nullopt;
  std::nth_element(tooth.begin(), tooth.begin() + static_cast<std::ptrdiff_t>(tooth.size() / 2), tooth.end());
  Renewal out;
  out.period_ns = tooth[tooth.size() / 2];
  out.onsets = n;
  out.comb_z = best_z;
  out.log10_p = log10_p;

  // Chains: from each onset not yet on one, the onset nearest to last + m·P (m <= 3).
  const double tolerance = std::max(tooth_width, 0.06) * out.period_ns;
  std::vector<bool> used(n, false);
  std::size_t steps = 0, missed = 0, on_chains = 0;
  double step_sq = 0;
  std::size_t step_count = 0;
  for (std::size_t start = 0; start < n; ++start) {
    if (used[start]) continue;
    std::vector<std::size_t> chain{start};
    std::size_t chain_missed = 0;
    std::vector<double> residuals;
    std::size_t last = start;
    for (;;) {
      std::size_t next = n;
      int next_m = 0;
      double next_error = tolerance;
      for (int m = 1; m <= 3 && next == n; ++m) {
        const double target = static_cast<double>(onsets[last]) + m * out.period_ns;
        auto it = std::lower_bound(onsets.begin() + static_cast<std::ptrdiff_t>(last) + 1, onsets.end(),
                                   static_cast<TimeNs>(target - tolerance));
        for (; it != onsets.end() && static_cast<double>(*it) <= target + tolerance; ++it) {
          const auto index = static_cast<std::size_t>(it - onsets.begin());
          const double error = std::abs(static_cast<double>(*it) - target);
          if (!used[index] && error <= next_error) {
            next = index;
            next_m = m;
            next_error = error;
          }
        }
      }
      if (next == n) break;
      residuals.push_back((static_cast<double>(onsets[next] - onsets[last]) - next_m * out.period_ns) / next_m);
      chain_missed += static_cast<std::size_t>(next_m - 1);
      chain.push_back(next);
      last = next;
    }
    if (chain.size() < 4) continue;
    for (std::size_t index : chain) used[index] = true;
    on_chains += chain.size();
    steps += chain.size() - 1 + chain_missed;
    missed += chain_missed;
    for (double r : residuals) {
      step_sq += r * r;
      ++step_count;
    }
  }
  out.beats = on_chains;
  out.periodic_fraction = static_cast<double>(on_chains) / static_cast<double>(n);
  out.missing_beat_ratio = steps > 0 ? static_cast<double>(missed) / static_cast<double>(steps) : 0;
  out.jitter_ns = step_count > 0 ? std::sqrt(step_sq / static_cast<double>(step_count)) : 0;
  if (out.beats < options.min_beats) return std::nullopt;
  return out;
}

}  // namespace gapscan::detect
