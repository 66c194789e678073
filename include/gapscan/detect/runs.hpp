#pragma once
// Component D of detection-methods.md: runs of near-equal consecutive gaps inside one stream
// (a polling loop, one stall per operation in a row of operations).
//
// On z = ln(gap + tau0), tau0 = max(2 × resolution, 1 µs), every maximal stretch of
// consecutive gaps with max z - min z <= 2 ln(1 + rho) is found with two monotone deques in
// O(n). A stretch of at least min_length gaps is scored against the stream's other gaps:
//   p_band = the probability of a gap within ±rho of the run's median, from a Gaussian KDE in
//            z over the gaps outside the run (bandwidth max(0.3, 1.06 sd n^(-1/5)), the same
//            wide self rule as the mode scan), floored at 1 / (10 n);
//   p_run  = 1 - exp(-(n - L + 1) (1 - p_band) p_band^L)      (a run of L such gaps somewhere)
// then multiplied by the number of stretches tested (the centre is chosen after looking).
// Runs with p <= alpha are kept, best first, never overlapping; runs of gaps below
// min_centre_ns (bursts of lines written microseconds apart) or below
// stats::k_min_resolution_ticks ticks of the timestamps' resolution are not reported.

#include <gapscan/core/time.hpp>

#include <cstddef>
#include <vector>

namespace gapscan::detect {

struct RunOptions {
  double rho = 0.02;             ///< relative half-width of "near-equal"
  std::size_t min_length = 4;    ///< fewer consecutive gaps are not a run
  double alpha = 0.01;           ///< after the correction for the stretches tested
  double resolution_ns = 1;      ///< the timestamps' resolution: tolerances are at least 2× this
  std::size_t max_runs = 5;      ///< per stream
  double min_centre_ns = 100e3;  ///< shorter gaps are the speed of the code between two lines, not waits
};

struct GapRun {
  std::size_t first = 0;   ///< index of the first gap of the run
  std::size_t length = 0;  ///< consecutive gaps
  double centre_ns = 0;    ///< median gap of the run
  double spread = 0;       ///< max / min - 1
  double sum_ns = 0;       ///< wall time the run covers
  double p_band = 0;       ///< background probability of one gap in the run's band
  double log10_p = 0;      ///< corrected
};

/// Runs in `gaps` (ns, in time order, all > 0).
std::vector<GapRun> find_runs(const std::vector<double>& gaps, const RunOptions& options);

}  // namespace gapscan::detect
