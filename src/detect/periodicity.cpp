#include <gapscan/detect/periodicity.hpp>
#include <gapscan/detect/probability.hpp>

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <thread>

namespace gapscan::detect {
namespace {

constexpr double k_two_pi = 6.283185307179586;
constexpr std::size_t k_max_grid = 2001;       // refinement points per candidate
constexpr std::size_t k_refine_onsets = 4096;  // onsets used to place the peak

/// e^(2 pi i t / P) for an int64 time, exact in the phase (t mod P first).
std::complex<double> unit(TimeNs t, double period) {
  const double turns = std::fmod(static_cast<double>(t), period) / period;
  return std::polar(1.0, k_two_pi * turns);
}

/// ln P(F > x) for F ~ F(2, d2): (1 + 2x/d2)^(-d2/2).
double log_f2_tail(double x, double d2) { return x <= 0 ? 0.0 : -d2 / 2 * std::log1p(2 * x / d2); }

/// ln p of the blocked Hotelling test of phase locking at `period`.
double log_p_hotelling(const std::vector<TimeNs>& times, double period, std::size_t blocks) {
  const TimeNs first = times.front(), last = times.back();
  const double span = static_cast<double>(last - first) + 1;
  std::vector<std::complex<double>> sums(blocks, 0.0);
  for (TimeNs t : times) {
    auto b = static_cast<std::size_t>(static_cast<double>(t - first) / span * static_cast<double>(blocks));
    sums[std::min(b, blocks - 1)] += unit(t, period);
  }
  const auto count = static_cast<double>(blocks);
  double mx = 0, my = 0;
  for (const auto& s : sums) {
    mx += s.real();
    my += s.imag();
  }
  mx /= count;
  my /= count;
  double sxx = 0, syy = 0, sxy = 0;
  for (const auto& s : sums) {
    sxx += (s.real() - mx) * (s.real() - mx);
    syy += (s.imag() - my) * (s.imag() - my);
    sxy += (s.real() - mx) * (s.imag() - my);
  }
  sxx /= count - 1;
  syy /= count - 1;
  sxy /= count - 1;
  const double det = sxx * syy - sxy * sxy;
  if (det <= 1e-12 * (sxx * syy + 1e-300)) {  // degenerate: every block alike
    return (mx * mx + my * my) > 0 ? -700.0 : 0.0;
  }
  // T² = B m^T S^-1 m with S^-1 = [syy -sxy; -sxy sxx] / det.
  const double t2 = count * (mx * mx * syy - 2 * mx * my * sxy + my * my * sxx) / det;
  const double f = (count - 2) / (2 * (count - 1)) * t2;
  return log_f2_tail(f, count - 2);
}

struct Candidate {
  double period;
  bool catalog;
};

/// The power spectrum of onset counts in `bins` bins of `bin` ns, bins 0 .. bins/2 - 1 (bin 0
/// left at zero). Memory: the counts, then the half spectrum of a real transform and the
/// transform's twiddles (about 3.5 doubles per bin at once), each freed when done with.
std::vector<double> power_spectrum(const std::vector<TimeNs>& times, double bin, std::size_t bins) {
  std::vector<std::complex<double>> spectrum;
  {
    std::vector<double> counts(bins, 0.0);
    for (TimeNs t : times) {
      const auto i = static_cast<std::size_t>(static_cast<double>(t - times.front()) / bin);
      counts[std::min(i, bins - 1)] += 1;
    }
    const double mean = static_cast<double>(times.size()) / static_cast<double>(bins);
    for (double& c : counts) c -= mean;
    Eigen::FFT<double> fft;
    fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);  // the other half mirrors it: not computed
    fft.fwd(spectrum, counts);
  }
  const std::size_t half = bins / 2;
  std::vector<double> power(half, 0.0);
  for (std::size_t k = 1; k < half; ++k) power[k] = std::norm(spectrum[k]);
  return power;
}

/// Peaks of the normalised spectrum of onset counts, as periods.
std::vector<double> spectrum_candidates(const std::vector<TimeNs>& times, double min_period, double max_period,
                                        const PeriodicityOptions& options) {
  const SpectrumGrid grid = spectrum_grid(static_cast<double>(times.back() - times.front()), options);
  const double bin = grid.bin_ns;
  const std::size_t bins = grid.bins;
  if (bins < 64) return {};
  std::vector<double> normalised = power_spectrum(times, bin, bins);
  const std::size_t half = bins / 2;
  // Normalise by the median power of the surrounding 128 bins (a robust local background,
  // piecewise constant over blocks of 32 bins to keep it cheap): the medians first, then the
  // powers are divided in place.
  std::vector<double> medians((half + 31) / 32, 0.0), window;
  for (std::size_t block = 0; block < medians.size(); ++block) {
    const std::size_t centre = block * 32 + 16;
    const std::size_t lo = centre > 64 ? centre - 64 : 1, hi = std::min(half - 1, centre + 64);
    if (hi <= lo) {
      medians[block] = -1;  // no background: the block stays at zero
      continue;
    }
    window.assign(normalised.begin() + static_cast<std::ptrdiff_t>(lo),
                  normalised.begin() + static_cast<std::ptrdiff_t>(hi) + 1);
    std::nth_element(window.begin(), window.begin() + static_cast<std::ptrdiff_t>(window.size() / 2), window.end());
    medians[block] = window[window.size() / 2];
  }
  for (std::size_t k = 1; k < half; ++k) {
    const double median = medians[k / 32];
    normalised[k] = median > 0 ? normalised[k] / (median / std::log(2.0)) : 0;
  }
  const double duration = static_cast<double>(bins) * bin;
  std::vector<std::pair<double, double>> peaks;  // (normalised power, period)
  for (std::size_t k = 2; k + 1 < half; ++k) {
    const double period = duration / static_cast<double>(k);
    if (period < min_period || period > max_period) continue;
    if (normalised[k] >= normalised[k - 1] && normalised[k] >= normalised[k + 1] && normalised[k] > 3) {
      peaks.emplace_back(normalised[k], period);
    }
  }
  const std::size_t keep = std::min(options.spectrum_peaks, peaks.size());
  std::partial_sort(peaks.begin(), peaks.begin() + static_cast<std::ptrdiff_t>(keep), peaks.end(),
                    [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<double> out;
  for (std::size_t i = 0; i < keep; ++i) out.push_back(peaks[i].second);
  return out;
}

/// The period in whole ns for placing the beat against the wall clock: rounded to the
/// millisecond when within 0.1 % of it (a 99.97 ms estimate of a 100 ms timer), so that the
/// phase reads as "37 ms past each 100 ms".
TimeNs clock_period(double period_ns) {
  const double ms = std::round(period_ns / 1e6) * 1e6;
  if (ms > 0 && std::abs(period_ns / ms - 1) < 0.001) return static_cast<TimeNs>(ms);
  return std::max<TimeNs>(1, static_cast<TimeNs>(std::llround(period_ns)));
}

/// Burst onsets of sorted `times`: a time within burst_ns of the previous onset kept is dropped.
std::vector<TimeNs> burst_onsets(const std::vector<TimeNs>& times, double burst_ns) {
  std::vector<TimeNs> onsets;
  for (TimeNs t : times) {
    if (onsets.empty() || static_cast<double>(t - onsets.back()) > burst_ns) onsets.push_back(t);
  }
  return onsets;
}

/// The catalog periods in [min_period, max_period], then the spectrum's peaks that are not
/// within 1 % of one of them.
std::vector<Candidate> candidate_periods(const std::vector<TimeNs>& onsets, double min_period, double max_period,
                                         const PeriodicityOptions& options) {
  std::vector<Candidate> candidates;
  for (double period : options.catalog_periods_ns) {
    if (period >= min_period && period <= max_period) candidates.push_back({period, true});
  }
  for (double period : spectrum_candidates(onsets, min_period, max_period, options)) {
    const bool near_catalog = std::any_of(candidates.begin(), candidates.end(),
                                          [&](const Candidate& c) { return std::abs(c.period / period - 1) < 0.01; });
    if (!near_catalog) candidates.push_back({period, false});
  }
  return candidates;
}

/// All the onsets when there are at most k_refine_onsets, else k_refine_onsets of them (every
/// k-th): the peak's place does not need them all.
std::vector<TimeNs> refine_sample(const std::vector<TimeNs>& onsets) {
  std::vector<TimeNs> refine_onsets;
  if (onsets.size() <= k_refine_onsets) {
    refine_onsets = onsets;
  } else {
    for (std::size_t i = 0; i < k_refine_onsets; ++i)
      refine_onsets.push_back(onsets[i * onsets.size() / k_refine_onsets]);
  }
  return refine_onsets;
}

/// Z² = 2 |Σ e^(2πi (t - origin) f)|² / N over `set`.
double z2_on(const std::vector<TimeNs>& set, TimeNs origin, double f) {
  std::complex<double> sum = 0;
  for (TimeNs t : set) {
    sum += std::polar(1.0, k_two_pi * std::fmod(static_cast<double>(t - origin) * f, 1.0));
  }
  return 2 * std::norm(sum) / static_cast<double>(set.size());
}

/// The refinement grid around a candidate: `points` frequencies from f_from in steps of f_stride.
struct RefineGrid {
  double f0 = 0;  ///< the candidate's frequency
  double f_from = 0, f_stride = 0;
  std::size_t points = 0;
};

/// Frequencies within ±1 % of 1/period in steps of about 1/(4 T), at most k_max_grid of them.
RefineGrid refine_grid(double period, double span) {
  RefineGrid grid;
  grid.f0 = 1 / period;
  const double f_step = 1 / (4 * span);
  grid.points = static_cast<std::size_t>(0.02 * grid.f0 / f_step) + 1;
  grid.points = std::min(grid.points, k_max_grid);
  grid.f_from = grid.f0 * 0.99;
  grid.f_stride = grid.points > 1 ? 0.02 * grid.f0 / static_cast<double>(grid.points - 1) : 0;
  return grid;
}

/// The index of the grid point with the largest Rayleigh sum over `set`, the sums advanced by
/// one rotation per step and onset.
std::size_t best_grid_point(const std::vector<TimeNs>& set, TimeNs origin, const RefineGrid& grid) {
  std::vector<std::complex<double>> sums(grid.points, 0.0);
  for (TimeNs t : set) {
    const double dt = static_cast<double>(t - origin);
    std::complex<double> z = std::polar(1.0, k_two_pi * std::fmod(dt * grid.f_from, 1.0));
    const std::complex<double> rotation = std::polar(1.0, k_two_pi * std::fmod(dt * grid.f_stride, 1.0));
    for (std::size_t i = 0; i < grid.points; ++i) {
      sums[i] += z;
      z *= rotation;
    }
  }
  std::size_t best = 0;
  for (std::size_t i = 1; i < grid.points; ++i) {
    if (std::norm(sums[i]) > std::norm(sums[best])) best = i;
  }
  return best;
}

/// The frequency maximising Z² over `set` between the neighbours of grid point `best`, by a
/// golden-section search of 24 steps; the candidate's own frequency on a grid of one point.
double golden_section_frequency(const std::vector<TimeNs>& set, TimeNs origin, const RefineGrid& grid,
                                std::size_t best) {
  const auto z2_at = [&](double f) { return z2_on(set, origin, f); };
  const double f_from = grid.f_from, f_stride = grid.f_stride;
  double lo = f_from + f_stride * (static_cast<double>(best) - 1),
         hi = f_from + f_stride * (static_cast<double>(best) + 1);
  if (grid.points == 1) lo = hi = grid.f0;
  const double golden = 0.6180339887498949;
  double a = hi - golden * (hi - lo), b = lo + golden * (hi - lo);
  double za = z2_at(a), zb = z2_at(b);
  for (int iteration = 0; iteration < 24 && grid.points > 1; ++iteration) {
    if (za < zb) {
      lo = a;
      a = b;
      za = zb;
      b = lo + golden * (hi - lo);
      zb = z2_at(b);
    } else {
      hi = b;
      b = a;
      zb = za;
      a = hi - golden * (hi - lo);
      za = z2_at(a);
    }
  }
  return grid.points > 1 ? (za > zb ? a : b) : grid.f0;
}

/// A period refined around a candidate and tested (log10_p_locked holds the uncorrected ln p
/// for now), with the size of its refinement grid.
struct Tested {
  Periodicity p;
  double points = 0;
};

/// The period refined around `candidate` and tested on all onsets.
Tested refine_candidate(const Candidate& candidate, const std::vector<TimeNs>& onsets,
                        const std::vector<TimeNs>& refine_onsets, double span, const PeriodicityOptions& options) {
  // Refine around the candidate: frequencies within ±1 % in steps of 1/(4 T), the Rayleigh
  // sums advanced by one rotation per step and onset; then a golden-section search between
  // the best point's neighbours, both on `refine_onsets`.
  const RefineGrid grid = refine_grid(candidate.period, span);
  const std::size_t best = best_grid_point(refine_onsets, onsets.front(), grid);
  const double best_f = golden_section_frequency(refine_onsets, onsets.front(), grid, best);
  const double best_period = 1 / best_f;
  const double best_z2 = z2_on(onsets, onsets.front(), best_f);
  Periodicity p;
  p.period_ns = best_period;
  p.z2 = best_z2;
  p.onsets = onsets.size();
  p.from_catalog = candidate.catalog;
  p.log10_p_locked = log_p_hotelling(onsets, best_period, options.blocks);  // ln for now
  return {p, static_cast<double>(grid.points)};
}

/// ln of the number of trials: the grid points of the catalog candidates, plus, when a spectrum
/// peak was tried, every frequency it could have been.
double log_trials_of(const std::vector<Tested>& tested, double span, double min_period, double max_period) {
  // Trials: the grid points of the catalog candidates, plus, for the spectrum's peaks, every
  // independent frequency they were chosen from (T (1/P_min - 1/P_max), the spectrum's
  // resolution being 1/T) times the refinement that follows each.
  double total_grid = 0;
  bool any_spectrum = false;
  for (const auto& [p, points] : tested) {
    if (p.from_catalog) {
      total_grid += points;
    } else {
      any_spectrum = true;
    }
  }
  if (any_spectrum) total_grid += 4 * span * (1 / min_period - 1 / max_period);
  return std::log(std::max(1.0, total_grid));
}

/// Sets the beat of a significant period from the onsets: its phase against the wall clock,
/// the on-beat share, the jitter, the beats seen and the share missing.
void place_beat(Periodicity& p, const std::vector<TimeNs>& onsets, double span) {
  const auto n = static_cast<double>(onsets.size());
  // Phase, on-beat share, jitter, beats.
  // The phase from times relative to the first onset (absolute times would multiply the
  // period's last digits by some 1e10 periods since 1970), then placed against the wall
  // clock: the first onset's time modulo the period, in exact integers.
  std::complex<double> s_rel = 0;
  for (TimeNs t : onsets)
    s_rel += std::polar(1.0, k_two_pi * std::fmod(static_cast<double>(t - onsets.front()), p.period_ns) / p.period_ns);
  double phase = std::arg(s_rel);
  if (phase < 0) phase += k_two_pi;
  const double origin = static_cast<double>(onsets.front() % clock_period(p.period_ns));
  p.phase_ns = origin + p.period_ns * phase / k_two_pi;
  p.reference = onsets.front();
  // On-beat onsets within ±P/8 of the beat; the beat centred on them and the jitter from
  // them, then again from those within 3 sd, four times (background onsets inside ±P/8
  // would inflate it).
  std::size_t on = 0;
  std::vector<long long> beats;
  double window = 0.125, r_on = 0;
  for (int pass = 0; pass < 4; ++pass) {
    std::complex<double> on_sum = 0;
    std::size_t count = 0;
    for (TimeNs t : onsets) {
      const double offset = beat_offset(p, t);
      if (std::abs(offset) > window) continue;
      ++count;
      on_sum += std::polar(1.0, k_two_pi * offset);
      if (pass == 0) {
        beats.push_back(std::llround((static_cast<double>(t - onsets.front()) + origin - p.phase_ns) / p.period_ns));
      }
    }
    if (pass == 0) on = count;
    r_on = count > 0 ? std::abs(on_sum) / static_cast<double>(count) : 0;
    if (count > 0) p.phase_ns += p.period_ns * std::arg(on_sum) / k_two_pi;  // centre the beat on its own onsets
    const double sd_turns = r_on > 0 ? std::sqrt(std::max(0.0, -2 * std::log(r_on))) / k_two_pi : 0.125;
    window = std::clamp(3 * sd_turns, 0.005, 0.125);
  }
  p.phase_ns = std::fmod(p.phase_ns, p.period_ns);
  if (p.phase_ns < 0) p.phase_ns += p.period_ns;
  p.on_beat_share = static_cast<double>(on) / n;
  p.jitter_ns = r_on > 0 ? p.period_ns * std::sqrt(std::max(0.0, -2 * std::log(r_on))) / k_two_pi : p.period_ns;
  std::sort(beats.begin(), beats.end());
  p.beats = static_cast<std::size_t>(std::unique(beats.begin(), beats.end()) - beats.begin());
  const double possible = std::floor(span / p.period_ns) + 1;
  p.missing_beat_ratio = std::max(0.0, 1 - static_cast<double>(p.beats) / possible);
}

/// `found` without duplicates and harmonics, most significant first.
std::vector<Periodicity> without_duplicates_and_harmonics(std::vector<Periodicity> found) {
  // Duplicates (within 1 %): keep the more significant. Harmonics: of P and 2P (or P/2) both
  // found, keep the larger on-beat share (ties: longer).
  std::sort(found.begin(), found.end(),
            [](const Periodicity& a, const Periodicity& b) { return a.period_ns < b.period_ns; });
  std::vector<bool> dropped(found.size(), false);
  for (std::size_t i = 0; i < found.size(); ++i) {
    for (std::size_t j = i + 1; j < found.size(); ++j) {
      if (dropped[i] || dropped[j]) continue;
      const double ratio = found[j].period_ns / found[i].period_ns;
      const double nearest = std::round(ratio);
      if (nearest == 1 && ratio - 1 <= 0.01) {
        // Two candidates (a catalog period and a spectrum peak) refined to the same period.
        dropped[found[i].log10_p <= found[j].log10_p ? j : i] = true;
        continue;
      }
      if (nearest < 2 || std::abs(ratio / nearest - 1) > 0.01) continue;
      if (found[j].on_beat_share >= found[i].on_beat_share * 0.95) {
        dropped[i] = true;
      } else {
        dropped[j] = true;
      }
    }
  }
  std::vector<Periodicity> kept;
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (!dropped[i]) kept.push_back(found[i]);
  }
  std::sort(kept.begin(), kept.end(), [](const Periodicity& a, const Periodicity& b) { return a.log10_p < b.log10_p; });
  return kept;
}

}  // namespace

double beat_offset(const Periodicity& p, TimeNs t) {
  const TimeNs whole = clock_period(p.period_ns);
  const double origin = static_cast<double>(p.reference % whole);
  const double turns = std::fmod(static_cast<double>(t - p.reference) + origin - p.phase_ns, p.period_ns) / p.period_ns;
  return turns - std::round(turns);
}

SpectrumGrid spectrum_grid(double span_ns, const PeriodicityOptions& options) {
  SpectrumGrid grid;
  grid.bin_ns = options.min_period_ns / 8;
  while (static_cast<double>(grid.bins) * grid.bin_ns < span_ns) grid.bins <<= 1;
  while (grid.bins > std::max<std::size_t>(options.max_bins, 1)) {
    grid.bins >>= 1;
    grid.bin_ns *= 2;
  }
  return grid;
}

std::vector<Periodicity> find_periodicity(std::vector<TimeNs> times, const PeriodicityOptions& options) {
  std::vector<Periodicity> found;
  std::sort(times.begin(), times.end());
  const std::vector<TimeNs> onsets = burst_onsets(times, options.burst_ns);
  if (onsets.size() < options.min_onsets) return found;
  const double span = static_cast<double>(onsets.back() - onsets.front());
  const double min_period = options.min_period_ns;
  const double max_period = std::min(options.max_period_ns, span / static_cast<double>(options.min_beats));
  if (max_period <= min_period) return found;

  const std::vector<Candidate> candidates = candidate_periods(onsets, min_period, max_period, options);
  if (candidates.empty()) return found;
  const std::vector<TimeNs> refine_onsets = refine_sample(onsets);
  // Each candidate's refinement is its own (most of the test's time): on several threads, each
  // taking the next candidate, the results in the candidates' order.
  std::vector<Tested> tested(candidates.size());
  std::atomic<std::size_t> next{0};
  const auto refine = [&] {
    for (std::size_t i = next++; i < candidates.size(); i = next++)
      tested[i] = refine_candidate(candidates[i], onsets, refine_onsets, span, options);
  };
  {
    std::vector<std::jthread> helpers;
    for (unsigned t = 1; t < std::min<std::size_t>(options.threads, candidates.size()); ++t)
      helpers.emplace_back(refine);
    refine();
  }
  const double log_trials = log_trials_of(tested, span, min_period, max_period);

  for (auto& [p, points] : tested) {
    const double log_p = std::min(0.0, p.log10_p_locked + log_trials);
    p.log10_p_locked = to_log10(log_p);
    p.log10_p = p.log10_p_locked;
    if (log_p > std::log(options.alpha)) continue;
    place_beat(p, onsets, span);
    found.push_back(p);
  }
  return without_duplicates_and_harmonics(std::move(found));
}

}  // namespace gapscan::detect
