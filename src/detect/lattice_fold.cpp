#include <gapscan/detect/lattice_fold.hpp>

#include <algorithm>
#include <cmath>

namespace gapscan::detect {

void fold_lattice_modes(std::vector<Finding>& findings, const Quantisation& q, const std::vector<double>& values,
                        const std::function<bool(const Finding&)>& takes_part) {
  if (q.share < 0.8 || q.log10_p > -4 || q.base_ns <= 0) return;
  constexpr int k_max_multiple = 32;
  std::vector<double> counts(k_max_multiple + 1, 0);
  double on_lattice = 0;
  for (double value : values) {
    const double position = (value - q.offset_ns) / q.base_ns;
    const double k = std::round(position);
    if (k < 1 || k > k_max_multiple || std::abs(position - k) > 0.125) continue;
    counts[static_cast<std::size_t>(k)] += 1;
    on_lattice += 1;
  }
  if (on_lattice < 20) return;
  int occupied = 0;
  for (double count : counts) occupied += count >= std::max(3.0, 0.05 * on_lattice) ? 1 : 0;
  if (occupied < 3) return;
  // The modes on the lattice are one phenomenon: they are folded into the most significant.
  Finding* first = nullptr;
  std::vector<bool> folded(findings.size(), false);
  for (std::size_t i = 0; i < findings.size(); ++i) {
    Finding& finding = findings[i];
    if (!takes_part(finding)) continue;
    const double position = (finding.centre_ns - q.offset_ns) / q.base_ns;
    const double k = std::round(position);
    if (k < 1 || k > k_max_multiple || std::abs(position - k) > 0.125) continue;
    const double mode_share = counts[static_cast<std::size_t>(k)] / on_lattice;
    if (mode_share >= 0.7) continue;
    if (first == nullptr) {
      finding.lattice = LatticeDetail{q.base_ns, q.offset_ns, static_cast<int>(k), q.share, occupied, mode_share, {}};
      finding.lattice->modes.emplace_back(static_cast<int>(k), finding.gaps);
      first = &finding;
      continue;
    }
    first->lattice->modes.emplace_back(static_cast<int>(k), finding.gaps);
    first->gaps += finding.gaps;
    first->member_time_ns += finding.member_time_ns;
    first->requests = std::max(first->requests, finding.requests);
    first->wall_share = std::min(1.0, first->wall_share + finding.wall_share);
    folded[i] = true;
  }
  if (first == nullptr) return;
  std::sort(first->lattice->modes.begin(), first->lattice->modes.end());
  // A clock at the base (or a multiple of it) is the same loop.
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Finding& finding = findings[i];
    if (finding.shape != Shape::periodic) continue;
    const double ratio = finding.centre_ns / q.base_ns;
    if (std::round(ratio) < 1 || std::abs(ratio / std::round(ratio) - 1) > 0.01) continue;
    first->lattice->keeps_clock = true;
    first->log10_p = std::min(first->log10_p, finding.log10_p);
    folded[i] = true;
  }
  // The finding now stands for the loop: its value is the lattice's base.
  first->shape = Shape::quantised;
  first->centre_ns = q.base_ns;
  first->lo_ns = q.base_ns * (1 - q.noise_rel);
  first->hi_ns = q.base_ns * (1 + q.noise_rel);
  first->rel_width = 2 * q.noise_rel;
  std::size_t out = 0;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (folded[i]) continue;
    if (out != i) findings[out] = std::move(findings[i]);
    ++out;
  }
  findings.resize(out);
}

}  // namespace gapscan::detect
