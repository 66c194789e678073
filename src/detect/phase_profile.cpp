#include <gapscan/detect/phase_profile.hpp>
#include <gapscan/detect/probability.hpp>

#include <algorithm>
#include <cmath>

namespace gapscan::detect {
namespace {

constexpr DurationNs k_spent_ns = 1'000'000;  // 1 ms: less is the timer's rounding
constexpr double k_saturation_min_share = 0.05;
constexpr std::uint64_t k_saturation_min_waits = 10;
constexpr double k_saturation_min_spread = 1.5;  // p90 / p10 of the waits: a timer holds them within a few %
constexpr double k_saturation_min_time = 0.05;
constexpr double k_saturation_min_median_ns = 5e6;  // waits of a few ms are a busy server, not a saturated one
constexpr double k_healthy_wait_share = 0.01;       // a healthy proxy queues about none

}  // namespace

std::size_t PhaseProfile::bin_of(DurationNs value) {
  if (value < 1000) return 0;
  const double bin = std::log2(static_cast<double>(value) / 1000.0) * static_cast<double>(k_bins_per_octave);
  return std::min(k_bins - 1, static_cast<std::size_t>(bin));
}

double PhaseProfile::bin_low_ns(std::size_t bin) {
  return 1000.0 * std::exp2(static_cast<double>(bin) / static_cast<double>(k_bins_per_octave));
}

void PhaseProfile::add(const std::array<DurationNs, parse::k_phase_count>& phases, DurationNs total) {
  DurationNs sum = 0;
  bool any = false;
  for (std::size_t p = 0; p < phases.size(); ++p) {
    const DurationNs value = phases[p];
    if (value < 0) continue;
    any = true;
    Phase& phase = m_phases[p];
    ++phase.requests;
    phase.total_ns += static_cast<double>(value);
    phase.longest = std::max(phase.longest, value);
    if (value >= k_spent_ns) ++phase.spent;
    if (value > 0) ++phase.bins[bin_of(value)];
    sum += value;
  }
  if (!any) return;
  ++m_records;
  m_total_ns += static_cast<double>(std::max(total, sum));
}

void PhaseProfile::merge(const PhaseProfile& other) {
  for (std::size_t p = 0; p < m_phases.size(); ++p) {
    Phase& mine = m_phases[p];
    const Phase& theirs = other.m_phases[p];
    mine.requests += theirs.requests;
    mine.spent += theirs.spent;
    mine.total_ns += theirs.total_ns;
    mine.longest = std::max(mine.longest, theirs.longest);
    for (std::size_t b = 0; b < k_bins; ++b) mine.bins[b] += theirs.bins[b];
  }
  m_records += other.m_records;
  m_total_ns += other.m_total_ns;
}

double PhaseProfile::quantile(parse::Phase which, double q) const {
  const Phase& phase = this->phase(which);
  if (phase.requests == 0) return 0;
  std::uint64_t positive = 0;
  for (const std::uint64_t count : phase.bins) positive += count;
  const double rank = q * static_cast<double>(phase.requests);
  double below = static_cast<double>(phase.requests - positive);  // the zeros
  if (rank < below) return 0;
  for (std::size_t b = 0; b < k_bins; ++b) {
    const auto count = static_cast<double>(phase.bins[b]);
    if (count > 0 && rank < below + count) {
      // Within the bin, on a log scale.
      const double within = (rank - below) / count;
      return bin_low_ns(b) * std::exp2(within / static_cast<double>(k_bins_per_octave));
    }
    below += count;
  }
  return static_cast<double>(phase.longest);
}

std::uint64_t PhaseProfile::count_between(parse::Phase which, double lo_ns, double hi_ns) const {
  const Phase& phase = this->phase(which);
  std::uint64_t count = 0;
  for (std::size_t b = 0; b < k_bins; ++b) {
    if (bin_low_ns(b + 1) > lo_ns && bin_low_ns(b) <= hi_ns) count += phase.bins[b];
  }
  return count;
}

std::optional<Finding> PhaseProfile::saturation() const {
  const Phase& queue = phase(parse::Phase::queue);
  if (queue.requests == 0 || m_total_ns <= 0) return std::nullopt;
  const double share = static_cast<double>(queue.spent) / static_cast<double>(queue.requests);
  const double time_share = queue.total_ns / m_total_ns;
  if (queue.spent < k_saturation_min_waits || share < k_saturation_min_share || time_share < k_saturation_min_time)
    return std::nullopt;
  // The waits' own quantiles: ranks among the requests above the ones that did not wait.
  const auto waits_quantile = [&](double q) {
    const double waited_from = 1 - share;
    return quantile(parse::Phase::queue, waited_from + q * share);
  };
  const double p10 = waits_quantile(0.1), p50 = waits_quantile(0.5), p90 = waits_quantile(0.9);
  if (p10 <= 0 || p90 < k_saturation_min_spread * p10 || p50 < k_saturation_min_median_ns) return std::nullopt;

  Finding f;
  f.values = ValueKind::duration;
  f.group = "phase=queue";
  f.shape = Shape::one_off;
  f.centre_ns = p50;
  f.lo_ns = p10;
  f.hi_ns = p90;
  f.rel_width = p50 > 0 ? (p90 - p10) / p50 : 0;
  f.gaps = queue.spent;
  f.duration_values = queue.requests;
  f.member_time_ns = queue.total_ns;
  f.wall_share = time_share;
  // Against a healthy server, where about 1 % of the requests wait at all.
  f.log10_p = f.log10_p_pooled =
      std::max(-300.0, to_log10(log_binomial_tail(queue.requests, queue.spent, k_healthy_wait_share)));
  SaturationDetail detail;
  detail.phase = "queue";
  detail.requests = queue.requests;
  detail.waited = queue.spent;
  detail.p10_ns = p10;
  detail.p50_ns = p50;
  detail.p90_ns = p90;
  detail.longest_ns = static_cast<double>(queue.longest);
  detail.time_share = time_share;
  f.saturation = detail;
  return f;
}

}  // namespace gapscan::detect
