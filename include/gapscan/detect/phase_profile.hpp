#pragma once
// Where the requests' time went, phase by phase, as the lines' own timers say (a proxy's
// TR/Tw/Tc/Tr, nginx's upstream timers, curl's -w timers, a slow log's Lock_time): per phase,
// how many requests timed it, how many spent time in it, the time it holds and a picture of its
// values (quarter-octave bins from 1 µs: bounded, mergeable). Ranked by the time each phase holds,
// like halog's timers but against the requests' whole time. From the queue phase, a saturation:
// waits spread over a range (no fixed delay), in a share of the requests.

#include <gapscan/core/time.hpp>
#include <gapscan/detect/finding.hpp>
#include <gapscan/parse/record.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace gapscan::detect {

struct StateCodec;

class PhaseProfile {
 public:
  static constexpr std::size_t k_bins_per_octave = 4;
  static constexpr std::size_t k_bins = 124;  ///< from 1 µs to about 35 min; longer values in the last bin

  struct Phase {
    std::uint64_t requests = 0;  ///< lines that time this phase (0 included)
    std::uint64_t spent = 0;     ///< of which spent 1 ms or more in it
    double total_ns = 0;         ///< the time it holds
    DurationNs longest = 0;
    std::array<std::uint64_t, k_bins> bins{};  ///< values above 0, quarter-octave bins from 1 µs
  };

  /// One line's phases (-1: not timed) and its whole duration (-1: none written).
  void add(const std::array<DurationNs, parse::k_phase_count>& phases, DurationNs total);
  void merge(const PhaseProfile& other);

  bool empty() const { return m_records == 0; }
  std::uint64_t records() const { return m_records; }
  /// The requests' whole time: their durations, or the sum of their phases where none is written.
  double total_ns() const { return m_total_ns; }
  const Phase& phase(parse::Phase which) const { return m_phases[static_cast<std::size_t>(which)]; }
  /// The q-quantile of the phase's values over all requests that time it (zeros included),
  /// from the bins (within a quarter octave).
  double quantile(parse::Phase which, double q) const;
  /// The values of the phase within [lo, hi] ns, from the bins (whole bins that overlap).
  std::uint64_t count_between(parse::Phase which, double lo_ns, double hi_ns) const;

  /// A queue or pool wait spread over a range in 5 % of the requests or more (at least 10 of
  /// them), its 90th percentile 1.5 times its 10th or more (a timer holds its waits within a few %), a median of 5 ms
  /// or more, and 5 % or more of the requests' time: a saturated server or pool, as a finding of the queue phase's
  /// values (Finding::saturation). Nothing otherwise.
  std::optional<Finding> saturation() const;

  static std::size_t bin_of(DurationNs value);
  static double bin_low_ns(std::size_t bin);

 private:
  friend struct StateCodec;  // --partial: saves and loads the state
  std::array<Phase, parse::k_phase_count> m_phases{};
  std::uint64_t m_records = 0;
  double m_total_ns = 0;
};

}  // namespace gapscan::detect
