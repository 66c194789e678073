#include <gapscan/report/build.hpp>
#include <gapscan/report/units.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace gapscan::report {
namespace {

LineRef make_line(const stats::EvidenceLine& line, const source::SourceTable& sources) {
  return LineRef{fmt::format("{}:{}", sources.name(line.location.source), line.location.line),
                 std::string(line.text())};
}

Timeline make_timeline(const detect::Timeline& t, const source::SourceTable& sources) {
  Timeline out;
  out.request = t.stream;
  out.window_lines = t.window_lines;
  out.first_index = t.first_index;
  out.lo_ms = t.lo_ns / 1e6;
  out.hi_ms = t.hi_ns / 1e6;
  out.first = make_line(t.first, sources);
  out.last = make_line(t.last, sources);
  double longest = 0;
  for (std::size_t i = 0; i < t.points.size(); ++i) {
    const detect::Timeline::Point& p = t.points[i];
    Timeline::Point point;
    point.offset_ms = static_cast<double>(p.offset) / 1e6;
    point.where = fmt::format("{}:{}", sources.name(p.location.source), p.location.line);
    if (i > 0) {
      const auto gap = static_cast<double>(p.offset - t.points[i - 1].offset);
      point.gap_ms = gap / 1e6;
      point.stall = gap > 0 && gap >= t.lo_ns && gap <= t.hi_ns;
      if (point.stall) {
        ++out.stalls;
        out.stall_ms += point.gap_ms;
        if (gap > longest) {
          longest = gap;
          out.longest = i;
        }
      }
    }
    out.points.push_back(std::move(point));
  }
  out.span_ms = out.points.empty() ? 0 : out.points.back().offset_ms;
  out.stall_share = out.span_ms > 0 ? out.stall_ms / out.span_ms : 0;
  return out;
}

/// The periodic, trigger and lattice details of a finding.
/// When the finding's stalls happened: a place on the wall clock, a window of the run or a
/// steady rate; and a queue's waits.
void add_timing(Finding& out, const detect::Finding& f, const RunResults& results) {
  if (f.wall_clock) {
    const detect::WallClockSlowdown& d = *f.wall_clock;
    Finding::WallClock w;
    w.series = std::string(detect::to_string(d.series));
    w.fold = d.fold == detect::WallClockSlowdown::Fold::minute ? "minute" : "hour";
    w.start = d.start;
    w.width = d.width;
    w.ratio = d.ratio;
    w.inside_ms = d.inside_ns / 1e6;
    w.outside_ms = d.outside_ns / 1e6;
    w.values_in = d.values_in;
    w.values_out = d.values_out;
    w.cycles = d.cycles;
    w.slower = d.slower;
    w.z = d.z;
    w.draws = d.draws;
    w.beaten = d.beaten;
    for (const detect::WallClockSlowdown::JobLine& job : d.job_lines)
      w.job_lines.push_back({make_line(job.line, *results.sources), job.lines, job.aligned});
    out.wall_clock = std::move(w);
  }
  if (f.timing) {
    const detect::TimingDetail& d = *f.timing;
    Finding::Timing t;
    t.kind = d.kind == detect::TimingDetail::Kind::window ? "window" : "scattered";
    t.start = utc_time(d.start);
    t.end = utc_time(d.end);
    t.start_s = static_cast<double>(d.start) / 1e9;
    t.end_s = static_cast<double>(d.end) / 1e9;
    t.inside = d.inside;
    t.inside_stalls = d.inside_stalls;
    t.outside = d.outside;
    t.outside_stalls = d.outside_stalls;
    t.log10_p = d.log10_p;
    out.timing = std::move(t);
  }
  if (f.saturation) {
    const detect::SaturationDetail& d = *f.saturation;
    out.saturation = Finding::Saturation{d.phase,        d.requests,     d.waited,           d.p10_ns / 1e6,
                                         d.p50_ns / 1e6, d.p90_ns / 1e6, d.longest_ns / 1e6, d.time_share};
  }
}

void add_details(Finding& out, const detect::Finding& f, const RunResults& results) {
  if (f.wait_point) {
    const detect::WaitPointDetail& d = *f.wait_point;
    Finding::WaitPoint wait;
    for (const auto& [hash, text] : results.templates) {
      if (static_cast<std::uint32_t>(hash) == d.template_id) {
        wait.template_text = text;
        break;
      }
    }
    wait.gaps_after = d.gaps_after;
    wait.in_band = d.in_band;
    wait.usual_ms = d.usual_ns / 1e6;
    wait.threshold_ms = d.threshold_ns / 1e6;
    wait.cluster = d.cluster;
    wait.reported = d.reported;
    out.wait_point = std::move(wait);
  }
  if (f.arrival) {
    const detect::ArrivalDetail& d = *f.arrival;
    Finding::Arrival arrival;
    if (results.sources != nullptr && d.input < results.sources->size()) arrival.input = results.sources->name(d.input);
    arrival.lines = d.lines;
    arrival.bursts = d.bursts;
    arrival.burst_count = d.burst_count;
    arrival.burst_lines = d.burst_lines;
    arrival.tightness_ms = d.tightness_ns / 1e6;
    arrival.median_size = d.median_size;
    arrival.median_length_ms = d.median_length_ns / 1e6;
    arrival.timed = d.timed;
    arrival.early = d.early;
    arrival.set_aside = d.set_aside;
    out.arrival = std::move(arrival);
  }
  add_timing(out, f, results);
  if (f.periodic) {
    const detect::PeriodicDetail& d = *f.periodic;
    out.periodic =
        Finding::Periodic{d.renewal, d.phase_ns / 1e6,     d.jitter_ns / 1e6,    d.on_beat_share,  d.onsets,
                          d.beats,   d.missing_beat_ratio, d.stall_min_ns / 1e6, d.silence_tested, d.silent_share};
  }
  if (f.trigger) {
    const detect::TriggerDetail& d = *f.trigger;
    Finding::Trigger trigger;
    trigger.pattern = d.pattern;
    trigger.meaning = d.meaning;
    trigger.lines = d.lines;
    trigger.occurrences = d.occurrences;
    trigger.outside = d.outside;
    trigger.aligned = d.aligned;
    trigger.null_draws = d.null_draws;
    for (const detect::TriggerOccurrence& o : d.examples) {
      Finding::Trigger::Occurrence occurrence;
      occurrence.line = make_line({o.location, o.text, {}}, *results.sources);
      occurrence.stream = o.stream;
      occurrence.log10_p = o.log10_p;
      occurrence.active = o.active;
      occurrence.stalled = o.stalled;
      for (const detect::AlignedStall& stall : o.stalls) {
        occurrence.stalls.push_back(
            {stall.stream, fmt::format("{}:{}", results.sources->name(stall.end.source), stall.end.line),
             static_cast<double>(stall.gap) / 1e6, static_cast<double>(stall.start - o.time) / 1e6, stall.tail});
      }
      trigger.examples.push_back(std::move(occurrence));
    }
    out.trigger = std::move(trigger);
  }
  if (f.timeline) out.timeline = make_timeline(*f.timeline, *results.sources);
  if (f.lattice) {
    out.lattice = Finding::OnLattice{f.lattice->base_ns / 1e6, f.lattice->offset_ns / 1e6, f.lattice->share,
                                     f.lattice->occupied,      f.lattice->modes,           f.lattice->keeps_clock};
  }
}

/// What the matched cause says: its id, title, window, terms, evidence and actions.
void add_cause(Finding& out, const catalog::Suspect& suspect, const detect::Finding& f) {
  const catalog::CauseMatch& best = suspect.best;
  if (best.cause == nullptr) {
    out.cause = "unknown";
    if (f.trigger) {
      out.title = "Stalls around lines matching a --trigger pattern";
      out.summary =
          "Other streams stop around the lines that match the pattern, more than at other moments of the log.";
    } else {
      out.title = suspect.tier == 1 ? "Unexplained delay" : "Unexplained regular gap";
      out.summary = "A tight, statistically significant gap mode that matches no cause in the catalog.";
    }
  } else {
    const catalog::Cause& cause = *best.cause;
    out.cause = cause.id;
    out.title = cause.title;
    out.summary = cause.summary;
    out.value_match = best.value_match;
    out.shape_factor = best.shape_factor;
    out.evidence_score = best.evidence;
    out.evidence_weight = cause.evidence_weight;
    out.counter_evidence = best.counter;
    if (best.delay) {
      out.delay_value_ms = best.delay->value_ms;
      out.delay_tolerance_ms = best.delay->tolerance_ms;
      out.delay_late_ms = best.delay->late_ms;
      out.delay_window_lo_ms =
          best.delay->late_ms > 0 ? best.delay->value_ms : best.delay->value_ms - best.delay->tolerance_ms;
      out.delay_window_hi_ms =
          best.delay->value_ms + (best.delay->late_ms > 0 ? best.delay->late_ms : best.delay->tolerance_ms);
      out.delay_label = best.delay->label;
      out.delay_compare_upper = best.delay->compare_upper;
      out.delay_offset_ms = best.offset_ms;
      if (best.satellite_in_band) out.band_satellite_ms = best.delay->satellite_ms;
      out.implies = best.delay->implies;
    }
    if (best.during) {
      out.evidence.push_back({best.during->pattern, "during",
                              "another input's line, written while the requests waited: " + best.during->meaning, 0.9,
                              best.during->hits, best.during->samples, std::string()});
    }
    for (const catalog::EvidenceHit& hit : best.hits) {
      out.evidence.push_back({hit.pattern->pattern, std::string(catalog::to_string(hit.pattern->scope)),
                              hit.pattern->meaning, hit.pattern->weight, hit.hits, hit.samples, hit.example});
    }
    out.confirm = cause.confirm;
    out.fix = cause.fix;
    out.references = cause.references;
  }
}

// Two causes are reported as one ambiguous delay when the second fits at least this well relative
// to the first, both fit the value this well, and neither has evidence above k_no_evidence.
constexpr double k_ambiguous_ratio = 0.8;
constexpr double k_ambiguous_fit = 0.8;
constexpr double k_no_evidence = 0.05;

Finding make_finding(const catalog::Suspect& suspect, int rank, const RunResults& results) {
  const detect::Finding& f = *suspect.finding;
  Finding out;
  out.rank = rank;
  out.confidence = suspect.confidence;
  out.likely = suspect.tier == 0;
  out.unexplained = suspect.tier == 1;
  out.rank_score = suspect.rank_score;
  out.interval_ms = f.centre_ns / 1e6;
  out.interval_lo_ms = f.lo_ns / 1e6;
  out.interval_hi_ms = f.hi_ns / 1e6;
  out.rel_width = f.rel_width;
  out.gaps = f.gaps;
  out.requests = f.requests;
  out.requests_detected = f.requests_detected;
  out.wall_share = f.wall_share;
  out.shape = std::string(detect::to_string(f.shape));
  out.values = f.values == detect::ValueKind::duration ? "durations" : "gaps";
  out.group = f.group;
  out.duration_values = f.duration_values;
  out.logged_durations = f.logged_durations;
  add_details(out, f, results);
  out.log10_p = f.log10_p;
  out.log10_p_per_request = f.log10_p_per_request;
  out.log10_p_pooled = f.log10_p_pooled;
  out.significance = suspect.significance;
  out.top_request = f.top_request;
  out.top_request_members = f.top_request_members;
  out.top_request_gaps = f.top_request_gaps;
  out.top_request_share = f.top_request_share;
  if (suspect.satellite) {
    out.satellite_ms = suspect.satellite->centre_ns / 1e6;
    out.satellite_gaps = suspect.satellite->gaps;
  }
  for (const detect::Finding* above : suspect.ticks_above)
    out.ticks_above.push_back({above->centre_ns / 1e6, above->gaps});
  out.member_time_ms = f.member_time_ns / 1e6;
  if (const catalog::CauseMatch& by = suspect.modified_by; by.cause != nullptr) {
    out.modifier = Finding::Modifier{by.cause->id, by.cause->title, by.delay ? by.delay->label : std::string(),
                                     by.delay ? by.delay->implies : std::string(), by.confidence};
  }
  for (const detect::Finding* other : suspect.other_delays) {
    out.other_delays.push_back({other->centre_ns / 1e6, other->lo_ns / 1e6, other->hi_ns / 1e6, other->gaps,
                                other->requests, other->member_time_ns / 1e6,
                                other->values == detect::ValueKind::duration ? "durations" : "gaps"});
  }

  add_cause(out, suspect, f);
  // Two causes that share the delay, neither with a line of its own evidence: say so.
  if (suspect.best.cause != nullptr && !suspect.alternatives.empty()) {
    const catalog::CauseMatch& best = suspect.best;
    const catalog::CauseMatch& other = suspect.alternatives.front();
    if (other.confidence >= k_ambiguous_ratio * best.confidence && best.value_match >= k_ambiguous_fit &&
        other.value_match >= k_ambiguous_fit && best.evidence < k_no_evidence && other.evidence < k_no_evidence) {
      out.ambiguous_with = other.cause->id;
      out.ambiguous_title = other.cause->title;
      if (!other.cause->confirm.empty()) out.ambiguous_confirm = other.cause->confirm.front();
    }
  }
  for (const catalog::CauseMatch& alternative : suspect.alternatives) {
    out.alternatives.push_back({alternative.cause->id, alternative.cause->title, alternative.confidence});
  }
  for (const stats::GapSample& sample : f.samples) {
    if (out.examples.size() >= results.max_examples) break;
    GapExample example;
    example.request = sample.stream;
    example.gap_ms = static_cast<double>(sample.gap) / 1e6;
    for (const stats::EvidenceLine& line : sample.before) example.before.push_back(make_line(line, *results.sources));
    example.after = make_line(sample.after, *results.sources);
    out.examples.push_back(std::move(example));
  }
  return out;
}

Run make_run(const detect::RunFinding& run, const source::SourceTable& sources) {
  Run out;
  out.stream = run.stream;
  out.first = make_line(run.first_line, sources);
  out.last = make_line(run.last_line, sources);
  out.length = run.length;
  out.centre_ms = run.centre_ns / 1e6;
  out.spread = run.spread;
  out.duration_ms = run.sum_ns / 1e6;
  out.time_share = run.time_share;
  out.log10_p = run.log10_p;
  return out;
}

Lattice make_lattice(const detect::Quantisation& q) {
  Lattice lattice;
  lattice.base_ms = q.base_ns / 1e6;
  lattice.offset_ms = q.offset_ns / 1e6;
  lattice.coherence = q.coherence;
  lattice.noise_rel = q.noise_rel;
  lattice.share = q.share;
  lattice.log10_p = q.log10_p;
  lattice.gaps = q.gaps;
  for (double also : q.also_consistent_ns) lattice.also_consistent_ms.push_back(also / 1e6);
  lattice.weak = q.share < 0.5;
  return lattice;
}

/// One stream's own detections.
StreamReport make_stream(const detect::StreamDetections& stream, const RunResults& results) {
  StreamReport out;
  out.stream = stream.stream;
  out.kind = stream.kind;
  if (stream.kind == "template") {
    const auto it = results.templates.find(stream.template_hash);
    out.label = it != results.templates.end() ? it->second : std::string();
  } else if (stream.kind == "process") {
    out.label = stream.stream;
  } else if (stream.kind == "log" || stream.kind == "input" || stream.kind == "pacing") {
    out.label = results.sources->name(stream.input);
  }
  out.lines = stream.lines;
  out.span_ms = static_cast<double>(stream.span) / 1e6;
  out.resolution_ms = static_cast<double>(stream.resolution) / 1e6;
  out.zero_gap_share = stream.zero_gap_share;
  out.out_of_order = stream.out_of_order;
  for (const detect::StreamMode& mode : stream.modes) {
    out.modes.push_back(
        {mode.centre_ns / 1e6, mode.lo_ns / 1e6, mode.hi_ns / 1e6, mode.count, mode.expected, mode.log10_p});
  }
  for (const detect::RunFinding& run : stream.runs) out.runs.push_back(make_run(run, *results.sources));
  for (const detect::StreamStall& stall : stream.stalls) {
    out.stalls.push_back(
        {make_line(stall.after, *results.sources), stall.gap_ns / 1e6, stall.median_ratio, stall.log10_p});
  }
  if (stream.quantisation) out.quantisation = make_lattice(*stream.quantisation);
  for (const detect::Periodicity& p : stream.periodicity) {
    out.periodicity.push_back({p.period_ns / 1e6, p.phase_ns / 1e6, p.jitter_ns / 1e6, p.on_beat_share, p.beats,
                               p.missing_beat_ratio, p.log10_p});
  }
  if (stream.renewal) {
    const detect::Renewal& r = *stream.renewal;
    out.renewal = StreamReport::Renewal{r.period_ns / 1e6, r.jitter_ns / 1e6,    r.periodic_fraction,
                                        r.beats,           r.missing_beat_ratio, r.log10_p};
  }
  return out;
}

/// Line accounting.
void add_lines(Report& report, const RunResults& results) {
  const parse::LineAccount& lines = *results.lines;
  report.lines.lines = lines.lines;
  report.lines.records = lines.records;
  report.lines.continuation = lines.continuation;
  report.lines.untimed = lines.untimed;
  report.lines.blank = lines.blank;
  report.lines.comment = lines.comment;
  report.lines.unparsed = lines.unparsed;
  report.lines.truncated = lines.truncated;
  report.lines.by_format = lines.by_format;
  for (const parse::UnparsedExample& example : lines.examples) {
    report.lines.unparsed_examples.push_back(
        {fmt::format("{}:{}", results.sources->name(example.location.source), example.location.line), example.text,
         example.reason});
  }
}

/// The analysis summary.
void add_analysis(Report& report, const RunResults& results) {
  const detect::DetectionSummary& detection = *results.detection;
  report.analysis.streams = results.grouping->streams - std::min(results.grouping->streams, results.derived_streams);
  report.analysis.derived_streams = results.derived_streams;
  report.analysis.derived_windows = detection.derived_windows;
  report.analysis.derived_windows_tested = detection.derived_windows_scanned;
  report.analysis.pacing_windows = detection.pacing_windows;
  report.analysis.pacing_gaps = detection.pacing_gaps;
  report.analysis.windows = detection.windows;
  report.analysis.keyed_windows = detection.keyed_windows;
  report.analysis.windows_tested = detection.windows_scanned;
  report.analysis.gaps = detection.gaps;
  report.analysis.zero_gaps = detection.zero_gaps;
  report.analysis.out_of_order = detection.out_of_order;
  report.analysis.clock_steps = detection.clock_steps;
  if (detection.clock_steps > 0) {
    report.analysis.largest_clock_step_s = static_cast<double>(detection.largest_clock_step) / 1e9;
    report.analysis.largest_clock_step_at = fmt::format(
        "{}:{}", results.sources->name(detection.largest_clock_step_at.source), detection.largest_clock_step_at.line);
  }
  report.analysis.resolution_ms = static_cast<double>(detection.typical_resolution) / 1e6;
  report.analysis.pooled_test = detection.pooled_test_run;
  report.analysis.idle_closed = results.grouping->idle_closed;
  report.analysis.early_flushes = results.grouping->early_flushes;
  report.analysis.spilled_bytes = results.grouping->spilled_bytes;
  report.analysis.gap_median_ms = static_cast<double>(detection.median_gap) / 1e6;
  report.analysis.gap_p90_ms = static_cast<double>(detection.p90_gap) / 1e6;
  report.analysis.gap_p99_ms = static_cast<double>(detection.p99_gap) / 1e6;
  report.analysis.gap_histogram = detection.gap_picture;
  if (detection.largest_gap) {
    const stats::GapSample& sample = *detection.largest_gap;
    GapExample largest;
    largest.request = sample.stream;
    largest.gap_ms = static_cast<double>(sample.gap) / 1e6;
    // The quantiles come from a histogram's bins; none is above the largest gap measured.
    for (double* quantile : {&report.analysis.gap_median_ms, &report.analysis.gap_p90_ms, &report.analysis.gap_p99_ms})
      *quantile = std::min(*quantile, largest.gap_ms);
    for (const stats::EvidenceLine& line : sample.before) largest.before.push_back(make_line(line, *results.sources));
    largest.after = make_line(sample.after, *results.sources);
    report.analysis.largest_gap = std::move(largest);
  }
}

}  // namespace

/// The phase profile: each phase that some line times, most time first, with the finding of
/// its values when one is likely or an unexplained delay.
void add_phases(Report& report, const detect::PhaseProfile& profile) {
  report.phase_requests = profile.records();
  for (std::size_t p = 0; p < parse::k_phase_count; ++p) {
    const auto which = static_cast<parse::Phase>(p);
    const detect::PhaseProfile::Phase& phase = profile.phase(which);
    if (phase.spent == 0) continue;  // timed, but never for a millisecond: nothing went there
    PhaseRow row;
    row.phase = std::string(parse::to_string(which));
    row.requests = phase.requests;
    row.spent = phase.spent;
    row.time_share = profile.total_ns() > 0 ? phase.total_ns / profile.total_ns() : 0;
    row.median_ms = profile.quantile(which, 0.5) / 1e6;
    row.p90_ms = profile.quantile(which, 0.9) / 1e6;
    row.longest_ms = static_cast<double>(phase.longest) / 1e6;
    const std::string group = "phase=" + row.phase;
    for (const Finding& f : report.findings) {  // ranked: the first is the best
      if (f.values != "durations" || f.group != group || !(f.likely || f.unexplained)) continue;
      row.finding_rank = f.rank;
      row.cause = f.cause;
      row.lo_ms = f.interval_lo_ms;
      row.hi_ms = f.interval_hi_ms;
      row.in_band = f.gaps;
      break;
    }
    report.phases.push_back(std::move(row));
  }
  std::stable_sort(report.phases.begin(), report.phases.end(),
                   [](const PhaseRow& a, const PhaseRow& b) { return a.time_share > b.time_share; });
}

Report build_report(const RunResults& results) {
  Report report;
  report.tool_version = GAPSCAN_VERSION;
  report.likely_threshold = catalog::k_likely_confidence;
  report.unexplained_wall_share = catalog::k_unexplained_wall_share;
  int rank = 0;
  for (const catalog::Suspect& suspect : *results.suspects)
    report.findings.push_back(make_finding(suspect, ++rank, results));

  add_lines(report, results);
  report.inputs = results.inputs;

  for (const detect::RunFinding& run : results.runs) report.runs.push_back(make_run(run, *results.sources));
  if (results.quantisation) report.quantisation = make_lattice(*results.quantisation);
  for (const detect::Finding& f : results.timers) {
    Report::Timer timer;
    timer.period_ms = f.centre_ns / 1e6;
    timer.gaps = f.gaps;
    if (!f.samples.empty()) {
      const stats::GapSample& sample = f.samples.front();
      timer.example = make_line(sample.after, *results.sources);
      for (const auto& [hash, text] : results.templates) {
        if (static_cast<std::uint32_t>(hash) == sample.after.template_id) {
          timer.template_text = text;
          break;
        }
      }
    }
    report.timers.push_back(std::move(timer));
  }
  for (const detect::StreamDetections& stream : results.streams) report.streams.push_back(make_stream(stream, results));

  add_analysis(report, results);
  if (results.phases != nullptr && !results.phases->empty()) add_phases(report, *results.phases);

  report.catalog_origin = results.catalog->origin;
  report.catalog_causes = results.catalog->causes.size();
  report.diagnostics = results.diagnostics;
  return report;
}

}  // namespace gapscan::report
