#include <gapscan/report/printers.hpp>

#include <nlohmann/json.hpp>

#include <cmath>

namespace gapscan::report {
namespace {

using Json = nlohmann::ordered_json;

/// Rounds for stable, readable output (the JSON is compared as data by tests and tools).
double round_to(double value, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(value * scale) / scale;
}

Json line_json(const LineRef& line) { return Json{{"where", line.where}, {"text", line.text}}; }

Json timeline_json(const Timeline& t) {
  Json points = Json::array();
  for (const Timeline::Point& p : t.points) {
    points.push_back(Json{{"offset_ms", round_to(p.offset_ms, 4)},
                          {"where", p.where},
                          {"gap_ms", round_to(p.gap_ms, 4)},
                          {"stall", p.stall}});
  }
  return Json{{"request", t.request},
              {"lines", t.window_lines},
              {"first_index", t.first_index},
              {"span_ms", round_to(t.span_ms, 4)},
              {"lo_ms", round_to(t.lo_ms, 4)},
              {"hi_ms", round_to(t.hi_ms, 4)},
              {"stalls", t.stalls},
              {"stall_ms", round_to(t.stall_ms, 4)},
              {"stall_share", round_to(t.stall_share, 4)},
              {"longest", t.longest},
              {"first", line_json(t.first)},
              {"last", line_json(t.last)},
              {"points", std::move(points)}};
}

/// Rank, cause, confidence, interval, counts and p-values.
void add_basics(Json& j, const Finding& f) {
  j["rank"] = f.rank;
  j["cause"] = f.cause;
  j["title"] = f.title;
  j["confidence"] = round_to(f.confidence, 4);
  j["likely"] = f.likely;
  j["unexplained"] = f.unexplained;
  j["interval_ms"] = round_to(f.interval_ms, 4);
  j["interval_lo_ms"] = round_to(f.interval_lo_ms, 4);
  j["interval_hi_ms"] = round_to(f.interval_hi_ms, 4);
  j["rel_width"] = round_to(f.rel_width, 5);
  j["gaps"] = f.gaps;
  j["requests"] = f.requests;
  j["requests_detected"] = f.requests_detected;
  j["wall_share"] = round_to(f.wall_share, 4);
  j["shape"] = f.shape;
  j["values"] = f.values;
  j["group"] = f.group;
  j["duration_values"] = f.duration_values;
  j["logged_durations"] = f.logged_durations;
  j["log10_p"] = round_to(f.log10_p, 2);
  j["log10_p_per_request"] = round_to(f.log10_p_per_request, 2);
  j["log10_p_pooled"] = round_to(f.log10_p_pooled, 2);
  j["significance"] = round_to(f.significance, 4);
  j["rank_score"] = round_to(f.rank_score, 4);
}

Json gap_example_json(const GapExample& example) {
  Json before = Json::array();
  for (const LineRef& line : example.before) before.push_back(line_json(line));
  return Json{{"request", example.request},
              {"gap_ms", round_to(example.gap_ms, 6)},
              {"before", std::move(before)},
              {"after", line_json(example.after)}};
}

/// The matched delay window and the score's terms.
void add_match(Json& j, const Finding& f) {
  if (f.delay_value_ms) {
    j["delay"] = Json{{"value_ms", *f.delay_value_ms},
                      {"tolerance_ms", *f.delay_tolerance_ms},
                      {"late_ms", f.delay_late_ms},
                      {"compare", f.delay_compare_upper ? "upper" : "centre"},
                      {"offset_ms", round_to(f.delay_offset_ms, 4)},
                      {"band_satellite_ms", f.band_satellite_ms ? Json(*f.band_satellite_ms) : Json()},
                      {"label", f.delay_label},
                      {"implies", f.implies}};
  } else {
    j["delay"] = nullptr;
  }
  j["match"] = Json{{"value", round_to(f.value_match, 4)},
                    {"shape", round_to(f.shape_factor, 4)},
                    {"evidence", round_to(f.evidence_score, 4)},
                    {"evidence_weight", round_to(f.evidence_weight, 4)},
                    {"counter", round_to(f.counter_evidence, 4)}};
}

/// The periodic and lattice details, or null.
void add_shape(Json& j, const Finding& f) {
  if (f.periodic) {
    const Finding::Periodic& p = *f.periodic;
    j["periodic"] = Json{{"kind", p.renewal ? "renewal" : "locked"},
                         {"period_ms", round_to(f.interval_ms, 5)},
                         {"phase_ms", round_to(p.phase_ms, 4)},
                         {"jitter_ms", round_to(p.jitter_ms, 4)},
                         {"on_beat_share", round_to(p.on_beat_share, 4)},
                         {"onsets", p.onsets},
                         {"beats", p.beats},
                         {"missing_beat_ratio", round_to(p.missing_beat_ratio, 4)},
                         {"stall_min_ms", p.stall_min_ms},
                         {"silence_tested", p.silence_tested},
                         {"silent_share", round_to(p.silent_share, 4)}};
  } else {
    j["periodic"] = nullptr;
  }
  if (f.lattice) {
    Json modes = Json::array();
    for (const auto& [multiple, gaps] : f.lattice->modes) modes.push_back(Json{{"multiple", multiple}, {"gaps", gaps}});
    j["lattice"] = Json{{"base_ms", round_to(f.lattice->base_ms, 5)},
                        {"offset_ms", round_to(f.lattice->offset_ms, 5)},
                        {"share", round_to(f.lattice->share, 4)},
                        {"occupied", f.lattice->occupied},
                        {"modes", std::move(modes)},
                        {"keeps_clock", f.lattice->keeps_clock}};
  } else {
    j["lattice"] = nullptr;
  }
}

/// Stalls around trigger lines, or null.
void add_trigger(Json& j, const Finding& f) {
  if (f.trigger) {
    const Finding::Trigger& t = *f.trigger;
    Json occurrences = Json::array();
    for (const Finding::Trigger::Occurrence& o : t.examples) {
      Json stalls = Json::array();
      for (const Finding::Trigger::Stalled& stall : o.stalls) {
        stalls.push_back(Json{{"request", stall.request},
                              {"line", stall.where},
                              {"gap_ms", round_to(stall.gap_ms, 4)},
                              {"start_ms", round_to(stall.start_ms, 4)},
                              {"tail", round_to(stall.tail, 4)}});
      }
      occurrences.push_back(Json{{"line", o.line.where},
                                 {"text", o.line.text},
                                 {"stream", o.stream},
                                 {"log10_p", round_to(o.log10_p, 2)},
                                 {"active_streams", o.active},
                                 {"stalled_streams", o.stalled},
                                 {"stalls", std::move(stalls)}});
    }
    j["trigger"] = Json{{"pattern", t.pattern},       {"meaning", t.meaning},
                        {"lines", t.lines},           {"occurrences", t.occurrences},
                        {"outside", t.outside},       {"aligned", t.aligned},
                        {"null_draws", t.null_draws}, {"examples", std::move(occurrences)}};
  } else {
    j["trigger"] = nullptr;
  }
}

/// Satellite, folded tick modes, worst request, evidence and example gaps.
/// What the finding measured beyond its values: the line its stalls follow, the input's arrival
/// stamps, when the stalls happened, a queue's waits, a slowdown on the wall clock.
void add_details(Json& j, const Finding& f) {
  j["wait_point"] = f.wait_point ? Json{{"template", f.wait_point->template_text},
                                        {"gaps_after", f.wait_point->gaps_after},
                                        {"in_band", f.wait_point->in_band},
                                        {"usual_ms", round_to(f.wait_point->usual_ms, 4)},
                                        {"threshold_ms", round_to(f.wait_point->threshold_ms, 4)},
                                        {"cluster", f.wait_point->cluster},
                                        {"reported", f.wait_point->reported}}
                                 : Json();
  j["arrival"] = f.arrival ? Json{{"input", f.arrival->input},
                                  {"lines", f.arrival->lines},
                                  {"bursts", f.arrival->bursts},
                                  {"burst_count", f.arrival->burst_count},
                                  {"burst_lines", f.arrival->burst_lines},
                                  {"tightness_ms", round_to(f.arrival->tightness_ms, 4)},
                                  {"median_burst_lines", round_to(f.arrival->median_size, 1)},
                                  {"median_burst_ms", round_to(f.arrival->median_length_ms, 4)},
                                  {"timed", f.arrival->timed},
                                  {"early", f.arrival->early},
                                  {"set_aside", f.arrival->set_aside}}
                           : Json();
  if (f.timing) {
    const Finding::Timing& t = *f.timing;
    j["timing"] = Json{{"kind", t.kind},
                       {"start", t.start},
                       {"end", t.end},
                       {"start_s", round_to(t.start_s, 3)},
                       {"end_s", round_to(t.end_s, 3)},
                       {"inside", t.inside},
                       {"inside_stalls", t.inside_stalls},
                       {"outside", t.outside},
                       {"outside_stalls", t.outside_stalls},
                       {"log10_p", round_to(t.log10_p, 2)}};
  }
  if (f.saturation) {
    const Finding::Saturation& w = *f.saturation;
    j["saturation"] = Json{{"phase", w.phase},
                           {"requests", w.requests},
                           {"waited", w.waited},
                           {"p10_ms", round_to(w.p10_ms, 4)},
                           {"p50_ms", round_to(w.p50_ms, 4)},
                           {"p90_ms", round_to(w.p90_ms, 4)},
                           {"longest_ms", round_to(w.longest_ms, 4)},
                           {"time_share", round_to(w.time_share, 4)}};
  }
  if (f.wall_clock) {
    const Finding::WallClock& w = *f.wall_clock;
    Json jobs = Json::array();
    for (const Finding::WallClock::JobLine& job : w.job_lines)
      jobs.push_back(
          Json{{"where", job.line.where}, {"text", job.line.text}, {"lines", job.lines}, {"aligned", job.aligned}});
    j["wall_clock"] = Json{{"series", w.series},
                           {"fold", w.fold},
                           {"start", w.start},
                           {"width", w.width},
                           {"ratio", round_to(w.ratio, 4)},
                           {"inside_ms", round_to(w.inside_ms, 4)},
                           {"outside_ms", round_to(w.outside_ms, 4)},
                           {"values_in", w.values_in},
                           {"values_out", w.values_out},
                           {"cycles", w.cycles},
                           {"slower", w.slower},
                           {"z", round_to(w.z, 3)},
                           {"draws", w.draws},
                           {"beaten", w.beaten},
                           {"job_lines", std::move(jobs)}};
  } else {
    j["wall_clock"] = Json();
  }
}

void add_evidence(Json& j, const Finding& f) {
  j["satellite"] =
      f.satellite_ms ? Json{{"interval_ms", round_to(*f.satellite_ms, 4)}, {"gaps", f.satellite_gaps}} : Json();
  Json ticks = Json::array();
  for (const Finding::TickMode& mode : f.ticks_above)
    ticks.push_back(Json{{"interval_ms", round_to(mode.interval_ms, 4)}, {"gaps", mode.gaps}});
  j["ticks_above"] = std::move(ticks);
  j["member_time_ms"] = round_to(f.member_time_ms, 3);
  Json others = Json::array();
  for (const Finding::OtherDelay& other : f.other_delays) {
    others.push_back(Json{{"interval_ms", round_to(other.interval_ms, 4)},
                          {"interval_lo_ms", round_to(other.interval_lo_ms, 4)},
                          {"interval_hi_ms", round_to(other.interval_hi_ms, 4)},
                          {"gaps", other.gaps},
                          {"requests", other.requests},
                          {"member_time_ms", round_to(other.member_time_ms, 3)},
                          {"values", other.values}});
  }
  j["other_delays"] = std::move(others);
  j["ambiguous_with"] =
      f.ambiguous_with.empty()
          ? Json()
          : Json{{"cause", f.ambiguous_with}, {"title", f.ambiguous_title}, {"confirm", f.ambiguous_confirm}};
  j["modifier"] = f.modifier ? Json{{"cause", f.modifier->cause},
                                    {"title", f.modifier->title},
                                    {"delay_label", f.modifier->delay_label},
                                    {"implies", f.modifier->implies},
                                    {"confidence", round_to(f.modifier->confidence, 4)}}
                             : Json();
  j["top_request"] = Json{{"id", f.top_request},
                          {"members", f.top_request_members},
                          {"gaps", f.top_request_gaps},
                          {"wall_share", round_to(f.top_request_share, 4)}};
  j["timeline"] = f.timeline ? timeline_json(*f.timeline) : Json();
  Json evidence = Json::array();
  for (const EvidenceResult& e : f.evidence) {
    evidence.push_back(Json{{"pattern", e.pattern},
                            {"scope", e.scope},
                            {"meaning", e.meaning},
                            {"weight", e.weight},
                            {"hits", e.hits},
                            {"samples", e.samples},
                            {"example", e.example}});
  }
  j["evidence"] = std::move(evidence);
  Json examples = Json::array();
  for (const GapExample& example : f.examples) examples.push_back(gap_example_json(example));
  j["examples"] = std::move(examples);
  j["confirm"] = f.confirm;
  j["fix"] = f.fix;
  j["references"] = f.references;
  Json alternatives = Json::array();
  for (const Alternative& a : f.alternatives) {
    alternatives.push_back(Json{{"cause", a.cause}, {"title", a.title}, {"confidence", round_to(a.confidence, 4)}});
  }
  j["alternatives"] = std::move(alternatives);
}

Json finding_json(const Finding& f) {
  Json j;
  add_basics(j, f);
  add_match(j, f);
  add_shape(j, f);
  add_trigger(j, f);
  add_details(j, f);
  add_evidence(j, f);
  return j;
}

Json run_json(const Run& run) {
  return Json{{"stream", run.stream},
              {"first", line_json(run.first)},
              {"last", line_json(run.last)},
              {"length", run.length},
              {"centre_ms", round_to(run.centre_ms, 4)},
              {"spread", round_to(run.spread, 5)},
              {"duration_ms", round_to(run.duration_ms, 3)},
              {"time_share", round_to(run.time_share, 4)},
              {"log10_p", round_to(run.log10_p, 2)}};
}

}  // namespace

Json lattice_json(const Lattice& q) {
  return Json{{"base_ms", round_to(q.base_ms, 5)},
              {"offset_ms", round_to(q.offset_ms, 5)},
              {"coherence", round_to(q.coherence, 4)},
              {"noise_rel", round_to(q.noise_rel, 4)},
              {"share", round_to(q.share, 4)},
              {"log10_p", round_to(q.log10_p, 2)},
              {"gaps", q.gaps},
              {"also_consistent_ms", q.also_consistent_ms},
              {"weak", q.weak}};
}

namespace {

/// One stream's own detections.
Json stream_json(const StreamReport& stream) {
  Json modes = Json::array();
  for (const StreamMode& mode : stream.modes) {
    modes.push_back(Json{{"centre_ms", round_to(mode.centre_ms, 4)},
                         {"lo_ms", round_to(mode.lo_ms, 4)},
                         {"hi_ms", round_to(mode.hi_ms, 4)},
                         {"count", mode.count},
                         {"expected", round_to(mode.expected, 4)},
                         {"log10_p", round_to(mode.log10_p, 2)}});
  }
  Json stream_runs = Json::array();
  for (const Run& run : stream.runs) stream_runs.push_back(run_json(run));
  Json stalls = Json::array();
  for (const StreamReport::Stall& stall : stream.stalls) {
    stalls.push_back(Json{{"line", stall.after.where},
                          {"text", stall.after.text},
                          {"gap_ms", round_to(stall.gap_ms, 4)},
                          {"median_ratio", round_to(stall.median_ratio, 2)},
                          {"log10_p", round_to(stall.log10_p, 2)}});
  }
  Json clocks = Json::array();
  for (const StreamReport::Clock& clock : stream.periodicity) {
    clocks.push_back(Json{{"kind", "locked"},
                          {"period_ms", round_to(clock.period_ms, 5)},
                          {"phase_ms", round_to(clock.phase_ms, 4)},
                          {"jitter_ms", round_to(clock.jitter_ms, 4)},
                          {"on_beat_share", round_to(clock.on_beat_share, 4)},
                          {"beats", clock.beats},
                          {"missing_beat_ratio", round_to(clock.missing_beat_ratio, 4)},
                          {"log10_p", round_to(clock.log10_p, 2)}});
  }
  return Json{{"stream", stream.stream},
              {"kind", stream.kind},
              {"label", stream.label},
              {"lines", stream.lines},
              {"span_ms", round_to(stream.span_ms, 3)},
              {"resolution_ms", stream.resolution_ms},
              {"zero_gap_share", round_to(stream.zero_gap_share, 4)},
              {"out_of_order", stream.out_of_order},
              {"modes", std::move(modes)},
              {"runs", std::move(stream_runs)},
              {"stalls", std::move(stalls)},
              {"periodicity", std::move(clocks)},
              {"quantisation", stream.quantisation ? lattice_json(*stream.quantisation) : Json()},
              {"renewal", stream.renewal ? Json{{"period_ms", round_to(stream.renewal->period_ms, 5)},
                                                {"jitter_ms", round_to(stream.renewal->jitter_ms, 4)},
                                                {"periodic_fraction", round_to(stream.renewal->periodic_fraction, 4)},
                                                {"beats", stream.renewal->beats},
                                                {"missing_beat_ratio", round_to(stream.renewal->missing_beat_ratio, 4)},
                                                {"log10_p", round_to(stream.renewal->log10_p, 2)}}
                                         : Json()}};
}

/// Line accounting, inputs and the analysis summary.
void add_accounting(Json& root, const Report& report) {
  const LineSummary& l = report.lines;
  Json unparsed = Json::array();
  for (const UnparsedLine& u : l.unparsed_examples) {
    unparsed.push_back(Json{{"where", u.where}, {"reason", u.reason}, {"text", u.text}});
  }
  root["lines"] = Json{{"total", l.lines},
                       {"records", l.records},
                       {"continuation", l.continuation},
                       {"untimed", l.untimed},
                       {"blank", l.blank},
                       {"comment", l.comment},
                       {"unparsed", l.unparsed},
                       {"truncated", l.truncated},
                       {"by_format", l.by_format},
                       {"unparsed_examples", std::move(unparsed)}};
  Json inputs = Json::array();
  for (const Input& input : report.inputs) {
    inputs.push_back(Json{{"name", input.name},
                          {"format", input.format},
                          {"encoding", input.encoding},
                          {"lines", input.lines},
                          {"bytes", input.bytes},
                          {"error", input.error.empty() ? Json() : Json(input.error)},
                          {"unread", input.unread.empty() ? Json() : Json(input.unread)},
                          {"format_file_sketch", input.sketch.empty() ? Json() : Json(input.sketch)}});
  }
  root["inputs"] = std::move(inputs);
  const Analysis& a = report.analysis;
  root["analysis"] = Json{{"streams", a.streams},
                          {"derived_streams", a.derived_streams},
                          {"derived_windows", a.derived_windows},
                          {"derived_windows_tested", a.derived_windows_tested},
                          {"pacing_windows", a.pacing_windows},
                          {"pacing_gaps", a.pacing_gaps},
                          {"windows", a.windows},
                          {"keyed_windows", a.keyed_windows},
                          {"windows_tested", a.windows_tested},
                          {"gaps", a.gaps},
                          {"zero_gaps", a.zero_gaps},
                          {"out_of_order", a.out_of_order},
                          {"clock_steps", a.clock_steps},
                          {"largest_clock_step_s", a.largest_clock_step_s},
                          {"largest_clock_step_at", a.clock_steps > 0 ? Json(a.largest_clock_step_at) : Json()},
                          {"resolution_ms", a.resolution_ms},
                          {"pooled_test", a.pooled_test},
                          {"idle_closed", a.idle_closed},
                          {"early_flushes", a.early_flushes},
                          {"spilled_bytes", a.spilled_bytes},
                          {"gap_median_ms", round_to(a.gap_median_ms, 6)},
                          {"gap_p90_ms", round_to(a.gap_p90_ms, 6)},
                          {"gap_p99_ms", round_to(a.gap_p99_ms, 6)},
                          {"largest_gap", a.largest_gap ? gap_example_json(*a.largest_gap) : Json()},
                          {"gap_histogram", Json{{"bins_per_octave", Analysis::k_histogram_bins_per_octave},
                                                 {"from_ms", 0.001},
                                                 {"counts", a.gap_histogram}}}};
}

}  // namespace

std::string render_json(const Report& report) {
  Json root;
  root["version"] = k_json_version;
  root["tool"] = Json{{"name", "gapscan"}, {"version", report.tool_version}};
  root["likely_threshold"] = report.likely_threshold;
  Json findings = Json::array();
  for (const Finding& f : report.findings) findings.push_back(finding_json(f));
  root["findings"] = std::move(findings);
  Json runs = Json::array();
  for (const Run& run : report.runs) runs.push_back(run_json(run));
  root["runs"] = std::move(runs);
  root["quantisation"] = report.quantisation ? lattice_json(*report.quantisation) : Json();
  Json timers = Json::array();
  for (const Report::Timer& timer : report.timers) {
    timers.push_back(Json{{"period_ms", round_to(timer.period_ms, 4)},
                          {"gaps", timer.gaps},
                          {"template", timer.template_text},
                          {"example", Json{{"where", timer.example.where}, {"text", timer.example.text}}}});
  }
  root["timers"] = std::move(timers);
  Json streams = Json::array();
  for (const StreamReport& stream : report.streams) streams.push_back(stream_json(stream));
  root["streams"] = std::move(streams);
  Json phases = Json::array();
  for (const PhaseRow& row : report.phases) {
    Json finding;
    if (row.finding_rank > 0) {
      finding = Json{{"rank", row.finding_rank},
                     {"cause", row.cause},
                     {"lo_ms", round_to(row.lo_ms, 4)},
                     {"hi_ms", round_to(row.hi_ms, 4)},
                     {"values", row.in_band}};
    }
    phases.push_back(Json{{"phase", row.phase},
                          {"requests", row.requests},
                          {"spent", row.spent},
                          {"time_share", round_to(row.time_share, 4)},
                          {"median_ms", round_to(row.median_ms, 4)},
                          {"p90_ms", round_to(row.p90_ms, 4)},
                          {"longest_ms", round_to(row.longest_ms, 4)},
                          {"finding", std::move(finding)}});
  }
  root["phases"] = Json{{"requests", report.phase_requests}, {"rows", std::move(phases)}};

  add_accounting(root, report);
  root["catalog"] = Json{{"origin", report.catalog_origin}, {"causes", report.catalog_causes}};
  Json diagnostics = Json::array();
  for (const Diagnostic& d : report.diagnostics) {
    diagnostics.push_back(Json{{"severity", d.severity == Severity::error     ? "error"
                                            : d.severity == Severity::warning ? "warning"
                                                                              : "note"},
                               {"where", d.where},
                               {"message", d.message},
                               {"hint", d.hint}});
  }
  root["diagnostics"] = std::move(diagnostics);
  return root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gapscan::report
