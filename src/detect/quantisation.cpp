#include <gapscan/detect/probability.hpp>
#include <gapscan/detect/quantisation.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <map>

namespace gapscan::detect {
namespace {

constexpr double k_two_pi = 6.283185307179586;
constexpr std::size_t k_scan_gaps = 512;     // gaps in the frequency scan
constexpr std::size_t k_max_steps = 400000;  // frequencies in the scan
constexpr std::size_t k_refine = 8;          // scan peaks refined on all gaps

/// Sum of e^(2 pi i g / base) over the gaps of at least base / 2 (a shorter gap is not a
/// step of the lattice: its phase is near 0 for any base), and how many there were.
std::complex<double> resultant(const std::vector<double>& gaps, double base, std::size_t& used) {
  std::complex<double> sum = 0;
  used = 0;
  for (double g : gaps) {
    if (g < base / 2) continue;
    ++used;
    const double turns = g / base;
    const double phase = k_two_pi * (turns - std::floor(turns));
    sum += std::complex<double>(std::cos(phase), std::sin(phase));
  }
  return sum;
}

struct Coherence {
  double r = 0;
  std::size_t used = 0;
};

Coherence coherence(const std::vector<double>& gaps, double base) {
  Coherence c;
  const std::complex<double> sum = resultant(gaps, base, c.used);
  c.r = c.used > 0 ? std::abs(sum) / static_cast<double>(c.used) : 0;
  return c;
}

}  // namespace

std::optional<Quantisation> find_quantisation(const std::vector<double>& all_gaps, const QuantisationOptions& options) {
  // Gaps shorter than the smallest base are the speed of the code between two lines.
  const double q_min = std::max(2.5 * options.resolution_ns, 1e5);
  std::vector<double> gaps;
  gaps.reserve(all_gaps.size());
  for (double g : all_gaps) {
    if (g >= q_min && g <= options.max_gap_ns) gaps.push_back(g);
  }
  const std::size_t n = gaps.size();
  if (n < options.min_gaps) return std::nullopt;
  std::vector<double> sorted = gaps;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[n / 2];
  const double iqr = sorted[3 * n / 4] - sorted[n / 4];
  const double g_max = sorted.back();
  // A base must be small against the spread of the gaps: at a base near their width, the
  // shape of any smooth distribution alone gives coherence (and e^(-n R^2) no longer holds).
  // (A lattice whose gaps sit mostly on 1 and 2 bases has an IQR of one base: 5 % headroom.)
  const double q_max = std::min({1e9, median, 1.05 * iqr});
  if (q_max <= q_min * 1.01) return std::nullopt;

  // Candidates: the peaks of a frequency scan on a sample, and the catalog bases.
  std::vector<double> candidates;
  const double f_lo = 1 / q_max, f_hi = 1 / q_min;
  double step = 1 / (4 * g_max);
  auto steps = static_cast<std::size_t>((f_hi - f_lo) / step) + 1;
  if (steps > k_max_steps) {
    steps = k_max_steps;
    step = (f_hi - f_lo) / static_cast<double>(steps - 1);
  }
  std::vector<double> sample;
  if (n <= k_scan_gaps) {
    sample = gaps;
  } else {
    for (std::size_t i = 0; i < k_scan_gaps; ++i) sample.push_back(gaps[i * n / k_scan_gaps]);
  }
  std::vector<std::complex<double>> sums(steps);
  std::vector<double> counted(steps + 1, 0.0);  // gaps counted at each frequency (difference array)
  for (double g : sample) {
    // Only frequencies at which the gap is at least half a step: f >= 1 / (2 g).
    const double first = std::ceil((0.5 / g - f_lo) / step);
    const std::size_t start = first <= 0 ? 0 : static_cast<std::size_t>(std::min(first, static_cast<double>(steps)));
    counted[start] += 1;
    const std::complex<double> rotation = std::polar(1.0, k_two_pi * std::fmod(g * step, 1.0));
    std::complex<double> z;
    for (std::size_t k = start; k < steps; ++k) {
      if ((k - start) % 256 == 0) {  // exact every 256 steps: no drift from the repeated products
        const double turns = g * (f_lo + static_cast<double>(k) * step);
        z = std::polar(1.0, k_two_pi * (turns - std::floor(turns)));
      }
      sums[k] += z;
      z *= rotation;
    }
  }
  for (std::size_t k = 1; k < steps; ++k) counted[k] += counted[k - 1];
  std::vector<std::pair<double, std::size_t>> peaks;  // (|S|, k) of local maxima
  // n R^2 = |S|^2 / n: the statistic whose null law is Exp(1).
  const auto statistic = [&](std::size_t k) { return counted[k] > 0 ? std::norm(sums[k]) / counted[k] : 0.0; };
  for (std::size_t k = 0; k < steps; ++k) {
    const double value = statistic(k);
    if ((k == 0 || value >= statistic(k - 1)) && (k + 1 == steps || value >= statistic(k + 1))) {
      peaks.emplace_back(value, k);
    }
  }
  // Gaps on a lattice of q are on every q/k too, so the scan shows the lattice as a comb of
  // nearly equal peaks at k/q: besides the highest peaks, the lowest-frequency one that is
  // almost as high (0.81 of the best statistic: R at 0.9 of the best) is refined, since it is
  // the lattice's own base.
  double highest = 0;
  for (const auto& peak : peaks) highest = std::max(highest, peak.first);
  std::size_t lowest = steps;
  for (const auto& peak : peaks) {
    if (peak.first >= 0.81 * highest) lowest = std::min(lowest, peak.second);
  }
  const std::size_t keep = std::min(k_refine, peaks.size());
  std::partial_sort(peaks.begin(), peaks.begin() + static_cast<std::ptrdiff_t>(keep), peaks.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  if (lowest < steps) {
    peaks.resize(keep);
    peaks.emplace_back(highest, lowest);
  }
  for (std::size_t i = 0; i < std::min(keep + 1, peaks.size()); ++i) {
    // Refine on all gaps within one scan step either side.
    const double f = f_lo + static_cast<double>(peaks[i].second) * step;
    double best_f = f, best_r = -1;
    for (int j = -10; j <= 10; ++j) {
      const double trial = f + step * j / 10.0;
      if (trial <= 0) continue;
      const Coherence c = coherence(gaps, 1 / trial);
      const double value = static_cast<double>(c.used) * c.r * c.r;
      if (value > best_r) {
        best_r = value;
        best_f = trial;
      }
    }
    candidates.push_back(1 / best_f);
  }
  for (double base : options.catalog_bases_ns) {
    if (base >= q_min && base <= q_max) candidates.push_back(base);
  }

  // Significance: e^(-n R^2) times the independent frequencies and the catalog trials.
  const double trials =
      std::max(1.0, g_max * (1 / q_min - 1 / q_max)) + static_cast<double>(options.catalog_bases_ns.size());
  const double log_trials = std::log(trials);
  const double log_alpha = std::log(options.alpha);
  const auto log_p_of = [&](const Coherence& c) {
    return std::min(0.0, -static_cast<double>(c.used) * c.r * c.r + log_trials);
  };
  // A lattice, not one sharp value nor a density that merely changes over one base: at least
  // three multiples of the base hold gaps, and the gaps of two bases and more stay coherent
  // without the busiest multiple. One narrow mode makes any base through it coherent, and a
  // steep density makes the first step or two coherent; ticks make every multiple so.
  const std::size_t needed = std::max<std::size_t>(3, n / 50);
  auto is_lattice = [&](double base) {
    std::map<long long, std::size_t> multiples;
    for (double g : gaps) {
      if (g >= base / 2) ++multiples[std::llround(g / base)];
    }
    const auto occupied =
        std::count_if(multiples.begin(), multiples.end(), [&](const auto& entry) { return entry.second >= needed; });
    if (occupied < 3) return false;
    // The gaps of two bases and more, without the multiple that adds most to their resultant.
    std::vector<double> far;
    for (double g : gaps) {
      if (g >= 1.5 * base) far.push_back(g);
    }
    std::size_t far_used = 0;
    const std::complex<double> total = resultant(far, base, far_used);
    const std::complex<double> direction = std::abs(total) > 0 ? total / std::abs(total) : 1.0;
    std::map<long long, double> contribution;
    for (double g : far) {
      const double turns = g / base;
      const std::complex<double> unit = std::polar(1.0, k_two_pi * (turns - std::floor(turns)));
      contribution[std::llround(turns)] += (unit * std::conj(direction)).real();
    }
    const auto strongest = std::max_element(contribution.begin(), contribution.end(), [](const auto& a, const auto& b) {
                             return a.second < b.second;
                           })->first;
    std::vector<double> rest;
    for (double g : far) {
      if (std::llround(g / base) != strongest) rest.push_back(g);
    }
    const Coherence c = coherence(rest, base);
    return c.used >= options.min_gaps && log_p_of(c) <= log_alpha;
  };
  double best_base = 0, best_r = 0;
  for (double base : candidates) {
    const Coherence c = coherence(gaps, base);
    const double r = c.r;
    if (c.used < options.min_gaps || log_p_of(c) > log_alpha) continue;
    if (r > best_r * 1.0001 || (r >= best_r * 0.9999 && base > best_base)) {
      if (!is_lattice(base)) continue;
      best_base = base;
      best_r = r;
    }
  }
  if (best_base == 0) return std::nullopt;
  // The scan may have found a divisor of the base (gaps on a 4 ms lattice are also on a 2 ms
  // one): take the largest multiple that is significant, a lattice, and at least 3/4 as coherent.
  double chosen = best_base;
  for (int multiple = 2; multiple <= 64 && best_base * multiple <= q_max; ++multiple) {
    const double base = best_base * multiple;
    const Coherence c = coherence(gaps, base);
    if (c.used >= options.min_gaps && c.r >= 0.75 * best_r && log_p_of(c) <= log_alpha && is_lattice(base)) {
      chosen = base;
    }
  }
  const Coherence chosen_c = coherence(gaps, chosen);

  Quantisation q;
  q.base_ns = chosen;
  q.coherence = chosen_c.r;
  q.log10_p = to_log10(log_p_of(chosen_c));
  q.gaps = chosen_c.used;
  std::size_t used_gaps = 0;
  const std::complex<double> s = resultant(gaps, q.base_ns, used_gaps);
  double angle = std::arg(s);
  if (angle < 0) angle += k_two_pi;
  q.offset_ns = q.base_ns * angle / k_two_pi;
  q.noise_rel = std::sqrt(std::max(0.0, -2 * std::log(std::max(q.coherence, 1e-300)))) / k_two_pi;
  std::size_t near = 0;
  for (double g : gaps) {
    if (g < q.base_ns / 2) continue;
    const double turns = (g - q.offset_ns) / q.base_ns;
    if (std::abs(turns - std::round(turns)) <= 0.125) ++near;
  }
  q.share = static_cast<double>(near) / static_cast<double>(std::max<std::size_t>(1, used_gaps));
  for (int divisor = 2; divisor <= 4; ++divisor) {
    const double smaller = q.base_ns / divisor;
    if (smaller >= q_min && coherence(gaps, smaller).r >= 0.9 * q.coherence) q.also_consistent_ns.push_back(smaller);
  }
  return q;
}

}  // namespace gapscan::detect
