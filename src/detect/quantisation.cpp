#include <gapscan/detect/probability.hpp>
#include <gapscan/detect/quantisation.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <map>
#include <utility>

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

/// The bases that may be tested: from q_min (above the resolution and the speed of the code)
/// to q_max (small against the spread of the gaps).
struct BaseRange {
  double q_min = 0, q_max = 0;
  double g_max = 0;  ///< the longest gap used
};

/// The gaps of at least q_min and at most max_gap_ns, in their order.
std::vector<double> usable_gaps(const std::vector<double>& all_gaps, double q_min, double max_gap_ns) {
  std::vector<double> gaps;
  gaps.reserve(all_gaps.size());
  for (double g : all_gaps) {
    if (g >= q_min && g <= max_gap_ns) gaps.push_back(g);
  }
  return gaps;
}

/// The range of bases for `gaps` (all at least q_min, at least one).
BaseRange base_range(const std::vector<double>& gaps, double q_min) {
  const std::size_t n = gaps.size();
  std::vector<double> sorted = gaps;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[n / 2];
  const double iqr = sorted[3 * n / 4] - sorted[n / 4];
  const double g_max = sorted.back();
  // A base must be small against the spread of the gaps: at a base near their width, the
  // shape of any smooth distribution alone gives coherence (and e^(-n R^2) no longer holds).
  // (A lattice whose gaps sit mostly on 1 and 2 bases has an IQR of one base: 5 % headroom.)
  return {q_min, std::min({1e9, median, 1.05 * iqr}), g_max};
}

/// The frequencies of the scan: f_lo + k·step, k < steps.
struct FrequencyGrid {
  double f_lo = 0, step = 0;
  std::size_t steps = 0;
  double at(std::size_t k) const { return f_lo + static_cast<double>(k) * step; }
};

/// Steps of 1/(4 g_max) from 1/q_max to 1/q_min, or k_max_steps evenly over that span.
FrequencyGrid frequency_grid(const BaseRange& range) {
  FrequencyGrid grid;
  grid.f_lo = 1 / range.q_max;
  const double f_hi = 1 / range.q_min;
  grid.step = 1 / (4 * range.g_max);
  grid.steps = static_cast<std::size_t>((f_hi - grid.f_lo) / grid.step) + 1;
  if (grid.steps > k_max_steps) {
    grid.steps = k_max_steps;
    grid.step = (f_hi - grid.f_lo) / static_cast<double>(grid.steps - 1);
  }
  return grid;
}

/// All the gaps when there are at most k_scan_gaps, else k_scan_gaps of them evenly spaced.
std::vector<double> scan_sample(const std::vector<double>& gaps) {
  const std::size_t n = gaps.size();
  std::vector<double> sample;
  if (n <= k_scan_gaps) {
    sample = gaps;
  } else {
    for (std::size_t i = 0; i < k_scan_gaps; ++i) sample.push_back(gaps[i * n / k_scan_gaps]);
  }
  return sample;
}

/// n R^2 = |S|^2 / n at each frequency of the grid, over the gaps of `sample` of at least half
/// a step (the statistic whose null law is Exp(1)); 0 where no gap counts.
std::vector<double> scan_statistics(const std::vector<double>& sample, const FrequencyGrid& grid) {
  const std::size_t steps = grid.steps;
  std::vector<std::complex<double>> sums(steps);
  std::vector<double> counted(steps + 1, 0.0);  // gaps counted at each frequency (difference array)
  for (double g : sample) {
    // Only frequencies at which the gap is at least half a step: f >= 1 / (2 g).
    const double first = std::ceil((0.5 / g - grid.f_lo) / grid.step);
    const std::size_t start = first <= 0 ? 0 : static_cast<std::size_t>(std::min(first, static_cast<double>(steps)));
    counted[start] += 1;
    const std::complex<double> rotation = std::polar(1.0, k_two_pi * std::fmod(g * grid.step, 1.0));
    std::complex<double> z;
    for (std::size_t k = start; k < steps; ++k) {
      if ((k - start) % 256 == 0) {  // exact every 256 steps: no drift from the repeated products
        const double turns = g * grid.at(k);
        z = std::polar(1.0, k_two_pi * (turns - std::floor(turns)));
      }
      sums[k] += z;
      z *= rotation;
    }
  }
  for (std::size_t k = 1; k < steps; ++k) counted[k] += counted[k - 1];
  std::vector<double> statistic(steps);
  for (std::size_t k = 0; k < steps; ++k) statistic[k] = counted[k] > 0 ? std::norm(sums[k]) / counted[k] : 0.0;
  return statistic;
}

/// The grid indices of the scan peaks worth refining: the k_refine highest local maxima and
/// the lowest-frequency one almost as high as the best.
std::vector<std::size_t> peaks_to_refine(const std::vector<double>& statistic) {
  const std::size_t steps = statistic.size();
  std::vector<std::pair<double, std::size_t>> peaks;  // (n R^2, k) of local maxima
  for (std::size_t k = 0; k < steps; ++k) {
    const double value = statistic[k];
    if ((k == 0 || value >= statistic[k - 1]) && (k + 1 == steps || value >= statistic[k + 1])) {
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
  std::vector<std::size_t> refine;
  for (std::size_t i = 0; i < std::min(keep + 1, peaks.size()); ++i) refine.push_back(peaks[i].second);
  return refine;
}

/// The base near grid frequency k that is most coherent on all gaps, tried within one scan
/// step either side in tenths of a step.
double refined_base(const std::vector<double>& gaps, const FrequencyGrid& grid, std::size_t k) {
  const double f = grid.at(k);
  double best_f = f, best_r = -1;
  for (int j = -10; j <= 10; ++j) {
    const double trial = f + grid.step * j / 10.0;
    if (trial <= 0) continue;
    const Coherence c = coherence(gaps, 1 / trial);
    const double value = static_cast<double>(c.used) * c.r * c.r;
    if (value > best_r) {
      best_r = value;
      best_f = trial;
    }
  }
  return 1 / best_f;
}

/// Candidates: the refined peaks of a frequency scan on a sample, then the catalog bases in
/// the range.
std::vector<double> candidate_bases(const std::vector<double>& gaps, const BaseRange& range,
                                    const QuantisationOptions& options) {
  const FrequencyGrid grid = frequency_grid(range);
  const std::vector<double> statistic = scan_statistics(scan_sample(gaps), grid);
  std::vector<double> candidates;
  for (std::size_t k : peaks_to_refine(statistic)) candidates.push_back(refined_base(gaps, grid, k));
  for (double base : options.catalog_bases_ns) {
    if (base >= range.q_min && base <= range.q_max) candidates.push_back(base);
  }
  return candidates;
}

/// The gaps of two bases and more, without the multiple of the base that adds most to their
/// resultant.
std::vector<double> far_gaps_but_strongest_multiple(const std::vector<double>& gaps, double base) {
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
  return rest;
}

/// What a candidate base is tested with: its p-value corrected for the trials, and whether
/// the gaps sit on its lattice.
struct LatticeTest {
  const std::vector<double>& gaps;
  const QuantisationOptions& options;
  double log_trials = 0;
  double log_alpha = 0;
  std::size_t needed = 0;  ///< gaps a multiple of the base must hold to count

  /// e^(-n R^2) times the trials, as ln, at most 0.
  double log_p(const Coherence& c) const {
    return std::min(0.0, -static_cast<double>(c.used) * c.r * c.r + log_trials);
  }

  // A lattice, not one sharp value nor a density that merely changes over one base: at least
  // three multiples of the base hold gaps, and the gaps of two bases and more stay coherent
  // without the busiest multiple. One narrow mode makes any base through it coherent, and a
  // steep density makes the first step or two coherent; ticks make every multiple so.
  bool is_lattice(double base) const {
    std::map<long long, std::size_t> multiples;
    for (double g : gaps) {
      if (g >= base / 2) ++multiples[std::llround(g / base)];
    }
    const auto occupied =
        std::count_if(multiples.begin(), multiples.end(), [&](const auto& entry) { return entry.second >= needed; });
    if (occupied < 3) return false;
    const Coherence c = coherence(far_gaps_but_strongest_multiple(gaps, base), base);
    return c.used >= options.min_gaps && log_p(c) <= log_alpha;
  }
};

struct Candidate {
  double base = 0;
  double r = 0;  ///< its coherence
};

/// The most coherent significant candidate that is a lattice (of nearly equal ones, the
/// largest base); base 0 when there is none.
Candidate best_candidate(const std::vector<double>& candidates, const LatticeTest& test) {
  double best_base = 0, best_r = 0;
  for (double base : candidates) {
    const Coherence c = coherence(test.gaps, base);
    const double r = c.r;
    if (c.used < test.options.min_gaps || test.log_p(c) > test.log_alpha) continue;
    if (r > best_r * 1.0001 || (r >= best_r * 0.9999 && base > best_base)) {
      if (!test.is_lattice(base)) continue;
      best_base = base;
      best_r = r;
    }
  }
  return {best_base, best_r};
}

/// The scan may have found a divisor of the base (gaps on a 4 ms lattice are also on a 2 ms
/// one): the largest multiple of the best base up to q_max that is significant, a lattice, and
/// at least 3/4 as coherent; the best base when none is.
double largest_coherent_multiple(const Candidate& best, double q_max, const LatticeTest& test) {
  const double best_base = best.base, best_r = best.r;
  double chosen = best_base;
  for (int multiple = 2; multiple <= 64 && best_base * multiple <= q_max; ++multiple) {
    const double base = best_base * multiple;
    const Coherence c = coherence(test.gaps, base);
    if (c.used >= test.options.min_gaps && c.r >= 0.75 * best_r && test.log_p(c) <= test.log_alpha &&
        test.is_lattice(base)) {
      chosen = base;
    }
  }
  return chosen;
}

/// The lattice of base `base` as reported: its coherence, p, phase, noise, the share of gaps
/// near it and the divisors that fit as well.
Quantisation describe_lattice(double base, double q_min, const LatticeTest& test) {
  const std::vector<double>& gaps = test.gaps;
  const Coherence chosen_c = coherence(gaps, base);
  Quantisation q;
  q.base_ns = base;
  q.coherence = chosen_c.r;
  q.log10_p = to_log10(test.log_p(chosen_c));
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

}  // namespace

std::optional<Quantisation> find_quantisation(const std::vector<double>& all_gaps, const QuantisationOptions& options) {
  // Gaps shorter than the smallest base are the speed of the code between two lines.
  const double q_min = std::max(2.5 * options.resolution_ns, 1e5);
  const std::vector<double> gaps = usable_gaps(all_gaps, q_min, options.max_gap_ns);
  const std::size_t n = gaps.size();
  if (n < options.min_gaps) return std::nullopt;
  const BaseRange range = base_range(gaps, q_min);
  if (range.q_max <= q_min * 1.01) return std::nullopt;
  const std::vector<double> candidates = candidate_bases(gaps, range, options);

  // Significance: e^(-n R^2) times the independent frequencies and the catalog trials.
  const double trials =
      std::max(1.0, range.g_max * (1 / q_min - 1 / range.q_max)) + static_cast<double>(options.catalog_bases_ns.size());
  const LatticeTest test{gaps, options, std::log(trials), std::log(options.alpha), std::max<std::size_t>(3, n / 50)};
  const Candidate best = best_candidate(candidates, test);
  if (best.base == 0) return std::nullopt;
  return describe_lattice(largest_coherent_multiple(best, range.q_max, test), q_min, test);
}

}  // namespace gapscan::detect
