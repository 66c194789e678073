#pragma once
// When the gaps after one kind of line happened, in a bounded, mergeable form: 128 bins of the
// run's time (each 2^k × 125 ms, aligned on the epoch, coarsened by merging pairs when a gap falls
// outside), each counting the gaps and those of 1 ms or more by factors of 4 (1-4 ms, 4-16 ms …,
// 16 s and more). Allocated at the first gap (4.6 KB). From it, for a band of
// stalls, the same answer as for durations (durations.cpp timing_of): all the stalls inside one
// stretch of the run and none outside, or a steady rate over the whole run.
//
// The level and the bins depend only on the set of gaps, not on their order or on how analyses
// were merged.

#include <gapscan/core/time.hpp>
#include <gapscan/detect/finding.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace gapscan::detect {

struct StateCodec;

class TimeProfile {
 public:
  static constexpr std::size_t k_bins = 128;
  static constexpr std::size_t k_octaves =
      8;  ///< classes from 1 ms, each 4 times the one before: [1, 4) ms … 16 s and more
  static constexpr DurationNs k_base_ns = 125'000'000;

  /// A gap of `gap_ns` that began at `time`.
  void add(TimeNs time, double gap_ns);
  void merge(const TimeProfile& other);
  bool empty() const { return m_total == 0; }

  /// When the stalls (the gaps within [lo_ns, hi_ns], by the classes overlapping it) happened
  /// among all the gaps counted: a window or a steady rate, as timing_of decides; nothing else.
  std::optional<TimingDetail> timing(double lo_ns, double hi_ns) const;

 private:
  friend struct StateCodec;  // --partial: saves and loads the state
  struct Bin {
    std::uint32_t gaps = 0;
    std::array<std::uint32_t, k_octaves> long_gaps{};  ///< by class from 1 ms
  };
  DurationNs width() const { return k_base_ns << m_level; }
  /// Merges pairs of bins until the block holds `block` of the next level up.
  void coarsen();
  static std::int64_t floor_div(std::int64_t a, std::int64_t b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
  }

  std::vector<Bin> m_bins;  ///< k_bins, allocated at the first gap
  int m_level = 0;
  std::int64_t m_block = 0;  ///< the bins cover [m_block, m_block + 1) × k_bins × width()
  std::uint64_t m_total = 0;
};

}  // namespace gapscan::detect
