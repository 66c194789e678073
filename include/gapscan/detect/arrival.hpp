#pragma once
// Stamps that are arrival times: the lines of an input, in file order, arriving in bursts.
//
// A program whose output is a pipe or a file is block-buffered (4 or 8 KiB): whatever stamps its
// lines on the way (journald, Docker, a log shipper, a collector that stamps on receipt) stamps
// a whole buffer at once. The log then holds bursts of dozens or hundreds of lines within a
// fraction of a millisecond, then nothing until the next buffer fills: every gap inside a
// request is either ~0 or the time a buffer took to fill, which says nothing about the program.
//
// ArrivalTracker sees an input's stamps in file order and keeps, for two tightness levels
// (consecutive lines within 100 µs, for stamps finer than a millisecond; within 1 ms, for
// millisecond stamps), the bursts of 16 lines or more: how many, their sizes and lengths, and
// the silence after each, in histograms (bounded, whatever the input's length), with a few
// examples of a burst's last line and the next burst's first. ArrivalSummary::holds() says
// whether the input's stamps are arrival times: most lines in bursts, silences 20 times longer
// than the bursts. Lines of requests arriving at random cannot pass: at any rate at which most
// lines sit within 100 µs of the one before, the silences are no longer than that either.

#include <gapscan/core/location.hpp>
#include <gapscan/core/time.hpp>
#include <gapscan/stats/gap_pool.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::detect {

struct StateCodec;

/// What ArrivalTracker kept of one input.
struct ArrivalSummary {
  static constexpr std::size_t k_min_burst = 16;  ///< lines of a burst
  static constexpr std::size_t k_examples = 3;    ///< bursts' ends kept, per level
  static constexpr int k_levels = 2;              ///< tightness: 100 µs, 1 ms
  static constexpr int k_bins = 8 * 40;           ///< 1/8-octave bins from 1 µs (WaitPoints::bin_of)
  static constexpr int k_size_bins = 128;         ///< 4 per octave of a burst's lines
  static constexpr std::array<DurationNs, k_levels> k_tightness = {100'000, 1'000'000};

  struct Level {
    std::uint64_t bursts = 0;                ///< of k_min_burst lines or more
    std::uint64_t burst_lines = 0;           ///< lines in them
    std::vector<std::uint64_t> sizes;        ///< k_size_bins: lines in bursts of 2^(b/4) to 2^((b+1)/4) lines
    std::vector<std::uint32_t> lengths;      ///< k_bins: a burst's first to last line
    std::vector<std::uint32_t> silences;     ///< k_bins: a burst's last line to the next line
    std::vector<stats::GapSample> examples;  ///< the silences after the first bursts, with their lines
  };

  SourceId input = 0;
  std::uint64_t lines = 0;
  std::uint64_t whole_ms = 0;  ///< lines whose stamp is a whole millisecond
  std::uint64_t whole_s = 0;   ///< lines whose stamp is a whole second (then no burst can be told)
  TimeNs first = 0, last = 0;
  std::array<Level, k_levels> levels;

  /// The level that fits the stamps' resolution: 1 ms when 95 % of them are whole
  /// milliseconds, else 100 µs.
  int level() const { return whole_ms * 20 >= lines * 19 ? 1 : 0; }
  /// Whether the stamps are arrival times (never for stamps of whole seconds, 95 % of them or
  /// more: lines within one second say nothing): at the level(), 8 bursts or more holding 80 % of the
  /// lines, the median line in a burst of 24 or more, and the median silence after a burst at
  /// least 10 ms, 20 times the tightness and 20 times the median burst's length.
  bool holds() const;
  /// Medians from the histograms (the upper edge of the bin holding the median).
  double median_silence_ns() const;
  double median_length_ns() const;
  double median_size() const;  ///< lines of the median line's burst
  /// The 10th and 90th percentiles of the silences.
  std::pair<double, double> silence_range_ns() const;
  std::uint64_t silence_count() const;
};

class ArrivalTracker {
 public:
  /// The next line of the input in file order, its stamp and where it is.
  void add(TimeNs time, const LineLocation& where, std::string_view text);
  /// What was seen, the last burst closed; the tracker starts again for the next input.
  ArrivalSummary finish(SourceId input);

 private:
  struct Open {
    TimeNs start = 0, latest = 0;
    std::uint64_t lines = 0;
  };
  void close(int level, TimeNs next, const LineLocation& where, std::string_view text);

  ArrivalSummary m_summary;
  std::array<Open, ArrivalSummary::k_levels> m_open{};
  // The line before the current one (for examples: a burst's last line), while examples are wanted.
  std::string m_last_text;
  LineLocation m_last_where;
};

}  // namespace gapscan::detect
