#pragma once
// Wait points: where the time of requests goes after each kind of line.
//
// A real incident is often a few dozen stalls among tens of thousands of gaps, each after one
// kind of line (`getMulti(...)` then 44 ms of nothing, where the next line usually comes in a
// fraction of a millisecond). For every message template (parse/message_template.hpp) of the
// line before a gap of a request, the distribution of that gap is kept (1/8-octave bins from
// 1 µs); at the end, a template whose gaps are bimodal (most of them short, some at least
// min_ratio times its 10th percentile and stall_min_ns long) is a wait point candidate. Its
// stalls are tested as a band (all of them: a lock wait has no fixed value) and as the tightest
// cluster among them (3 bins, ~30 %: a timer), against the gaps after every other template of the
// same input (another program's log beside it has pauses of its own): with q the share of the
// other templates' gaps in the band, the number k of this template's n gaps in it is Poisson(n q)
// under the null that the line before does not matter; p is its upper tail, multiplied by the
// templates tested and the bands tried.
//
// Waits the program reports: where 80 % or more of a band's stalls are followed by a line that
// logs a duration covering the gap (at least half of it, at most 1.1 times it plus 2 ms:
// `session acquired wait_ms=232.1` after 232 ms), the line says what the time went to, and only
// the second null is asked: whether the band stands apart from the template's own gaps. The other
// templates' long gaps (a request's CPU work as long as the waits) then do not hide it.
//
// When the stalls happened: each template keeps a TimeProfile of when its gaps began
// (time_profile.hpp), and a wait point's finding says whether its stalls keep to one stretch of
// the run or to a steady rate (Finding::timing).
//
// Bounded: at most max_templates templates are kept (the first seen); the gaps after the others
// are counted, not kept. Each keeps its histogram and at most `examples` of its stalls with their
// lines (twice that between cuts): three quarters its longest stalls, the rest by line hash among
// the others (any grouping of merges keeps the same).

#include <gapscan/detect/finding.hpp>
#include <gapscan/detect/time_profile.hpp>
#include <gapscan/stats/gap_series.hpp>
#include <gapscan/stream/stream_table.hpp>

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace gapscan::detect {

struct StateCodec;

struct WaitPointOptions {
  double alpha = 0.01;
  double stall_min_ns = 1e6;         ///< shorter gaps are never stalls
  double min_ratio = 10;             ///< stalls are at least this times the template's 10th percentile
  std::size_t min_gaps = 10;         ///< templates followed by fewer gaps are not tested
  std::size_t min_stalls = 5;        ///< bands with fewer gaps are not tested
  double max_stall_share = 0.9;      ///< a template whose gaps are nearly all long is work, not a wait
  std::size_t max_templates = 4096;  ///< templates kept
  std::size_t examples = 16;         ///< stalls kept with their lines, per template
  std::size_t max_findings = 16;     ///< the most significant wait points returned
};

class WaitPoints {
 public:
  explicit WaitPoints(WaitPointOptions options = {}) : m_options(options) {}

  /// Adds the gaps of a request's window, each under the template of the line before it.
  void add(const stream::StreamWindow& window, const stats::GapSeries& series);
  /// Adds what another instance kept (the inputs after this one's). Associative.
  void merge(WaitPoints&& other);
  /// The significant wait points, most significant first, as findings (Finding::wait_point).
  std::vector<Finding> finish() const;

  std::uint64_t gaps() const { return m_gaps; }
  /// The share of the gaps after a template (of an input) that lie in [lo_ns, hi_ns] (the bins
  /// overlapping it), and how many gaps followed it; {0, 0} for a template not kept.
  std::pair<double, std::uint64_t> share_in(SourceId input, std::uint32_t id, double lo_ns, double hi_ns) const;
  /// Of an input's request lines that log a duration of 5 ms or more, how many, and how many came
  /// sooner after the request's first line than half that duration (less 1 ms): the line says
  /// its operation took 45 ms where its stamp is 0.01 ms after the line before it.
  struct Timing {
    std::uint64_t timed = 0, early = 0;
    double early_mean_ns = 0;  ///< the mean duration the early lines log
  };
  Timing timing(SourceId input) const;
  /// The same for the gaps after every line of an input.
  std::pair<double, std::uint64_t> input_share_in(SourceId input, double lo_ns, double hi_ns) const;

  static constexpr int k_bins_per_octave = 8;
  static constexpr double k_min_background = 200;  ///< other gaps of the input needed for the first null
  static constexpr double k_reported_share =
      0.8;  ///< of a band's stalls reported as waits: the first null is not asked
  static constexpr int k_bins = k_bins_per_octave * 40;  ///< from 1 µs to ~12 days
  /// The bin of a gap, and the bounds of a bin (ns).
  static int bin_of(double gap_ns);
  static double bin_lo(int bin);
  static double bin_hi(int bin) { return bin_lo(bin + 1); }

 private:
  friend struct StateCodec;  // --partial: saves and loads the state
  struct Template {
    std::vector<std::uint32_t> bins;  ///< k_bins counters, allocated at the first gap
    std::uint64_t gaps = 0;
    std::uint64_t windows = 0;        ///< windows with a gap after it
    std::uint64_t stall_windows = 0;  ///< of which with a stall after it
    double stall_span_ns = 0;         ///< the wall time of those windows
    /// Per bin, the stalls whose next line logs a duration covering the gap (`session acquired
    /// wait_ms=232` after 232 ms): waits the program reports. Allocated at the first.
    std::vector<std::uint32_t> reported;
    std::vector<stats::GapSample> examples;
    SourceId input = 0;
    TimeProfile times;  ///< when its gaps began: for when the stalls happened
  };
  /// An input's gaps after every template (kept or not), per bin.
  struct Background {
    std::vector<std::uint32_t> bins;
    std::uint64_t gaps = 0;
    std::uint64_t timed = 0;     ///< lines of requests that log a duration of 5 ms or more
    std::uint64_t early = 0;     ///< of which came less than half of it (less 1 ms) after the request's first line
    std::uint64_t early_us = 0;  ///< the durations those early lines log, summed (µs)
  };
  static std::uint64_t key_of(SourceId input, std::uint32_t id) { return (std::uint64_t{input} << 32) | id; }
  struct Band {
    int lo = 0, hi = 0;  ///< bins, inclusive
    std::uint64_t count = 0;
    double log10_p = 0;
    std::uint64_t reported = 0;  ///< of count, followed by a line that reports the wait
  };
  /// Cuts the examples back to `examples`: longest_examples() of the longest, then the smallest
  /// hashes of the rest.
  void trim_examples(std::vector<stats::GapSample>& examples) const;
  std::size_t longest_examples() const { return m_options.examples * 3 / 4; }
  void keep_example(Template& entry, const stream::StreamWindow& window, const stats::GapSeries& series,
                    const stats::Gap& gap, std::uint64_t hash);
  std::optional<Finding> test(const Template& entry, std::uint32_t id, double log10_correction) const;
  Band test_band(const Template& entry, int lo, int hi) const;

  WaitPointOptions m_options;
  std::unordered_map<std::uint64_t, Template> m_templates;  ///< by key_of(input, template id)
  std::unordered_map<SourceId, Background> m_all;
  std::uint64_t m_gaps = 0;
  std::uint64_t m_untracked = 0;  ///< gaps after templates beyond max_templates (in m_all, not kept apart)
  std::vector<std::uint64_t> m_scratch;
};

}  // namespace gapscan::detect
