#pragma once
// The worst request's timeline: for each quarter-octave bin of gap values, the stretch of one
// request (at most k_max_points lines) that holds the most gaps in that bin, kept with the times
// and places of its lines. When the findings are known, a finding's timeline is the kept stretch
// with the most gaps in its interval.
//
// Consumes: stream windows with their gap series, as the analysis sees them. Produces: a
// Timeline per finding. Memory: one stretch per bin (at most k_bins × k_max_points points);
// a stretch is copied only when it beats the one kept. The choice does not depend on the order
// in which windows arrive (ties are broken by the hash of the stretch's first line).

#include <gapscan/stats/gap_pool.hpp>
#include <gapscan/stats/gap_series.hpp>
#include <gapscan/stream/stream_table.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::detect {

struct StateCodec;

/// A stretch of one request's lines in time order.
struct Timeline {
  struct Point {
    DurationNs offset = 0;  ///< since the stretch's first line (never decreasing)
    LineLocation location;
  };
  std::string stream;               ///< request id (cut), empty for a whole-input stream
  std::uint64_t window_lines = 0;   ///< lines of the window the stretch was taken from
  std::uint64_t first_index = 0;    ///< the stretch's first line, counted in the window's time order
  std::vector<Point> points;        ///< at most TimelineKeeper::k_max_points
  stats::EvidenceLine first, last;  ///< the stretch's first and last lines, with their text
  double lo_ns = 0, hi_ns = 0;      ///< set by TimelineKeeper::worst: the interval it was chosen for
};

class TimelineKeeper {
 public:
  static constexpr std::size_t k_max_points = 400;
  static constexpr unsigned k_sub_bits = 2;  ///< quarter-octave bins
  static constexpr std::size_t k_bins = 256;

  /// Offers the window's stretches (of at most k_max_points lines, overlapping by one line).
  void add(const stream::StreamWindow& window, const stats::GapSeries& series);

  /// Takes the other keeper's stretches that beat this one's (the same order as offers: any
  /// grouping of merges alike).
  void merge(const TimelineKeeper& other);

  /// The stretch of the window (k_max_points lines starting anywhere) that holds the most of the
  /// gaps `gap_ids` (indices into series.gaps): for a request whose own test found a mode.
  static Timeline capture_most(const stream::StreamWindow& window, const stats::GapSeries& series,
                               const std::vector<std::uint32_t>& gap_ids);

  /// The kept stretch with the most gaps in [lo_ns, hi_ns] (ties: the stream named `prefer`,
  /// then more time in such gaps, then the smaller hash); nothing when no stretch holds one.
  std::optional<Timeline> worst(double lo_ns, double hi_ns, std::string_view prefer) const;

 private:
  friend struct StateCodec;  // --partial: saves and loads the state
  struct Candidate {
    std::uint32_t count = 0;                   ///< gaps in the bin
    double time = 0;                           ///< their sum
    std::uint64_t hash = 0;                    ///< of the first line's location
    std::shared_ptr<const Timeline> timeline;  ///< shared by the bins it is best in
  };
  void offer(const stream::StreamWindow& window, const stats::GapSeries& series, std::size_t chunk);
  static Timeline capture(const stream::StreamWindow& window, const stats::GapSeries& series, std::size_t first,
                          std::size_t last);

  std::vector<std::optional<Candidate>> m_best = std::vector<std::optional<Candidate>>(k_bins);
  // Per-stretch counts while a window is read, reset through m_touched.
  std::array<std::uint32_t, k_bins> m_counts{};
  std::array<double, k_bins> m_time{};
  std::vector<std::size_t> m_touched;
};

}  // namespace gapscan::detect
