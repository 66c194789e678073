#include <gapscan/detect/probability.hpp>
#include <gapscan/detect/time_profile.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace gapscan::detect {
namespace {

constexpr int k_max_level = 26;  // 125 ms × 2^26 × 128 = 34 years a bin block: width × k_bins stays in range

int octave_of(double gap_ns) {
  if (gap_ns < 1e6) return -1;
  const int octave = static_cast<int>(std::floor(std::log2(gap_ns / 1e6) / 2));
  return std::min(octave, static_cast<int>(TimeProfile::k_octaves) - 1);
}

}  // namespace

void TimeProfile::coarsen() {
  std::vector<Bin> coarse(k_bins);
  const std::size_t half = (m_block % 2 == 0) ? 0 : k_bins / 2;  // where this block lands in its parent
  for (std::size_t b = 0; b < k_bins; ++b) {
    Bin& into = coarse[half + b / 2];
    into.gaps += m_bins[b].gaps;
    for (std::size_t o = 0; o < k_octaves; ++o) into.long_gaps[o] += m_bins[b].long_gaps[o];
  }
  m_bins = coarse;
  m_block = floor_div(m_block, 2);
  ++m_level;
}

void TimeProfile::add(TimeNs time, double gap_ns) {
  const auto block_of = [&](TimeNs t) { return floor_div(t, width() * static_cast<DurationNs>(k_bins)); };
  if (m_total == 0) {
    m_bins.assign(k_bins, Bin{});
    m_level = 0;
    m_block = block_of(time);
  }
  while (block_of(time) != m_block && m_level < k_max_level) coarsen();
  const std::int64_t offset = floor_div(time, width()) - m_block * static_cast<std::int64_t>(k_bins);
  const auto bin = static_cast<std::size_t>(std::clamp<std::int64_t>(offset, 0, k_bins - 1));
  ++m_bins[bin].gaps;
  if (const int octave = octave_of(gap_ns); octave >= 0) ++m_bins[bin].long_gaps[static_cast<std::size_t>(octave)];
  ++m_total;
}

void TimeProfile::merge(const TimeProfile& other) {
  if (other.m_total == 0) return;
  if (m_total == 0) {
    *this = other;
    return;
  }
  TimeProfile theirs = other;
  while (m_level < theirs.m_level) coarsen();
  while (theirs.m_level < m_level) theirs.coarsen();
  while (m_block != theirs.m_block && m_level < k_max_level) {
    coarsen();
    theirs.coarsen();
  }
  for (std::size_t b = 0; b < k_bins; ++b) {
    m_bins[b].gaps += theirs.m_bins[b].gaps;
    for (std::size_t o = 0; o < k_octaves; ++o) m_bins[b].long_gaps[o] += theirs.m_bins[b].long_gaps[o];
  }
  m_total += theirs.m_total;
}

std::optional<TimingDetail> TimeProfile::timing(double lo_ns, double hi_ns) const {
  constexpr std::uint64_t k_min_stalls = 5;
  const int first_octave = std::max(0, octave_of(lo_ns)), last_octave = octave_of(hi_ns);
  if (last_octave < 0) return std::nullopt;
  if (m_bins.empty()) return std::nullopt;
  std::array<std::uint64_t, k_bins> stalls{}, all{};
  std::uint64_t m = 0, n = 0;
  for (std::size_t b = 0; b < k_bins; ++b) {
    for (int o = first_octave; o <= last_octave; ++o) stalls[b] += m_bins[b].long_gaps[static_cast<std::size_t>(o)];
    all[b] = m_bins[b].gaps;
    m += stalls[b];
    n += all[b];
  }
  // Bins with gaps: the run's stretch.
  std::size_t used_first = k_bins, used_last = 0;
  for (std::size_t b = 0; b < k_bins; ++b) {
    if (all[b] == 0) continue;
    used_first = std::min(used_first, b);
    used_last = b;
  }
  if (m < k_min_stalls || used_first == k_bins || used_last - used_first < 3) return std::nullopt;
  const double rate = static_cast<double>(m) / static_cast<double>(n);
  // Computed in long double (exact to the ns here): a hostile input's block at the top level may
  // lie beyond TimeNs's range.
  const long double origin =
      static_cast<long double>(m_block) * static_cast<long double>(k_bins) * static_cast<long double>(width());
  const auto edge = [&](std::size_t b) {
    const long double at = origin + static_cast<long double>(b) * static_cast<long double>(width());
    return static_cast<TimeNs>(std::clamp(at, -9.2e18L, 9.2e18L));
  };

  // The window: the fewest bins holding 90 % of the stalls, grown over neighbours where 80 % or
  // more of the gaps are stalls.
  const auto need = static_cast<std::uint64_t>(std::ceil(0.9 * static_cast<double>(m)));
  std::size_t best_from = 0, best_to = k_bins - 1;
  for (std::size_t from = 0; from < k_bins; ++from) {
    std::uint64_t held = 0;
    for (std::size_t to = from; to < k_bins; ++to) {
      held += stalls[to];
      if (held >= need) {
        if (to - from < best_to - best_from) {
          best_from = from;
          best_to = to;
        }
        break;
      }
    }
  }
  const auto dense = [&](std::size_t b) { return all[b] > 0 && stalls[b] * 5 >= all[b] * 4; };
  while (best_from > 0 && dense(best_from - 1)) --best_from;
  while (best_to + 1 < k_bins && dense(best_to + 1)) ++best_to;
  TimingDetail window;
  for (std::size_t b = 0; b < k_bins; ++b) {
    const bool in = b >= best_from && b <= best_to;
    (in ? window.inside : window.outside) += all[b];
    (in ? window.inside_stalls : window.outside_stalls) += stalls[b];
  }
  window.start = edge(best_from);
  window.end = edge(best_to + 1);
  const double inside_rate =
      window.inside > 0 ? static_cast<double>(window.inside_stalls) / static_cast<double>(window.inside) : 0;
  const double outside_rate =
      window.outside > 0 ? static_cast<double>(window.outside_stalls) / static_cast<double>(window.outside) : 1;
  window.log10_p = to_log10(log_binomial_tail(window.inside, window.inside_stalls, rate));
  if (inside_rate >= 0.8 && outside_rate <= 0.05 && window.outside >= std::max<std::uint64_t>(10, m) &&
      window.log10_p <= -6)
    return window;

  // A steady rate: the stalls' counts in 4-10 stretches of about equally many gaps.
  if (rate > 0.5) return std::nullopt;
  const std::size_t groups = std::clamp<std::size_t>(m / 4, 4, 10);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> parts;  // (gaps, stalls)
  std::uint64_t seen = 0;
  parts.emplace_back(0, 0);
  for (std::size_t b = used_first; b <= used_last; ++b) {
    if (parts.back().first > 0 && seen * groups >= parts.size() * n && parts.size() < groups) parts.emplace_back(0, 0);
    parts.back().first += all[b];
    parts.back().second += stalls[b];
    seen += all[b];
  }
  if (parts.size() < 3) return std::nullopt;
  double chi2 = 0;
  for (const auto& [gaps, in_part] : parts) {
    const double expected = rate * static_cast<double>(gaps);
    if (expected > 0)
      chi2 += (static_cast<double>(in_part) - expected) * (static_cast<double>(in_part) - expected) / expected;
  }
  const double dof = static_cast<double>(parts.size() - 1);
  const double p = 1 - std::exp(log_gamma_p(dof / 2, chi2 / 2));
  std::size_t stall_first = k_bins, stall_last = 0;
  for (std::size_t b = 0; b < k_bins; ++b) {
    if (stalls[b] == 0) continue;
    stall_first = std::min(stall_first, b);
    stall_last = b;
  }
  if (p < 0.01 || 2 * (stall_last - stall_first + 1) < used_last - used_first + 1) return std::nullopt;
  TimingDetail scattered;
  scattered.kind = TimingDetail::Kind::scattered;
  scattered.start = edge(used_first);
  scattered.end = edge(used_last + 1);
  scattered.inside = n;
  scattered.inside_stalls = m;
  scattered.log10_p = std::log10(std::max(p, 1e-300));
  return scattered;
}

}  // namespace gapscan::detect
