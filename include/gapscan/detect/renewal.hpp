#pragma once
// Renewal periodicity (detection-methods.md §4.3, B1.2 and "renewal, narrow"): a loop that
// sleeps P between its lines keeps no phase against the wall clock (its work time varies), and
// when other lines interleave with its own (a poller's lines in the same stream as the
// requests) no consecutive gap shows P. The differences between each line and its next K
// lines do: they pile up at P, 2P and 3P.
//
// 1. Onsets: a line within burst_ns of the previous one kept is dropped.
// 2. Every onset is paired with its next K = 32 onsets; differences up to max_period_ns × 3
//    go into a histogram of ln d with bins of 0.25 % (d is capped so that 90 % of the lines
//    reach that far within K, and so that there are at most 4 million pairs).
// 3. For each candidate P on that grid (min_period_ns … max_period_ns), the comb
//    S(P) = Σ_{m=1..3} count(ln(mP) ± w) is compared with the same comb in 24 reference cells
//    of an annulus around each tooth (from 3w to 3w + 0.24 on both sides). The differences'
//    density slopes (it grows with d while the K neighbours reach further), so a straight line
//    is fitted through the cells (symmetric: its value at the teeth is their mean) and the
//    noise is the scatter around it: z = (S − mean_ref) / max(sd_residual, √mean_ref, 1), p
//    from Student's t with 22 degrees of freedom, times the number of disjoint candidates
//    (ln(max/min) / 2w) and the two tooth widths tried: w = 2 % (a steady loop) and 6 % (one
//    whose work time varies). S must be at least 1.1 × mean_ref, and the first two teeth must
//    each hold a quarter of the largest tooth's excess (P/2 and P/3 fill only the tooth at P).
//    A smooth distribution of differences (Poisson, bursty or heavy-tailed lines) has no comb;
//    a loop adds one (0 false alarms in 600 such streams, tests/detect/renewal_test.cpp).
// 4. The best P is refined to the median of the differences in its first tooth; its chain is
//    extracted greedily (each onset followed by the one nearest to last + m·P, m ≤ 3, within
//    6 % of P): the beats found, the beats missed, and the share of onsets on a
//    chain of at least 4 beats.

#include <gapscan/core/time.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace gapscan::detect {

struct RenewalOptions {
  double alpha = 0.01;
  double min_period_ns = 10e6;
  double max_period_ns = 60e9;
  double burst_ns = 1e6;
  std::size_t pairs = 32;       ///< K: each onset is paired with this many next ones
  std::size_t min_onsets = 40;  ///< fewer onsets are not tested
  std::size_t min_beats = 8;    ///< a loop must show this many beats on its chains
};

struct Renewal {
  double period_ns = 0;
  double jitter_ns = 0;           ///< sd of the chain steps around P
  double periodic_fraction = 0;   ///< onsets on chains of at least 4 beats
  std::size_t beats = 0;          ///< onsets on those chains
  double missing_beat_ratio = 0;  ///< steps of 2P or 3P on the chains, over all steps
  std::size_t onsets = 0;
  double comb_z = 0;
  double log10_p = 0;  ///< corrected for the candidates
};

/// `times` must be sorted.
std::optional<Renewal> find_renewal(const std::vector<TimeNs>& times, const RenewalOptions& options);

}  // namespace gapscan::detect
