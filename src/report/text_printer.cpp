#include <gapscan/report/printers.hpp>
#include <gapscan/report/units.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>

namespace gapscan::report {
namespace {

/// What a wall-clock slowdown's values are, in words.
std::string_view wall_clock_values(std::string_view series) {
  return series == "requests" ? "requests"
         : series == "gaps"   ? "the gaps between a request's lines"
                              : "the durations the lines log";
}

void list(std::string& out, std::string_view heading, const std::vector<std::string>& items) {
  if (items.empty()) return;
  out += fmt::format("    {:<11}", heading);
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += fmt::format("{}- {}\n", i == 0 ? "" : std::string(15, ' '), items[i]);
  }
}

/// --explain: the score's components (docs/ranking.md) and every evidence pattern tested.
void print_explain(std::string& out, const Finding& f) {
  if (f.cause == "unknown") {
    out += fmt::format("    {:<11}C {:.2f} = 0.5 × S {:.2f} (no cause in the catalog reaches 0.05)\n", "Score",
                       f.confidence, f.significance);
  } else {
    out += fmt::format(
        "    {:<11}C {:.2f} = S {:.2f} × M {:.2f} × H {:.2f} × (1 − ε + ε·E) {:.2f} [ε {:.2f}, E {:.2f}] × K {:.2f}\n",
        "Score", f.confidence, f.significance, f.value_match, f.shape_factor,
        1 - f.evidence_weight + f.evidence_weight * f.evidence_score, f.evidence_weight, f.evidence_score,
        f.counter_evidence);
  }
  const char* tier = f.likely ? "likely" : f.unexplained ? "unexplained delay" : "other";
  out += fmt::format("    {:<11}R {:.3f} = C × (0.5 + 0.5 · min(1, wall {} / 30 %)); tier: {}\n", "", f.rank_score,
                     percent(f.wall_share), tier);
  for (const EvidenceResult& e : f.evidence) {
    out += fmt::format("    {:<11}{:+.2f} {:<8} {}/{}  {}\n", "  pattern", e.weight, e.scope, e.hits, e.samples,
                       e.pattern.substr(0, 90));
    if (!e.example.empty()) out += fmt::format("    {:<11}           e.g. {}\n", "", e.example.substr(0, 100));
  }
}

/// When the stalls happened: inside one window, or scattered at a steady rate.
std::string timing_text(const Finding::Timing& t, std::string_view noun) {
  if (t.kind == "window") {
    return fmt::format(
        "{} of {} {} from {} to {} UTC are stalls, {} of {} before or after: a stretch "
        "when every operation stalled ({})",
        count(t.inside_stalls), count(t.inside), noun, t.start, t.end, count(t.outside_stalls), count(t.outside),
        p_value(t.log10_p));
  }
  return fmt::format("{} of {} {}, scattered at a steady rate from {} to {} UTC (no stretch holds them)",
                     count(t.inside_stalls), count(t.inside), noun, t.start, t.end);
}

/// What the finding is: its period, stalls, durations or gap band, and where it was seen.
void print_values(std::string& out, const Finding& f) {
  if (f.wall_clock) {
    const Finding::WallClock& w = *f.wall_clock;
    out += fmt::format(
        "    {:<11}{} (UTC): {} there are {:.2f} times as long (geometric mean {}, against {} at other "
        "moments)\n",
        "Slowdown", clock_place(w.fold, w.start, w.width), wall_clock_values(w.series), w.ratio, duration(w.inside_ms),
        duration(w.outside_ms));
    out += fmt::format(
        "    {:<11}slower there in {} of {} {}s; {} of {} values fall there; {} of their time is the "
        "slowdown's (PERIODIC, on the wall clock)\n",
        "Seen", count(w.slower), count(w.cycles), w.fold, count(w.values_in), count(w.values_in + w.values_out),
        percent(f.wall_share));
    for (const Finding::WallClock::JobLine& job : w.job_lines)
      out += fmt::format("    {:<11}{}  {}: {} of its {} lines at or just before then\n", "Job", job.line.where,
                         job.line.text.substr(0, 120), count(job.aligned), count(job.lines));
  } else if (f.saturation) {
    const Finding::Saturation& w = *f.saturation;
    out += fmt::format("    {:<11}{} of {} requests waited in the {} phase, {}–{} (p10–p90), median {}, longest {}\n",
                       "Waited", count(w.waited), count(w.requests), w.phase, duration(w.p10_ms), duration(w.p90_ms),
                       duration(w.p50_ms), duration(w.longest_ms));
    out += fmt::format("    {:<11}{} of the requests' time spent waiting there: spread over a range, no fixed delay\n",
                       "Share", percent(w.time_share));
  } else if (f.periodic && f.periodic->renewal) {
    const Finding::Periodic& p = *f.periodic;
    out += fmt::format("    {:<11}{} (a loop: its lines recur every {} ± {}, with no fixed phase)\n", "Period",
                       duration(f.interval_ms), duration(f.interval_ms), duration(p.jitter_ms));
    out += fmt::format(
        "    {:<11}{} lines on chains one period apart in {} stream{} ({} of the best stream's lines; "
        "{} of the steps skip a beat) (PERIODIC, renewal)\n",
        "Seen", count(f.gaps), count(f.requests), f.requests == 1 ? "" : "s", percent(p.on_beat_share),
        percent(p.missing_beat_ratio));
  } else if (f.periodic) {
    const Finding::Periodic& p = *f.periodic;
    out += fmt::format("    {:<11}{} (beat at {} into each period, jitter {})\n", "Period", duration(f.interval_ms),
                       duration(p.phase_ms), duration(p.jitter_ms));
    out += fmt::format(
        "    {:<11}{} stalls (gaps of {} or more) end on the beat, in {} of {} periods ({} missed); {} of the stall "
        "time (PERIODIC)\n",
        "Seen", count(f.gaps), duration(p.stall_min_ms), count(p.beats),
        count(p.beats + static_cast<std::uint64_t>(std::llround(static_cast<double>(p.beats) * p.missing_beat_ratio /
                                                                std::max(1e-9, 1 - p.missing_beat_ratio)))),
        percent(p.missing_beat_ratio), percent(f.wall_share));
  } else if (f.trigger) {
    const Finding::Trigger& t = *f.trigger;
    out += fmt::format("    {:<11}{} (80 % of the stalls in {}–{})\n", "Stall", duration(f.interval_ms),
                       duration(f.interval_lo_ms), duration(f.interval_hi_ms));
    out += fmt::format(
        "    {:<11}{}: {} of {} occurrence{} with stalls around {} (ONE-OFF; {} matching line{}, those "
        "within a second of each other counted once)\n",
        "Trigger", t.meaning.empty() ? "lines matching " + t.pattern : t.meaning, count(t.aligned),
        count(t.occurrences), t.occurrences == 1 ? "" : "s", t.aligned == 1 ? "it" : "them", count(t.lines),
        t.lines == 1 ? "" : "s");
    if (t.outside > 0)
      out += fmt::format("    {:<11}{} more occurrence{} while no other stream wrote lines: not tested\n", "",
                         count(t.outside), t.outside == 1 ? "" : "s");
    out += fmt::format(
        "    {:<11}{} stalled stream{} around those lines (other requests, workers or inputs); {} of their wall time\n",
        "Seen", count(f.requests), f.requests == 1 ? "" : "s", percent(f.wall_share));
  } else if (f.values == "durations") {
    out += fmt::format("    {:<11}{} (80 % of the durations in {}–{})\n", "Duration", duration(f.interval_ms),
                       duration(f.interval_lo_ms), duration(f.interval_hi_ms));
    out += fmt::format("    {:<11}{} of {} logged durations{} ({}); {} of the logged time\n", "Seen", count(f.gaps),
                       count(f.duration_values), f.group.empty() ? std::string() : " in group " + f.group, f.shape,
                       percent(f.wall_share));
  } else {
    std::string interval = fmt::format("{} (80 % of gaps in {}–{})", duration(f.interval_ms),
                                       duration(f.interval_lo_ms), duration(f.interval_hi_ms));
    if (f.band_satellite_ms)
      interval =
          fmt::format("{}–{} (80 % of gaps): stalls ending at {} and at {}, one tick later", duration(f.interval_lo_ms),
                      duration(f.interval_hi_ms), duration(*f.delay_value_ms), duration(*f.band_satellite_ms));
    if (f.satellite_ms)
      interval += fmt::format(", satellite at {} ({} gaps)", duration(*f.satellite_ms), count(f.satellite_gaps));
    out += fmt::format("    {:<11}{}\n", "Interval", interval);
    if (!f.ticks_above.empty() && f.band_satellite_ms && f.delay_value_ms) {
      std::string modes;
      for (const Finding::TickMode& mode : f.ticks_above)
        modes += fmt::format("{}{} ({} gaps)", modes.empty() ? "" : ", ", duration(mode.interval_ms), count(mode.gaps));
      out +=
          fmt::format("    {:<11}{}: the same stall with think time of whole ticks ({}) above the {} floor\n", "Above",
                      modes, duration(*f.band_satellite_ms - *f.delay_value_ms), duration(*f.delay_value_ms));
    } else if (!f.ticks_above.empty()) {
      std::string modes;
      for (const Finding::TickMode& mode : f.ticks_above)
        modes += fmt::format("{}{} ({} gaps)", modes.empty() ? "" : ", ", duration(mode.interval_ms), count(mode.gaps));
      out += fmt::format("    {:<11}{}: whole ticks above the floor, the same stall\n", "Above", modes);
    }
    out += fmt::format("    {:<11}{} gaps in {} request{} ({}); {} of those requests' wall time\n", "Seen",
                       count(f.gaps), count(f.requests), f.requests == 1 ? "" : "s", f.shape, percent(f.wall_share));
  }
  if (!f.other_delays.empty()) {
    std::string others;
    for (const Finding::OtherDelay& other : f.other_delays) {
      others += fmt::format("{}{} ({} {}, {} in all)", others.empty() ? "" : ", ", duration(other.interval_ms),
                            count(other.gaps), other.values, duration(other.member_time_ms));
    }
    out += fmt::format("    {:<11}{}; the delay above holds the most time ({})\n", "Also", others,
                       duration(f.member_time_ms));
  }
}

/// What the finding's details add under its values: the kind of line its stalls follow, the
/// input's arrival stamps, a cause that fits as well, a modifier.
void print_details(std::string& out, const Finding& f) {
  if (f.timing)
    out += fmt::format("    {:<11}{}\n", "When",
                       timing_text(*f.timing, f.values == "durations" ? "values" : "gaps after the line"));
  if (f.wait_point) {
    const Finding::WaitPoint& w = *f.wait_point;
    out += fmt::format(
        "    {:<11}after `{}`: {} of {} gaps at {}–{}, usually {}{}\n", "Waits",
        w.template_text.empty() ? std::string("(a line whose template was not kept)") : w.template_text,
        count(w.in_band), count(w.gaps_after), duration(f.interval_lo_ms), duration(f.interval_hi_ms),
        duration(w.usual_ms),
        w.reported > 0 ? fmt::format("; the next line logs the wait in {}", count(w.reported)) : std::string());
  }
  if (f.arrival) {
    const Finding::Arrival& a = *f.arrival;
    if (a.bursts) {
      out += fmt::format(
          "    {:<11}{} of {} lines came in {} bursts of a median {} lines within {} each, then {} of nothing\n",
          "Bursts", count(a.burst_lines), count(a.lines), count(a.burst_count),
          count(static_cast<std::uint64_t>(a.median_size)), duration(a.median_length_ms), duration(f.interval_ms));
    }
    if (a.early > 0) {
      out += fmt::format(
          "    {:<11}{} of {} request lines that log 5 ms or more are stamped sooner after their request's first line "
          "than half of it\n",
          "Stamps", count(a.early), count(a.timed));
    }
    out += fmt::format(
        "    {:<11}the stamps of {} are when its lines arrived, not when they were written: its gaps are the "
        "carrier's{}\n",
        "So", a.input.empty() ? std::string("this input") : a.input,
        a.set_aside > 0
            ? fmt::format("; {} other finding{} of it set aside", count(a.set_aside), a.set_aside == 1 ? "" : "s")
            : std::string());
  }
  if (!f.ambiguous_with.empty()) {
    out += fmt::format("    {:<11}{} fits as well: the lines do not say which{}\n", "Or", f.ambiguous_with,
                       f.ambiguous_confirm.empty() ? std::string() : "; to tell: " + f.ambiguous_confirm);
  }
  if (f.modifier) {
    out += fmt::format("    {:<11}{} ({}): {}\n", "Modifier", f.modifier->cause, f.modifier->delay_label,
                       f.modifier->implies.empty() ? f.modifier->title : f.modifier->implies);
  }
}

/// The lattice it sits on, the worst request, logged durations in the same interval.
void print_lattice_and_worst(std::string& out, const Finding& f) {
  if (f.lattice) {
    std::string modes;
    for (const auto& [multiple, gaps] : f.lattice->modes)
      modes += fmt::format("{}{} × ({} gaps)", modes.empty() ? "" : ", ", multiple, count(gaps));
    out += fmt::format(
        "    {:<11}{} of the gaps sit on multiples of {} ({} multiples in use); the modes at {} are one loop "
        "on a timer, not a delay each operation pays{}\n",
        "Lattice", percent(f.lattice->share), duration(f.lattice->base_ms), f.lattice->occupied, modes,
        f.lattice->keeps_clock ? "; its stalls also end on a clock of that period" : "");
  }
  if (f.top_request_members > 0 && !f.lattice) {
    out += fmt::format("    {:<11}{}: {} of its {} gaps, {} of its wall time\n", "Worst",
                       f.top_request.empty() ? std::string("whole input") : "request " + f.top_request,
                       count(f.top_request_members), count(f.top_request_gaps), percent(f.top_request_share));
  }
  if (f.logged_durations > 0) {
    out += fmt::format("    {:<11}{} logged durations (request times, elapsed=…) fall in the same interval\n", "Also",
                       count(f.logged_durations));
  }
}

/// How significant it is, what the matched window implies.
void print_strength(std::string& out, const Finding& f) {
  std::string strength;
  if (f.log10_p_per_request < 0)
    strength += p_value(f.log10_p_per_request) +
                fmt::format(" in the requests' own tests ({} of {})", count(f.requests_detected), count(f.requests));
  if (f.wall_clock)
    strength += p_value(f.log10_p) +
                fmt::format(
                    " that the {0}s are slower there than at their other moments (their contrasts' random-effects "
                    "mean, every window of the {0} tried); {1} of {2} draws with each {0} turned by its own "
                    "offset did as well",
                    f.wall_clock->fold, count(f.wall_clock->beaten), count(f.wall_clock->draws));
  else if (f.log10_p_pooled < 0 && f.trigger)
    strength += p_value(f.log10_p_pooled) +
                fmt::format(" that other streams stall around these lines more than at {} moments spread over the log",
                            count(f.trigger->null_draws));
  else if (f.log10_p_pooled < 0 && f.periodic && f.periodic->renewal)
    strength += p_value(f.log10_p_pooled) +
                " that the differences between lines pile up at 1, 2 and 3 periods (pair-difference comb)";
  else if (f.log10_p_pooled < 0 && f.periodic)
    strength += p_value(f.log10_p_pooled) + " that the stall ends keep this clock (blocked Hotelling test)";
  else if (f.log10_p_pooled < 0)
    strength += (strength.empty() ? "" : "; ") + p_value(f.log10_p_pooled) + " pooled over all requests";
  out += fmt::format("    {:<11}{}\n", "Strength", strength);
  if (!f.implies.empty()) out += fmt::format("    {:<11}{}\n", "Implies", f.implies);
  if (!f.delay_label.empty()) {
    std::string where = f.delay_compare_upper
                            ? fmt::format("; the band ends at {}", duration(*f.delay_value_ms + f.delay_offset_ms))
                            : std::string();
    if (f.band_satellite_ms)
      where = fmt::format("; the band runs on to its satellite {} and ends at {}", duration(*f.band_satellite_ms),
                          duration(*f.band_satellite_ms + f.delay_offset_ms));
    const std::string value =
        f.delay_late_ms > 0
            ? fmt::format("catalog window {}–{}", duration(f.delay_window_lo_ms), duration(f.delay_window_hi_ms))
            : fmt::format("catalog value {} ± {}", duration(*f.delay_value_ms), duration(*f.delay_tolerance_ms));
    out += fmt::format("    {:<11}{} ({}{})\n", "Matches", f.delay_label, value, where);
  }
}

/// Evidence for and against, and a typical trigger line with the stalls around it.
void print_evidence(std::string& out, const Finding& f) {
  bool first = true, first_against = true;
  for (const EvidenceResult& e : f.evidence) {
    if (e.hits == 0) continue;
    const bool against = e.weight < 0;
    const std::string seen = e.scope == "file" ? std::string("seen in the log")
                             : e.scope == "fact"
                                 ? fmt::format("{} of {} {}", e.hits, e.samples,
                                               f.wall_clock ? f.wall_clock->fold + "s" : std::string("stalls"))
                                 : fmt::format("{} of {} example gaps", e.hits, e.samples);
    out += fmt::format("    {:<11}{}: {}\n", against ? (first_against ? "Against" : "") : (first ? "Evidence" : ""),
                       e.meaning, seen);
    (against ? first_against : first) = false;
  }
  if (first && first_against && !f.evidence.empty())
    out += fmt::format("    {:<11}none of the catalog's evidence patterns matched the lines around the gaps\n",
                       "Evidence");
  if (f.trigger && !f.trigger->examples.empty()) {
    const Finding::Trigger::Occurrence& o = f.trigger->examples.front();
    out += fmt::format("    Typical trigger ({} of {} other streams stalled around it; {}):\n", count(o.stalled),
                       count(o.active), p_value(o.log10_p));
    out += fmt::format("      {}  {}\n", o.line.where, o.line.text);
    for (std::size_t i = 0; i < o.stalls.size() && i < 3; ++i) {
      const Finding::Trigger::Stalled& stall = o.stalls[i];
      const double end_ms = stall.start_ms + stall.gap_ms;
      out += fmt::format("        ↳ {} had no line for {}: from {} {} the trigger to {} {} it ({})\n",
                         stall.request.empty() ? std::string("the input") : "request " + stall.request,
                         duration(stall.gap_ms), duration(std::abs(stall.start_ms)),
                         stall.start_ms < 0 ? "before" : "after", duration(std::abs(end_ms)),
                         end_ms < 0 ? "before" : "after", stall.where);
    }
  }
}

/// One typical gap (or line, for durations) with its lines.
void print_typical(std::string& out, const Finding& f) {
  for (std::size_t i = 0; i < f.examples.size() && i < 1; ++i) {
    const GapExample& example = f.examples[i];
    if (f.wall_clock) {
      out += fmt::format("    Slowest there ({}{}):\n", duration(example.gap_ms),
                         example.request.empty() ? "" : ", request " + example.request);
      for (const LineRef& line : example.before) out += fmt::format("      {}  {}\n", line.where, line.text);
      out += fmt::format("      {}  {}\n", example.after.where, example.after.text);
      continue;
    }
    if (f.values == "durations") {
      out += fmt::format("    Typical line (logs {}):\n", duration(example.gap_ms));
      out += fmt::format("      {}  {}\n", example.after.where, example.after.text);
      continue;
    }
    out += fmt::format("    Typical gap{}:\n", example.request.empty() ? "" : " (request " + example.request + ")");
    for (const LineRef& line : example.before) out += fmt::format("      {}  {}\n", line.where, line.text);
    out += fmt::format("      {:>{}}  ↓ {}\n", "", example.before.empty() ? 0 : example.before.back().where.size(),
                       duration(example.gap_ms));
    out += fmt::format("      {}  {}\n", example.after.where, example.after.text);
  }
}

/// Score terms (--explain), how to confirm, the fix, references, other fitting causes.
void print_actions(std::string& out, const Finding& f, bool explain) {
  if (explain) print_explain(out, f);
  list(out, "Confirm", f.confirm);
  list(out, "Fix", f.fix);
  list(out, "References", f.references);
  if (!f.alternatives.empty()) {
    std::string also;
    for (const Alternative& a : f.alternatives) {
      also += fmt::format("{}{} ({:.2f})", also.empty() ? "" : ", ", a.cause, a.confidence);
    }
    out += fmt::format("    {:<11}{}\n", "Also fits", also);
  }
  out += "\n";
}

/// The gaps of all requests on a log axis, the suspect's interval marked under them.
void print_histogram(std::string& out, const Finding& f, const Analysis& a, std::size_t width) {
  if (f.values == "durations" || f.wall_clock) return;  // the picture is of gaps, not of durations or a clock
  // 15 columns of indent and label, about 25 for the interval after the marks.
  const std::size_t columns = std::clamp<std::size_t>(width > 40 ? width - 40 : 16, 16, 124);
  const auto lines = histogram_lines(a.gap_histogram, f.interval_lo_ms, f.interval_hi_ms, columns, f.delay_window_lo_ms,
                                     f.delay_window_hi_ms);
  if (lines.size() != 3) return;
  out += fmt::format("    {:<11}{}\n", "All gaps", lines[0]);
  out += fmt::format("    {:<11}{}  ^ {}–{}{}\n", "", lines[1], duration(f.interval_lo_ms), duration(f.interval_hi_ms),
                     f.delay_window_hi_ms > 0 ? fmt::format(", = catalog {}–{}", duration(f.delay_window_lo_ms),
                                                            duration(f.delay_window_hi_ms))
                                              : std::string());
  out += fmt::format("    {:<11}{}  (log axis; bar height: log of the count)\n", "", lines[2]);
}

/// The worst request's lines on a time axis, its stalls (gaps in the interval) marked.
void print_timeline(std::string& out, const Finding& f, std::size_t width) {
  if (!f.timeline) return;
  const Timeline& t = *f.timeline;
  const std::size_t columns = std::clamp<std::size_t>(width > 15 ? width - 15 : 16, 16, 160);
  const auto lines = timeline_lines(t, columns);
  if (lines.size() != 3) return;
  out += fmt::format("    {:<11}{}, lines {}–{} of {}: {} stall{} of {}–{} = {} ({} of {})\n", "Timeline",
                     t.request.empty() ? std::string("whole input") : "request " + t.request, count(t.first_index + 1),
                     count(t.first_index + t.points.size()), count(t.window_lines), count(t.stalls),
                     t.stalls == 1 ? "" : "s", duration(t.lo_ms), duration(t.hi_ms), duration(t.stall_ms),
                     percent(t.stall_share), duration(t.span_ms));
  out += fmt::format("    {:<11}{}\n", "  lines", lines[0]);
  out += fmt::format("    {:<11}{}\n", "  stalls", lines[1]);
  out += fmt::format("    {:<11}{}\n", "", lines[2]);
  if (t.longest > 0) {
    const Timeline::Point& after = t.points[t.longest];
    out += fmt::format("    {:<11}{} at +{}, before {}\n", "  longest", duration(after.gap_ms),
                       duration(after.offset_ms - after.gap_ms), after.where);
  }
}

void print_finding(std::string& out, const Finding& f, const Analysis& a, const TextStyle& style, bool explain) {
  out += fmt::format("#{}  {}\n", f.rank, f.title);
  out += fmt::format("    {} · confidence {:.2f} · {}\n", f.likely ? "likely" : "possible", f.confidence, f.cause);
  print_values(out, f);
  print_details(out, f);
  print_histogram(out, f, a, style.width);
  print_lattice_and_worst(out, f);
  print_timeline(out, f, style.width);
  print_strength(out, f);
  print_evidence(out, f);
  print_typical(out, f);
  print_actions(out, f, explain);
}

/// One row per suspect below the likely and unexplained tiers.
void print_others(std::string& out, const Report& report) {
  out += "Other significant gap modes (below confidence " + fmt::format("{:.1f}", report.likely_threshold) + ")\n";
  out += fmt::format("  {:>4}  {:>12}  {:<9}  {:>9}  {:>8}  {:>6}  {:>10}  {}\n", "rank", "value", "of", "count",
                     "requests", "wall", "confidence", "cause");
  for (const Finding& f : report.findings) {
    if (f.likely || f.unexplained) continue;
    const std::string kind = f.periodic                ? "period"
                             : f.trigger               ? "stalls"
                             : f.values == "durations" ? "durations"
                                                       : "gaps";
    out += fmt::format("  {:>4}  {:>12}  {:<9}  {:>9}  {:>8}  {:>6}  {:>10.2f}  {}\n", f.rank, duration(f.interval_ms),
                       kind, count(f.gaps), count(f.requests), percent(f.wall_share), f.confidence, f.cause);
    if (report.explain) {
      std::string explained;
      print_explain(explained, f);
      out += explained;
    }
  }
  out += "\n";
}

/// What a user checks when nothing is named: the gap distribution and the largest gap with
/// its lines.
void print_gap_summary(std::string& out, const Analysis& a) {
  if (a.gaps == 0) {
    out += "No gap measured: fewer than two timed lines in any request.\n";
    return;
  }
  out += fmt::format("Gaps between the lines of a request: {}; median {}, p90 {}, p99 {}", count(a.gaps),
                     duration(a.gap_median_ms), duration(a.gap_p90_ms), duration(a.gap_p99_ms));
  if (!a.largest_gap) {
    out += "\n";
    return;
  }
  const GapExample& largest = *a.largest_gap;
  out += fmt::format(", largest {}{}\n", duration(largest.gap_ms),
                     largest.request.empty() ? std::string() : " in request " + largest.request);
  for (const LineRef& line : largest.before) out += fmt::format("    {}  {}\n", line.where, line.text.substr(0, 100));
  out += fmt::format("    {}  {}\n", largest.after.where, largest.after.text.substr(0, 100));
}

/// ANSI colour on the report's own layout, after log text was made safe: headings and suspect
/// titles bold, the tier green (likely) or yellow, the histogram's marks and the timeline's
/// stalls red. Only lines that
/// start as the report's own do (a log line is always indented behind its file:line), so log
/// text cannot take colour.
std::string colorize(const std::string& text) {
  constexpr std::string_view bold = "\x1b[1m", green = "\x1b[32m", yellow = "\x1b[33m", red = "\x1b[31m",
                             reset = "\x1b[0m";
  std::string out;
  bool marks_next = false;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    const bool heading = line.starts_with("Profile") || line.starts_with("Phases") ||
                         line.starts_with("Suspected causes") || line.starts_with("Unexplained delays") ||
                         line.starts_with("No suspected cause") || line.starts_with("No characteristic delay found") ||
                         line.starts_with("Other significant") ||
                         (line.size() > 1 && line[0] == '#' && line[1] >= '1' && line[1] <= '9');
    if (heading) {
      line = std::string(bold) + line + std::string(reset);
    } else if (line.starts_with("    likely · ")) {
      line = "    " + std::string(green) + "likely" + std::string(reset) + line.substr(10);
    } else if (line.starts_with("    possible · ")) {
      line = "    " + std::string(yellow) + "possible" + std::string(reset) + line.substr(12);
    } else if (line.starts_with("      stalls   ") && line.size() > 15) {
      line = line.substr(0, 15) + std::string(red) + line.substr(15) + std::string(reset);
    } else if (marks_next) {
      // The marks (^ and =) run up to the legend, which starts with "  ^ ".
      const std::size_t legend = line.rfind("  ^ ");
      const std::size_t first = line.find_first_not_of(' ');
      if (legend != std::string::npos && first < legend) {
        line = line.substr(0, first) + std::string(red) + line.substr(first, legend - first) + std::string(reset) +
               line.substr(legend);
      }
    }
    marks_next = line.starts_with("    All gaps   ");
    out += line;
    if (end < text.size()) out += '\n';
    start = end + 1;
  }
  return out;
}

/// One row per suspect, in the manner of pt-query-digest's profile: what to read first.
void print_profile(std::string& out, const Report& report) {
  out += "Profile\n";
  out += fmt::format("  {:>4}  {:<15}  {:<36}  {:>10}  {:>9}  {:>8}  {:>6}\n", "rank", "confidence", "cause",
                     "interval", "count", "requests", "wall");
  for (const Finding& f : report.findings) {
    const std::string tier = f.likely ? "likely" : f.unexplained ? "unexplained" : "possible";
    std::string cause = f.cause.size() > 36 ? f.cause.substr(0, 35) + "…" : f.cause;
    out += fmt::format("  {:>4}  {:.2f} {:<10}  {:<36}  {:>10}  {:>9}  {:>8}  {:>6}\n", f.rank, f.confidence, tier,
                       cause, duration(f.interval_ms), count(f.gaps), count(f.requests), percent(f.wall_share));
  }
  out += "\n";
}

/// Where the requests' time went, by the phase timers their lines log, most time first.
void print_phases(std::string& out, const Report& report) {
  if (report.phases.empty()) return;
  out += fmt::format("Phases: where the time of {} timed request{} went (their lines' own timers)\n",
                     count(report.phase_requests), report.phase_requests == 1 ? "" : "s");
  for (const PhaseRow& row : report.phases) {
    std::string what;
    if (row.finding_rank > 0) {
      what = fmt::format("{} of {} requests at {}–{} ({}), #{} {}", count(row.in_band), count(row.requests),
                         duration(row.lo_ms), duration(row.hi_ms),
                         percent(static_cast<double>(row.in_band) / static_cast<double>(row.requests)),
                         row.finding_rank, row.cause);
    } else {
      what = fmt::format("{} of {} requests 1 ms or more, p90 {}, longest {}", count(row.spent), count(row.requests),
                         (row.p90_ms > 0 ? duration(row.p90_ms) : std::string("0")), duration(row.longest_ms));
    }
    out += fmt::format("  {:<9} {:>6} of the time  {}; usually {}\n", row.phase, percent(row.time_share), what,
                       row.median_ms > 0 ? duration(row.median_ms) : std::string("0"));
  }
  out += "\n";
}

/// The suspects in full, by tier: likely causes, unexplained delays, or "nothing found".
void print_suspects(std::string& out, const Report& report, const TextStyle& style) {
  std::size_t likely = 0;
  for (const Finding& f : report.findings) likely += f.likely ? 1 : 0;

  std::size_t unexplained = 0;
  for (const Finding& f : report.findings) unexplained += f.unexplained ? 1 : 0;
  // Findings are ranked by tier (likely, unexplained delays, the rest), so the sections below
  // print the ranks in order.
  if (likely + unexplained > 0) print_profile(out, report);
  print_phases(out, report);
  if (likely > 0) {
    out += fmt::format("Suspected causes, most likely first ({} likely)\n\n", likely);
    for (const Finding& f : report.findings) {
      if (f.likely) print_finding(out, f, report.analysis, style, report.explain);
    }
  }
  if (unexplained > 0) {
    const std::string share = percent(report.unexplained_wall_share);
    if (likely > 0)
      out += fmt::format("Unexplained delays (significant, each {} or more of its requests' wall time)\n\n", share);
    else
      out += fmt::format(
          "No suspected cause reaches confidence {:.1f}, but {} significant delay{} hold{} {} or more of the "
          "requests' wall time: unexplained\n\n",
          report.likely_threshold, unexplained, unexplained == 1 ? "" : "s", unexplained == 1 ? "s" : "", share);
    for (const Finding& f : report.findings) {
      if (f.unexplained) print_finding(out, f, report.analysis, style, report.explain);
    }
  }
  if (likely == 0 && unexplained == 0) {
    out += "No characteristic delay found: no suspected cause reaches confidence " +
           fmt::format("{:.1f}.\n", report.likely_threshold);
    if (report.findings.empty()) {
      out += "No significant gap mode in any request or across requests.\n";
    }
    print_gap_summary(out, report.analysis);
    out += "\n";
  }
  if (likely + unexplained < report.findings.size()) print_others(out, report);
}

/// The most significant runs of near-equal consecutive gaps.
void print_runs(std::string& out, const Report& report) {
  if (!report.runs.empty()) {
    const std::size_t shown = std::min<std::size_t>(3, report.runs.size());
    out += fmt::format("Runs of near-equal consecutive gaps ({} most significant of {})\n", shown, report.runs.size());
    for (std::size_t i = 0; i < shown; ++i) {
      const Run& run = report.runs[i];
      out += fmt::format("  {} gaps of {} (spread {}) in {}: {}, {} of its wall time; {}\n", count(run.length),
                         duration(run.centre_ms), percent(run.spread),
                         run.stream.empty() ? std::string("the whole input") : "request " + run.stream,
                         duration(run.duration_ms), percent(run.time_share), p_value(run.log10_p));
      out += fmt::format("    from {}  {}\n", run.first.where, run.first.text.substr(0, 100));
      out += fmt::format("    to   {}  {}\n", run.last.where, run.last.text.substr(0, 100));
    }
    out += "\n";
  }
}

/// Modes of message-template, process and whole-input streams that stand out after the
/// correction for all such streams tested.
void print_derived(std::string& out, const Report& report) {
  // Derived streams: modes that stand out after the correction for all such streams tested.
  {
    const double log10_tested =
        std::log10(static_cast<double>(std::max<std::uint64_t>(1, report.analysis.derived_windows_tested)));
    std::vector<const StreamReport*> shown;
    for (const StreamReport& stream : report.streams) {
      if (stream.kind != "template" && stream.kind != "log" && stream.kind != "process" && stream.kind != "pacing")
        continue;
      // Modes below 0.1 ms are lines written in one burst, not waits.
      if (stream.modes.empty() || stream.modes.front().centre_ms < 0.1 ||
          stream.modes.front().log10_p + log10_tested > -2) {
        continue;
      }
      if (shown.size() < 3) shown.push_back(&stream);
    }
    if (!shown.empty()) {
      out +=
          "Regular gaps between the lines of one message template, process or whole input (between requests: "
          "reported apart, never a suspect)\n";
      for (const StreamReport* stream : shown) {
        const StreamMode& mode = stream->modes.front();
        out += fmt::format("  {} gaps of {} ({}–{}) of {} lines in {} \"{}\"; {}\n", count(mode.count),
                           duration(mode.centre_ms), duration(mode.lo_ms), duration(mode.hi_ms), count(stream->lines),
                           stream->kind == "template"  ? "template"
                           : stream->kind == "process" ? "process"
                           : stream->kind == "pacing"  ? "finished requests of input"
                                                       : "input",
                           stream->label.substr(0, 100), p_value(mode.log10_p + log10_tested));
      }
      out += "\n";
    }
  }
}

/// Line accounting, inputs, analysis and catalog.
void print_accounting(std::string& out, const Report& report) {
  const LineSummary& lines = report.lines;
  out += fmt::format("Lines      {} read: {} records, {} continuation, ", count(lines.lines), count(lines.records),
                     count(lines.continuation));
  if (lines.untimed > 0) out += fmt::format("{} untimed, ", count(lines.untimed));
  out += fmt::format("{} blank, {} unparsed", count(lines.blank), count(lines.unparsed));
  if (lines.comment > 0) out += fmt::format(", {} comment", count(lines.comment));
  if (lines.truncated > 0) out += fmt::format(", {} cut at 16 MiB", count(lines.truncated));
  out += "\n";
  for (const UnparsedLine& u : lines.unparsed_examples) {
    out += fmt::format("           unparsed {}: {} — {}\n", u.where, u.reason, u.text);
  }
  for (const Input& input : report.inputs) {
    out += fmt::format("Input      {}  {}{}  {} lines, {} bytes{}\n", input.name, input.format,
                       input.encoding == "plain" ? "" : ", " + input.encoding, count(input.lines), count(input.bytes),
                       input.error.empty() ? "" : "  (stopped early: " + input.error + ")");
    if (!input.unread.empty()) out += fmt::format("           unread {}\n", input.unread);
    if (!input.sketch.empty()) {
      out +=
          "           a format file that reads that line (save as my-format.toml; gapscan --format-file "
          "my-format.toml …):\n";
      out += indent_lines(input.sketch, "             ");
    }
  }
  const Analysis& a = report.analysis;
  out +=
      fmt::format("Analysis   {} streams ({} windows, {} with a request id, {} tested on their own); {} gaps",
                  count(a.streams), count(a.windows), count(a.keyed_windows), count(a.windows_tested), count(a.gaps));
  if (a.derived_streams > 0) {
    out += fmt::format(" (beside them {} message-template, process and whole-input streams, {} tested)",
                       count(a.derived_streams), count(a.derived_windows_tested));
  }
  if (a.pacing_gaps > 0) {
    out += fmt::format(
        "; {} gaps between lines that each report a finished request or operation (access-log lines, lines that "
        "log their own duration): the pacing between requests, reported apart",
        count(a.pacing_gaps));
  }
  if (a.zero_gaps > 0) out += fmt::format(", {} zero", count(a.zero_gaps));
  if (a.out_of_order > 0) out += fmt::format(", {} lines out of order", count(a.out_of_order));
  if (a.clock_steps > 0) {
    out += fmt::format(", {} clock step{} back (largest {} before {}; no gap measured across)", count(a.clock_steps),
                       a.clock_steps == 1 ? "" : "s", duration(a.largest_clock_step_s * 1e3), a.largest_clock_step_at);
  }
  out += fmt::format("; timestamp resolution {}; pooled test {}\n",
                     a.gaps > 0 ? duration(a.resolution_ms) : std::string("unknown (no gaps)"),
                     a.pooled_test ? "run" : "not run (fewer than 5 streams)");
  out += fmt::format("Catalog    {}, {} causes\n", report.catalog_origin, report.catalog_causes);
}

}  // namespace

std::string render_text_suspect(const Finding& finding, const Report& report, const TextStyle& style) {
  std::string out;
  print_finding(out, finding, report.analysis, style, report.explain);
  out = terminal_safe(out);
  return style.color ? colorize(out) : out;
}

std::string render_text(const Report& report, const TextStyle& style) {
  std::string out;
  print_suspects(out, report, style);
  print_runs(out, report);
  print_derived(out, report);
  if (report.quantisation) {
    const Lattice& q = *report.quantisation;
    out += fmt::format(
        "Quantisation: gaps fall on a {}{} lattice (offset {}): coherence {:.2f}, {} of {} sampled gaps within an "
        "eighth of a step (25 % by chance); {}\n\n",
        q.weak ? "weak " : "", duration(q.base_ms), duration(q.offset_ms), q.coherence, percent(q.share), count(q.gaps),
        p_value(q.log10_p));
  }

  for (const Report::Timer& timer : report.timers) {
    out += fmt::format("Timer: a line the program writes every {}, not a stall ({} gaps): `{}`\n       {}\n\n",
                       duration(timer.period_ms), count(timer.gaps),
                       timer.template_text.empty() ? std::string("(template not kept)") : timer.template_text,
                       timer.example.where);
  }

  print_accounting(out, report);
  out = terminal_safe(out);
  return style.color ? colorize(out) : out;
}

}  // namespace gapscan::report
