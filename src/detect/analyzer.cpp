// How the analysis works
//
// Per window (a request, or a slice of a whole-input stream) as it closes:
//   1. stats::build_gap_series: gaps in time order, dequantised by the timestamp resolution.
//   2. The gaps go into the GapPool (pooled histograms, example reservoir).
//   3. scan_modes on z = ln(gap) against the request's own background (mode_scan.hpp, with
//      30 % of the window's own points kept in its background: calibrated by
//      bench/mode_calibration and the tests).
//      Each accepted mode with >= min_members gaps and a relative width <= max_rel_width
//      joins the cluster of modes with a centre within 2 % (ln distance 0.02), or starts one.
// At the end:
//   4. Pooled test: scan_modes over the request-support histogram (one point per 0.1 % bin,
//      weighted by the number of requests with a gap in it) with a fixed bandwidth of 0.3 in
//      z, enrichment >= 2, then a CFAR check against the 6-30 % annulus (p <= alpha) so that
//      a lumpy but smooth-on-average background does not count as a mode.
//   5. Findings: one per cluster; a pooled mode that overlaps a cluster strengthens it, one
//      that overlaps none becomes a finding of its own (typically one gap per request, e.g.
//      a 5 s timeout once in many requests).
// A finding's significance is min(per-request p x number of requests tested, pooled p).

#include <gapscan/detect/analyzer.hpp>
#include <gapscan/detect/lattice_fold.hpp>
#include <gapscan/detect/mode_scan.hpp>
#include <gapscan/detect/periodicity.hpp>
#include <gapscan/detect/probability.hpp>
#include <gapscan/detect/runs.hpp>
#include <gapscan/stats/gap_series.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <future>
#include <map>
#include <optional>
#include <string>

namespace gapscan::detect {

std::string_view to_string(Shape shape) {
  switch (shape) {
    case Shape::per_op:
      return "PER-OP";
    case Shape::one_off:
      return "ONE-OFF";
    case Shape::periodic:
      return "PERIODIC";
    case Shape::quantised:
      return "QUANTISED";
  }
  return "PER-OP";
}

namespace {

constexpr double k_cluster_radius = 0.02;  // ln distance between a mode and a cluster centre
constexpr std::size_t k_max_clusters = 4096;

/// Median and shortest 80 % interval of sorted values.
void describe(const std::vector<double>& sorted, double& centre, double& lo, double& hi) {
  const std::size_t n = sorted.size();
  centre = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  const auto k = static_cast<std::size_t>(std::ceil(0.8 * static_cast<double>(n)));
  lo = sorted.front();
  hi = sorted.back();
  for (std::size_t i = 0; i + k <= n; ++i) {
    if (sorted[i + k - 1] - sorted[i] < hi - lo) {
      lo = sorted[i];
      hi = sorted[i + k - 1];
    }
  }
}

/// Centre and 80 % interval from binned values (bin index -> count) of a LogHistogram.
void describe_bins(const stats::LogHistogram& layout, const std::map<std::size_t, std::uint64_t>& bins, double& centre,
                   double& lo, double& hi) {
  std::vector<double> values;
  std::uint64_t total = 0;
  for (const auto& [index, count] : bins) total += count;
  // Expand at most ~20000 representative values (bins hold equal values to 0.1 %).
  const double step = std::max(1.0, static_cast<double>(total) / 20000.0);
  double carry = 0;
  for (const auto& [index, count] : bins) {
    const double mid = (static_cast<double>(layout.lower(index)) + static_cast<double>(layout.upper(index))) / 2;
    carry += static_cast<double>(count) / step;
    while (carry >= 1) {
      values.push_back(mid);
      carry -= 1;
    }
  }
  if (values.empty() && !bins.empty()) {
    const auto index = bins.begin()->first;
    values.push_back((static_cast<double>(layout.lower(index)) + static_cast<double>(layout.upper(index))) / 2);
  }
  if (values.empty()) {
    centre = lo = hi = 0;
    return;
  }
  describe(values, centre, lo, hi);
}

/// True when the gaps of a window are between requests: at least k_completion_share of its lines
/// (and two or more) each report a finished request or operation, and the gaps are not those
/// operations themselves. A client that runs its operations back to back (a benchmark's ping-
/// pong, a cache warmer) writes each line when the last one ends: its gaps then equal the
/// durations the later lines log (within 5 %, or 1 ms), and they are the waits under test. So
/// the gaps are between requests unless such gaps hold half of the window's gap time.
constexpr double k_completion_share = 0.8;
bool completion_stream(const stream::StreamWindow& window) {
  const std::span<const stream::Entry> entries = window.entries;
  if (entries.size() < 2) return false;
  std::size_t completions = 0;
  for (const stream::Entry& entry : entries) completions += entry.completion ? 1 : 0;
  if (static_cast<double>(completions) < k_completion_share * static_cast<double>(entries.size())) return false;
  double total = 0, back_to_back = 0;
  for (std::size_t i = 1; i < entries.size(); ++i) {
    const double gap = std::max(0.0, static_cast<double>(entries[i].time - entries[i - 1].time));
    total += gap;
    if (entries[i].duration_us == stream::Entry::k_no_duration) continue;
    const double duration = static_cast<double>(entries[i].duration_us) * 1e3;
    if (std::abs(gap - duration) <= std::max(0.05 * gap, 1e6)) back_to_back += gap;
  }
  return 2 * back_to_back < total;
}

/// The detections of a stream before its tests: its kind, name and input, its size and the
/// shape of its timestamps. A derived stream's key is k_derived_key, a tag ('T' template,
/// 'P' process, 'L' log) and the template hash or process (a log stream's input is the window's).
StreamDetections stream_facts(const stream::StreamWindow& window, const stats::GapSeries& series, bool primary) {
  StreamDetections detections;
  if (!primary && window.key.empty()) {
    detections.kind = "pacing";
    detections.input = window.input;
  } else if (!primary) {
    const char tag = window.key.size() > 1 ? window.key[1] : 'L';
    detections.kind = tag == 'T' ? "template" : tag == 'P' ? "process" : "log";
    if (tag == 'P') detections.stream = std::string(window.key.substr(2, 64));
    if (detections.kind == "template") {
      detections.template_hash = std::strtoull(std::string(window.key.substr(2)).c_str(), nullptr, 16);
    }
  } else if (window.key.empty()) {
    detections.kind = "input";
  }
  if (primary) detections.stream = window.key.empty() ? std::string() : std::string(window.key.substr(0, 64));
  if (detections.kind == "log") detections.input = window.input;
  if (detections.kind == "input") detections.input = window.input;
  detections.lines = window.entries.size();
  detections.span = series.span;
  detections.resolution = series.resolution;
  detections.zero_gap_share =
      static_cast<double>(series.zero_gaps) / static_cast<double>(std::max<std::size_t>(1, window.entries.size() - 1));
  detections.out_of_order = series.out_of_order;
  return detections;
}

/// The series' raw gaps in ns, in time order.
std::vector<double> raw_gaps(const stats::GapSeries& series) {
  std::vector<double> raw;
  raw.reserve(series.gaps.size());
  for (const stats::Gap& gap : series.gaps) raw.push_back(static_cast<double>(gap.raw));
  return raw;
}

/// The line at position `index` of the series' time order, with its text.
stats::EvidenceLine evidence_line(const stream::StreamWindow& window, const stats::GapSeries& series,
                                  std::uint32_t index) {
  return stats::evidence_line(window, window.entries[series.order[index]]);
}

/// A lone long gap (an outlier): the longest gap's distance above the second longest in
/// ln(gap), D, against the excesses of the next k - 1 longest over the k-th, S (k = n/10, at
/// least 5). If the log-gaps have an exponential tail (a Pareto tail of the gaps), D and S/(k-1)
/// estimate the same scale and P(D >= d) = (1 + d/S)^-(k-1); lighter tails (log-normal gaps)
/// make this conservative. Nothing below 20 gaps or when p > alpha.
std::optional<StreamStall> lone_long_gap(const stream::StreamWindow& window, const stats::GapSeries& series,
                                         double alpha) {
  if (series.gaps.size() < 20) return std::nullopt;
  const std::size_t n = series.gaps.size();
  const std::size_t k = std::min(n - 1, std::max<std::size_t>(5, n / 10));
  std::vector<std::uint32_t> longest(n);
  for (std::uint32_t i = 0; i < n; ++i) longest[i] = i;
  std::partial_sort(longest.begin(), longest.begin() + static_cast<std::ptrdiff_t>(k + 1), longest.end(),
                    [&](std::uint32_t a, std::uint32_t b) { return series.gaps[a].value > series.gaps[b].value; });
  const auto z = [&](std::size_t rank) { return std::log(series.gaps[longest[rank]].value); };
  const double d = z(0) - z(1);
  double excess = 0;
  for (std::size_t r = 1; r < k; ++r) excess += z(r) - z(k);
  if (d <= 0 || excess <= 0) return std::nullopt;
  const double log10_p = -static_cast<double>(k - 1) * std::log10(1 + d / excess);
  if (log10_p > std::log10(alpha)) return std::nullopt;
  std::vector<double> values = raw_gaps(series);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n / 2), values.end());
  const stats::Gap& gap = series.gaps[longest[0]];
  const stream::Entry& after = window.entries[series.order[gap.after]];
  return StreamStall{stats::evidence_line(window, after), static_cast<double>(gap.raw),
                     static_cast<double>(gap.raw) / std::max(1.0, values[n / 2]), log10_p};
}

/// The series' gaps of at least `min_gap`, at most `max_gaps` of them evenly spaced (as the
/// pooled test's sample).
std::vector<double> lattice_sample_of(const stats::GapSeries& series, DurationNs min_gap, std::size_t max_gaps) {
  std::vector<double> lattice_gaps;
  for (const stats::Gap& gap : series.gaps) {
    if (gap.raw >= min_gap) lattice_gaps.push_back(static_cast<double>(gap.raw));
  }
  if (lattice_gaps.size() > max_gaps) {
    std::vector<double> sample;
    sample.reserve(max_gaps);
    const double stride = static_cast<double>(lattice_gaps.size()) / static_cast<double>(max_gaps);
    for (std::size_t k = 0; k < max_gaps; ++k)
      sample.push_back(lattice_gaps[static_cast<std::size_t>(static_cast<double>(k) * stride)]);
    lattice_gaps = std::move(sample);
  }
  return lattice_gaps;
}

/// The times (dithered by the resolution) of the lines after the gaps of at least stall_min_ns.
std::vector<TimeNs> stall_ends_of(const stream::StreamWindow& window, const stats::GapSeries& series,
                                  double stall_min_ns) {
  std::vector<TimeNs> stall_ends;
  for (const stats::Gap& gap : series.gaps) {
    if (static_cast<double>(gap.raw) < stall_min_ns) continue;
    stall_ends.push_back(stats::dithered_time(window.entries[series.order[gap.after]], series.resolution));
  }
  return stall_ends;
}

/// The times of the window's lines, sorted, dithered by the resolution (stamps cut to the
/// second all differ by whole seconds).
std::vector<TimeNs> line_times(const stream::StreamWindow& window, const stats::GapSeries& series) {
  std::vector<TimeNs> times;
  times.reserve(series.order.size());
  for (std::uint32_t index : series.order)
    times.push_back(stats::dithered_time(window.entries[index], series.resolution));
  std::sort(times.begin(), times.end());
  return times;
}

/// Whether a narrow gap mode (relative width at most max_rel_width) lies at 1, 2 or 3 times
/// the loop's period, within 3 %.
bool explained_by_modes(const std::vector<StreamMode>& modes, double period_ns, double max_rel_width) {
  bool explained = false;
  for (const StreamMode& mode : modes) {
    if (mode.centre_ns <= 0 || (mode.hi_ns - mode.lo_ns) / mode.centre_ns > max_rel_width) continue;
    const double ratio = mode.centre_ns / period_ns;
    explained |= std::round(ratio) >= 1 && std::round(ratio) <= 3 && std::abs(ratio / std::round(ratio) - 1) < 0.03;
  }
  return explained;
}

/// Examples of a loop: up to 4 pairs of lines one period apart (within 2 %), not overlapping.
std::vector<stats::GapSample> loop_examples(const stream::StreamWindow& window, const stats::GapSeries& series,
                                            double period_ns, const std::string& stream) {
  std::vector<stats::GapSample> samples;
  const double tolerance = 0.02 * period_ns;
  for (std::size_t i = 0, j = 1; i < series.order.size() && samples.size() < 4; ++i) {
    const stream::Entry& a = window.entries[series.order[i]];
    j = std::max(j, i + 1);
    while (j < series.order.size() &&
           static_cast<double>(window.entries[series.order[j]].time - a.time) < period_ns - tolerance)
      ++j;
    if (j >= series.order.size()) break;
    const stream::Entry& b = window.entries[series.order[j]];
    if (std::abs(static_cast<double>(b.time - a.time) - period_ns) > tolerance) continue;
    stats::GapSample sample;
    sample.gap = b.time - a.time;
    sample.end = b.time;
    sample.stream = stream;
    sample.before.push_back(stats::evidence_line(window, a));
    sample.after = stats::evidence_line(window, b);
    samples.push_back(std::move(sample));
    i = j - 1;
  }
  return samples;
}

/// Whether any test of the stream found something.
bool has_detections(const StreamDetections& detections) {
  return !detections.modes.empty() || !detections.runs.empty() || detections.renewal || detections.quantisation ||
         !detections.periodicity.empty() || !detections.stalls.empty();
}

/// One point per non-empty bin of the request-support histogram (bin 0 excepted): z = ln of
/// the bin's middle, weighted by the requests with a gap in it, id = the bin.
std::vector<ScanPoint> support_points(const stats::LogHistogram& support) {
  std::vector<ScanPoint> points;
  for (std::size_t i = 1; i < support.size(); ++i) {
    if (support.count(i) == 0) continue;
    const double mid = (static_cast<double>(support.lower(i)) + static_cast<double>(support.upper(i))) / 2;
    points.push_back({std::log(mid), static_cast<double>(support.count(i)), static_cast<std::uint32_t>(i)});
  }
  return points;
}

/// Whether a clock (not a loop) of `findings` has the loop's period, within 2 %.
bool keeps_a_clock(const std::vector<Finding>& findings, const Finding& renewal) {
  bool locked = false;
  for (const Finding& other : findings) {
    locked |= other.periodic && !other.periodic->renewal && std::abs(other.centre_ns / renewal.centre_ns - 1) <= 0.02;
  }
  return locked;
}

/// The findings with p <= alpha, most significant first (ties: the shorter centre first).
std::vector<Finding> significant_ranked(std::vector<Finding> findings, double alpha) {
  const double log10_alpha = std::log10(alpha);
  findings.erase(
      std::remove_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.log10_p > log10_alpha; }),
      findings.end());
  std::sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return a.log10_p != b.log10_p ? a.log10_p < b.log10_p : a.centre_ns < b.centre_ns;
  });
  return findings;
}

}  // namespace

struct Analyzer::Cluster {
  double log_centre = 0;
  double spread = 0;  // weighted mean of the modes' half widths, in ln units
  double weight = 0;
  std::uint64_t streams = 0;
  std::uint64_t members = 0;
  double member_time = 0;
  double span_sum = 0;
  double best_log10_p = 0;
  double pooled_log10_p = 0;
  std::map<std::size_t, std::uint64_t> bins;  // fine LogHistogram bins of member gaps
  std::string top_key;
  std::uint64_t top_members = 0;
  std::uint64_t top_gaps = 0;
  double top_share = -1;
  std::shared_ptr<const Timeline> top_timeline;  // the top request's stretch holding most of its mode
  std::uint64_t last_stream = 0;                 // 1 + the id of the last stream counted in `streams`
};

struct Analyzer::LongTests {
  std::optional<Quantisation> quantisation;
  std::vector<Periodicity> periodicity;
};

/// What prepare() found in a window, for absorb().
struct Analyzer::Prepared final : stream::WindowWork {
  enum class Kind { primary, pacing, derived };
  struct Mode {
    std::vector<std::uint32_t> member_ids;  // indices into series.gaps
    std::vector<DurationNs> members;
    double log10_p = 0;
  };
  Kind kind = Kind::primary;
  stats::GapSeries series;
  std::vector<TriggerAligner::LineMatch> trigger_lines;  // not searched in derived streams
  bool scanned = false;                                  // enough gaps for the stream's own tests
  StreamDetections detections;                           // the long-stream tests apart
  std::vector<RunFinding> runs;                          // a primary stream's, to join the report's
  std::vector<Mode> modes;                               // a primary stream's, to join the clusters
  bool long_stream = false;             // a primary stream's first window, long enough for the long tests
  std::optional<LongTests> long_tests;  // run unless k_long_stream_tests streams had them already
  bool renewal_tested = false;
  std::optional<RenewalHit> renewal;  // a primary stream's loop, to keep
};

Analyzer::Analyzer(AnalyzerOptions options)
    : m_options(std::move(options)), m_triggers(m_options.triggers, [&] {
        TriggerOptions trigger_options = m_options.trigger_options;
        trigger_options.alpha = m_options.alpha;
        return trigger_options;
      }()) {
  m_pool.keep_context_if(m_options.keep_context);
}
Analyzer::~Analyzer() = default;
Analyzer::Analyzer(const Analyzer&) = default;

std::unique_ptr<Analyzer> Analyzer::snapshot() const {
  std::unique_ptr<Analyzer> copy(new Analyzer(*this));
  // finish() merges clusters in place: the copy gets its own.
  for (auto& cluster : copy->m_clusters) {
    if (cluster) cluster = std::make_shared<Cluster>(*cluster);
  }
  return copy;
}

void Analyzer::add(const stream::StreamWindow& window) { absorb(window, *prepare(window)); }

std::size_t Analyzer::long_stream_budget(const stream::StreamWindow& window) {
  // One more test for every k_long_test_bytes of the input read by the window's end, up to
  // k_long_stream_tests: a function of the input alone (so inputs merge alike in any grouping),
  // and a month of small rotated files does not pay sixteen tests per file.
  const std::uint64_t read = window.entries.empty() ? 0 : window.entries.back().location.offset;
  return static_cast<std::size_t>(std::min<std::uint64_t>(k_long_stream_tests, 1 + read / k_long_test_bytes));
}

namespace {

/// Keeps the `keep` items that sort first by `less`, in the order they were in (stable): a cut
/// that gives the same items in any grouping of merges.
template <typename T, typename Less>
void keep_first(std::vector<T>& items, std::size_t keep, Less less) {
  if (items.size() <= keep) return;
  std::stable_sort(items.begin(), items.end(), less);
  items.resize(keep);
}

/// Appends `from` to `into`, keeping the items whose hash is below both thresholds (the lower
/// becomes `threshold`); cut back to the `keep` smallest when twice as many (as the sampling
/// itself does).
template <typename T, typename Hash>
void merge_sample(std::vector<T>& into, std::uint64_t& threshold, std::vector<T>&& from, std::uint64_t from_threshold,
                  std::size_t keep, Hash hash) {
  const std::uint64_t limit = std::min(threshold, from_threshold);
  if (limit < threshold) std::erase_if(into, [&](const T& item) { return hash(item) >= limit; });
  threshold = limit;
  for (T& item : from)
    if (hash(item) < limit) into.push_back(std::move(item));
  if (into.size() >= 2 * keep) {
    std::nth_element(into.begin(), into.begin() + static_cast<std::ptrdiff_t>(keep), into.end(),
                     [&](const T& a, const T& b) { return hash(a) < hash(b); });
    threshold = hash(into[keep]);
    into.resize(keep);
  }
}

}  // namespace

void Analyzer::merge(Analyzer&& other) {
  m_pool.merge(std::move(other.m_pool));
  for (RunFinding& run : other.m_runs) m_runs.push_back(std::move(run));
  if (m_runs.size() > 4 * m_options.max_runs) {
    keep_first(m_runs, m_options.max_runs,
               [](const RunFinding& a, const RunFinding& b) { return a.log10_p < b.log10_p; });
  }
  for (StreamDetections& detections : other.m_streams) keep_stream(std::move(detections));
  seal_clusters();
  other.seal_clusters();
  for (auto& [key, cell] : other.m_cells) m_cells[key].add(std::move(cell));
  m_long_streams_tested += other.m_long_streams_tested;
  merge_sample(m_stalls, m_stall_threshold, std::move(other.m_stalls), other.m_stall_threshold, m_options.stall_sample,
               [](const Stall& stall) { return stall.hash; });
  merge_sample(m_stall_examples, m_example_threshold, std::move(other.m_stall_examples), other.m_example_threshold,
               k_stall_examples, [](const StallExample& example) { return example.hash; });
  merge_sample(m_lattice_sample, m_lattice_threshold, std::move(other.m_lattice_sample), other.m_lattice_threshold,
               m_options.quantisation_gaps, [](const auto& item) { return item.first; });
  m_triggers.merge(std::move(other.m_triggers));
  m_timelines.merge(other.m_timelines);
  m_wait_points.merge(std::move(other.m_wait_points));
  m_wall_clock.merge(std::move(other.m_wall_clock));
  for (ArrivalSummary& arrival : other.m_arrivals) m_arrivals.push_back(std::move(arrival));
  for (RenewalHit& hit : other.m_renewals) {
    if (m_renewals.size() >= k_max_renewals) break;
    m_renewals.push_back(std::move(hit));
  }
  m_renewal_tested += other.m_renewal_tested;
  m_first_time = std::min(m_first_time, other.m_first_time);
  m_last_time = std::max(m_last_time, other.m_last_time);
  m_summary.windows += other.m_summary.windows;
  m_summary.keyed_windows += other.m_summary.keyed_windows;
  m_summary.windows_scanned += other.m_summary.windows_scanned;
  m_summary.derived_windows += other.m_summary.derived_windows;
  m_summary.derived_windows_scanned += other.m_summary.derived_windows_scanned;
  m_summary.pacing_windows += other.m_summary.pacing_windows;
  m_summary.pacing_gaps += other.m_summary.pacing_gaps;
}

Analyzer::Ceilings Analyzer::ceilings() const {
  return {m_pool.ceilings(), m_stall_threshold, m_example_threshold, m_lattice_threshold};
}

void Analyzer::set_ceilings(const Ceilings& ceilings) {
  // A sample cut at a threshold holds at least its size of hashes below it: no hash at or above
  // can be among the smallest of the merge.
  if (!ceilings.examples.empty()) m_pool.set_ceilings(ceilings.examples);
  m_stall_threshold = std::min(m_stall_threshold, ceilings.stalls);
  m_example_threshold = std::min(m_example_threshold, ceilings.stall_examples);
  m_lattice_threshold = std::min(m_lattice_threshold, ceilings.lattice);
}

void Analyzer::seal_clusters() {
  for (const auto& pointer : m_clusters) {
    if (!pointer) continue;
    const Cluster& cluster = *pointer;
    Cell cell;
    const auto weight = static_cast<std::uint64_t>(std::llround(cluster.weight));
    cell.centre_sum = std::llround(cluster.log_centre * Cell::k_unit) * static_cast<std::int64_t>(weight);
    cell.spread_sum = std::llround(cluster.spread * Cell::k_unit) * static_cast<std::int64_t>(weight);
    cell.weight = weight;
    cell.streams = cluster.streams;
    cell.members = cluster.members;
    cell.member_time = static_cast<std::uint64_t>(std::llround(cluster.member_time));
    cell.span_sum = static_cast<std::uint64_t>(std::llround(cluster.span_sum));
    cell.best_log10_p = cluster.best_log10_p;
    cell.bins = cluster.bins;
    cell.top_key = cluster.top_key;
    cell.top_members = cluster.top_members;
    cell.top_gaps = cluster.top_gaps;
    cell.top_share = cluster.top_share;
    cell.top_timeline = cluster.top_timeline;
    const auto key = static_cast<std::int64_t>(std::floor(cluster.log_centre / k_cluster_radius));
    m_cells[key].add(std::move(cell));
  }
  m_clusters.clear();
}

std::unique_ptr<stream::WindowWork> Analyzer::prepare(const stream::StreamWindow& window) const {
  auto work = std::make_unique<Prepared>();
  work->series = stats::build_gap_series(window);
  if (window.key.empty() && completion_stream(window)) {
    // An input read as one stream whose lines each report a finished request or operation
    // (access-log lines, lines that log their own duration): its gaps are the pacing between
    // requests, not waits inside one. Analysed beside the requests, as an input's derived
    // stream is, and never a suspect; the durations the lines log are analysed as such.
    work->kind = Prepared::Kind::pacing;
  } else if (!window.key.empty() && window.key.front() == k_derived_key) {
    work->kind = Prepared::Kind::derived;
  }
  if (work->kind != Prepared::Kind::derived) work->trigger_lines = m_triggers.find_lines(window);
  work->scanned = work->series.gaps.size() >= static_cast<std::size_t>(m_options.min_members);
  if (work->scanned) scan_stream(window, *work);
  return work;
}

void Analyzer::absorb(const stream::StreamWindow& window, stream::WindowWork& base) {
  auto& work = static_cast<Prepared&>(base);
  const stats::GapSeries& series = work.series;
  switch (work.kind) {
    case Prepared::Kind::pacing:
      ++m_summary.pacing_windows;
      m_summary.pacing_gaps += series.gaps.size();
      m_triggers.add(window, series, work.trigger_lines);
      m_wall_clock.add(window, series, true);
      if (work.scanned) absorb_scan(window, work);
      return;
    case Prepared::Kind::derived:
      ++m_summary.derived_windows;
      if (work.scanned) {
        ++m_summary.derived_windows_scanned;
        absorb_scan(window, work);
      }
      return;
    case Prepared::Kind::primary:
      break;
  }
  m_pool.add(window, series);
  m_triggers.add(window, series, work.trigger_lines);
  m_wait_points.add(window, series);
  m_wall_clock.add(window, series, false);
  if (!series.order.empty()) {
    m_first_time = std::min(m_first_time, window.entries[series.order.front()].time);
    m_last_time = std::max(m_last_time, window.entries[series.order.back()].time);
  }
  ++m_summary.windows;
  if (!window.key.empty()) ++m_summary.keyed_windows;
  sample_lattice_gaps(window, series);
  sample_stall_ends(window, series);
  m_timelines.add(window, series);
  if (!work.scanned) return;
  ++m_summary.windows_scanned;
  absorb_scan(window, work);
}

void Analyzer::absorb_scan(const stream::StreamWindow& window, Prepared& work) {
  for (RunFinding& run : work.runs) m_runs.push_back(std::move(run));
  if (m_runs.size() > 4 * m_options.max_runs) {
    std::sort(m_runs.begin(), m_runs.end(),
              [](const RunFinding& a, const RunFinding& b) { return a.log10_p < b.log10_p; });
    m_runs.resize(m_options.max_runs);
  }
  for (Prepared::Mode& mode : work.modes)
    add_mode(window, work.series, mode.member_ids, std::move(mode.members), mode.log10_p);
  StreamDetections& detections = work.detections;
  // Long streams: their own lattice and the clocks their stall ends keep (the pooled tests
  // cover all streams together; these say which stream it is). At most k_long_stream_tests
  // streams, on their first window, and not the derived streams. prepare() ran the tests
  // unless as many had been counted here by then: the count only grows, so they ran if needed.
  std::atomic_ref<std::size_t> long_streams(m_long_streams_tested);
  if (work.long_stream && long_streams.load(std::memory_order_relaxed) < long_stream_budget(window) &&
      work.long_tests) {
    long_streams.fetch_add(1, std::memory_order_relaxed);
    detections.quantisation = std::move(work.long_tests->quantisation);
    if (detections.quantisation)
      detections.best_log10_p = std::min(detections.best_log10_p, detections.quantisation->log10_p);
    detections.periodicity = std::move(work.long_tests->periodicity);
    for (const Periodicity& p : detections.periodicity)
      detections.best_log10_p = std::min(detections.best_log10_p, p.log10_p);
  }
  if (work.renewal_tested) ++m_renewal_tested;
  if (work.renewal && m_renewals.size() < k_max_renewals) m_renewals.push_back(std::move(*work.renewal));
  if (has_detections(detections)) keep_stream(std::move(detections));
}

void Analyzer::sample_lattice_gaps(const stream::StreamWindow& window, const stats::GapSeries& series) {
  // A sample of raw gaps for the lattice test: the gaps whose line hashes are smallest (the
  // same sample for any order of windows). Candidates under a falling threshold are kept and
  // cut back to the sample size when they are twice as many: O(1) per gap.
  for (const stats::Gap& gap : series.gaps) {
    if (gap.raw < k_lattice_min_gap) continue;
    const std::uint64_t hash = stats::location_hash(window.entries[series.order[gap.after]].location);
    if (hash >= m_lattice_threshold) continue;
    m_lattice_sample.emplace_back(hash, static_cast<double>(gap.raw));
    if (m_lattice_sample.size() >= 2 * m_options.quantisation_gaps) {
      const auto keep = static_cast<std::ptrdiff_t>(m_options.quantisation_gaps);
      std::nth_element(m_lattice_sample.begin(), m_lattice_sample.begin() + keep, m_lattice_sample.end());
      m_lattice_threshold = m_lattice_sample[static_cast<std::size_t>(keep)].first;
      m_lattice_sample.resize(static_cast<std::size_t>(keep));
    }
  }
}

void Analyzer::sample_stall_ends(const stream::StreamWindow& window, const stats::GapSeries& series) {
  // Stall ends, for the clock-locked periodicity test: the line after each gap of at least
  // stall_min_ns, sampled by line hash; a few of them with their lines, as examples.
  for (const stats::Gap& gap : series.gaps) {
    if (static_cast<double>(gap.raw) < m_options.stall_min_ns) continue;
    const stream::Entry& after = window.entries[series.order[gap.after]];
    const std::uint64_t hash = stats::location_hash(after.location);
    if (hash < m_stall_threshold) {
      // Dithered by the timestamps' resolution (as the gaps are): stamps cut to the second would
      // otherwise all keep a 1 s clock.
      m_stalls.push_back({hash, stats::dithered_time(after, series.resolution), gap.raw, window.stream_id,
                          after.time - window.entries[series.order.front()].time});
      if (m_stalls.size() >= 2 * m_options.stall_sample) {
        const auto keep = static_cast<std::ptrdiff_t>(m_options.stall_sample);
        std::nth_element(m_stalls.begin(), m_stalls.begin() + keep, m_stalls.end(),
                         [](const Stall& a, const Stall& b) { return a.hash < b.hash; });
        m_stall_threshold = m_stalls[static_cast<std::size_t>(keep)].hash;
        m_stalls.resize(static_cast<std::size_t>(keep));
      }
    }
    if (hash < m_example_threshold) keep_stall_example(window, series, gap, hash);
  }
}

void Analyzer::keep_stall_example(const stream::StreamWindow& window, const stats::GapSeries& series,
                                  const stats::Gap& gap, std::uint64_t hash) {
  const stream::Entry& after = window.entries[series.order[gap.after]];
  StallExample example;
  example.hash = hash;
  example.time = after.time;
  example.sample.hash = hash;
  example.sample.gap = gap.raw;
  example.sample.end = after.time;
  example.sample.stream = window.key.empty() ? std::string() : std::string(window.key.substr(0, 64));
  for (std::uint32_t back = 2; back >= 1; --back) {
    if (gap.after >= back) {
      const stream::Entry& before = window.entries[series.order[gap.after - back]];
      example.sample.before.push_back(stats::evidence_line(window, before));
    }
  }
  example.sample.after = stats::evidence_line(window, after);
  m_stall_examples.push_back(std::move(example));
  if (m_stall_examples.size() >= 2 * k_stall_examples) {
    std::nth_element(m_stall_examples.begin(), m_stall_examples.begin() + k_stall_examples, m_stall_examples.end(),
                     [](const StallExample& a, const StallExample& b) { return a.hash < b.hash; });
    m_example_threshold = m_stall_examples[k_stall_examples].hash;
    m_stall_examples.resize(k_stall_examples);
  }
}

void Analyzer::scan_stream(const stream::StreamWindow& window, Prepared& work) const {
  const bool primary = work.kind == Prepared::Kind::primary;
  const stats::GapSeries& series = work.series;
  StreamDetections& detections = work.detections;
  detections = stream_facts(window, series, primary);
  scan_runs(window, work);
  scan_gap_modes(work);
  if (std::optional<StreamStall> stall = lone_long_gap(window, series, m_options.alpha)) {
    detections.stalls.push_back(std::move(*stall));
    detections.best_log10_p = std::min(detections.best_log10_p, detections.stalls.back().log10_p);
  }
  if (primary && window.window_index == 0 && window.entries.size() >= m_options.long_stream_lines) {
    work.long_stream = true;
    // The count read here is at most the one absorb() will see (see absorb_scan).
    const std::size_t tested = std::atomic_ref<std::size_t>(m_long_streams_tested).load(std::memory_order_relaxed);
    if (tested < long_stream_budget(window)) work.long_tests = test_long_stream(window, series);
  }
  if (window.entries.size() >= m_options.long_stream_lines) scan_renewal(window, work);
}

void Analyzer::scan_runs(const stream::StreamWindow& window, Prepared& work) const {
  // Runs of near-equal consecutive gaps.
  const stats::GapSeries& series = work.series;
  StreamDetections& detections = work.detections;
  RunOptions run_options;
  run_options.alpha = m_options.alpha;
  run_options.resolution_ns = static_cast<double>(series.resolution);
  for (const GapRun& run : find_runs(raw_gaps(series), run_options)) {
    RunFinding found;
    found.stream = detections.stream;
    found.first_line = evidence_line(window, series, series.gaps[run.first].after - 1);
    found.last_line = evidence_line(window, series, series.gaps[run.first + run.length - 1].after);
    found.length = run.length;
    found.centre_ns = run.centre_ns;
    found.spread = run.spread;
    found.sum_ns = run.sum_ns;
    found.time_share = series.span > 0 ? run.sum_ns / static_cast<double>(series.span) : 0;
    found.log10_p = run.log10_p;
    detections.best_log10_p = std::min(detections.best_log10_p, run.log10_p);
    detections.runs.push_back(found);
    if (work.kind == Prepared::Kind::primary) work.runs.push_back(std::move(found));
  }
}

void Analyzer::scan_gap_modes(Prepared& work) const {
  const stats::GapSeries& series = work.series;
  StreamDetections& detections = work.detections;
  std::vector<ScanPoint> points;
  points.reserve(series.gaps.size());
  for (std::size_t i = 0; i < series.gaps.size(); ++i) {
    points.push_back({std::log(series.gaps[i].value), 1.0, static_cast<std::uint32_t>(i)});
  }
  ScanOptions options;
  options.alpha = m_options.alpha;
  options.min_count = m_options.min_members;
  options.resolution_ns = static_cast<double>(series.resolution);
  for (ScanMode& mode : scan_modes(std::move(points), options)) {
    std::vector<DurationNs> members;
    members.reserve(mode.members.size());
    for (std::uint32_t id : mode.members) members.push_back(series.gaps[id].raw);
    StreamMode found;
    found.count = members.size();
    found.expected = mode.expected;
    found.log10_p = mode.log10_p;
    std::sort(members.begin(), members.end());
    std::vector<double> values(members.begin(), members.end());
    describe(values, found.centre_ns, found.lo_ns, found.hi_ns);
    if (found.centre_ns < stats::k_min_resolution_ticks * static_cast<double>(series.resolution)) continue;
    detections.best_log10_p = std::min(detections.best_log10_p, mode.log10_p);
    detections.modes.push_back(found);
    if (work.kind == Prepared::Kind::primary)
      work.modes.push_back({std::move(mode.members), std::move(members), mode.log10_p});
  }
}

Analyzer::LongTests Analyzer::test_long_stream(const stream::StreamWindow& window,
                                               const stats::GapSeries& series) const {
  // The lattice scan costs O(frequencies × 512), so the longest gap it uses is capped at 50
  // median gaps.
  LongTests tests;
  const std::vector<double> lattice_gaps = lattice_sample_of(series, k_lattice_min_gap, m_options.quantisation_gaps);
  QuantisationOptions lattice_options;
  lattice_options.alpha = m_options.alpha;
  lattice_options.resolution_ns = static_cast<double>(series.resolution);
  if (!lattice_gaps.empty()) {
    std::vector<double> sorted = lattice_gaps;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
    lattice_options.max_gap_ns = std::min(lattice_options.max_gap_ns, 50 * sorted[sorted.size() / 2]);
  }
  tests.quantisation = find_quantisation(lattice_gaps, lattice_options);
  PeriodicityOptions clock_options;
  clock_options.alpha = m_options.alpha;
  tests.periodicity = find_periodicity(stall_ends_of(window, series, m_options.stall_min_ns), clock_options);
  return tests;
}

void Analyzer::scan_renewal(const stream::StreamWindow& window, Prepared& work) const {
  // A loop among the stream's lines (renewal), unless a gap mode already shows its period.
  const stats::GapSeries& series = work.series;
  StreamDetections& detections = work.detections;
  RenewalOptions renewal_options;
  renewal_options.alpha = m_options.alpha;
  work.renewal_tested = true;
  const std::optional<Renewal> renewal = find_renewal(line_times(window, series), renewal_options);
  if (!renewal || explained_by_modes(detections.modes, renewal->period_ns, m_options.max_rel_width)) return;
  detections.best_log10_p = std::min(detections.best_log10_p, renewal->log10_p);
  detections.renewal = *renewal;
  if (work.kind == Prepared::Kind::primary) {
    RenewalHit hit;
    hit.renewal = *renewal;
    hit.stream = detections.stream;
    hit.samples = loop_examples(window, series, renewal->period_ns, detections.stream);
    work.renewal = std::move(hit);
  }
}

void Analyzer::keep_stream(StreamDetections detections) {
  m_streams.push_back(std::move(detections));
  if (m_streams.size() > 4 * m_options.max_streams) {
    std::stable_sort(m_streams.begin(), m_streams.end(), [](const StreamDetections& a, const StreamDetections& b) {
      return a.best_log10_p < b.best_log10_p;
    });
    m_streams.resize(m_options.max_streams);
  }
}

void Analyzer::add_mode(const stream::StreamWindow& window, const stats::GapSeries& series,
                        const std::vector<std::uint32_t>& member_ids, std::vector<DurationNs> members, double log10_p) {
  const std::size_t window_gaps = series.gaps.size();
  const DurationNs span = series.span;
  std::sort(members.begin(), members.end());
  std::vector<double> values(members.begin(), members.end());
  double centre = 0, lo = 0, hi = 0;
  describe(values, centre, lo, hi);
  if (centre <= 0 || (hi - lo) / centre > m_options.max_rel_width) return;
  const double log_centre = std::log(centre);
  const double spread = std::log(hi / lo) / 2;

  Cluster* cluster = nullptr;
  double nearest = 0;
  for (auto& candidate : m_clusters) {
    const double distance = std::abs(candidate->log_centre - log_centre);
    if (distance > std::max(k_cluster_radius, candidate->spread + spread)) continue;
    if (cluster == nullptr || distance < nearest) {
      nearest = distance;
      cluster = candidate.get();
    }
  }
  if (cluster == nullptr) {
    if (m_clusters.size() >= k_max_clusters) return;  // pathological input; the pooled test still runs
    m_clusters.push_back(std::make_shared<Cluster>());
    cluster = m_clusters.back().get();
    cluster->log_centre = log_centre;
  }
  const auto count = static_cast<double>(members.size());
  cluster->log_centre = (cluster->log_centre * cluster->weight + log_centre * count) / (cluster->weight + count);
  cluster->spread = (cluster->spread * cluster->weight + spread * count) / (cluster->weight + count);
  cluster->weight += count;
  // A request may hold two modes of one cluster, or be analysed in several windows.
  const bool new_stream = cluster->last_stream != window.stream_id + 1;
  cluster->last_stream = window.stream_id + 1;
  if (new_stream) cluster->streams += 1;
  cluster->members += members.size();
  double member_time = 0;
  for (DurationNs gap : members) {
    member_time += static_cast<double>(gap);
    ++cluster->bins[stats::LogHistogram::index_of(static_cast<std::uint64_t>(gap), stats::GapPool::k_fine_bits)];
  }
  cluster->member_time += member_time;
  if (new_stream) cluster->span_sum += static_cast<double>(span);
  cluster->best_log10_p = std::min(cluster->best_log10_p, log10_p);
  const double share = span > 0 ? member_time / static_cast<double>(span) : 0;
  if (members.size() > cluster->top_members || (members.size() == cluster->top_members && share > cluster->top_share)) {
    cluster->top_key = window.key.empty() ? std::string() : std::string(window.key);
    cluster->top_members = members.size();
    cluster->top_gaps = window_gaps;
    cluster->top_share = share;
    cluster->top_timeline = std::make_shared<const Timeline>(TimelineKeeper::capture_most(window, series, member_ids));
  }
}

void Analyzer::absorb(Cluster& into, const Cluster& from) const {
  const double weight = into.weight + from.weight;
  into.log_centre = (into.log_centre * into.weight + from.log_centre * from.weight) / weight;
  into.spread = (into.spread * into.weight + from.spread * from.weight) / weight;
  into.weight = weight;
  // A request with modes in both clusters is counted twice; bounded by the requests tested.
  into.streams = std::min(into.streams + from.streams, m_summary.windows_scanned);
  into.members += from.members;
  into.member_time += from.member_time;
  into.span_sum += from.span_sum;
  into.best_log10_p = std::min(into.best_log10_p, from.best_log10_p);
  into.pooled_log10_p = std::min(into.pooled_log10_p, from.pooled_log10_p);
  for (const auto& [index, count] : from.bins) into.bins[index] += count;
  if (from.top_members > into.top_members ||
      (from.top_members == into.top_members && from.top_share > into.top_share)) {
    into.top_key = from.top_key;
    into.top_members = from.top_members;
    into.top_gaps = from.top_gaps;
    into.top_share = from.top_share;
    into.top_timeline = from.top_timeline;
  }
}

void Analyzer::merge_clusters() {
  seal_clusters();
  for (const auto& [key, cell] : m_cells) {
    auto cluster = std::make_shared<Cluster>();
    const auto weight = static_cast<double>(cell.weight);
    cluster->log_centre = static_cast<double>(cell.centre_sum) / Cell::k_unit / weight;
    cluster->spread = static_cast<double>(cell.spread_sum) / Cell::k_unit / weight;
    cluster->weight = weight;
    cluster->streams = cell.streams;
    cluster->members = cell.members;
    cluster->member_time = static_cast<double>(cell.member_time);
    cluster->span_sum = static_cast<double>(cell.span_sum);
    cluster->best_log10_p = cell.best_log10_p;
    cluster->bins = cell.bins;
    cluster->top_key = cell.top_key;
    cluster->top_members = cell.top_members;
    cluster->top_gaps = cell.top_gaps;
    cluster->top_share = cell.top_share;
    cluster->top_timeline = cell.top_timeline;
    m_clusters.push_back(std::move(cluster));
  }
  m_cells.clear();
  std::stable_sort(m_clusters.begin(), m_clusters.end(),
                   [](const auto& a, const auto& b) { return a->log_centre < b->log_centre; });
  std::vector<std::shared_ptr<Cluster>> merged;
  for (auto& cluster : m_clusters) {
    if (!merged.empty()) {
      Cluster& last = *merged.back();
      if (cluster->log_centre - last.log_centre <= std::max(k_cluster_radius, last.spread + cluster->spread)) {
        absorb(last, *cluster);
        continue;
      }
    }
    merged.push_back(std::move(cluster));
  }
  m_clusters = std::move(merged);
}

Finding Analyzer::finding_from_cluster(const Cluster& cluster) const {
  Finding finding;
  const stats::LogHistogram layout(stats::GapPool::k_fine_bits);
  describe_bins(layout, cluster.bins, finding.centre_ns, finding.lo_ns, finding.hi_ns);
  finding.rel_width = finding.centre_ns > 0 ? (finding.hi_ns - finding.lo_ns) / finding.centre_ns : 0;
  finding.gaps = cluster.members;
  finding.requests = cluster.streams;
  finding.requests_detected = cluster.streams;
  finding.member_time_ns = cluster.member_time;
  finding.requests_span_ns = cluster.span_sum;
  finding.wall_share = cluster.span_sum > 0 ? std::min(1.0, cluster.member_time / cluster.span_sum) : 0;
  const double tested = static_cast<double>(std::max<std::uint64_t>(1, m_summary.windows_scanned));
  finding.log10_p_per_request = std::min(0.0, cluster.best_log10_p + std::log10(tested));
  finding.log10_p_pooled = cluster.pooled_log10_p;
  finding.top_request = cluster.top_key;
  finding.top_request_members = cluster.top_members;
  finding.top_request_gaps = cluster.top_gaps;
  finding.top_request_share = std::max(0.0, cluster.top_share);
  if (cluster.top_timeline) finding.timeline = *cluster.top_timeline;
  return finding;
}

DetectionResult Analyzer::finish() {
  DetectionResult result;
  summarise_pool();
  // The pooled lattice test needs only its sampled gaps: with several threads it runs beside
  // the rest of the end.
  const std::vector<double> lattice = lattice_gaps();
  std::future<std::optional<Quantisation>> quantisation;
  if (m_options.threads > 1)
    quantisation = std::async(std::launch::async, [&] { return test_pooled_lattice(lattice); });
  merge_clusters();
  std::vector<Finding> findings = pooled_findings();
  for (const auto& cluster : m_clusters) {
    if (cluster) findings.push_back(finding_from_cluster(*cluster));
  }
  for (Finding& periodic : periodic_findings()) findings.push_back(std::move(periodic));
  for (Finding& triggered : trigger_findings()) findings.push_back(std::move(triggered));
  result.markers = m_triggers.markers();
  for (Finding& renewal : renewal_findings()) {
    // A loop that also keeps a clock is reported once, as the clock.
    if (!keeps_a_clock(findings, renewal)) findings.push_back(std::move(renewal));
  }
  complete_findings(findings);
  add_wait_points(findings);
  add_during(findings);
  mark_own_timers(findings);
  add_arrival_findings(findings);
  add_wall_clock_findings(findings);
  result.findings = significant_ranked(std::move(findings), m_options.alpha);
  result.runs = ranked_runs();
  result.streams = ranked_streams();
  result.quantisation = quantisation.valid() ? quantisation.get() : test_pooled_lattice(lattice);
  tag_lattice_modes(result, lattice);
  attach_timelines(result.findings);
  result.summary = m_summary;
  return result;
}

void Analyzer::add_wall_clock_findings(std::vector<Finding>& findings) const {
  // A slowdown at one place of every minute or hour: the period is the cycle (what the
  // catalog's scheduled jobs are matched by), the values the extra time the slow window costs.
  for (WallClockSlowdown& slowdown : m_wall_clock.finish(m_options.alpha)) {
    Finding f;
    f.centre_ns = f.lo_ns = f.hi_ns = slowdown.cycle_ns();
    f.shape = Shape::periodic;
    f.values = slowdown.series == WallClockSlowdown::Series::gaps ? ValueKind::gap : ValueKind::duration;
    f.gaps = slowdown.values_in;
    f.requests = slowdown.cycles;
    const auto in = static_cast<double>(slowdown.values_in), out = static_cast<double>(slowdown.values_out);
    f.member_time_ns = in * std::max(0.0, slowdown.inside_ns - slowdown.outside_ns);
    f.requests_span_ns = in * slowdown.inside_ns + out * slowdown.outside_ns;
    f.wall_share = f.requests_span_ns > 0 ? std::min(1.0, f.member_time_ns / f.requests_span_ns) : 0;
    f.log10_p = f.log10_p_pooled = slowdown.log10_p;
    f.samples = std::move(slowdown.examples);
    slowdown.examples.clear();
    f.wall_clock = std::move(slowdown);
    findings.push_back(std::move(f));
  }
}

void Analyzer::add_arrival_findings(std::vector<Finding>& findings) const {
  // An input whose stamps are arrival times: its lines came in bursts (ArrivalSummary::holds),
  // or 60 % or more of its request lines that log a duration of 5 ms or more (20 at least) were
  // stamped sooner after the request's first line than half that duration: the stamps are not
  // when the lines were written. Its gaps are the carrier's (a buffer filling, a shipper's
  // flush), so its other gap findings are set aside; the durations its lines log are the
  // program's own and stay.
  std::vector<Finding> found;
  for (const ArrivalSummary& a : m_arrivals) {
    const WaitPoints::Timing timing = m_wait_points.timing(a.input);
    const bool bursts = a.holds();
    const bool contradicted = timing.timed >= 20 && timing.early * 10 >= timing.timed * 6;
    if (!bursts && !contradicted) continue;
    Finding f;
    f.values = ValueKind::gap;
    f.shape = Shape::one_off;
    ArrivalDetail detail;
    detail.input = a.input;
    detail.lines = a.lines;
    detail.bursts = bursts;
    detail.timed = timing.timed;
    detail.early = timing.early;
    const double span = static_cast<double>(std::max<TimeNs>(a.last - a.first, 1));
    if (bursts) {
      const auto level = static_cast<std::size_t>(a.level());
      const ArrivalSummary::Level& at = a.levels[level];
      detail.burst_count = at.bursts;
      detail.burst_lines = at.burst_lines;
      detail.tightness_ns = static_cast<double>(ArrivalSummary::k_tightness[level]);
      detail.median_size = a.median_size();
      detail.median_length_ns = a.median_length_ns();
      f.centre_ns = a.median_silence_ns();
      std::tie(f.lo_ns, f.hi_ns) = a.silence_range_ns();
      f.gaps = a.silence_count();
      f.member_time_ns = f.centre_ns * static_cast<double>(f.gaps);
      f.samples = at.examples;
      // Under lines arriving at random at the input's mean rate, a line within the tightness of
      // the one before has probability 1 - exp(-rate × tightness); the bursts hold
      // burst_lines - bursts such lines in a row.
      const double rate = static_cast<double>(a.lines) / span;
      const double chance = -std::expm1(-rate * detail.tightness_ns);
      f.log10_p =
          std::max(-300.0, static_cast<double>(at.burst_lines - at.bursts) * std::log10(std::max(chance, 1e-300)));
    } else {
      f.centre_ns = f.lo_ns = f.hi_ns = timing.early_mean_ns;
      f.gaps = timing.early;
      f.member_time_ns = timing.early_mean_ns * static_cast<double>(timing.early);
      // A request's line is rarely stamped before half of what it says it waited: say 1 in 20.
      f.log10_p = std::max(-300.0, to_log10(log_binomial_tail(timing.timed, timing.early, 0.05)));
    }
    f.rel_width = f.centre_ns > 0 ? (f.hi_ns - f.lo_ns) / f.centre_ns : 0;
    f.requests = 1;
    f.requests_span_ns = span;
    f.wall_share = std::min(1.0, f.member_time_ns / span);
    f.log10_p_pooled = f.log10_p;
    f.arrival = detail;
    found.push_back(std::move(f));
  }
  if (found.empty()) return;
  std::erase_if(findings, [&](const Finding& g) {
    if (g.values != ValueKind::gap || g.samples.empty()) return false;
    for (Finding& a : found) {
      std::size_t in = 0;
      for (const stats::GapSample& s : g.samples) in += s.after.location.source == a.arrival->input ? 1 : 0;
      if (in * 10 < g.samples.size() * 8) continue;
      ++a.arrival->set_aside;
      return true;
    }
    return false;
  });
  for (Finding& a : found) findings.push_back(std::move(a));
}

void Analyzer::mark_own_timers(std::vector<Finding>& findings) const {
  // A program's own timer (a heartbeat, a status or metrics line every 5 s) writes the same line
  // again one period later, every period: the gaps are its period. A finding is one when 80 % or
  // more of its examples lie outside any request between two lines of one template, and 80 % or
  // more of the gaps after that template (in its input) lie in the finding's interval (a clock's:
  // its period ± 10 %); or, a program that writes all its lines on a clock (a sample generator,
  // a status dumper), when 80 % or more of its examples lie outside any request and 80 % or more
  // of all the gaps of their input lie in that interval. A loop whose line is written only when it finds work (gaps of
  // one, two, three periods) or a line sometimes followed by a stall fails the second test. Whether such a finding is a
  // suspect at all is the catalog's to say (a poller that logs `nothing to do` each pass is a sleep loop; a heartbeat
  // is not): see scan.cpp.
  for (Finding& f : findings) {
    if (f.values != ValueKind::gap || f.trigger || f.samples.size() < 3) continue;
    std::map<std::pair<SourceId, std::uint32_t>, std::size_t> same;
    std::map<SourceId, std::size_t> keyless;
    for (const stats::GapSample& s : f.samples) {
      if (!s.stream.empty() || s.before.empty()) continue;
      ++keyless[s.after.location.source];
      const std::uint32_t id = s.after.template_id;
      if (id != 0 && s.before.back().template_id == id) ++same[{s.after.location.source, id}];
    }
    const auto most = [](const auto& counts) {
      return std::max_element(counts.begin(), counts.end(),
                              [](const auto& a, const auto& b) { return a.second < b.second; });
    };
    const auto enough = [&](std::size_t count) { return count * 10 >= f.samples.size() * 8; };
    const double lo = f.periodic ? 0.9 * f.centre_ns : 0.95 * f.lo_ns;
    const double hi = f.periodic ? 1.1 * f.centre_ns : 1.05 * f.hi_ns;
    const auto clock = [](std::pair<double, std::uint64_t> share) { return share.second >= 8 && share.first >= 0.8; };
    const auto line = most(same);
    const auto input = most(keyless);
    f.own_timer =
        (line != same.end() && enough(line->second) &&
         clock(m_wait_points.share_in(line->first.first, line->first.second, lo, hi))) ||
        (input != keyless.end() && enough(input->second) && clock(m_wait_points.input_share_in(input->first, lo, hi)));
  }
}

void Analyzer::add_wait_points(std::vector<Finding>& findings) const {
  const std::size_t detected = findings.size();
  for (Finding& wait : m_wait_points.finish()) {
    Finding* same = nullptr;
    for (std::size_t i = 0; i < detected && same == nullptr; ++i) {
      Finding& f = findings[i];
      if (f.values != ValueKind::gap || f.periodic || f.trigger || f.wait_point) continue;
      if ((f.centre_ns >= wait.lo_ns && f.centre_ns <= wait.hi_ns) ||
          (wait.centre_ns >= f.lo_ns && wait.centre_ns <= f.hi_ns))
        same = &f;
    }
    if (same == nullptr) {
      findings.push_back(std::move(wait));
      continue;
    }
    // The mode was found from the gaps alone: the wait point says after which line it sits, and
    // its stalls (the lines that follow that line) come first among the examples.
    same->wait_point = wait.wait_point;
    if (!same->timing) same->timing = wait.timing;  // when the stalls after that line happened
    std::vector<stats::GapSample> samples = std::move(wait.samples);
    for (stats::GapSample& sample : same->samples) {
      if (samples.size() >= m_options.max_samples) break;
      const bool dup = std::any_of(samples.begin(), samples.end(), [&](const stats::GapSample& s) {
        return s.hash == sample.hash && s.gap == sample.gap;
      });
      if (!dup) samples.push_back(std::move(sample));
    }
    same->samples = std::move(samples);
  }
}

void Analyzer::add_during(std::vector<Finding>& findings) const {
  const std::vector<TriggerAligner::Moment> moments = m_triggers.moments();
  if (moments.empty()) return;
  const std::vector<TriggerSpec>& specs = m_triggers.specs();
  // The time the lines could have fallen in: all that was read of requests and trigger lines.
  const TimeNs first = std::min(m_first_time, moments.front().time);
  const TimeNs last = std::max(m_last_time, moments.back().time);
  const double span = static_cast<double>(std::max<TimeNs>(1, last - first));
  std::vector<std::size_t> per_spec(specs.size(), 0);
  for (const TriggerAligner::Moment& m : moments) ++per_spec[m.spec];
  const double tolerance = m_options.trigger_options.tolerance_ns;
  for (Finding& f : findings) {
    if (f.values != ValueKind::gap || f.periodic || f.trigger || f.samples.empty()) continue;
    for (std::size_t s = 0; s < specs.size(); ++s) {
      if (per_spec[s] == 0 || specs[s].cause.empty()) continue;
      const double after = specs[s].after_ns > 0 ? specs[s].after_ns : m_options.trigger_options.after_ns;
      // The line falls in the stall, or at most `lead` before it began; leads from the tolerance
      // up to the cause's `after`, by half decades, the best kept and counted as tried.
      std::vector<double> leads{tolerance};
      for (double lead = 31.6e6; lead < after; lead *= std::sqrt(10.0)) leads.push_back(lead);
      if (after > tolerance) leads.push_back(after);
      std::optional<DuringHit> best;
      for (const double lead : leads) {
        DuringHit hit;
        hit.cause = specs[s].cause;
        hit.pattern = specs[s].pattern;
        hit.meaning = specs[s].meaning;
        double covered = 0;
        for (const stats::GapSample& sample : f.samples) {
          ++hit.samples;
          const double begin = static_cast<double>(sample.end - sample.gap) - lead;
          const double end = static_cast<double>(sample.end) + tolerance;
          covered += end - begin;
          const auto from = std::lower_bound(moments.begin(), moments.end(), static_cast<TimeNs>(begin),
                                             [](const TriggerAligner::Moment& m, TimeNs t) { return m.time < t; });
          for (auto it = from; it != moments.end() && static_cast<double>(it->time) <= end; ++it) {
            if (it->spec == s && it->stream != std::string_view(sample.stream)) {
              ++hit.hits;
              break;
            }
          }
        }
        // Lines at moments unrelated to the stalls: Poisson over the span, at the rate they were seen.
        const double lambda = static_cast<double>(per_spec[s]) * covered / static_cast<double>(hit.samples) / span;
        hit.chance = 1 - std::exp(-lambda);
        hit.log10_p = to_log10(log_binomial_tail(hit.samples, hit.hits, hit.chance)) +
                      std::log10(static_cast<double>(leads.size()));
        if (!best || hit.log10_p < best->log10_p) best = std::move(hit);
      }
      if (best && best->hits > 0) f.during.push_back(std::move(*best));
    }
  }
}

void Analyzer::attach_timelines(std::vector<Finding>& findings) const {
  for (Finding& finding : findings) {
    if (finding.values != ValueKind::gap || finding.shape == Shape::periodic || finding.arrival) continue;
    const double margin = std::max(finding.centre_ns * 0.005, static_cast<double>(m_summary.typical_resolution));
    const double lo = finding.lo_ns - margin, hi = finding.hi_ns + margin;
    if (finding.timeline) {
      // The top request's own stretch (a request's mode): its stalls counted in this interval.
      finding.timeline->lo_ns = lo;
      finding.timeline->hi_ns = hi;
    } else {
      finding.timeline = m_timelines.worst(lo, hi, finding.top_request);
    }
  }
}

void Analyzer::summarise_pool() {
  m_summary.gaps = m_pool.gap_count();
  m_summary.zero_gaps = m_pool.zero_gaps();
  m_summary.out_of_order = m_pool.out_of_order();
  m_summary.clock_steps = m_pool.clock_steps();
  m_summary.largest_clock_step = m_pool.largest_clock_step();
  m_summary.largest_clock_step_at = m_pool.largest_clock_step_at();
  m_summary.typical_resolution = m_pool.typical_resolution();
  m_summary.median_gap = static_cast<DurationNs>(m_pool.gaps().quantile(0.5));
  m_summary.p90_gap = static_cast<DurationNs>(m_pool.gaps().quantile(0.9));
  m_summary.p99_gap = static_cast<DurationNs>(m_pool.gaps().quantile(0.99));
  if (const stats::GapSample* largest = m_pool.largest()) m_summary.largest_gap = *largest;
  m_summary.gap_picture = m_pool.picture();
}

std::vector<Finding> Analyzer::pooled_findings() {
  // Pooled test over the request-support histogram. Per-request clusters inside one pooled
  // mode are one phenomenon (e.g. the two ends of a delayed-ACK band) and merge into one
  // finding; a pooled mode with no cluster becomes a finding of its own.
  std::vector<Finding> findings;
  if (m_summary.windows < m_options.pooled_min_windows) return findings;
  m_summary.pooled_test_run = true;
  const std::vector<ScanPoint> points = support_points(m_pool.support());
  ScanOptions options;
  options.alpha = m_options.alpha;
  options.min_count = m_options.min_members;
  options.resolution_ns = static_cast<double>(m_summary.typical_resolution);
  options.bandwidth = 0.3;
  options.min_enrichment = 2;
  options.max_modes = 8;
  for (const ScanMode& mode : scan_modes(points, options)) {
    if (cfar_p_value(points, mode.z_lo, mode.z_hi) > m_options.alpha) continue;
    if (strengthen_clusters(mode)) continue;
    if (std::optional<Finding> finding = pooled_only_finding(mode)) findings.push_back(std::move(*finding));
  }
  return findings;
}

bool Analyzer::strengthen_clusters(const ScanMode& mode) {
  Cluster* first = nullptr;
  for (auto& cluster : m_clusters) {
    if (!cluster || cluster->log_centre < mode.z_lo - 0.01 || cluster->log_centre > mode.z_hi + 0.01) continue;
    if (first == nullptr) {
      first = cluster.get();
    } else {
      absorb(*first, *cluster);
      cluster.reset();
    }
  }
  if (first == nullptr) return false;
  first->pooled_log10_p = std::min(first->pooled_log10_p, mode.log10_p);
  return true;
}

std::optional<Finding> Analyzer::pooled_only_finding(const ScanMode& mode) const {
  // A mode seen only across requests: describe it from the pooled gap histogram.
  const stats::LogHistogram& support = m_pool.support();
  const stats::LogHistogram& gaps = m_pool.gaps();
  std::map<std::size_t, std::uint64_t> bins;
  Finding finding;
  for (std::uint32_t index : mode.members) {
    if (gaps.count(index) > 0) bins[index] = gaps.count(index);
    finding.gaps += gaps.count(index);
    finding.requests += support.count(index);
    finding.member_time_ns += static_cast<double>(gaps.count(index)) *
                              (static_cast<double>(gaps.lower(index)) + static_cast<double>(gaps.upper(index))) / 2;
  }
  if (bins.empty()) return std::nullopt;
  describe_bins(gaps, bins, finding.centre_ns, finding.lo_ns, finding.hi_ns);
  if (finding.centre_ns < stats::k_min_resolution_ticks * static_cast<double>(m_summary.typical_resolution))
    return std::nullopt;
  finding.rel_width = (finding.hi_ns - finding.lo_ns) / finding.centre_ns;
  if (finding.rel_width > m_options.max_rel_width) return std::nullopt;
  finding.requests_span_ns = m_pool.span_between(std::exp(mode.z_lo), std::exp(mode.z_hi));
  finding.wall_share =
      finding.requests_span_ns > 0 ? std::min(1.0, finding.member_time_ns / finding.requests_span_ns) : 0;
  finding.log10_p_pooled = mode.log10_p;
  return finding;
}

void Analyzer::complete_findings(std::vector<Finding>& findings) const {
  for (Finding& finding : findings) {
    if (finding.shape == Shape::periodic || finding.trigger) continue;  // described where they were made
    finding.log10_p = std::min(finding.log10_p_per_request, finding.log10_p_pooled);
    const double per_request =
        finding.requests > 0 ? static_cast<double>(finding.gaps) / static_cast<double>(finding.requests) : 0;
    finding.shape = per_request >= 2.5 ? Shape::per_op : Shape::one_off;
    const double margin = std::max(finding.centre_ns * 0.005, static_cast<double>(m_summary.typical_resolution));
    for (const stats::GapSample* sample :
         m_pool.samples_between(finding.lo_ns - margin, finding.hi_ns + margin, finding.centre_ns)) {
      if (finding.samples.size() >= m_options.max_samples) break;
      finding.samples.push_back(*sample);
    }
  }
}

std::vector<RunFinding> Analyzer::ranked_runs() {
  std::stable_sort(m_runs.begin(), m_runs.end(),
                   [](const RunFinding& a, const RunFinding& b) { return a.log10_p < b.log10_p; });
  if (m_runs.size() > m_options.max_runs) m_runs.resize(m_options.max_runs);
  return std::move(m_runs);
}

std::vector<StreamDetections> Analyzer::ranked_streams() {
  std::stable_sort(m_streams.begin(), m_streams.end(), [](const StreamDetections& a, const StreamDetections& b) {
    return a.best_log10_p < b.best_log10_p;
  });
  if (m_streams.size() > m_options.max_streams) m_streams.resize(m_options.max_streams);
  return std::move(m_streams);
}

std::vector<double> Analyzer::lattice_gaps() {
  std::sort(m_lattice_sample.begin(), m_lattice_sample.end());
  if (m_lattice_sample.size() > m_options.quantisation_gaps) m_lattice_sample.resize(m_options.quantisation_gaps);
  std::vector<double> lattice;
  lattice.reserve(m_lattice_sample.size());
  for (const auto& [hash, gap] : m_lattice_sample) lattice.push_back(gap);
  return lattice;
}

std::optional<Quantisation> Analyzer::test_pooled_lattice(const std::vector<double>& gaps) const {
  QuantisationOptions lattice_options;
  lattice_options.alpha = m_options.alpha;
  lattice_options.resolution_ns = static_cast<double>(m_summary.typical_resolution);
  return find_quantisation(gaps, lattice_options);
}

namespace {

/// The spread of `values` (sorted in place): its interquartile range.
double interquartile(std::vector<double>& values) {
  std::sort(values.begin(), values.end());
  return values[values.size() * 3 / 4] - values[values.size() / 4];
}

}  // namespace

bool Analyzer::keeps_request_pacing(const std::vector<const Stall*>& members, double period_ns) {
  // One worker running requests one after another, each with the same stall after the same
  // work: the stall ends keep the pace at which the requests start, whatever the stall is.
  // Then each stall is its request's only one on the beat, it lies at the same place in its
  // request (the offsets from the request's first line spread less than 1/32 of the period,
  // and 2 ms at least), and it lasts about as long each time (the lengths' spread within 20 %
  // of their median). A cgroup's throttling stalls end on the beat wherever the requests
  // started, and last the period minus what was run: they fail both.
  if (members.size() < 8) return false;
  std::vector<std::uint64_t> streams;
  std::vector<double> offsets, lengths;
  for (const Stall* stall : members) {
    streams.push_back(stall->stream_id);
    offsets.push_back(static_cast<double>(stall->offset));
    lengths.push_back(static_cast<double>(stall->gap));
  }
  std::sort(streams.begin(), streams.end());
  const auto distinct = static_cast<std::size_t>(std::unique(streams.begin(), streams.end()) - streams.begin());
  if (distinct * 10 < members.size() * 9) return false;
  if (interquartile(offsets) > std::max(2e6, period_ns / 32)) return false;
  const double spread = interquartile(lengths);
  return spread <= 0.2 * lengths[lengths.size() / 2];
}

std::vector<Finding> Analyzer::periodic_findings() {
  std::vector<Finding> out;
  std::sort(m_stalls.begin(), m_stalls.end(), [](const Stall& a, const Stall& b) { return a.hash < b.hash; });
  if (m_stalls.size() > m_options.stall_sample) m_stalls.resize(m_options.stall_sample);
  std::vector<TimeNs> times;
  times.reserve(m_stalls.size());
  double stall_time = 0;
  for (const Stall& stall : m_stalls) {
    times.push_back(stall.time);
    stall_time += static_cast<double>(stall.gap);
  }
  PeriodicityOptions options;
  options.alpha = m_options.alpha;
  options.threads = m_options.threads;
  std::sort(m_stall_examples.begin(), m_stall_examples.end(),
            [](const StallExample& a, const StallExample& b) { return a.hash < b.hash; });
  if (m_stall_examples.size() > k_stall_examples) m_stall_examples.resize(k_stall_examples);  // any grouping alike
  for (const Periodicity& p : find_periodicity(times, options)) {
    Finding finding;
    finding.shape = Shape::periodic;
    finding.centre_ns = finding.lo_ns = finding.hi_ns = p.period_ns;
    finding.log10_p = finding.log10_p_pooled = p.log10_p;
    PeriodicDetail detail;
    detail.phase_ns = p.phase_ns;
    detail.jitter_ns = p.jitter_ns;
    detail.on_beat_share = p.on_beat_share;
    detail.onsets = p.onsets;
    detail.beats = p.beats;
    detail.missing_beat_ratio = p.missing_beat_ratio;
    detail.stall_min_ns = m_options.stall_min_ns;
    detail.from_catalog = p.from_catalog;
    finding.periodic = detail;
    // The stalls that end on the beat: how many, how much of the stall time, in which streams.
    const auto on_beat = [&](TimeNs t, double& offset) {
      offset = std::abs(beat_offset(p, t));
      return offset <= std::max(0.02, 3 * p.jitter_ns / p.period_ns);
    };
    double on_time = 0, offset = 0;
    std::vector<TriggerAligner::Interval> intervals;
    std::vector<const Stall*> members;
    for (const Stall& stall : m_stalls) {
      if (!on_beat(stall.time, offset)) continue;
      ++finding.gaps;
      on_time += static_cast<double>(stall.gap);
      members.push_back(&stall);
      if (intervals.size() < TriggerAligner::k_max_silences)
        intervals.push_back({stall.time - stall.gap, stall.time, stall.stream_id});
    }
    if (keeps_request_pacing(members, p.period_ns)) continue;
    // Whether the other streams went quiet with them: all threads of a process stopped at once.
    for (const TriggerAligner::Silence& silence : m_triggers.silences(intervals)) {
      if (silence.active == 0) continue;
      ++finding.periodic->silence_tested;
      if (static_cast<double>(silence.silent) >= 0.8 * static_cast<double>(silence.active))
        finding.periodic->silent_share += 1;
    }
    if (finding.periodic->silence_tested > 0)
      finding.periodic->silent_share /= static_cast<double>(finding.periodic->silence_tested);
    finding.member_time_ns = on_time;
    finding.wall_share = stall_time > 0 ? on_time / stall_time : 0;
    std::vector<std::pair<double, const stats::GapSample*>> examples;
    std::map<std::string, std::uint64_t> streams;
    for (const StallExample& example : m_stall_examples) {
      if (!on_beat(example.time, offset)) continue;
      examples.emplace_back(offset, &example.sample);
      ++streams[example.sample.stream];
    }
    finding.requests = streams.size();
    std::sort(examples.begin(), examples.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [distance, sample] : examples) {
      if (finding.samples.size() >= m_options.max_samples) break;
      finding.samples.push_back(*sample);
    }
    out.push_back(std::move(finding));
  }
  return out;
}

std::vector<Finding> Analyzer::trigger_findings() {
  std::vector<Finding> out;
  for (TriggerFinding& found : m_triggers.finish()) {
    const TriggerSpec& spec = m_triggers.specs()[found.spec];
    Finding finding;
    finding.shape = Shape::one_off;
    std::sort(found.stall_ns.begin(), found.stall_ns.end());
    if (!found.stall_ns.empty()) describe(found.stall_ns, finding.centre_ns, finding.lo_ns, finding.hi_ns);
    finding.rel_width = finding.centre_ns > 0 ? (finding.hi_ns - finding.lo_ns) / finding.centre_ns : 0;
    finding.gaps = found.stall_ns.size();
    finding.requests = found.streams_stalled;
    for (double stall : found.stall_ns) finding.member_time_ns += stall;
    finding.requests_span_ns = found.stalled_span_ns;
    finding.wall_share = found.stalled_span_ns > 0 ? std::min(1.0, finding.member_time_ns / found.stalled_span_ns) : 0;
    finding.log10_p = finding.log10_p_pooled = found.log10_p;
    TriggerDetail detail;
    detail.cause = spec.cause;
    detail.pattern = spec.pattern;
    detail.meaning = spec.meaning;
    detail.lines = found.lines;
    detail.occurrences = found.occurrences;
    detail.outside = found.outside;
    detail.aligned = found.aligned;
    detail.null_draws = found.null_draws;
    detail.examples = std::move(found.examples);
    finding.trigger = std::move(detail);
    out.push_back(std::move(finding));
  }
  return out;
}

void Analyzer::tag_lattice_modes(DetectionResult& result, const std::vector<double>& gaps) const {
  if (!result.quantisation) return;
  fold_lattice_modes(result.findings, *result.quantisation, gaps, [](const Finding& finding) {
    return finding.shape != Shape::periodic && !finding.trigger && finding.values == ValueKind::gap;
  });
}

std::vector<Finding> Analyzer::renewal_findings() {
  // Streams whose loops have the same period (within 2 %) are one finding; its p-value is the
  // best stream's, corrected for the streams tested.
  std::vector<Finding> out;
  std::sort(m_renewals.begin(), m_renewals.end(),
            [](const RenewalHit& a, const RenewalHit& b) { return a.renewal.log10_p < b.renewal.log10_p; });
  std::vector<bool> used(m_renewals.size(), false);
  const double correction = std::log10(static_cast<double>(std::max<std::uint64_t>(1, m_renewal_tested)));
  for (std::size_t i = 0; i < m_renewals.size(); ++i) {
    if (used[i]) continue;
    const Renewal& best = m_renewals[i].renewal;
    Finding finding;
    finding.shape = Shape::periodic;
    finding.centre_ns = best.period_ns;
    finding.lo_ns = best.period_ns - best.jitter_ns;
    finding.hi_ns = best.period_ns + best.jitter_ns;
    finding.rel_width = 2 * best.jitter_ns / best.period_ns;
    finding.log10_p = finding.log10_p_pooled = std::min(0.0, best.log10_p + correction);
    PeriodicDetail detail;
    detail.renewal = true;
    detail.jitter_ns = best.jitter_ns;
    detail.on_beat_share = best.periodic_fraction;
    detail.onsets = best.onsets;
    detail.beats = best.beats;
    detail.missing_beat_ratio = best.missing_beat_ratio;
    finding.periodic = detail;
    finding.top_request = m_renewals[i].stream;
    for (std::size_t j = i; j < m_renewals.size(); ++j) {
      if (used[j] || std::abs(m_renewals[j].renewal.period_ns / best.period_ns - 1) > 0.02) continue;
      used[j] = true;
      ++finding.requests;
      finding.gaps += m_renewals[j].renewal.beats;
      for (const stats::GapSample& sample : m_renewals[j].samples) {
        if (finding.samples.size() < m_options.max_samples) finding.samples.push_back(sample);
      }
    }
    finding.wall_share = best.periodic_fraction;
    if (finding.log10_p <= std::log10(m_options.alpha)) out.push_back(std::move(finding));
  }
  return out;
}

}  // namespace gapscan::detect
