// Renewal periodicity from pair differences; the method is described in renewal.hpp.

#include <gapscan/detect/probability.hpp>
#include <gapscan/detect/renewal.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

namespace gapscan::detect {
namespace {

constexpr double k_bin = 0.0025;                          // ln units
constexpr std::array<double, 2> k_scales = {0.02, 0.06};  // half-widths of a tooth, ln units
constexpr int k_teeth = 3;
constexpr int k_cells = 12;  // reference cells on each side of a tooth
constexpr double k_max_pairs = 4e6;

/// Burst onsets of sorted `times`: a time within burst_ns of the previous onset kept is dropped.
std::vector<TimeNs> burst_onsets(const std::vector<TimeNs>& times, double burst_ns) {
  std::vector<TimeNs> onsets;
  onsets.reserve(times.size());
  for (TimeNs t : times) {
    if (onsets.empty() || static_cast<double>(t - onsets.back()) > burst_ns) onsets.push_back(t);
  }
  return onsets;
}

/// The differences kept (up to d_max) and the periods tested (p_min … p_max).
struct Reach {
  double d_max = 0, p_min = 0, p_max = 0;
};

/// The longest difference kept: three teeth and their reference cells of the longest period,
/// within the pair budget and within K onsets for most lines; nothing when too few onsets are
/// K apart or the periods' range is empty.
std::optional<Reach> reach_of(const std::vector<TimeNs>& onsets, double span, const RenewalOptions& options) {
  const std::size_t n = onsets.size();
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
  return Reach{d_max, p_min, p_max};
}

/// Histogram of ln d over the differences between each onset and its next K onsets, up to
/// d_max, in bins of k_bin.
class DifferenceHistogram {
 public:
  DifferenceHistogram(const std::vector<TimeNs>& onsets, std::size_t pairs, const Reach& reach)
      : m_ln_lo(std::log(reach.p_min / 1.35)),
        m_bins(static_cast<std::size_t>((std::log(reach.d_max) - m_ln_lo) / k_bin) + 2),
        m_counts(m_bins, 0),
        m_prefix(m_bins + 1, 0) {
    const std::size_t n = onsets.size();
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n && j <= i + pairs; ++j) {
        const auto d = static_cast<double>(onsets[j] - onsets[i]);
        if (d > reach.d_max) break;
        const double position = (std::log(d) - m_ln_lo) / k_bin;
        if (position < 0) continue;
        m_counts[static_cast<std::size_t>(position)] += 1;
      }
    }
    for (std::size_t b = 0; b < m_bins; ++b) m_prefix[b + 1] = m_prefix[b] + m_counts[b];
  }

  /// The count of differences with ln d in [ln_a, ln_b], partial bins by their covered fraction.
  double sum_between(double ln_a, double ln_b) const {
    const double a = std::clamp((ln_a - m_ln_lo) / k_bin, 0.0, static_cast<double>(m_bins));
    const double b = std::clamp((ln_b - m_ln_lo) / k_bin, 0.0, static_cast<double>(m_bins));
    const auto ia = static_cast<std::size_t>(a), ib = static_cast<std::size_t>(b);
    // Whole bins, plus the covered fractions of the partial ones.
    double total = m_prefix[ib] - m_prefix[ia];
    if (ia < m_bins) total -= m_counts[ia] * (a - static_cast<double>(ia));
    if (ib < m_bins) total += m_counts[ib] * (b - static_cast<double>(ib));
    return total;
  }

 private:
  double m_ln_lo;
  std::size_t m_bins;
  std::vector<double> m_counts;
  std::vector<double> m_prefix;
};

/// The comb at one candidate: its teeth and the reference cells around them.
struct Comb {
  double comb = 0;                              ///< S(P): the count in the three teeth
  std::array<double, 2 * k_cells> reference{};  ///< cells above the teeth, then below, summed over the teeth
  std::array<double, k_teeth> excess{};         ///< each tooth over its own cells' mean
};

/// The comb at ln P = ln_p with teeth of half-width w and cells of width `cell` from `inner`.
Comb comb_at(const DifferenceHistogram& histogram, double ln_p, double w, double inner, double cell) {
  Comb out;
  for (int m = 1; m <= k_teeth; ++m) {
    const double centre = ln_p + std::log(static_cast<double>(m));
    const double tooth = histogram.sum_between(centre - w, centre + w);
    out.comb += tooth;
    double cells = 0;
    for (int c = 0; c < k_cells; ++c) {
      const double lo = inner + c * cell;
      const double scale = 2 * w / cell;
      const double above = scale * histogram.sum_between(centre + lo, centre + lo + cell);
      const double below = scale * histogram.sum_between(centre - lo - cell, centre - lo);
      out.reference[static_cast<std::size_t>(c)] += above;
      out.reference[static_cast<std::size_t>(k_cells + c)] += below;
      cells += above + below;
    }
    out.excess[static_cast<std::size_t>(m - 1)] = tooth - cells / (2 * k_cells);
  }
  return out;
}

/// z of a comb against its reference cells; nothing when the comb is not a loop's (the first
/// two teeth below a quarter of the largest excess, or S below 1.1 × mean_ref).
std::optional<double> comb_z(const Comb& comb, double inner, double cell) {
  const std::array<double, 2 * k_cells>& reference = comb.reference;
  // A loop of period P fills all three teeth; P/2 or P/3 would fill only the one at P.
  const double largest = *std::max_element(comb.excess.begin(), comb.excess.end());
  if (comb.excess[0] < 0.25 * largest || comb.excess[1] < 0.25 * largest) return std::nullopt;
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
  const double z = (comb.comb - mean) / std::max({sd, std::sqrt(mean), 1.0});
  if (comb.comb < 1.1 * mean) return std::nullopt;
  return z;
}

/// The best candidate of one scan: its z, ln P and corrected log10 p (0 when none has z > 0).
struct CombScan {
  double z = 0, ln_p = 0, log10_p = 0;
};

/// The comb at one tooth half-width w (ln units), with reference cells from 3w to 3w + 0.24,
/// over every candidate P in half-tooth steps.
CombScan scan_combs(const DifferenceHistogram& histogram, const Reach& reach, double w) {
  const double inner = 3 * w, outer = 3 * w + 0.24;
  const double cell = (outer - inner) / k_cells;
  const double top = std::min(std::log(reach.p_max), std::log(reach.d_max / k_teeth) - outer);
  CombScan best;
  for (double ln_p = std::log(reach.p_min); ln_p <= top; ln_p += w / 2) {  // half a tooth: no loop falls between
    const std::optional<double> z = comb_z(comb_at(histogram, ln_p, w, inner, cell), inner, cell);
    if (z && *z > best.z) {
      best.z = *z;
      best.ln_p = ln_p;
    }
  }
  const double candidates = std::max(1.0, (top - std::log(reach.p_min)) / (2 * w));
  best.log10_p = best.z > 0
                     ? std::min(0.0, std::log10(std::max(1e-300, student_t_upper_tail(best.z, 2 * k_cells - 2))) +
                                         std::log10(candidates * static_cast<double>(k_scales.size())))
                     : 0.0;
  return best;
}

/// The median difference with d in [lo, hi] between an onset and its next K onsets; nothing
/// when there is none.
std::optional<double> median_difference_between(const std::vector<TimeNs>& onsets, std::size_t pairs, double lo,
                                                double hi) {
  const std::size_t n = onsets.size();
  std::vector<double> tooth;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n && j <= i + pairs; ++j) {
      const auto d = static_cast<double>(onsets[j] - onsets[i]);
      if (d > hi) break;
      if (d >= lo) tooth.push_back(d);
    }
  }
  if (tooth.empty()) return std::nullopt;
  std::nth_element(tooth.begin(), tooth.begin() + static_cast<std::ptrdiff_t>(tooth.size() / 2), tooth.end());
  return tooth[tooth.size() / 2];
}

/// One step of a chain: to onset `next`, m periods after the last.
struct Step {
  std::size_t next = 0;
  int m = 0;
};

/// The next onset on a chain: the unused onset nearest to onsets[last] + m·P, for the smallest
/// m <= 3 that has one within `tolerance`; next = n when there is none.
Step next_on_chain(const std::vector<TimeNs>& onsets, const std::vector<bool>& used, std::size_t last, double period,
                   double tolerance) {
  const std::size_t n = onsets.size();
  std::size_t next = n;
  int next_m = 0;
  double next_error = tolerance;
  for (int m = 1; m <= 3 && next == n; ++m) {
    const double target = static_cast<double>(onsets[last]) + m * period;
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
  return {next, next_m};
}

/// Chains: from each onset not yet on one, the onset nearest to last + m·P (m <= 3); chains
/// of at least 4 onsets give the beats, the missed beats and the jitter of `out`.
void follow_chains(const std::vector<TimeNs>& onsets, double tolerance, Renewal& out) {
  const std::size_t n = onsets.size();
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
      const auto [next, next_m] = next_on_chain(onsets, used, last, out.period_ns, tolerance);
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
}

}  // namespace

std::optional<Renewal> find_renewal(const std::vector<TimeNs>& times, const RenewalOptions& options) {
  const std::vector<TimeNs> onsets = burst_onsets(times, options.burst_ns);
  const std::size_t n = onsets.size();
  if (n < options.min_onsets) return std::nullopt;
  const double span = static_cast<double>(onsets.back() - onsets.front());
  if (span <= 0) return std::nullopt;
  const std::optional<Reach> reach = reach_of(onsets, span, options);
  if (!reach) return std::nullopt;

  const DifferenceHistogram histogram(onsets, options.pairs, *reach);
  CombScan best;
  double tooth_width = k_scales.front();
  for (double w : k_scales) {
    const CombScan found = scan_combs(histogram, *reach, w);
    if (found.z > 0 && found.log10_p < best.log10_p) {
      best = found;
      tooth_width = w;
    }
  }
  if (best.z <= 0 || best.log10_p > std::log10(options.alpha)) return std::nullopt;

  // Refine: the median difference in the first tooth.
  const std::optional<double> period = median_difference_between(
      onsets, options.pairs, std::exp(best.ln_p - tooth_width), std::exp(best.ln_p + tooth_width));
  if (!period) return std::nullopt;
  Renewal out;
  out.period_ns = *period;
  out.onsets = n;
  out.comb_z = best.z;
  out.log10_p = best.log10_p;
  follow_chains(onsets, std::max(tooth_width, 0.06) * out.period_ns, out);
  if (out.beats < options.min_beats) return std::nullopt;
  return out;
}

}  // namespace gapscan::detect
