#pragma once
// Slowdowns on the wall clock: a job that runs at the same moment of every minute or every hour
// (cron starts its jobs at second 0 of the minute; Debian's cron.hourly runs at minute 17; a
// backup at hh:30) slows what the service does meanwhile, often mildly: 1.3 to 2 times for a
// few seconds, too little and too spread for a mode of gaps or a clock of stalls.
//
// Values are folded by where they fall in the minute (60 bins of a second) and in the hour (60
// bins of a minute), per cycle (each minute or hour of the log) and per kind, as a count and a
// sum of ln value per bin. Three series:
//   durations  what lines log (`duration_ms=12`, an access log's request time), by the template
//              of the line, at the middle of the operation (the line's stamp less half of it);
//   requests   the span of a request's window (first to last line), by the templates of its first
//              and last lines, at its middle;
//   gaps       gaps of 100 µs or more inside requests, by the templates of the lines before and
//              after, at their middle.
// A value longer than a tenth of the cycle (6 s, 6 min) does not say where in it it was slow and
// is not folded. The kinds keep the comparison fair: a job whose own lines log long durations
// only at hh:mm:00 compares with nothing outside and weighs nothing.
//
// The test, per series and fold: for every window of the cycle (60 starts × widths of 1 to 15
// bins, wrapping round), each cycle's contrast d_c is the mean over kinds, weighted by
// h = n_in·n_out / (n_in + n_out), of (mean ln inside − mean ln outside), for the kinds with
// values on both sides; its variance v_c is the kinds' pooled variance of ln value within the two
// sides over Σ h. The cycles' contrasts are combined as a random-effects mean (DerSimonian-Laird:
// each cycle weighted by 1 / (v_c + tau²), tau² the cycles' spread beyond what their values
// explain, so that a slow spell of ten minutes that happens once is one cycle's, not a clock's);
// its z gives p, multiplied by the windows, folds and series tested. The best window must also be
// slower in 70 % of the cycles, by 1.2 times or more (exp of the mean), in at least 10 minutes or
// 4 hours. Then it is confirmed against a null that keeps everything but the wall clock's place:
// each cycle turned by its own random offset (199 to 999 draws, as the cycles allow); the
// observed best z must beat all of them but at most one (p <= 0.01 to 0.002). The window reported
// is the one inside the best whose mean contrast times the root of its width is the largest,
// among those whose z is at least 3/4 of the best's.
//
// The job's lines: lines outside requests (of whole-input streams, of streams of 3 lines or
// fewer: a job's own pid, and of sparse streams: a scheduler's thread) are counted per template and per bin; a template
// with 60 % of its lines in the slow window or the bin before it, far more than the window's share of the cycle, is
// named with the slowdown ("CRON[…]: (www-data) CMD (…)").
//
// Bounded: at most k_max_records (cycle, kind) records per fold (the earliest cycles: later
// ones are counted, not folded) and k_max_line_templates templates of lines outside requests.

#include <gapscan/core/location.hpp>
#include <gapscan/core/time.hpp>
#include <gapscan/stats/gap_pool.hpp>
#include <gapscan/stats/gap_series.hpp>
#include <gapscan/stream/stream_table.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gapscan::detect {

struct StateCodec;

/// A slowdown found at one place of every minute or hour.
struct WallClockSlowdown {
  enum class Series : std::uint8_t { durations, requests, gaps };
  enum class Fold : std::uint8_t { minute, hour };
  Series series = Series::durations;
  Fold fold = Fold::minute;
  int start = 0;                ///< first bin of the slow window (second of the minute, minute of the hour)
  int width = 0;                ///< bins (wraps past the cycle's end)
  double ratio = 0;             ///< the cycles' geometric mean of inside over outside (exp of the mean contrast)
  double inside_ns = 0;         ///< geometric mean of the values inside the window, all cycles
  double outside_ns = 0;        ///< ... and outside
  std::uint64_t values_in = 0;  ///< values inside the window
  std::uint64_t values_out = 0;
  std::size_t cycles = 0;                  ///< cycles with values on both sides of the window
  std::size_t slower = 0;                  ///< of which slower inside
  double z = 0;                            ///< of the cycles' random-effects mean contrast
  double log10_p = 0;                      ///< its normal tail, corrected for the windows, folds and series tested
  std::size_t draws = 0;                   ///< of the turned-cycles null
  std::size_t beaten = 0;                  ///< draws whose best t reached the observed one
  std::vector<stats::GapSample> examples;  ///< the longest values inside the window, with their lines
  /// Lines outside requests that come at the slow window in most cycles: the job's.
  struct JobLine {
    stats::EvidenceLine line;  ///< the first such line
    TimeNs time = 0;
    std::uint64_t lines = 0;    ///< lines of its template
    std::uint64_t aligned = 0;  ///< of which in the window or the bin before it
  };
  std::vector<JobLine> job_lines;

  double cycle_ns() const { return fold == Fold::minute ? 60e9 : 3600e9; }
  double bin_ns() const { return cycle_ns() / k_bins; }
  static constexpr int k_bins = 60;
};

std::string_view to_string(WallClockSlowdown::Series series);

class WallClock {
 public:
  using Series = WallClockSlowdown::Series;
  using Fold = WallClockSlowdown::Fold;
  static constexpr int k_bins = WallClockSlowdown::k_bins;
  static constexpr int k_series = 3;
  static constexpr int k_folds = 2;
  static constexpr std::size_t k_max_records = 4096;  ///< per fold and series
  static constexpr std::size_t k_max_line_templates = 1024;
  static constexpr DurationNs k_min_gap = 100'000;

  /// Folds a window's values: a request's (keyed) span and gaps, the durations its lines log, and
  /// its lines outside requests (`pacing`: the window's lines are finished requests, each a
  /// duration and none a job's).
  void add(const stream::StreamWindow& window, const stats::GapSeries& series, bool pacing);
  /// Adds what another instance folded (inputs read after this one's). Associative, but for the
  /// records beyond the bound.
  void merge(WallClock&& other);
  /// The slowdowns found (at most one per fold), most significant first. `alpha`: the level.
  std::vector<WallClockSlowdown> finish(double alpha) const;

  std::uint64_t folded() const { return m_folded; }
  std::uint64_t unfolded() const { return m_unfolded; }

 private:
  friend struct StateCodec;  // --partial: saves and loads the state
  struct Cells {
    std::array<std::uint32_t, k_bins> n{};
    std::array<float, k_bins> sum{};      ///< Σ ln(value in ms)
    std::array<float, k_bins> squares{};  ///< Σ ln(value in ms)²
  };
  /// (cycle, kind) in one key: the kind in the high 32 bits, the cycle (as 32 signed bits) in the low.
  static std::uint64_t key_of(std::int64_t cycle, std::uint32_t kind) {
    return (std::uint64_t{kind} << 32) | static_cast<std::uint32_t>(static_cast<std::int32_t>(cycle));
  }
  static std::int64_t cycle_of(std::uint64_t key) { return static_cast<std::int32_t>(key & 0xffffffffu); }
  struct Part {  // one fold of one series
    std::unordered_map<std::uint64_t, Cells> records;
    std::int64_t cycle_limit = INT64_MAX;           ///< cycles at or past it are not folded (the bound)
    std::array<stats::GapSample, k_bins> examples;  ///< per bin, the longest value's lines (gap = 0: none)
  };
  struct LineTemplate {
    std::uint64_t lines = 0;
    std::array<std::array<std::uint32_t, k_bins>, k_folds> bins{};
    stats::EvidenceLine first;
    TimeNs first_time = INT64_MAX;
  };
  Part& part(Series series, Fold fold) { return m_parts[static_cast<int>(series) * k_folds + static_cast<int>(fold)]; }
  const Part& part(Series series, Fold fold) const {
    return m_parts[static_cast<int>(series) * k_folds + static_cast<int>(fold)];
  }
  /// Folds one value at `at` (the middle of what it measures); `example` makes its lines.
  template <typename Example>
  void fold(Series series, TimeNs at, double value_ns, std::uint32_t kind, Example&& example);
  void add_line(const stream::StreamWindow& window, const stream::Entry& entry);
  /// Keeps at most k_max_records records in a part: the latest cycles go.
  void bound(Part& part);
  std::optional<WallClockSlowdown> test(Series series, Fold fold, double log10_tests, double alpha) const;
  void name_jobs(WallClockSlowdown& slowdown) const;

  std::array<Part, k_series * k_folds> m_parts;
  std::unordered_map<std::uint32_t, LineTemplate> m_lines;  ///< lines outside requests, by template
  std::uint64_t m_folded = 0;
  std::uint64_t m_unfolded = 0;  ///< values not folded: too long, past the bound
};

}  // namespace gapscan::detect
