// The report as Markdown (CommonMark with GitHub's tables), for pasting into an issue tracker:
// the profile table first, then each named or unexplained suspect with its evidence, an
// example of its gap as a fenced block, and the commands to confirm and fix it. Log text goes
// only into fenced blocks, escaped as for a terminal; table cells escape '|'.

#include <gapscan/report/printers.hpp>
#include <gapscan/report/units.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace gapscan::report {
namespace {

/// A table cell: one line, '|' escaped, control bytes written as \xNN.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : terminal_safe(text)) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\t')
      out += ' ';
    else
      out += c;
  }
  return out;
}

/// Text outside tables: one line, control bytes written as \xNN.
std::string inline_text(std::string_view text) {
  std::string out = terminal_safe(text);
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

std::size_t longest_backtick_run(std::string_view text) {
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

/// A code span (outside tables), delimited by more backticks than it holds in a row.
std::string code(std::string_view text) {
  const std::string body = inline_text(text);
  const std::string ticks(longest_backtick_run(body) + 1, '`');
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return ticks + (pad ? " " : "") + body + (pad ? " " : "") + ticks;
}

/// A fenced block whose fence is longer than any run of backticks in its text.
std::string fenced(std::string_view info, const std::string& text) {
  const std::string fence(std::max<std::size_t>(3, longest_backtick_run(text) + 1), '`');
  return fmt::format("{}{}\n{}{}{}\n\n", fence, info, text, text.empty() || text.back() == '\n' ? "" : "\n", fence);
}

std::string lines_of(const GapExample& example) {
  std::string text;
  for (const LineRef& line : example.before) text += fmt::format("{}  {}\n", line.where, terminal_safe(line.text));
  text += fmt::format("{}  {}\n", example.after.where, terminal_safe(example.after.text));
  return text;
}

std::string kind_of(const Finding& f) {
  return f.periodic || f.wall_clock ? "period" : f.trigger ? "stalls" : f.values == "durations" ? "durations" : "gaps";
}

void profile(std::string& out, const Report& report) {
  out += "| rank | cause | confidence | interval | of | count | requests | wall time |\n";
  out += "|---:|---|---:|---:|---|---:|---:|---:|\n";
  for (const Finding& f : report.findings) {
    const std::string tier = f.likely ? "likely" : f.unexplained ? "unexplained" : "possible";
    out += fmt::format("| {} | {} (`{}`) | {:.2f} {} | {} | {} | {} | {} | {} |\n", f.rank, cell(f.title),
                       cell(f.cause), f.confidence, tier, duration(f.interval_ms), kind_of(f), count(f.gaps),
                       count(f.requests), percent(f.wall_share));
  }
  out += "\n";
}

void suspect(std::string& out, const Finding& f, const std::vector<std::uint64_t>& histogram) {
  out += fmt::format("### {}. {}\n\n", f.rank, inline_text(f.title));
  out +=
      fmt::format("{} · confidence **{:.2f}** ({}) · {} of {} ({}–{}), {} {} in {} requests, {} of their wall time\n\n",
                  code(f.cause), f.confidence,
                  f.likely        ? "likely"
                  : f.unexplained ? "unexplained"
                                  : "possible",
                  kind_of(f), duration(f.interval_ms), duration(f.interval_lo_ms), duration(f.interval_hi_ms),
                  count(f.gaps), kind_of(f), count(f.requests), percent(f.wall_share));
  if (!f.summary.empty()) out += inline_text(f.summary) + "\n\n";
  if (f.delay_value_ms) {
    out += fmt::format("- Catalog value: {}{}{}\n", duration(*f.delay_value_ms),
                       f.delay_label.empty() ? "" : " (" + inline_text(f.delay_label) + ")",
                       f.implies.empty() ? "" : ": " + inline_text(f.implies));
  }
  out += fmt::format("- Significance: {}\n", p_value(f.log10_p));
  if (f.arrival) {
    const Finding::Arrival& a = *f.arrival;
    if (a.bursts)
      out += fmt::format(
          "- Bursts: {} of {} lines came in {} bursts of a median {} lines within {} each, then {} of nothing\n",
          count(a.burst_lines), count(a.lines), count(a.burst_count), count(static_cast<std::uint64_t>(a.median_size)),
          duration(a.median_length_ms), duration(f.interval_ms));
    if (a.early > 0)
      out += fmt::format(
          "- Stamps: {} of {} request lines that log 5 ms or more are stamped sooner after their request's first line "
          "than half of it\n",
          count(a.early), count(a.timed));
    out += fmt::format(
        "- So the stamps of {} are when its lines arrived, not when they were written{}\n", code(a.input),
        a.set_aside > 0 ? fmt::format(" ({} other findings of it set aside)", count(a.set_aside)) : std::string());
  }
  if (f.wall_clock) {
    const Finding::WallClock& w = *f.wall_clock;
    out += fmt::format(
        "- Slowdown: {} (UTC), {} times as long there (geometric mean {} against {}), slower there in "
        "{} of {} {}s\n",
        clock_place(w.fold, w.start, w.width), fmt::format("{:.2f}", w.ratio), duration(w.inside_ms),
        duration(w.outside_ms), count(w.slower), count(w.cycles), w.fold);
    for (const Finding::WallClock::JobLine& job : w.job_lines)
      out += fmt::format("- Job: {} at {} ({} of its {} lines at or just before then)\n", code(job.line.text),
                         code(job.line.where), count(job.aligned), count(job.lines));
  }
  if (f.timing) {
    const Finding::Timing& t = *f.timing;
    const std::string_view noun = f.values == "durations" ? "values" : "gaps after the line";
    out += t.kind == "window"
               ? fmt::format("- When: {} of {} {} from {} to {} UTC are stalls, {} of {} before or after\n",
                             count(t.inside_stalls), count(t.inside), noun, t.start, t.end, count(t.outside_stalls),
                             count(t.outside))
               : fmt::format("- When: {} of {} {}, scattered at a steady rate from {} to {} UTC\n",
                             count(t.inside_stalls), count(t.inside), noun, t.start, t.end);
  }
  if (f.saturation) {
    const Finding::Saturation& w = *f.saturation;
    out += fmt::format(
        "- Waited: {} of {} requests in the {} phase, {}–{} (p10–p90), median {}, longest {}; {} of the requests' "
        "time, spread over a range (no fixed delay)\n",
        count(w.waited), count(w.requests), w.phase, duration(w.p10_ms), duration(w.p90_ms), duration(w.p50_ms),
        duration(w.longest_ms), percent(w.time_share));
  }
  for (const EvidenceResult& e : f.evidence) {
    out += fmt::format("- {} {} ({}): {} of {} — {}\n", e.weight < 0 ? "Counter-evidence" : "Evidence", code(e.pattern),
                       e.scope, count(e.hits), count(e.samples), inline_text(e.meaning));
  }
  out += "\n";
  if (f.values != "durations" && !f.wall_clock) {
    const auto picture =
        histogram_lines(histogram, f.interval_lo_ms, f.interval_hi_ms, 60, f.delay_window_lo_ms, f.delay_window_hi_ms);
    if (picture.size() == 3) {
      out += fmt::format(
          "All gaps on a log axis, {}–{} marked ^{}:\n\n", duration(f.interval_lo_ms), duration(f.interval_hi_ms),
          f.delay_window_hi_ms > 0 ? fmt::format(", the catalog window {}–{} =", duration(f.delay_window_lo_ms),
                                                 duration(f.delay_window_hi_ms))
                                   : std::string());
      out += fenced("text", picture[0] + "\n" + picture[1] + "\n" + picture[2] + "\n");
    }
  }
  if (f.timeline) {
    const Timeline& t = *f.timeline;
    const auto picture = timeline_lines(t, 60);
    if (picture.size() == 3) {
      out += fmt::format("Timeline of {}, lines {}–{} of {}: {} stall{} of {}–{} (█) = {}, {} of {}:\n\n",
                         t.request.empty() ? std::string("the whole input") : "request " + code(t.request),
                         count(t.first_index + 1), count(t.first_index + t.points.size()), count(t.window_lines),
                         count(t.stalls), t.stalls == 1 ? "" : "s", duration(t.lo_ms), duration(t.hi_ms),
                         duration(t.stall_ms), percent(t.stall_share), duration(t.span_ms));
      out += fenced("text", "lines  " + picture[0] + "\nstalls " + picture[1] + "\n       " + picture[2] + "\n");
    }
  }
  if (!f.examples.empty()) {
    const GapExample& example = f.examples.front();
    out +=
        fmt::format("Typical {} of {}{}:\n\n", kind_of(f) == "durations" ? "duration" : "gap", duration(example.gap_ms),
                    example.request.empty() ? "" : " (request " + code(example.request) + ")");
    out += fenced("text", lines_of(example));
  }
  for (const auto& [heading, items] :
       {std::pair{"Confirm", &f.confirm}, std::pair{"Fix", &f.fix}, std::pair{"References", &f.references}}) {
    if (items->empty()) continue;
    out += fmt::format("{}:\n\n", heading);
    for (const std::string& item : *items) out += "- " + inline_text(item) + "\n";
    out += "\n";
  }
}

void gap_summary(std::string& out, const Analysis& a) {
  if (a.gaps == 0) {
    out += "No gap measured: fewer than two timed lines in any request.\n\n";
    return;
  }
  out += "| gaps | median | p90 | p99 | largest |\n|---:|---:|---:|---:|---:|\n";
  out += fmt::format("| {} | {} | {} | {} | {} |\n\n", count(a.gaps), duration(a.gap_median_ms), duration(a.gap_p90_ms),
                     duration(a.gap_p99_ms), a.largest_gap ? duration(a.largest_gap->gap_ms) : std::string("–"));
  if (a.largest_gap) {
    out +=
        fmt::format("The largest gap{}:\n\n",
                    a.largest_gap->request.empty() ? std::string() : " (request " + code(a.largest_gap->request) + ")");
    out += fenced("text", lines_of(*a.largest_gap));
  }
}

void accounting(std::string& out, const Report& report) {
  const LineSummary& lines = report.lines;
  out += "## What was read\n\n";
  out += fmt::format("- Lines: {} read: {} records, {} continuation, {} blank, {} unparsed\n", count(lines.lines),
                     count(lines.records), count(lines.continuation), count(lines.blank), count(lines.unparsed));
  for (const Input& input : report.inputs) {
    out += fmt::format("- Input {}: {}{}, {} lines, {} bytes{}\n", code(input.name), inline_text(input.format),
                       input.encoding == "plain" ? "" : ", " + input.encoding, count(input.lines), count(input.bytes),
                       input.error.empty() ? "" : " (stopped early: " + inline_text(input.error) + ")");
    if (!input.unread.empty()) out += fmt::format("  - Unread: {}\n", inline_text(input.unread));
    if (!input.sketch.empty()) {
      std::string fence = "```";  // longer than any run of backquotes in the logged line it quotes
      while (input.sketch.find(fence) != std::string::npos) fence += '`';
      out += fmt::format(
          "  - A format file that reads that line (`gapscan --format-file my-format.toml …`):\n\n    {}toml\n", fence);
      out += indent_lines(input.sketch, "    ");
      out += fmt::format("    {}\n\n", fence);
    }
  }
  const Analysis& a = report.analysis;
  out += fmt::format("- Analysis: {} streams ({} windows, {} with a request id), {} gaps\n", count(a.streams),
                     count(a.windows), count(a.keyed_windows), count(a.gaps));
  out += fmt::format("- Catalog: {}, {} causes; gapscan {}\n", inline_text(report.catalog_origin),
                     report.catalog_causes, inline_text(report.tool_version));
}

}  // namespace

std::string render_markdown(const Report& report) {
  std::string out = "# gapscan report\n\n";
  std::size_t named = 0;
  for (const Finding& f : report.findings) named += (f.likely || f.unexplained) ? 1 : 0;
  if (named == 0) {
    out += fmt::format("**No characteristic delay found**: no suspected cause reaches confidence {:.1f}.\n\n",
                       report.likely_threshold);
    gap_summary(out, report.analysis);
  }
  if (!report.findings.empty()) {
    out += "## Suspects\n\n";
    profile(out, report);
    for (const Finding& f : report.findings) {
      if (f.likely || f.unexplained) suspect(out, f, report.analysis.gap_histogram);
    }
  }
  if (!report.phases.empty()) {
    out += fmt::format(
        "## Phases\n\nWhere the time of {} timed requests went, by their lines' own timers, most time "
        "first.\n\n| phase | share of the time | requests | finding | usually |\n|---|---:|---:|---|---:|\n",
        count(report.phase_requests));
    for (const PhaseRow& row : report.phases) {
      const std::string what = row.finding_rank > 0
                                   ? fmt::format("{} at {}–{}: #{} {}", count(row.in_band), duration(row.lo_ms),
                                                 duration(row.hi_ms), row.finding_rank, code(row.cause))
                                   : fmt::format("{} spent 1 ms or more, p90 {}", count(row.spent),
                                                 (row.p90_ms > 0 ? duration(row.p90_ms) : std::string("0")));
      out += fmt::format("| {} | {} | {} | {} | {} |\n", row.phase, percent(row.time_share), count(row.requests), what,
                         row.median_ms > 0 ? duration(row.median_ms) : std::string("0"));
    }
    out += "\n";
  }
  if (named > 0) {
    out += "## Gaps\n\n";
    gap_summary(out, report.analysis);
  }
  if (!report.timers.empty()) {
    out += "## Timers of the program's own\n\nLines written again one period later, every period: not stalls.\n\n";
    for (const Report::Timer& timer : report.timers) {
      out += fmt::format("- every {} ({} gaps): {} ({})\n", duration(timer.period_ms), count(timer.gaps),
                         code(timer.template_text.empty() ? std::string("template not kept") : timer.template_text),
                         timer.example.where);
    }
    out += "\n";
  }
  accounting(out, report);
  return out;
}

}  // namespace gapscan::report
