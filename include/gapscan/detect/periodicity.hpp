#pragma once
// Component B of detection-methods.md, clock-locked periodicity: event times that keep a fixed
// phase against a period P (stalls that end on the 100 ms boundaries of a CFS bandwidth period,
// work started by a 1 s timer), tested on absolute times.
//
// 1. Burst onsets: a time within burst_ns of the previous one kept is dropped.
// 2. Candidates: the catalog periods, and the peaks of the spectrum of the onset counts
//    (bins of P_min/8, FFT, power divided by its running median over ±64 bins so that it is
//    about Exp(1) under a locally flat background; the 8 best local maxima).
// 3. Each candidate is refined on a grid of ±1 % in frequency steps of 1/(4 T), then by a
//    golden-section search (on at most 4096 onsets), maximising the
//    Rayleigh statistic Z² = 2 |Σ e^(2πi t/P)|² / N, then tested with the blocked Hotelling
//    test: the span is cut into B = 16 blocks, S_b = Σ_block e^(2πi t/P), and
//    T² = B S̄ᵀ Σ̂⁻¹ S̄ with Σ̂ the 2×2 covariance of the S_b; (B − 2)/(2 (B − 1)) T² follows
//    F(2, B − 2) when the phases are not locked. Blocks absorb the bursts and drifts that make
//    the plain Rayleigh test fire on any bursty stream. The p-value is multiplied by the grid
//    points of the catalog candidates and, when a spectrum peak was tried, by every frequency
//    it could have been (4 T (1/P_min - 1/P_max): the grid's step is 1/(4 T)).
// 4. A period and its double or half that both pass: the one with the larger on-beat share is
//    kept (ties to the longer period).
// Outputs per period: the phase (first beat mod P), the share of onsets within ±P/8 of it, the
// jitter P √(−2 ln R_on) / 2π of those on-beat onsets, the beats seen and the share missing.

#include <gapscan/core/time.hpp>

#include <cstddef>
#include <vector>

namespace gapscan::detect {

struct PeriodicityOptions {
  double alpha = 0.01;
  double min_period_ns = 10e6;
  double max_period_ns = 60e9;
  double burst_ns = 1e6;  ///< onsets closer than this to the previous one are one burst
  std::size_t min_onsets = 20;
  std::size_t min_beats = 8;  ///< a period must fit this many times into the span
  std::size_t blocks = 16;
  std::size_t spectrum_peaks = 8;
  /// Spectrum size: longer spans get coarser bins. The spectrum takes about 28 bytes per bin
  /// while it is computed (3.7 MB here), once per scan and in each long stream's clock test.
  std::size_t max_bins = std::size_t{1} << 17;
  std::vector<double> catalog_periods_ns = {100e6, 1e9, 5e9, 10e9, 15e9, 30e9, 60e9};
  unsigned threads = 1;  ///< candidates refined at once (the result is the same for any number)
};

struct Periodicity {
  double period_ns = 0;
  double phase_ns = 0;       ///< the beat's place in the period: beats at k·period + phase (wall clock)
  TimeNs reference = 0;      ///< the first onset: offsets are computed from it (see beat_offset)
  double on_beat_share = 0;  ///< onsets within ±period/8 of the beat
  double jitter_ns = 0;      ///< sd of the on-beat onsets around the beat
  std::size_t onsets = 0;    ///< after burst merging
  std::size_t beats = 0;     ///< periods with at least one on-beat onset
  double missing_beat_ratio = 0;
  double z2 = 0;              ///< Rayleigh statistic at the period
  double log10_p_locked = 0;  ///< blocked Hotelling test, corrected for the periods tried
  double log10_p = 0;         ///< the same (the one test of this component for now)
  bool from_catalog = false;  ///< the candidate was a catalog period (not a spectrum peak)
};

/// Where `t` falls against the beat, in periods, in [-0.5, 0.5] (0: on the beat). Computed
/// from the reference onset, so that the period's last digits are not multiplied by the
/// periods since 1970.
double beat_offset(const Periodicity& p, TimeNs t);

/// The spectrum's bins for onsets spanning `span_ns`: min_period_ns / 8 wide, as many as
/// cover the span (a power of two), but at most max_bins, wider bins covering a longer span.
struct SpectrumGrid {
  double bin_ns = 0;
  std::size_t bins = 1;
};
SpectrumGrid spectrum_grid(double span_ns, const PeriodicityOptions& options);

/// Clock-locked periods in `times` (ns, any order), most significant first.
std::vector<Periodicity> find_periodicity(std::vector<TimeNs> times, const PeriodicityOptions& options);

}  // namespace gapscan::detect
