#pragma once
// Component A of detection-methods.md: tight modes ("spikes") in a set of gaps, found
// with a windowed count test against a smooth background.
//
// Input: weighted points z = ln(gap) (weight 1 per gap for a request; for the pooled test,
// one point per histogram bin weighted by the number of requests with a gap in that bin).
// For each of three relative half-widths (0.5 %, 2 %, 8 %) every window anchored at a
// point is tested:
//   C = total weight in [z_i, z_i + 2w],   w = max(ln(1 + h), resolution / gap)
//   lambda = 2w * sum_{points outside the window} phi_b(c - z_j)          (leave-window-out KDE)
//   p_local = P(Poisson(lambda) >= C),     lambda floored at 1e-6
// with the Gaussian kernel bandwidth b = max(min(0.3, 0.35 sd(z)), 1.06 sd(z) n^(-1/5)) (self
// background: wide so that a spike does not raise its own background, never much wider than
// a narrow distribution, whose own peak would then look like a mode) or
// a fixed b. The best window's p is corrected for the windows tested: first by Bonferroni
// over J = sum over scales of the number of half-overlapping windows covering the data;
// where that is not enough, by the discrete union bound
//   p_glob = sum_j P(Poisson(lambda_j) >= k*_j),  k*_j = min{k : P(Poisson(lambda_j) >= k) <= p_local}
// over the same grid (Tarone: windows that cannot reach p_local cost almost nothing).
// While p_glob <= alpha, the mode is accepted, its points removed, and the scan repeated
// (at most max_modes times). The points of a mode accepted at the broadest scale stay in the
// background of the later scans (they are only taken out of the counts): a broad mode is often
// the bulk of a narrow distribution against the wide kernel, and the points left between the
// holes its removal leaves would otherwise look like narrow modes.

#include <array>
#include <cstdint>
#include <vector>

namespace gapscan::detect {

struct ScanPoint {
  double z = 0;          ///< ln of the gap in ns
  double weight = 1;     ///< count carried by the point
  std::uint32_t id = 0;  ///< caller's index, returned in ScanMode::members
};

struct ScanOptions {
  double alpha = 0.01;
  std::size_t max_modes = 5;
  double min_count = 3;  ///< windows with less weight are not tested
  std::array<double, 3> half_widths = {0.005, 0.02, 0.08};
  double resolution_ns = 1;   ///< a window is never narrower than 2 × this
  double bandwidth = 0;       ///< 0: self rule; else the fixed bandwidth in z
  double min_enrichment = 1;  ///< also require C >= this × lambda
  /// Share of the window's own points kept in its background: 0 is a leave-window-out KDE,
  /// 1 the full KDE. Leaving the points out underestimates the background in sparse tails
  /// (anti-conservative); keeping all of them hides broad modes a little (conservative).
  double self_weight = 0.3;
  /// Also try the discrete union bound when Bonferroni is not enough (a few tail evaluations
  /// per window of the grid, only for scans whose best window is already promising).
  bool union_bound = true;
};

struct ScanMode {
  double z_lo = 0, z_hi = 0;  ///< the window
  double count = 0;           ///< weight in the window
  double expected = 0;        ///< lambda
  double log10_p_local = 0;
  double log10_p = 0;  ///< corrected for the windows tested
  int scale = 0;       ///< index into half_widths
  std::vector<std::uint32_t> members;
};

std::vector<ScanMode> scan_modes(std::vector<ScanPoint> points, const ScanOptions& options);

/// CFAR check of one window against 12 reference cells in the 6-30 % annulus around it:
/// t = (C - mean_ref) / max(sd_ref, sqrt(mean_ref), 1), p from Student's t with 11 degrees of
/// freedom. `points` must be sorted by z. Returns the one-sided p-value.
double cfar_p_value(const std::vector<ScanPoint>& points, double z_lo, double z_hi);

}  // namespace gapscan::detect
