#pragma once
// Modes on a lattice: a mode is one multiple of a lattice when the lattice holds most values
// (share >= 0.8), at least three of its multiples hold 5 % of them each, and the mode's own
// multiple holds less than 70 %. Then the values are a loop that sleeps or waits on a timer
// (or operations that each wait whole timer ticks), and the single value of one mode is not a
// per-operation delay: the modes on the lattice are folded into the most significant of them,
// which becomes a QUANTISED finding valued at the lattice's base. Used for the gaps of all
// streams and for the durations of each group.

#include <gapscan/detect/finding.hpp>
#include <gapscan/detect/quantisation.hpp>

#include <functional>
#include <vector>

namespace gapscan::detect {

/// Folds the findings on `q` (those `takes_part` accepts) into one; `values` are the values
/// the lattice was found in (sampled gaps, or a group's durations). A periodic finding at
/// the base, or a multiple of it, is the same loop and is folded in too.
void fold_lattice_modes(std::vector<Finding>& findings, const Quantisation& q, const std::vector<double>& values,
                        const std::function<bool(const Finding&)>& takes_part);

}  // namespace gapscan::detect
