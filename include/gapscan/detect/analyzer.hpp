#pragma once
// Runs the per-request mode test on each stream window as it closes, clusters the modes it
// finds across requests, and at the end runs the pooled test over all requests.

#include <gapscan/detect/arrival.hpp>
#include <gapscan/detect/finding.hpp>
#include <gapscan/detect/line_marker.hpp>
#include <gapscan/detect/timeline.hpp>
#include <gapscan/detect/wait_points.hpp>
#include <gapscan/stats/gap_pool.hpp>
#include <gapscan/stream/stream_table.hpp>
#include <gapscan/stream/window_queue.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gapscan::detect {

struct StateCodec;

struct ScanMode;

struct AnalyzerOptions {
  double alpha = 0.01;                   ///< false-alarm level after multiple-testing correction
  double max_rel_width = 0.10;           ///< a mode wider than this is not a spike
  double min_members = 3;                ///< fewer member gaps are an outlier, not a mode
  std::size_t pooled_min_windows = 5;    ///< the pooled test needs at least this many requests
  std::size_t max_samples = 32;          ///< example gaps kept per finding
  std::size_t max_runs = 20;             ///< runs kept for the report (the most significant)
  std::size_t max_streams = 50;          ///< streams kept with their own detections
  std::size_t quantisation_gaps = 4096;  ///< gaps sampled (by line hash) for the pooled lattice test
  double stall_min_ns = 5e6;             ///< a gap this long or longer is a stall (its end is tested for a clock)
  std::size_t stall_sample = 16384;      ///< stall ends sampled (by line hash) for the periodicity test
  std::size_t long_stream_lines = 500;   ///< streams this long also get their own loop, clock and lattice tests
  std::vector<TriggerSpec> triggers;     ///< lines that may start a stall (catalog and --trigger)
  TriggerOptions trigger_options;
  /// The request lines worth keeping as context of an example gap (the catalog's request-wide
  /// evidence); unset: all of them. `context_patterns` says what it looks for, so that partial
  /// scans merge only with scans that kept the same lines.
  stats::LineFilter keep_context;
  std::vector<std::string> context_patterns;
  stats::LineScreen context_screen;  ///< what keep_context needs of a line (LineMarker's first test)
  /// Threads for the tests over all requests at the end (finish(): the periodicity test's
  /// candidates, the pooled lattice test beside the rest); the result is the same for any number.
  unsigned threads = 1;
};

class Analyzer {
 public:
  explicit Analyzer(AnalyzerOptions options = {});
  ~Analyzer();
  Analyzer& operator=(const Analyzer&) = delete;

  /// Analyses one window: gaps, pooled histograms, per-request modes. The same as
  /// absorb(window, *prepare(window)).
  void add(const stream::StreamWindow& window);

  /// The part of a window's analysis that needs nothing but the window: its gaps, its own
  /// tests, its trigger lines. Changes nothing: runs on several threads at once, beside absorb()
  /// (stream::WindowQueue).
  std::unique_ptr<stream::WindowWork> prepare(const stream::StreamWindow& window) const;
  /// The rest, in window order: pooled histograms, samples, clusters, what is kept for the
  /// report. `work` is prepare()'s of this window.
  void absorb(const stream::StreamWindow& window, stream::WindowWork& work);

  /// Runs the pooled test and returns the findings.
  DetectionResult finish();

  /// A copy of everything analysed so far, to be given the windows still open and finished while
  /// this one goes on (gapscan --follow). The catalog's patterns are shared, not copied.
  std::unique_ptr<Analyzer> snapshot() const;

  /// Adds what `other` analysed (the inputs read after this one's) to this one: the same as if
  /// one analyzer had been given this one's state and then other's. Associative, so inputs
  /// analysed apart merge in any grouping (gapscan merge); `other` is left moved from.
  /// Both were made with the same options.
  void merge(Analyzer&& other);
  /// What the input's stamps looked like in file order (ArrivalTracker), when it has been read.
  void add_arrival(ArrivalSummary summary) { m_arrivals.push_back(std::move(summary)); }
  /// Adds `offset` to the stream ids this analysis keeps: an input analysed with a stream table
  /// of its own (ids from 0) then has the ids it would have had in the run.
  void shift_streams(std::uint64_t offset) {
    m_triggers.shift_streams(offset);
    for (Stall& stall : m_stalls) stall.stream_id += offset;
  }
  /// The trigger prefilter adapted to the log, for the next input's analysis (TriggerAligner).
  std::shared_ptr<const Prefilter> adapted_prefilter() const { return m_triggers.adapted_prefilter(); }
  /// What a LineMarker looks for in the lines where they are parsed: what this analysis would
  /// look for in their text (its trigger patterns, its context filter). Compiled once per run.
  std::shared_ptr<const LineMarker::Patterns> line_patterns() const {
    return LineMarker::compile(m_triggers, static_cast<bool>(m_options.keep_context), m_options.context_screen);
  }
  void use_prefilter(std::shared_ptr<const Prefilter> adapted) { m_triggers.use_prefilter(std::move(adapted)); }

  /// What an analysis merged into this one later need not keep: the sampling thresholds (example
  /// gaps, stall ends, lattice gaps) this one has reached. Only spares work: the merge keeps the
  /// same samples with or without them.
  struct Ceilings {
    std::vector<std::uint64_t> examples;
    std::uint64_t stalls = UINT64_MAX, stall_examples = UINT64_MAX, lattice = UINT64_MAX;
  };
  Ceilings ceilings() const;
  void set_ceilings(const Ceilings& ceilings);

 private:
  friend struct StateCodec;  // --partial: saves and loads the state
  struct Cluster;
  /// A sealed cluster: what the clusters of one or more inputs hold around one centre, in exact
  /// sums (integers; centres in fixed point), so that cells merge alike in any grouping.
  struct Cell {
    // Fixed point of ln centres and spreads, 2^-20 (a millionth): Σ weight × 45 × 2^20 stays in
    // 64 bits up to 10^11 member gaps.
    static constexpr double k_unit = 1048576.0;
    std::int64_t centre_sum = 0;  // Σ weight × ln centre, in 1 / k_unit
    std::int64_t spread_sum = 0;  // Σ weight × spread, in 1 / k_unit
    std::uint64_t weight = 0;
    std::uint64_t streams = 0;
    std::uint64_t members = 0;
    std::uint64_t member_time = 0;  // ns
    std::uint64_t span_sum = 0;     // ns
    double best_log10_p = 0;
    std::map<std::size_t, std::uint64_t> bins;
    std::string top_key;
    std::uint64_t top_members = 0;
    std::uint64_t top_gaps = 0;
    double top_share = -1;
    std::shared_ptr<const Timeline> top_timeline;

    void add(Cell&& other) {
      centre_sum += other.centre_sum;
      spread_sum += other.spread_sum;
      weight += other.weight;
      streams += other.streams;
      members += other.members;
      member_time += other.member_time;
      span_sum += other.span_sum;
      best_log10_p = std::min(best_log10_p, other.best_log10_p);
      for (const auto& [index, count] : other.bins) bins[index] += count;
      // The first of equals stays: the choice is the same in any grouping.
      if (other.top_members > top_members || (other.top_members == top_members && other.top_share > top_share)) {
        top_key = std::move(other.top_key);
        top_members = other.top_members;
        top_gaps = other.top_gaps;
        top_share = other.top_share;
        top_timeline = std::move(other.top_timeline);
      }
    }
  };
  struct Prepared;
  struct LongTests;
  Analyzer(const Analyzer&);  // member-wise, clusters shared: snapshot() gives the copy its own
  /// Joins a request's mode (`member_ids`: indices into series.gaps) to the nearest cluster.
  void add_mode(const stream::StreamWindow& window, const stats::GapSeries& series,
                const std::vector<std::uint32_t>& member_ids, std::vector<DurationNs> members, double log10_p);
  void absorb(Cluster& into, const Cluster& from) const;
  /// Moves the clusters of this input's requests into the cells (exact sums, keyed by centre):
  /// what merges with other inputs' analyses.
  void seal_clusters();
  /// The cells as clusters, in order of centre, merged where they touch.
  void merge_clusters();
  Finding finding_from_cluster(const Cluster& cluster) const;

  /// Adds the window's gaps to the lattice test's sample (by line hash).
  void sample_lattice_gaps(const stream::StreamWindow& window, const stats::GapSeries& series);
  /// Adds the window's stall ends to the periodicity test's sample and to the examples (by
  /// line hash).
  void sample_stall_ends(const stream::StreamWindow& window, const stats::GapSeries& series);
  /// Keeps a stall with its lines as an example, cutting the examples back to those of the
  /// smallest hashes when they are twice k_stall_examples.
  void keep_stall_example(const stream::StreamWindow& window, const stats::GapSeries& series, const stats::Gap& gap,
                          std::uint64_t hash);
  void keep_stream(StreamDetections detections);
  /// The per-stream tests (modes, runs, a lone long gap, and for long streams loops and, for
  /// the first k_long_stream_tests, lattice and clock), into `work`.
  void scan_stream(const stream::StreamWindow& window, Prepared& work) const;
  /// Runs of near-equal gaps into the detections; a primary stream's also to join the report's.
  void scan_runs(const stream::StreamWindow& window, Prepared& work) const;
  /// Gap modes into the detections; a primary stream's also to join the clusters.
  void scan_gap_modes(Prepared& work) const;
  /// A long stream's own lattice and the clocks its stall ends keep.
  LongTests test_long_stream(const stream::StreamWindow& window, const stats::GapSeries& series) const;
  /// A loop among the stream's lines, unless a gap mode already shows its period; a primary
  /// stream's loop is also to be kept for the renewal findings.
  void scan_renewal(const stream::StreamWindow& window, Prepared& work) const;
  /// What the stream's own tests found, into the runs, clusters, loops and streams kept.
  void absorb_scan(const stream::StreamWindow& window, Prepared& work);
  /// Copies the pool's counts (gaps, zero gaps, clock steps, resolution) into the summary.
  void summarise_pool();
  /// The pooled test: its modes strengthen the clusters they hold; those that hold none are
  /// returned as findings of their own. Not run below pooled_min_windows windows.
  std::vector<Finding> pooled_findings();
  /// Merges the clusters inside a pooled mode into the first and gives it the mode's p;
  /// whether there was one.
  bool strengthen_clusters(const ScanMode& mode);
  /// A pooled mode that holds no cluster, described from the pooled gap histogram; nothing when
  /// it is empty, below the resolution or too wide.
  std::optional<Finding> pooled_only_finding(const ScanMode& mode) const;
  /// Sets the p-value, shape and examples of the findings of gap modes.
  void complete_findings(std::vector<Finding>& findings) const;
  /// The runs kept, most significant first (at most max_runs); leaves none behind.
  std::vector<RunFinding> ranked_runs();
  /// The streams kept, most significant first (at most max_streams); leaves none behind.
  std::vector<StreamDetections> ranked_streams();
  /// The sampled gaps of all streams for the pooled lattice test, in line-hash order (any -j
  /// alike); the test on them (tag_lattice_modes: the modes it explains).
  std::vector<double> lattice_gaps();
  std::optional<Quantisation> test_pooled_lattice(const std::vector<double>& gaps) const;
  std::vector<Finding> periodic_findings();
  /// Marks the findings that are the program's own timers (Finding::own_timer; analyzer.cpp).
  void mark_own_timers(std::vector<Finding>& findings) const;
  /// Inputs whose stamps are arrival times (bursts, or durations the lines log that their stamps
  /// contradict): a finding of each, and the other gap findings of those inputs set aside.
  void add_arrival_findings(std::vector<Finding>& findings) const;
  /// Slowdowns at one place of every minute or hour (WallClock), as findings.
  void add_wall_clock_findings(std::vector<Finding>& findings) const;
  std::vector<Finding> trigger_findings();
  std::vector<Finding> renewal_findings();
  /// The wait points: each joins the gap finding at its delay (which then says where it sits), or
  /// is a finding of its own.
  void add_wait_points(std::vector<Finding>& findings) const;
  /// For each gap finding, the trigger lines of other streams inside its example stalls
  /// (Finding::during), where they are more than chance would put there.
  void add_during(std::vector<Finding>& findings) const;
  void tag_lattice_modes(DetectionResult& result, const std::vector<double>& gaps) const;
  /// Gives each gap finding (not periodic) the timeline of its worst request.
  void attach_timelines(std::vector<Finding>& findings) const;

  AnalyzerOptions m_options;
  stats::GapPool m_pool;
  std::vector<RunFinding> m_runs;
  std::vector<StreamDetections> m_streams;
  struct Stall {
    std::uint64_t hash;
    TimeNs time;  // of the line after the gap
    DurationNs gap;
    std::uint64_t stream_id;
    DurationNs offset;  // from the window's first line to the line after the gap
  };
  /// Whether a clock's on-beat stalls only keep the pace of requests run one after another.
  static bool keeps_request_pacing(const std::vector<const Stall*>& members, double period_ns);

  struct StallExample {
    std::uint64_t hash = 0;
    TimeNs time = 0;
    stats::GapSample sample;
  };
  static constexpr std::size_t k_stall_examples = 256;
  static constexpr std::size_t k_max_renewals = 4096;
  static constexpr std::size_t k_long_stream_tests =
      16;  ///< streams of an input given their own lattice and clock tests
  static constexpr std::uint64_t k_long_test_bytes = std::uint64_t{8} << 20;  ///< ... one more per 8 MiB read
  /// How many long streams of the window's input may have had the tests by its end.
  static std::size_t long_stream_budget(const stream::StreamWindow& window);
  /// Streams given the long-stream tests so far; read by prepare() on other threads (atomic_ref).
  mutable std::size_t m_long_streams_tested = 0;
  std::vector<Stall> m_stalls;
  std::uint64_t m_stall_threshold = UINT64_MAX;
  std::vector<StallExample> m_stall_examples;
  std::uint64_t m_example_threshold = UINT64_MAX;
  static constexpr DurationNs k_lattice_min_gap = 100'000;         // shorter gaps never enter the lattice test
  std::vector<std::pair<std::uint64_t, double>> m_lattice_sample;  // (line hash, raw gap)
  std::uint64_t m_lattice_threshold = UINT64_MAX;                  // hashes at or above it are not kept
  std::vector<std::shared_ptr<Cluster>> m_clusters;  // shared only between snapshot() and its copy, briefly
  std::map<std::int64_t, Cell> m_cells;              // sealed clusters by cell of centre (seal_clusters)
  TriggerAligner m_triggers;
  TimelineKeeper m_timelines;
  WaitPoints m_wait_points;
  WallClock m_wall_clock;
  std::vector<ArrivalSummary> m_arrivals;  ///< per input read, in the order read
  TimeNs m_first_time = INT64_MAX;         ///< the earliest and latest line of the requests analysed
  TimeNs m_last_time = INT64_MIN;
  struct RenewalHit {
    Renewal renewal;
    std::string stream;
    std::vector<stats::GapSample> samples;  ///< consecutive lines of the loop's period
  };
  std::vector<RenewalHit> m_renewals;
  std::uint64_t m_renewal_tested = 0;
  DetectionSummary m_summary;
};

}  // namespace gapscan::detect
