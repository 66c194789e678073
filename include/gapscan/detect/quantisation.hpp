#pragma once
// Component C of detection-methods.md: gaps that fall on a lattice k·q + offset (a timer tick:
// 4 ms at HZ=250, 10 ms at HZ=100, 15.625 ms Windows ticks), as opposed to the timestamps'
// own resolution, which is measured and reported separately and never taken for a base.
//
// For a base q the coherence is R(q) = |S(q)| / n with S(q) = sum_g e^(2 pi i g / q) over the
// n gaps of at least q/2 (a shorter gap has a phase near 0 for any q: it is no step); under
// gaps that ignore q, n R^2 is about Exp(1), so p(q) = e^(-n R^2). Bases are scanned as
// frequencies f = 1/q from 1/q_max to 1/q_min in steps of 1/(4 g_max) (R's peaks are about
// 1/g_max wide), on at most 512 gaps; the best few are refined and confirmed on all gaps.
// The number of independent frequencies, m = g_max (1/q_min - 1/q_max), corrects the best
// p-value; the catalog bases are also tested exactly, each as one more trial. Of the
// significant bases, the largest multiple of the best one that is still significant, a
// lattice, and at least 3/4 as coherent is reported (gaps on a 4 ms lattice are also on a
// 2 ms one, and the scan shows a comb of nearly equal peaks at k / 4 ms).
// Used: gaps of at least q_min and at most max_gap_ns; q_min = max(2.5 × resolution, 0.1 ms),
// q_max = min(1 s, the median gap, 1.05 × the interquartile range): at a base near the width of
// the gaps' distribution its smooth shape alone gives coherence. A base must also hold gaps at
// three or more of its multiples (one repeated value is a mode, not a lattice).

#include <optional>
#include <vector>

namespace gapscan::detect {

struct QuantisationOptions {
  double alpha = 0.01;
  double resolution_ns = 1;  ///< the timestamps' resolution: no base below 2.5× this
  double max_gap_ns = 1e9;   ///< longer gaps are left out (their phase is too sensitive to q)
  std::size_t min_gaps = 20;
  std::vector<double> catalog_bases_ns = {1e6, 10e6 / 3, 4e6, 10e6, 15.625e6, 1e9};
};

struct Quantisation {
  double base_ns = 0;
  double offset_ns = 0;                    ///< the lattice's phase: gaps are near k·base + offset
  double coherence = 0;                    ///< R(base), 1 for gaps exactly on the lattice
  double noise_rel = 0;                    ///< sd of the distance to the lattice / base (an upper bound)
  double share = 0;                        ///< gaps within base/8 of the lattice (1/4 when there is no lattice)
  double log10_p = 0;                      ///< corrected for the bases tried
  std::size_t gaps = 0;                    ///< gaps used
  std::vector<double> also_consistent_ns;  ///< base/2, base/3 … that fit as well
};

std::optional<Quantisation> find_quantisation(const std::vector<double>& gaps_ns, const QuantisationOptions& options);

}  // namespace gapscan::detect
