#pragma once
// The report model: everything a printer shows, already computed and ranked.

#include <gapscan/core/diagnostic.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gapscan::report {

inline constexpr int k_json_version = 1;

struct LineRef {
  std::string where;  ///< "file:line"
  std::string text;
};

struct GapExample {
  std::string request;  ///< request id, or empty for a whole-input stream
  double gap_ms = 0;
  std::vector<LineRef> before;  ///< oldest first
  LineRef after;
};

struct EvidenceResult {
  std::string pattern;
  std::string scope;  ///< before, after, around, request or file
  std::string meaning;
  double weight = 0;  ///< negative: counter-evidence
  std::uint64_t hits = 0;
  std::uint64_t samples = 0;
  std::string example;  ///< a line that matched (cut), empty when none did
};

/// The lines of the request where a finding weighs most (a stretch of at most 400 lines), on a
/// time axis, each gap in the finding's interval marked as a stall.
struct Timeline {
  std::string request;             ///< request id, or empty for a whole-input stream
  std::uint64_t window_lines = 0;  ///< lines of the request (of its window) in all
  std::uint64_t first_index = 0;   ///< the stretch's first line, counted from the request's first (0)
  double span_ms = 0;              ///< from the stretch's first line to its last
  double lo_ms = 0, hi_ms = 0;     ///< a gap in this interval is a stall of the finding
  struct Point {
    double offset_ms = 0;  ///< since the stretch's first line
    std::string where;     ///< "file:line"
    double gap_ms = 0;     ///< since the previous point (0 for the first)
    bool stall = false;    ///< the gap before it is in [lo_ms, hi_ms]
  };
  std::vector<Point> points;
  std::uint64_t stalls = 0;
  double stall_ms = 0;      ///< their sum
  double stall_share = 0;   ///< of span_ms
  std::size_t longest = 0;  ///< index of the point after the longest stall (0: none)
  LineRef first, last;
};

struct Alternative {
  std::string cause;
  std::string title;
  double confidence = 0;
};

struct Finding {
  int rank = 0;
  std::string cause;  ///< catalog id, or "unknown"
  std::string title;
  std::string summary;
  double confidence = 0;
  bool likely = false;  ///< confidence >= 0.6
  /// Not likely, yet holding at least a quarter of its requests' wall time: reported as an
  /// unexplained delay, ahead of the other unnamed findings.
  bool unexplained = false;
  double rank_score = 0;

  double interval_ms = 0;
  double interval_lo_ms = 0;
  double interval_hi_ms = 0;
  double rel_width = 0;
  std::uint64_t gaps = 0;
  std::uint64_t requests = 0;
  std::uint64_t requests_detected = 0;
  double wall_share = 0;
  std::string shape;

  double log10_p = 0;
  double log10_p_per_request = 0;
  double log10_p_pooled = 0;
  double significance = 0;

  std::optional<double> delay_value_ms;
  std::optional<double> delay_tolerance_ms;
  double delay_late_ms = 0;       ///< a range window: the band may end up to this far above the value
  double delay_window_lo_ms = 0;  ///< the catalog window drawn (value ± tolerance, or value to value + late)
  double delay_window_hi_ms = 0;  ///< 0: no catalog value
  std::string delay_label;
  bool delay_compare_upper = false;         ///< the value is where the band ends, not its centre
  double delay_offset_ms = 0;               ///< centre (or band end) minus the catalog value (or its satellite)
  std::optional<double> band_satellite_ms;  ///< the band runs on to this satellite of the value
  std::string implies;
  double value_match = 0;
  double shape_factor = 0;
  double evidence_score = 0;
  double evidence_weight = 0;   ///< the cause's reliance on evidence (eps)
  double counter_evidence = 1;  ///< product of the counter-evidence factors (K)

  std::string values = "gaps";         ///< "gaps" or "durations" (logged by the lines)
  std::string group;                   ///< for durations: the --group-by value, "" for all
  std::uint64_t duration_values = 0;   ///< for durations: values tested in the group
  std::uint64_t logged_durations = 0;  ///< for gaps: logged durations in the same interval

  /// For a periodic finding (shape PERIODIC): how the stall ends keep time.
  struct Periodic {
    bool renewal = false;  ///< a loop found from pair differences (no phase); else clock-locked
    double phase_ms = 0;
    double jitter_ms = 0;
    double on_beat_share = 0;
    std::uint64_t onsets = 0;
    std::uint64_t beats = 0;
    double missing_beat_ratio = 0;
    double stall_min_ms = 0;
    std::uint64_t silence_tested = 0;  ///< on-beat stalls with another stream running through them
    double silent_share = 0;           ///< of which silenced 80 % or more of those streams
  };
  std::optional<Periodic> periodic;

  /// For stalls around trigger lines (shape ONE-OFF): the pattern and its occurrences.
  struct Trigger {
    std::string pattern;
    std::string meaning;
    std::uint64_t lines = 0;
    std::uint64_t occurrences = 0;
    std::uint64_t outside = 0;  ///< occurrences while no other stream wrote lines (not tested)
    std::uint64_t aligned = 0;
    std::uint64_t null_draws = 0;
    struct Stalled {
      std::string request;  ///< request id, or empty for a whole-input stream
      std::string where;    ///< "file:line" of the line after the stall
      double gap_ms = 0;
      double start_ms = 0;  ///< when the stall began, relative to the trigger line (negative: before)
      double tail = 1;      ///< share of its stream's gap time in gaps at least as long
    };
    struct Occurrence {
      LineRef line;
      std::string stream;
      double log10_p = 0;
      std::uint64_t active = 0;   ///< other streams with lines before and after it
      std::uint64_t stalled = 0;  ///< of which stalled around it
      std::vector<Stalled> stalls;
    };
    std::vector<Occurrence> examples;  ///< the most significant aligned occurrences
  };
  std::optional<Trigger> trigger;

  /// For gap modes on a lattice that holds most gaps (a loop on a timer): the lattice.
  struct OnLattice {
    double base_ms = 0;
    double offset_ms = 0;
    double share = 0;                                  ///< of the sampled gaps, on the lattice
    int occupied = 0;                                  ///< multiples holding at least 5 % of its gaps
    std::vector<std::pair<int, std::uint64_t>> modes;  ///< (multiple, gaps) folded into this finding
    bool keeps_clock = false;                          ///< a periodic finding at the base was folded in
  };
  std::optional<OnLattice> lattice;

  std::optional<double> satellite_ms;
  std::uint64_t satellite_gaps = 0;
  struct TickMode {
    double interval_ms = 0;
    std::uint64_t gaps = 0;
  };
  std::vector<TickMode> ticks_above;  ///< modes a whole number of ticks above the floor, folded in
  /// Other delays the same cause explains, folded into this one (which holds the most wall time).
  struct OtherDelay {
    double interval_ms = 0;
    double interval_lo_ms = 0, interval_hi_ms = 0;
    std::uint64_t gaps = 0;
    std::uint64_t requests = 0;
    double member_time_ms = 0;  ///< the wall time its gaps (or durations) hold
    std::string values = "gaps";
  };
  std::vector<OtherDelay> other_delays;
  double member_time_ms = 0;  ///< the wall time this finding's gaps (or durations) hold
  /// A modifier cause (the timer tick) that shapes this cause's stalls: it annotates, never names.
  struct Modifier {
    std::string cause;
    std::string title;
    std::string delay_label;
    std::string implies;
    double confidence = 0;
  };
  std::optional<Modifier> modifier;
  /// The kind of line the stalls follow (a wait point): "after `getMulti(<*>)`: 47 of 1 210 gaps
  /// at 40–52 ms, usually 0.3 ms".
  struct WaitPoint {
    std::string template_text;  ///< the line's template (empty when more templates were seen than kept)
    std::uint64_t gaps_after = 0;
    std::uint64_t in_band = 0;
    double usual_ms = 0;
    double threshold_ms = 0;
    bool cluster = false;
    std::uint64_t reported = 0;  ///< of in_band, whose next line logs the wait
  };
  std::optional<WaitPoint> wait_point;
  /// The input's stamps are arrival times (detect::ArrivalDetail): "the lines came in 39 bursts of
  /// a median 90 lines within 0.4 ms each, then 7.05 s of nothing".
  struct Arrival {
    std::string input;
    std::uint64_t lines = 0;
    bool bursts = false;
    std::uint64_t burst_count = 0;
    std::uint64_t burst_lines = 0;
    double tightness_ms = 0;
    double median_size = 0;
    double median_length_ms = 0;
    std::uint64_t timed = 0;
    std::uint64_t early = 0;
    std::uint64_t set_aside = 0;
  };
  std::optional<Arrival> arrival;
  /// A slowdown at one place of every minute or hour (detect::WallClockSlowdown): "durations in
  /// seconds 0–4 of every minute are 1.6 times as long, in 52 of 60 minutes".
  struct WallClock {
    std::string series;  ///< durations, requests or gaps
    std::string fold;    ///< minute or hour
    int start = 0;       ///< first bin: second of the minute, minute of the hour
    int width = 0;       ///< bins
    double ratio = 0;
    double inside_ms = 0, outside_ms = 0;  ///< geometric means
    std::uint64_t values_in = 0, values_out = 0;
    std::uint64_t cycles = 0, slower = 0;
    double z = 0;
    std::uint64_t draws = 0, beaten = 0;
    struct JobLine {
      LineRef line;
      std::uint64_t lines = 0, aligned = 0;
    };
    std::vector<JobLine> job_lines;
  };
  std::optional<WallClock> wall_clock;
  /// Waits in a queue or pool spread over a range (detect::SaturationDetail): "239 of 240
  /// requests waited in the queue, 50–173 ms (p10–p90)".
  struct Saturation {
    std::string phase;
    std::uint64_t requests = 0, waited = 0;
    double p10_ms = 0, p50_ms = 0, p90_ms = 0, longest_ms = 0;
    double time_share = 0;
  };
  std::optional<Saturation> saturation;
  /// When the stalls happened (detect::TimingDetail): "every value from 14:02:10 to 14:03:10 (61
  /// of 62), none before or after (0 of 540)", or a few at a steady rate over the whole run.
  struct Timing {
    std::string kind;               ///< window or scattered
    std::string start, end;         ///< UTC, "2026-12-07 14:02:10.123"
    double start_s = 0, end_s = 0;  ///< the same as seconds since the Unix epoch
    std::uint64_t inside = 0, inside_stalls = 0, outside = 0, outside_stalls = 0;
    double log10_p = 0;
  };
  std::optional<Timing> timing;
  /// Another cause that fits the delay as well while no line tells them apart (a SYN retransmission
  /// or a data RTO at 1.02 s): the report names both. Empty when the lines decide.
  std::string ambiguous_with;
  std::string ambiguous_title;
  std::string ambiguous_confirm;  ///< how to tell: the other cause's first confirm step

  std::string top_request;
  std::uint64_t top_request_members = 0;
  std::uint64_t top_request_gaps = 0;
  double top_request_share = 0;

  std::optional<Timeline> timeline;  ///< its worst request's lines; none for periodic and duration findings

  std::vector<EvidenceResult> evidence;
  std::vector<GapExample> examples;
  std::vector<std::string> confirm;
  std::vector<std::string> fix;
  std::vector<std::string> references;
  std::vector<Alternative> alternatives;
};

/// A run of near-equal consecutive gaps in one stream.
struct Run {
  std::string stream;  ///< request id, or empty for a whole-input stream
  LineRef first;       ///< the line before the first gap of the run
  LineRef last;        ///< the line after its last gap
  std::size_t length = 0;
  double centre_ms = 0;
  double spread = 0;
  double duration_ms = 0;
  double time_share = 0;
  double log10_p = 0;
};

/// Gaps on a timer lattice k·base + offset, pooled over all streams.
struct Lattice {
  double base_ms = 0;
  double offset_ms = 0;
  double coherence = 0;
  double noise_rel = 0;
  double share = 0;
  double log10_p = 0;
  std::uint64_t gaps = 0;
  std::vector<double> also_consistent_ms;
  /// Fewer than half of the gaps on it: a quarter fall within an eighth of a step by chance,
  /// so the lattice is significant over many gaps but most gaps are not on it.
  bool weak = false;
};

struct StreamMode {
  double centre_ms = 0, lo_ms = 0, hi_ms = 0;
  std::uint64_t count = 0;
  double expected = 0;
  double log10_p = 0;
};

/// What one stream's own tests found.
struct StreamReport {
  std::string stream;  ///< request id, "" for a whole-input stream
  std::string kind;    ///< request, input, template or log
  std::string label;   ///< template text, or the input's name (input and log streams)
  std::uint64_t lines = 0;
  double span_ms = 0;
  double resolution_ms = 0;
  double zero_gap_share = 0;
  std::uint64_t out_of_order = 0;
  std::vector<StreamMode> modes;
  std::vector<Run> runs;
  struct Renewal {
    double period_ms = 0;
    double jitter_ms = 0;
    double periodic_fraction = 0;
    std::uint64_t beats = 0;
    double missing_beat_ratio = 0;
    double log10_p = 0;
  };
  std::optional<Renewal> renewal;  ///< a loop among the stream's lines
  struct Clock {
    double period_ms = 0;
    double phase_ms = 0;
    double jitter_ms = 0;
    double on_beat_share = 0;
    std::uint64_t beats = 0;
    double missing_beat_ratio = 0;
    double log10_p = 0;
  };
  struct Stall {
    LineRef after;  ///< the line after the gap
    double gap_ms = 0;
    double median_ratio = 0;
    double log10_p = 0;
  };
  std::vector<Stall> stalls;            ///< lone long gaps (outliers), longest first
  std::vector<Clock> periodicity;       ///< clocks its stall ends keep (streams of 500+ lines)
  std::optional<Lattice> quantisation;  ///< a lattice under its gaps (streams of 500+ lines)
};

struct Input {
  std::string name;
  std::string format;              ///< detected format, or "none"
  std::string encoding = "plain";  ///< plain, gzip, zstd, bzip2 or xz
  std::uint64_t lines = 0;
  std::uint64_t bytes = 0;
  std::string error;   ///< why reading stopped early, or empty
  std::string unread;  ///< lines without a stamp gapscan can read: what and where, or empty
  std::string sketch;  ///< a format file built from the first of them that reads it, or empty
};

struct UnparsedLine {
  std::string where;
  std::string text;
  std::string reason;
};

struct LineSummary {
  std::uint64_t lines = 0;
  std::uint64_t records = 0;
  std::uint64_t continuation = 0;
  std::uint64_t untimed = 0;
  std::uint64_t blank = 0;
  std::uint64_t comment = 0;
  std::uint64_t unparsed = 0;
  std::uint64_t truncated = 0;
  std::map<std::string, std::uint64_t> by_format;
  std::vector<UnparsedLine> unparsed_examples;
};

struct Analysis {
  std::uint64_t streams = 0;          ///< requests (or whole inputs without request ids)
  std::uint64_t derived_streams = 0;  ///< message-template and whole-input streams beside them
  std::uint64_t derived_windows = 0;
  std::uint64_t derived_windows_tested = 0;
  std::uint64_t pacing_windows = 0;  ///< windows of inputs whose lines are each a finished request
  std::uint64_t pacing_gaps = 0;     ///< their gaps: between requests, reported apart, never a suspect
  std::uint64_t keyed_windows = 0;   ///< windows that belonged to a request id
  std::uint64_t windows = 0;
  std::uint64_t windows_tested = 0;
  std::uint64_t gaps = 0;
  std::uint64_t zero_gaps = 0;
  std::uint64_t out_of_order = 0;
  std::uint64_t clock_steps = 0;  ///< the clock went back by more than a second
  double largest_clock_step_s = 0;
  std::string largest_clock_step_at;  ///< "file:line" of the first line after it
  double resolution_ms = 0;
  bool pooled_test = false;
  std::uint64_t idle_closed = 0;
  std::uint64_t early_flushes = 0;
  std::uint64_t spilled_bytes = 0;  ///< line text kept in temporary files instead of memory
  /// All gaps between the lines of a request: median, 90th and 99th percentile (within 0.1 %),
  /// and the largest with its two lines; what a user checks when no cause is named.
  double gap_median_ms = 0, gap_p90_ms = 0, gap_p99_ms = 0;
  std::optional<GapExample> largest_gap;
  /// All gaps in quarter-octave bins: bin i from 2^(i/4) µs to 2^((i+1)/4) µs (below 1 µs in
  /// bin 0); what the histograms of the text and Markdown reports draw.
  std::vector<std::uint64_t> gap_histogram;
  static constexpr double k_histogram_bins_per_octave = 4;
};

/// Where the requests' time went, one phase (detect::PhaseProfile), with the finding of that
/// phase when one was reported.
struct PhaseRow {
  std::string phase;
  std::uint64_t requests = 0;                        ///< lines that time it
  std::uint64_t spent = 0;                           ///< of which spent 1 ms or more in it
  double time_share = 0;                             ///< of the requests' time
  double median_ms = 0, p90_ms = 0, longest_ms = 0;  ///< over the requests that time it (zeros included)
  int finding_rank = 0;                              ///< the best-ranked finding of this phase's values; 0: none
  std::string cause;                                 ///< its cause
  double lo_ms = 0, hi_ms = 0;
  std::uint64_t in_band = 0;  ///< its values
};

struct Report {
  std::string tool_version;
  std::vector<Finding> findings;  ///< ranked, best first
  std::vector<Run> runs;          ///< the most significant runs, best first
  std::optional<Lattice> quantisation;
  /// The program's own timers (a heartbeat, a status line every 5 s): set aside, not suspects.
  struct Timer {
    double period_ms = 0;
    std::uint64_t gaps = 0;
    std::string template_text;  ///< the line's template (empty when not kept)
    LineRef example;            ///< one of its lines
  };
  std::vector<Timer> timers;
  std::vector<StreamReport> streams;  ///< streams whose own tests found something, best first
  std::vector<PhaseRow> phases;       ///< most time first; empty when no line times a phase
  std::uint64_t phase_requests = 0;   ///< lines that time a phase
  LineSummary lines;
  std::vector<Input> inputs;
  Analysis analysis;
  std::string catalog_origin;
  std::size_t catalog_causes = 0;
  std::vector<Diagnostic> diagnostics;
  double likely_threshold = 0.6;
  double unexplained_wall_share = 0.25;
  bool explain = false;  ///< print each suspect's score components (--explain)
};

}  // namespace gapscan::report
