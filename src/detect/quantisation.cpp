#include <gapscan/detect/probability.hpp>
#include <gapscan/detect/quantisation.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <map>

namespace gapscan::detect {
namespace {

constexpr double k_two_pi = 6.283185307179586;
constexpr std::size_t k_scan_gaps = 1024;    // gaps in the frequency scan
constexpr std::size_t k_max_steps = 400000;  // frequencies in the scan
constexpr std::size_t k_refine = 8;          // scan peaks refined on all gaps

std::complex<double> resultant(const std::vector<double>& gaps, double base) {
  std::complex<double> sum = 0;
  for (double g : gaps) {
    const double turns = g / base;
    const double phase = k_two_pi * (turns - std::floor(turns));
    sum += std::complex<double>(std::cos(phase), std::sin(phase));
  }
  return sum;
}

double coherence(const std::vector<double>& gaps, double base) {
  return std::abs(resultant(gaps, base)) / static_cast<double>(gaps.size());
}

}  // namespace

std::optional<Quantisation> find_quantisation(const std::vector<double>& all_gaps, const QuantisationOptions& options) {
  std::vector<double> gaps;
  gaps.reserve(all_gaps.size());
  for (double g : all_gaps) {
    if (g > 0 && g <= options.max_gap_ns) gaps.push_back(g);
  }
  const std::size_t n = gaps.size();
  if (n < options.min_gaps) return std::nullopt;
  std::vector<double> sorted = gaps;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[n / 2];
  const double iqr = sorted[3 * n / 4] - sorted[n / 4];
  const double g_max = sorted.back();
  const double q_min = std::max(2.5 * options.resolution_ns, 1e5);
  // A base must be small against the spread of the gaps: at a base near their width, the
  // shape of any smooth distribution alone gives coherence (and e^(-n R^2) no longer holds).
  const double q_max = std::min({1e9, median, iqr / 2});
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
  for (double g : sample) {
    const std::complex<double> rotation = std::polar(1.0, k_two_pi * std::fmod(g * step, 1.0));
    std::complex<double> z;
    for (std::size_t k = 0; k < steps; ++k) {
      if (k % 256 == 0) {  // exact every 256 steps: no drift from the repeated products
        const double turns = g * (f_lo + static_cast<double>(k) * step);
        z = std::polar(1.0, k_two_pi * (turns - std::floor(turns)));
      }
      sums[k] += z;
      z *= rotation;
    }
  }
  std::vector<std::pair<double, std::size_t>> peaks;  // (|S|, k) of local maxima
  for (std::size_t k = 0; k < steps; ++k) {
    const double value = std::norm(sums[k]);
    if ((k == 0 || value >= std::norm(sums[k - 1])) && (k + 1 == steps || value >= std::norm(sums[k + 1]))) {
      peaks.emplace_back(value, k);
    }
  }
  const std::size_t keep = std::min(k_refine, peaks.size());
  std::partial_sort(peaks.begin(), peaks.begin() + static_cast<std::ptrdiff_t>(keep), peaks.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < keep; ++i) {
    // Refine on all gaps within one scan step either side.
    const double f = f_lo + static_cast<double>(peaks[i].second) * step;
    double best_f = f, best_r = -1;
    for (int j = -10; j <= 10; ++j) {
      const double trial = f + step * j / 10.0;
      if (trial <= 0) continue;
      const double r = coherence(gaps, 1 / trial);
      if (r > best_r) {
        best_r = r;
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
  // A lattice, not one value: at least three multiples of the base hold gaps.
  const std::size_t needed = std::max<std::size_t>(3, n / 50);
  auto is_lattice = [&](double base) {
    std::map<long long, std::size_t> multiples;
    for (double g : gaps) ++multiples[std::llround(g / base)];
    return std::count_if(multiples.begin(), multiples.end(), [&](const auto& entry) {
             return entry.first > 0 && entry.second >= needed;
           }) >= 3;
  };
  double best_base = 0, best_r = 0;
  for (double base : candidates) {
    const double r = coherence(gaps, base);
    if (-static_cast<double>(n) * r * r + log_trials > log_alpha) continue;
    if (r > best_r * 1.0001 || (r >= best_r * 0.9999 && base > best_base)) {
      if (!is_lattice(base)) continue;
      best_base = base;
      best_r = r;
    }
  }
  if (best_base == 0) return std::nullopt;
  // The scan may have found a divisor of the base (gaps on a 4 ms lattice are also on a 2 ms
  // one): take the largest multiple that fits almost as well.
  double chosen = best_base, chosen_r = best_r;
  for (int multiple = 2; multiple <= 64 && best_base * multiple <= q_max; ++multiple) {
    const double base = best_base * multiple;
    const double r = coherence(gaps, base);
    if (r >= 0.9 * best_r && is_lattice(base)) {
      chosen = base;
      chosen_r = r;
    }
  }

  Quantisation q;
  q.base_ns = chosen;
  q.coherence = chosen_r;
  q.log10_p = to_log10(std::min(0.0, -static_cast<double>(n) * chosen_r * chosen_r + log_trials));
  q.gaps = n;
  const std::complex<double> s = resultant(gaps, q.base_ns);
  double angle = std::arg(s);
  if (angle < 0) angle += k_two_pi;
  q.offset_ns = q.base_ns * angle / k_two_pi;
  q.noise_rel = std::sqrt(std::max(0.0, -2 * std::log(std::max(q.coherence, 1e-300)))) / k_two_pi;
  std::size_t near = 0;
  for (double g : gaps) {
    const double turns = (g - q.offset_ns) / q.base_ns;
    if (std::abs(turns - std::round(turns)) <= 0.125) ++near;
  }
  q.share = static_cast<double>(near) / static_cast<double>(n);
  for (int divisor = 2; divisor <= 4; ++divisor) {
    const double smaller = q.base_ns / divisor;
    if (smaller >= q_min && coherence(gaps, smaller) >= 0.9 * q.coherence) q.also_consistent_ns.push_back(smaller);
  }
  return q;
}

}  // namespace gapscan::detect
