#pragma once
// A finding: a gap mode that detection judged significant, with everything the catalog and
// the report need. Plain data.

#include <gapscan/detect/periodicity.hpp>
#include <gapscan/detect/quantisation.hpp>
#include <gapscan/detect/renewal.hpp>
#include <gapscan/detect/timeline.hpp>
#include <gapscan/detect/triggers.hpp>
#include <gapscan/detect/wall_clock.hpp>
#include <gapscan/stats/gap_pool.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gapscan::detect {

/// How a mode repeats (causes.md shape vocabulary, as far as gaps alone can tell).
enum class Shape {
  per_op,     ///< several gaps per request at the value (PER-OP)
  one_off,    ///< about one gap per request at the value (ONE-OFF)
  periodic,   ///< stalls that end on a clock of this period (PERIODIC)
  quantised,  ///< gap modes on several multiples of one base, folded into one (QUANTISED)
};

/// Keys of derived streams start with this byte: 'T' + the template hash (the lines of one
/// message template, across requests), 'L' (every line of an input whose
/// lines belong to requests) or 'P' + a process or thread key (the lines of one process or
/// thread, across the requests it served). Their detections are reported per stream; they do not join the
/// clusters, the pooled test or the samples, which stay per request.
inline constexpr char k_derived_key = '\x1f';

/// What a finding's values are.
enum class ValueKind {
  gap,       ///< time between consecutive lines of a stream
  duration,  ///< durations the lines log (request times, elapsed_ms=, took 12ms)
};

/// For a periodic finding: how the stall ends keep time.
struct PeriodicDetail {
  bool renewal = false;      ///< a loop found from pair differences (no phase); else clock-locked
  double phase_ns = 0;       ///< the beat, modulo the period
  double jitter_ns = 0;      ///< sd of the on-beat stall ends around the beat
  double on_beat_share = 0;  ///< of the stall ends (after merging bursts)
  std::size_t onsets = 0;    ///< stall ends tested
  std::size_t beats = 0;     ///< periods with a stall ending on the beat
  double missing_beat_ratio = 0;
  double stall_min_ns = 0;  ///< the smallest gap counted as a stall
  bool from_catalog = false;
  /// On-beat stalls during which other streams were active (TriggerAligner::silences), and the
  /// share of them in which 80 % or more of those streams were silent too: the whole input
  /// stopped (every thread of a throttled cgroup), not one loop sleeping.
  std::size_t silence_tested = 0;
  double silent_share = 0;
};

/// For a finding of stalls around trigger lines: the pattern and its occurrences.
struct TriggerDetail {
  std::string cause;  ///< the catalog cause the pattern belongs to; empty for --trigger
  std::string pattern;
  std::string meaning;
  std::size_t lines = 0;        ///< lines matching the pattern
  std::size_t occurrences = 0;  ///< after merging lines within a second of each other; tested ones only
  std::size_t outside = 0;      ///< occurrences while no other stream was active (not tested)
  std::size_t aligned = 0;      ///< occurrences with stalls around them (p <= 0.05 each)
  std::size_t null_draws = 0;
  std::vector<TriggerOccurrence> examples;
};

/// For a gap mode that is one multiple of a lattice holding most gaps of the log (a sleep loop
/// or a timer whose wake-ups fall on k × base): the lattice.
struct LatticeDetail {
  double base_ns = 0;
  double offset_ns = 0;
  int multiple = 1;                                  ///< the mode sits at multiple × base + offset
  double share = 0;                                  ///< of the sampled gaps, on the lattice
  int occupied = 0;                                  ///< multiples holding at least 5 % of the lattice's gaps
  double mode_share = 0;                             ///< of the lattice's gaps, at this multiple
  std::vector<std::pair<int, std::uint64_t>> modes;  ///< (multiple, gaps) of the modes folded into this finding
  bool keeps_clock = false;                          ///< a periodic finding at the base was folded in too
};

/// For a wait point (wait_points.hpp): the kind of line the stalls follow, and how the gaps after
/// it are spread.
struct WaitPointDetail {
  std::uint32_t template_id = 0;  ///< the template of the line before (parse::Record::template_id)
  std::uint64_t gaps_after = 0;   ///< gaps of requests after such a line
  std::uint64_t stalls = 0;       ///< of which at least the stall threshold
  std::uint64_t in_band = 0;      ///< of which in the band tested (the finding's interval)
  double threshold_ns = 0;        ///< max(stall_min, min_ratio × the 10th percentile of those gaps)
  double usual_ns = 0;            ///< the median of the gaps after it below the threshold
  bool cluster = false;           ///< the band is the tightest cluster of the stalls, not all of them
  std::uint64_t reported = 0;     ///< of in_band, followed by a line that logs the wait (its duration covers the gap)
};

/// Lines of a cause's [[trigger]] written by another stream during the finding's example stalls
/// (or just before they began): a server that says what the client waited for (PostgreSQL's
/// `still waiting for ShareLock`, Redis's `Asynchronous AOF fsync is taking too long`).
struct DuringHit {
  std::string cause;
  std::string pattern;
  std::string meaning;
  std::size_t hits = 0;     ///< example stalls with such a line
  std::size_t samples = 0;  ///< example stalls tested
  double chance = 0;        ///< the share expected if the lines fell at moments unrelated to the stalls
  double log10_p = 0;       ///< P(at least `hits` of `samples` by chance), binomial
};

/// For a mode of logged durations that is the group's ceiling (durations.cpp, cap_of): they pile
/// at one round value, none is longer, and many end sooner. A timeout that cuts the waits off
/// writes this shape even when the log never states its setting.
struct CapDetail {
  double value_ns = 0;        ///< the round value the mode sits at or just above (3 s, 500 ms)
  std::uint64_t shorter = 0;  ///< values of the group below the mode: the waits that ended in time
  std::uint64_t longer = 0;   ///< values above it (at most a stray one)
};

/// For a saturation (phase_profile.hpp): requests waited in a queue or a pool for times spread
/// over a range, not a fixed delay.
struct SaturationDetail {
  std::string phase;                                          ///< "queue"
  std::uint64_t requests = 0;                                 ///< lines that time the phase
  std::uint64_t waited = 0;                                   ///< of which waited 1 ms or more
  double p10_ns = 0, p50_ns = 0, p90_ns = 0, longest_ns = 0;  ///< of the waits
  double time_share = 0;                                      ///< of the requests' time spent waiting there
};

/// When a finding's stalls happened among the operations of their kind (durations.cpp,
/// timing_of): all inside one stretch of the run and none outside it (a dead server, a failover,
/// a blocked port), or a few at a steady rate over the whole run (a race, a drop probability).
struct TimingDetail {
  enum class Kind { window, scattered };
  Kind kind = Kind::window;
  TimeNs start = 0, end = 0;  ///< when the operations began (the line's time less its duration):
                              ///< window: its first and last stall; scattered: the first and last value
  std::uint64_t inside = 0, inside_stalls = 0;    ///< values (and stalls) in the window; scattered: all
  std::uint64_t outside = 0, outside_stalls = 0;  ///< before or after it; scattered: 0
  double log10_p = 0;  ///< window: P(so many stalls among so few values by chance); scattered: the
                       ///< steady-rate test's p (high: nothing tells the stalls' moments apart)
};

/// For a finding that the input's stamps are arrival times (detect/arrival.hpp): what showed it.
struct ArrivalDetail {
  SourceId input = 0;
  std::uint64_t lines = 0;        ///< of the input
  bool bursts = false;            ///< the lines arrive in bursts (ArrivalSummary::holds)
  std::uint64_t burst_count = 0;  ///< bursts of 16 lines or more, at the tightness below
  std::uint64_t burst_lines = 0;  ///< lines in them
  double tightness_ns = 0;        ///< consecutive lines of a burst are at most this apart
  double median_size = 0;         ///< lines of the median line's burst
  double median_length_ns = 0;    ///< a burst's first to last line
  std::uint64_t timed = 0;        ///< request lines logging a duration of 5 ms or more
  std::uint64_t early = 0;        ///< of which stamped sooner than half of it after the request's first line
  std::uint64_t set_aside = 0;    ///< other gap findings of the input, whose gaps are the carrier's
};

std::string_view to_string(Shape shape);

struct Finding {
  double centre_ns = 0;  ///< median of the member gaps
  double lo_ns = 0;      ///< shortest interval holding 80 % of the members
  double hi_ns = 0;
  double rel_width = 0;         ///< (hi - lo) / centre
  std::uint64_t gaps = 0;       ///< member gaps
  std::uint64_t requests = 0;   ///< streams (requests) the mode appears in
  double member_time_ns = 0;    ///< sum of the member gaps
  double requests_span_ns = 0;  ///< sum of the wall time of those streams
  double wall_share = 0;        ///< member_time / requests_span
  Shape shape = Shape::per_op;
  ValueKind values = ValueKind::gap;
  std::string group;                          ///< for durations: the --group-by value ("" for all)
  std::uint64_t duration_values = 0;          ///< for durations: the values of the group tested
  std::uint64_t logged_durations = 0;         ///< for gaps: logged durations in the same interval
  std::optional<PeriodicDetail> periodic;     ///< set for Shape::periodic
  std::optional<TriggerDetail> trigger;       ///< set for stalls around trigger lines (Shape::one_off)
  std::optional<LatticeDetail> lattice;       ///< set for a gap mode on a lattice of several multiples
  std::optional<WaitPointDetail> wait_point;  ///< set for stalls after one kind of line (or found there too)
  std::vector<DuringHit> during;              ///< other streams' trigger lines inside the example stalls
  /// Its gaps are a line the program writes again one period later, every period, outside any
  /// request (Analyzer::mark_own_timers): a heartbeat or a status line, unless its words say it
  /// waits (then the cause that reads them names it).
  bool own_timer = false;
  std::optional<ArrivalDetail> arrival;  ///< set for a finding that an input's stamps are arrival times
  /// Set for a slowdown at one place of every minute or hour (its examples are in `samples`).
  std::optional<WallClockSlowdown> wall_clock;
  std::optional<CapDetail> cap;                ///< set for a mode of durations that is the group's ceiling
  std::optional<SaturationDetail> saturation;  ///< set for waits in a queue spread over a range
  std::optional<TimingDetail> timing;          ///< set for durations whose stalls keep to a window or a rate

  double log10_p = 0;                   ///< significance used for ranking: min of the two below
  double log10_p_per_request = 0;       ///< best per-request p, Bonferroni-corrected over requests (0 if none)
  double log10_p_pooled = 0;            ///< pooled test over all requests (0 if not run or not significant)
  std::uint64_t requests_detected = 0;  ///< requests whose own test found the mode

  /// The request where the mode weighs most.
  std::string top_request;
  std::uint64_t top_request_members = 0;
  std::uint64_t top_request_gaps = 0;
  double top_request_share = 0;

  std::vector<stats::GapSample> samples;  ///< example gaps near the centre, closest first
  /// The stretch of one request holding the most gaps in [lo, hi] (gap findings, not periodic).
  std::optional<Timeline> timeline;
};

/// What the analysis saw, for the report's accounting.
struct DetectionSummary {
  std::uint64_t windows = 0;          ///< stream windows analysed
  std::uint64_t keyed_windows = 0;    ///< of which belonged to a request id
  std::uint64_t windows_scanned = 0;  ///< windows with enough gaps for the per-request test
  std::uint64_t derived_windows = 0;  ///< windows of template and log-wide streams
  std::uint64_t derived_windows_scanned = 0;
  std::uint64_t pacing_windows = 0;  ///< windows of inputs whose lines are finished requests (between requests)
  std::uint64_t pacing_gaps = 0;     ///< their gaps: the pacing between requests, never a suspect
  std::uint64_t gaps = 0;
  std::uint64_t zero_gaps = 0;
  std::uint64_t out_of_order = 0;
  std::uint64_t clock_steps = 0;  ///< steps back in time, not measured as gaps
  DurationNs largest_clock_step = 0;
  LineLocation largest_clock_step_at;  ///< the first line after the largest step
  DurationNs typical_resolution = 0;
  bool pooled_test_run = false;
  /// The distribution of all gaps between the lines of a request (pooled histogram, within
  /// its bin width): what a user checks first when no cause is named.
  DurationNs median_gap = 0, p90_gap = 0, p99_gap = 0;
  std::optional<stats::GapSample> largest_gap;  ///< exact, with its lines
  std::vector<std::uint64_t> gap_picture;       ///< GapPool::picture(): quarter-octave bins from 1 µs
};

/// A run of near-equal consecutive gaps in one stream (Component D).
struct RunFinding {
  std::string stream;              ///< request id (cut), empty for a whole-input stream
  stats::EvidenceLine first_line;  ///< the line before the run's first gap
  stats::EvidenceLine last_line;   ///< the line after its last gap
  std::size_t length = 0;          ///< gaps
  double centre_ns = 0;
  double spread = 0;      ///< max / min - 1
  double sum_ns = 0;      ///< wall time the run covers
  double time_share = 0;  ///< of the stream's span
  double log10_p = 0;     ///< corrected for the centres a run could have had
};

/// A mode found by a stream's own test (Component A), for the per-stream detections.
struct StreamMode {
  double centre_ns = 0, lo_ns = 0, hi_ns = 0;
  std::size_t count = 0;
  double expected = 0;  ///< background count in the window
  double log10_p = 0;
};

/// A lone long gap of one stream (an OUTLIER of detection-methods.md §4.2): how far the longest
/// gap stands above the second longest, against the stream's own upper tail (log domain).
struct StreamStall {
  stats::EvidenceLine after;  ///< the line after the gap
  double gap_ns = 0;
  double median_ratio = 0;  ///< gap / the stream's median gap
  double log10_p = 0;
};

/// What one stream's own tests found (detection-methods.md §4.8).
struct StreamDetections {
  std::string stream;               ///< request id (cut), empty for a whole-input stream; for derived streams the key
  std::string kind = "request";     ///< request, input (no request ids), template, process, log (an input's every
                                    ///< line) or pacing (an input of finished requests: the gaps between them)
  std::uint64_t template_hash = 0;  ///< for a template stream
  SourceId input = 0;               ///< for an input or log stream
  std::uint64_t lines = 0;
  DurationNs span = 0;
  DurationNs resolution = 0;
  double zero_gap_share = 0;
  std::uint64_t out_of_order = 0;
  std::vector<StreamMode> modes;
  std::vector<RunFinding> runs;
  std::vector<StreamStall> stalls;           ///< a lone long gap (at most one)
  std::optional<Renewal> renewal;            ///< a loop among the stream's lines (pair differences)
  std::vector<Periodicity> periodicity;      ///< clocks its stall ends keep (long streams)
  std::optional<Quantisation> quantisation;  ///< a lattice under its gaps (long streams)
  double best_log10_p = 0;
};

struct DetectionResult {
  std::vector<Finding> findings;             ///< most significant first
  std::vector<RunFinding> runs;              ///< the most significant runs of the whole input, best first
  std::optional<Quantisation> quantisation;  ///< a timer lattice under the gaps of all streams
  std::vector<StreamDetections> streams;     ///< streams whose own tests found something, best first
  std::vector<MarkerHit> markers;            ///< marker patterns (evidence of scope "file") that matched
  DetectionSummary summary;
};

}  // namespace gapscan::detect
