#pragma once
// One-off stalls aligned with trigger lines (detection item 6): a fork ("Background saving
// started by pid"), a GC pause, a checkpoint: the lines of other streams (other requests, other
// workers, a client's log read beside the server's) stop around the moment the trigger line is
// written.
//
// Per stream window, as it closes (windows with fewer than min_gaps gaps take no part: what is
// usual for them cannot be told):
//   * each gap g is measured against the window's median gap m: r = g / m (a stream that logs
//     every 2 ms and one that logs every 5 s are alike when they go quiet for 15 times their
//     usual);
//   * its span [first, last line] is kept, and its stalls: its longest gaps (at most
//     stalls_per_window, or one in 32 gaps of a long window) of at least stall_min_ns and
//     min_ratio·m;
//   * the gap time per ratio bin (~3 % bins) is added to the reference;
//   * lines matching a trigger pattern are kept (first line of each window excepted: it is the
//     previous window's last line).
// At the end, for each pattern, the streams that hold its lines are set aside (their windows
// with such lines), and a stall of another stream scores −ln u(r), with u(r) the share of the
// remaining streams' gap time spent in gaps at least r times their median: a moment chosen
// without regard to the streams falls into such a gap with probability u. Stalls with
// u > max_tail score 0.
// Each occurrence t
// (occurrences within merge_ns of the previous one are one) is scored by A(t), the mean over
// the other streams active at t of the score of their stall overlapping
// [t − tolerance_ns, t + after_ns] (0 when none does; both 10 ms by default, for stamps cut to
// the millisecond and clocks of different hosts). The same statistic at null_draws moments
// spread evenly over the whole span gives its distribution when stalls do not care about the
// triggers, so that streams that stall together for other reasons are accounted for:
// p_t = (1 + #{A ≥ A(t)}) / (1 + draws). A cause whose stalls come after its line (after_ns
// longer than the default: copy-on-write faults in the seconds after a fork) is also tested on
// windows [t − tolerance, t + w], w = 31.6 ms, 100 ms, … up to its after_ns, of stalls that
// begin in them (or at most two of their stream's usual gaps before the line: a stream that
// logs every 90 ms wrote its last line before the spell up to a gap earlier): a window of
// overlaps would take in every moment inside a spell. The best window's p is multiplied by the
// number of windows.
// A moment falls into a stall shared by all streams with probability equal to the share of
// time those stalls take, so one occurrence is rarely conclusive; the occurrences are combined two ways, and the
// smaller p-value doubled: Fisher (−2 Σ ln p_t ~ χ² with 2k degrees of freedom: a few very clear occurrences), and the
// binomial tail P(Bin(k, 0.05) ≥ #{p_t ≤ 0.05}) (many moderately clear ones). The result is
// multiplied by the number of patterns that occurred.
//
// Memory and time are bounded: spans, stalls and the reference are kept for at most
// max_windows windows and max_stalls stalls (65 536 each); beyond, a deterministic subset of
// streams (by the hash of their key) is kept, halved as often as needed, and the other
// streams' windows cost only the search for trigger lines.

#include <gapscan/core/location.hpp>
#include <gapscan/core/prefilter.hpp>
#include <gapscan/core/regex.hpp>
#include <gapscan/core/time.hpp>
#include <gapscan/stats/gap_series.hpp>
#include <gapscan/stats/log_histogram.hpp>
#include <gapscan/stream/stream_table.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gapscan::detect {

struct StateCodec;

/// A trigger line pattern: from a catalog cause (cause = its id) or from --trigger (cause empty).
struct TriggerSpec {
  std::string cause;
  std::string pattern;  ///< RE2
  std::string meaning;  ///< what the line says happened
  double after_ns = 0;  ///< stalls may begin this long after the line; 0: TriggerOptions::after_ns
  /// A marker is only looked for (evidence of scope "file": a startup warning): its lines are
  /// counted and the first is kept, but no alignment is tested.
  bool marker = false;
};

/// What the search for a marker pattern found.
struct MarkerHit {
  std::string pattern;
  std::size_t lines = 0;
  LineLocation first;      ///< the first matching line
  std::string first_text;  ///< its text (cut)
};

struct TriggerOptions {
  double alpha = 0.01;
  double stall_min_ns = 1e6;  ///< shorter gaps are never stalls
  double max_tail = 0.5;      ///< gaps with a larger length-biased tail score 0
  double min_ratio = 2;       ///< shorter gaps than this times the window's median are not stalls
  std::size_t min_gaps = 4;   ///< windows with fewer gaps take no part
  std::size_t stalls_per_window = 16;
  double after_ns = 10e6;      ///< a stall may begin this long after the trigger line's time
  double tolerance_ns = 10e6;  ///< or end this long before it (clock skew between inputs, ms stamps)
  double merge_ns = 1e9;       ///< occurrences closer than this to the previous one are one
  std::size_t null_draws = 20000;
  std::size_t max_occurrences = 4096;  ///< per pattern
  std::size_t max_windows = std::size_t{1} << 16;
  std::size_t max_stalls = std::size_t{1} << 16;
  std::size_t examples = 6;
};

/// A stall next to a trigger occurrence.
struct AlignedStall {
  std::uint64_t stream_id = 0;
  std::string stream;  ///< request id (cut), empty for a whole-input stream
  LineLocation end;    ///< the line after the stall
  TimeNs start = 0;
  DurationNs gap = 0;
  double tail = 1;  ///< the stall's length-biased tail u among all gaps
};

struct TriggerOccurrence {
  TimeNs time = 0;
  LineLocation location;
  std::string text;
  std::string stream;
  double score = 0;                  ///< A(t)
  double log10_p = 0;                ///< against the null draws
  std::size_t active = 0;            ///< other streams active at t
  std::vector<AlignedStall> stalls;  ///< the covering stalls, longest first (at most `examples`)
  std::size_t stalled = 0;           ///< active streams with a covering stall
};

/// A pattern whose occurrences line up with stalls.
struct TriggerFinding {
  std::size_t spec = 0;             ///< index into the specs
  std::size_t occurrences = 0;      ///< tested: at least one other stream was active at the time
  std::size_t outside = 0;          ///< occurrences while no other stream was active (not tested)
  std::size_t lines = 0;            ///< matching lines before merging nearby ones
  std::size_t aligned = 0;          ///< occurrences with p_t <= 0.05
  std::size_t streams_stalled = 0;  ///< distinct streams with a stall around an aligned occurrence
  std::vector<double> stall_ns;     ///< the longest covering stall of each aligned occurrence's streams
  double stalled_span_ns = 0;       ///< the wall time of the streams that stalled (their windows' spans)
  double log10_p = 0;               ///< Fisher over occurrences, times the patterns tested
  std::size_t null_draws = 0;
  double after_ns = 0;                      ///< the window that gave log10_p: stalls up to this long after the line
  bool onset = false;                       ///< whether the stalls had to begin in it (see PatternTest::onset)
  std::vector<TriggerOccurrence> examples;  ///< aligned occurrences, most significant first
};

class TriggerAligner {
 public:
  TriggerAligner(std::vector<TriggerSpec> specs, TriggerOptions options);
  ~TriggerAligner();
  TriggerAligner(const TriggerAligner&);  ///< shares the compiled patterns
  TriggerAligner(TriggerAligner&&) noexcept;
  TriggerAligner& operator=(TriggerAligner&&) noexcept;

  bool empty() const { return m_specs.empty(); }
  const std::vector<TriggerSpec>& specs() const { return m_specs; }

  /// A line of a window that matches a pattern.
  struct LineMatch {
    std::uint32_t entry;  ///< index into the window's entries
    std::uint32_t spec;   ///< index into specs()
  };
  /// The window's lines that match a pattern, in line order and, on one line, in pattern order
  /// (a window after a stream's first starts with the previous window's last line: not
  /// searched again): those its marks name when it is marked (LineMarker), else found in its
  /// text. Changes nothing: may run on several threads at once, beside add().
  std::vector<LineMatch> find_lines(const stream::StreamWindow& window) const;

  /// Keeps the window's span, stalls and trigger lines (`lines`: find_lines of this window).
  void add(const stream::StreamWindow& window, const stats::GapSeries& series, const std::vector<LineMatch>& lines);
  void add(const stream::StreamWindow& window, const stats::GapSeries& series) {
    add(window, series, find_lines(window));
  }

  /// Adds what another aligner kept (of the inputs read after this one's; the same specs): the
  /// spans and stalls of the streams both keep, the first trigger lines of each pattern, the
  /// reference. Associative.
  void merge(TriggerAligner&& other);
  /// The prefilter once adapted to the log (null before): another aligner of the same specs may
  /// use it from its start (a matter of speed: the lines found are the same).
  std::shared_ptr<const Prefilter> adapted_prefilter() const;
  void use_prefilter(std::shared_ptr<const Prefilter> adapted);
  /// The specs' patterns, in spec order (what the prefilter is built from), compiled and as text;
  /// the prefilter as it is now (adapted to the log once its first k_adapt_sample bytes are
  /// seen). For a LineMarker, which looks for them where lines are parsed.
  const std::vector<Regex>& regexes() const { return m_regexes; }
  std::vector<std::string> patterns() const;
  std::shared_ptr<const Prefilter> prefilter() const;
  static constexpr std::size_t k_adapt_sample = 64 * 1024;
  /// Adds `offset` to every stream id kept: the ids of an input analysed apart become the run's.
  void shift_streams(std::uint64_t offset);

  /// Tests every pattern that occurred; returns those significant at alpha, best first.
  std::vector<TriggerFinding> finish();

  /// The marker patterns that matched at least one line.
  std::vector<MarkerHit> markers() const;

  /// An interval of one stream (a stall: its start, its end, the stream's id).
  struct Interval {
    TimeNs start = 0, end = 0;
    std::uint64_t stream_id = 0;
  };
  /// Whether the other streams went quiet during an interval.
  struct Silence {
    std::size_t active =
        0;  ///< other streams kept whose windows span it and usually log more often (median gap below a quarter of it)
    std::size_t silent = 0;  ///< of which had a stall covering its middle (from a fifth in to a fifth before its end)
  };
  /// For each interval (at most k_max_silences, the rest are counted as no active stream): the
  /// kept streams' silence over it. A process stopped as a whole (a cgroup out of CPU quota, a
  /// stop-the-world pause) silences every thread; a stream sleeping or waiting alone does not.
  /// Only the longest stalls of each window are kept (at least stalls_per_window, and one in
  /// 32 gaps of a long window), so a count can fall short, never exceed.
  std::vector<Silence> silences(const std::vector<Interval>& intervals) const;
  static constexpr std::size_t k_max_silences = 1024;

  /// A trigger line kept: when, which spec, which stream (key, cut).
  struct Moment {
    TimeNs time;
    std::size_t spec;
    std::string_view stream;
  };
  /// The trigger lines kept (not markers), in time order.
  std::vector<Moment> moments() const;

 private:
  friend struct StateCodec;  // --partial: saves and loads the state
  struct Span {
    TimeNs first, last;
    std::uint64_t stream_hash;
    std::uint64_t stream_id;
    float median;  // the window's median gap
  };
  struct Stall {
    TimeNs start, end;
    std::uint64_t stream_hash;
    std::uint64_t stream_id;
    float score;  // set by finish(), per pattern
    float tail;
    float lead;               // two of the window's median gaps: how long before the line a stall may begin
    std::uint32_t ratio_bin;  // of gap / the window's median gap
    LineLocation end_line;
  };
  struct Trigger {
    TimeNs time;
    LineLocation location;
    std::uint64_t stream_id;
    std::size_t spec;
    std::string text;
    std::string stream;
  };
  struct PatternTest;
  /// Keeps the lines found that match a trigger pattern and counts its markers' lines, and
  /// adapts the prefilter to the first text seen; whether a trigger line was kept.
  bool keep_trigger_lines(const stream::StreamWindow& window, const std::vector<LineMatch>& lines);
  /// The median of the series' gaps, at least 1 ns.
  double median_gap(const stats::GapSeries& series);
  /// The reference bin of a gap: its ratio to the window's median gap, in millionths, binned.
  std::size_t ratio_bin(DurationNs gap, double median) const;
  /// Adds the window's gap time per ratio bin to the reference (and to its stream's own, when
  /// the window has trigger lines).
  void add_to_reference(const stream::StreamWindow& window, const stats::GapSeries& series, double median,
                        bool has_triggers);
  /// Keeps the window's longest gaps that are stalls.
  void keep_stalls(const stream::StreamWindow& window, const stats::GapSeries& series, double median,
                   std::uint64_t hash);
  void prune();
  void score_stalls(const PatternTest& test);
  std::vector<TimeNs> null_moments() const;
  std::vector<double> sweep(const PatternTest& test, const std::vector<TimeNs>& moments) const;
  std::vector<double> null_scores(const PatternTest& test) const;
  TriggerOccurrence test_occurrence(const PatternTest& test, const Trigger& trigger,
                                    const std::vector<double>& null_scores) const;
  std::optional<TriggerFinding> test_pattern(const PatternTest& test, double log10_correction) const;
  std::optional<TriggerFinding> test_windows(PatternTest& test, TimeNs after, double log10_correction) const;
  void summarise(TriggerFinding& finding, std::vector<TriggerOccurrence>& occurrences, double log10_clear) const;

  std::vector<TriggerSpec> m_specs;
  std::vector<Regex> m_regexes;
  /// The patterns' atoms, found in one pass over a window; replaced (never changed) when
  /// adapted, under m_prefilter_lock, as find_lines may be reading it. Shared by copies.
  std::shared_ptr<const Prefilter> m_prefilter;
  std::shared_ptr<std::mutex> m_prefilter_lock = std::make_shared<std::mutex>();
  std::string m_sample;  ///< the first text seen, until the prefilter is adapted to it
  bool m_adapted = false;
  TriggerOptions m_options;
  std::vector<Span> m_spans;
  std::vector<Stall> m_stalls;
  std::vector<Trigger> m_triggers;
  std::vector<std::size_t> m_lines;  ///< matching lines per spec (also those not kept)
  std::vector<MarkerHit> m_markers;  ///< per spec; used for markers only
  static constexpr unsigned k_reference_bits = 5;
  static constexpr double k_ratio_unit = 1e6;  ///< ratios are binned as integers in millionths
  std::vector<double> m_reference;             ///< gap time per ratio bin, all windows
  std::unordered_map<std::uint64_t, std::vector<double>>
      m_trigger_windows;                                   ///< stream id -> its windows with trigger lines
  std::uint64_t m_hash_limit = UINT64_MAX;                 ///< streams whose key hash is at or above it are not kept
  std::unordered_map<std::uint64_t, std::string> m_names;  ///< stream id -> key (cut), for streams with stalls
  std::vector<DurationNs> m_scratch;
};

}  // namespace gapscan::detect
