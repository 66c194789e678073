// The report as one self-contained HTML page (no script, no network, no external font), to send
// to a colleague: the profile table and the wall-time share of each suspect, then each named or
// unexplained suspect with SVG plots drawn here (its gaps on a log axis with the catalog window
// shaded and the mode marked; its worst request's timeline), its evidence, an example and the
// commands to confirm and fix it as copyable text (a click on a command selects all of it). Every plot element has a
// class the page's test counts: rect.bar, rect.window, line.mode, line.tick, rect.stall, rect.share.

#include <gapscan/report/printers.hpp>
#include <gapscan/report/units.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gapscan::report {
namespace {

/// Text as HTML: log text made safe as for a terminal (control bytes as \xNN), then escaped.
std::string html(std::string_view text) {
  std::string out;
  for (const char c : terminal_safe(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

/// Catalog prose with `code spans`: the spans as <code>, the rest as text.
std::string prose(std::string_view text) {
  std::string out;
  bool in_code = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '`') continue;
    const std::string part = html(text.substr(start, i - start));
    out += in_code ? "<code>" + part + "</code>" : part;
    if (i < text.size()) in_code = !in_code;
    start = i + 1;
  }
  return out;
}

constexpr const char* k_style = R"(
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:980px;padding:1em 1.5em;color:#1d2330;background:#fff}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #d8dce4}
h3{font-size:1.1em;margin:1.4em 0 .3em}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #d8dce4;padding:.25em .55em;vertical-align:top}
th{background:#f2f4f8;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
.likely{color:#12733a;font-weight:600}.unexplained{color:#a3540b;font-weight:600}.possible{color:#6b7280}
pre{background:#f6f7f9;border:1px solid #e1e4ea;padding:.5em .7em;overflow-x:auto;font-size:13px;white-space:pre}
li code,p code{user-select:all}code{font-size:.92em;background:#f2f4f8;padding:0 .2em}
pre code{background:none;padding:0}figure{margin:.6em 0}figcaption{font-size:.85em;color:#4b5563}
svg{display:block;max-width:100%;height:auto}svg text{font:11px system-ui,sans-serif;fill:#4b5563}
.bar{fill:#5b7db1}.window{fill:#f2b63c;fill-opacity:.45;stroke:#c98a00;stroke-width:1}.interval{fill:#c0392b;fill-opacity:.12}
.mode{stroke:#c0392b;stroke-width:2}.axis{stroke:#9ca3af;stroke-width:1}.tick{stroke:#1d2330;stroke-width:1}
.stall{fill:#c0392b;fill-opacity:.7}.share{fill:#5b7db1}.muted{color:#6b7280;font-size:.9em}
ul.evidence li.against{color:#8a3b12}
)";

/// The quarter-octave bins of Analysis::gap_histogram: bin i starts at 2^(i/4) µs.
double bin_lower_ms(std::size_t bin) {
  return 1e-3 * std::exp2(static_cast<double>(bin) / Analysis::k_histogram_bins_per_octave);
}

/// Axis ticks at powers of ten inside [lo_ms, hi_ms].
std::vector<double> decade_ticks(double lo_ms, double hi_ms) {
  std::vector<double> ticks;
  for (double t = std::pow(10.0, std::ceil(std::log10(lo_ms))); t <= hi_ms * (1 + 1e-9); t *= 10) ticks.push_back(t);
  return ticks;
}

/// About five round ticks from 0 to span_ms.
std::vector<double> linear_ticks(double span_ms) {
  const double raw = span_ms / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  }
  std::vector<double> ticks;
  for (double t = 0; t <= span_ms * (1 + 1e-9); t += step) ticks.push_back(t);
  return ticks;
}

constexpr double k_plot_width = 760, k_left = 48, k_right = 16;

/// The gaps of all requests on a log axis; for a suspect, its catalog window shaded, its
/// interval tinted and its mode marked.
std::string histogram_svg(const std::vector<std::uint64_t>& counts, const Finding* f) {
  std::size_t first = counts.size(), last = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    first = std::min(first, i);
    last = i;
  }
  if (first == counts.size()) return {};
  double lo_ms = bin_lower_ms(first), hi_ms = bin_lower_ms(last + 1);
  if (f != nullptr) {
    // The interval and the catalog window stay in view.
    for (const double v : {f->interval_lo_ms, f->delay_window_lo_ms}) {
      if (v > 0) lo_ms = std::min(lo_ms, v * 0.8);
    }
    hi_ms = std::max({hi_ms, f->interval_hi_ms * 1.25, f->delay_window_hi_ms * 1.25});
  }
  constexpr double height = 190, top = 10, bottom = 150;
  const double plot = k_plot_width - k_left - k_right;
  const double log_lo = std::log2(lo_ms), log_span = std::log2(hi_ms) - log_lo;
  const auto x = [&](double ms) {
    return k_left + (std::log2(std::clamp(ms, lo_ms, hi_ms)) - log_lo) / log_span * plot;
  };
  const std::uint64_t most = *std::max_element(counts.begin(), counts.end());
  std::string svg = fmt::format(
      R"(<svg class="plot histogram" data-plot="histogram" viewBox="0 0 {} {}" width="{}" height="{}" role="img" )"
      R"(aria-label="gaps on a log axis"><line class="axis" x1="{}" y1="{}" x2="{}" y2="{}"/>)",
      k_plot_width, height, k_plot_width, height, k_left, bottom, k_plot_width - k_right, bottom);
  if (f != nullptr && f->delay_window_hi_ms > 0) {
    const double x0 = x(f->delay_window_lo_ms), x1 = std::max(x(f->delay_window_hi_ms), x0 + 4);
    svg += fmt::format(
        R"(<rect class="window" x="{:.1f}" y="{}" width="{:.1f}" height="{}"><title>catalog window {}–{}{}</title></rect>)",
        x0, top, x1 - x0, bottom - top, html(duration(f->delay_window_lo_ms)), html(duration(f->delay_window_hi_ms)),
        f->delay_label.empty() ? "" : ": " + html(f->delay_label));
  }
  if (f != nullptr) {
    const double x0 = x(f->interval_lo_ms), x1 = std::max(x(f->interval_hi_ms), x0 + 1);
    svg += fmt::format(R"(<rect class="interval" x="{:.1f}" y="{}" width="{:.1f}" height="{}"/>)", x0, top, x1 - x0,
                       bottom - top);
  }
  for (std::size_t i = first; i <= last; ++i) {
    if (counts[i] == 0) continue;
    const double x0 = x(bin_lower_ms(i)), x1 = x(bin_lower_ms(i + 1));
    const double h = std::max(
        1.0, std::log1p(static_cast<double>(counts[i])) / std::log1p(static_cast<double>(most)) * (bottom - top));
    svg += fmt::format(
        R"(<rect class="bar" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}"><title>{} gaps of {}–{}</title></rect>)",
        x0, bottom - h, std::max(0.5, x1 - x0 - 0.6), h, html(count(counts[i])), html(duration(bin_lower_ms(i))),
        html(duration(bin_lower_ms(i + 1))));
  }
  if (f != nullptr) {
    const double xm = x(f->interval_ms);
    svg += fmt::format(R"(<line class="mode" x1="{:.1f}" y1="{}" x2="{:.1f}" y2="{}"><title>mode {}</title></line>)",
                       xm, top, xm, bottom, html(duration(f->interval_ms)));
    svg += fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="middle">{}</text>)", xm, top + 2 + 9,
                       html(duration(f->interval_ms)));
  }
  for (const double t : decade_ticks(lo_ms, hi_ms)) {
    svg += fmt::format(R"(<line class="axis" x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}"/><text x="{0:.1f}" y="{3}" )"
                       R"(text-anchor="middle">{4}</text>)",
                       x(t), bottom, bottom + 5, bottom + 18, html(duration(t)));
  }
  svg += fmt::format(R"(<text x="{}" y="{}">log axis; bar height: log of the count</text></svg>)", k_left, height - 6);
  return svg;
}

/// The worst request's lines as ticks on a time axis, its stalls as red spans.
std::string timeline_svg(const Timeline& t) {
  if (t.span_ms <= 0) return {};
  constexpr double height = 96, top = 14, bottom = 62;
  const double plot = k_plot_width - k_left - k_right;
  const auto x = [&](double ms) { return k_left + std::clamp(ms / t.span_ms, 0.0, 1.0) * plot; };
  std::string svg = fmt::format(
      R"(<svg class="plot timeline" data-plot="timeline" viewBox="0 0 {0} {1}" width="{0}" height="{1}" role="img" )"
      R"(aria-label="timeline"><text x="0" y="{2}">lines</text><text x="0" y="{3}">stalls</text>)",
      k_plot_width, height, top + 14, bottom - 4);
  for (std::size_t i = 1; i < t.points.size(); ++i) {
    const Timeline::Point& p = t.points[i];
    if (!p.stall) continue;
    const double x0 = x(p.offset_ms - p.gap_ms), x1 = x(p.offset_ms);
    svg += fmt::format(
        R"(<rect class="stall" x="{:.2f}" y="{}" width="{:.2f}" height="{}"><title>{} before {}</title></rect>)", x0,
        bottom - 16, std::max(0.5, x1 - x0), 14, html(duration(p.gap_ms)), html(p.where));
  }
  for (const Timeline::Point& p : t.points) {
    const double xp = x(p.offset_ms);
    svg += fmt::format(
        R"(<line class="tick" x1="{0:.2f}" y1="{1}" x2="{0:.2f}" y2="{2}"><title>{3} at +{4}</title></line>)", xp, top,
        top + 20, html(p.where), html(duration(p.offset_ms)));
  }
  svg += fmt::format(R"(<line class="axis" x1="{}" y1="{}" x2="{}" y2="{}"/>)", k_left, bottom + 2,
                     k_plot_width - k_right, bottom + 2);
  for (const double tick : linear_ticks(t.span_ms)) {
    svg += fmt::format(R"(<line class="axis" x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}"/><text x="{0:.1f}" y="{3}" )"
                       R"(text-anchor="middle">{4}</text>)",
                       x(tick), bottom + 2, bottom + 7, bottom + 20, tick == 0 ? "0" : html(duration(tick)));
  }
  return svg + "</svg>";
}

/// One bar per suspect: the share of its requests' wall time spent in its gaps.
std::string wall_share_svg(const std::vector<Finding>& findings) {
  if (findings.empty()) return {};
  constexpr double row = 22, label = 300;
  const double height = row * static_cast<double>(findings.size()) + 8;
  const double plot = k_plot_width - label - 70;
  std::string svg = fmt::format(
      R"(<svg class="plot wall-share" data-plot="wall-share" viewBox="0 0 {0} {1}" width="{0}" height="{1}" role="img" )"
      R"(aria-label="share of wall time per suspect">)",
      k_plot_width, height);
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    const double y = 4 + row * static_cast<double>(i);
    const std::string name = f.cause.size() > 44 ? f.cause.substr(0, 43) + "…" : f.cause;
    svg += fmt::format(R"(<text x="0" y="{:.1f}">#{} {}</text>)", y + 14, f.rank, html(name));
    svg += fmt::format(R"(<rect class="share" x="{}" y="{:.1f}" width="{:.1f}" height="{}"><title>{}</title></rect>)",
                       label, y + 3, std::max(1.0, std::clamp(f.wall_share, 0.0, 1.0) * plot), row - 8,
                       html(percent(f.wall_share)));
    svg += fmt::format(R"(<text x="{:.1f}" y="{:.1f}">{}</text>)",
                       label + std::max(1.0, std::clamp(f.wall_share, 0.0, 1.0) * plot) + 6, y + 14,
                       html(percent(f.wall_share)));
  }
  return svg + "</svg>";
}

std::string tier_of(const Finding& f) { return f.likely ? "likely" : f.unexplained ? "unexplained" : "possible"; }

void profile(std::string& out, const Report& report) {
  out +=
      "<table class=\"profile\"><thead><tr><th>rank</th><th>cause</th><th>confidence</th><th>interval</th><th>of</th>"
      "<th>count</th><th>requests</th><th>wall time</th></tr></thead><tbody>\n";
  for (const Finding& f : report.findings) {
    const std::string link = f.likely || f.unexplained ? fmt::format("<a href=\"#suspect-{}\">", f.rank) : "";
    out += fmt::format(
        "<tr><td class=\"n\">{}</td><td>{}{}{} <code>{}</code></td><td class=\"n\">{:.2f} <span "
        "class=\"{}\">{}</span></td>"
        "<td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td "
        "class=\"n\">{}</td></tr>\n",
        f.rank, link, html(f.title), link.empty() ? "" : "</a>", html(f.cause), f.confidence, tier_of(f), tier_of(f),
        html(duration(f.interval_ms)), f.values, html(count(f.gaps)), html(count(f.requests)),
        html(percent(f.wall_share)));
  }
  out += "</tbody></table>\n";
  out += "<figure>" + wall_share_svg(report.findings) +
         "<figcaption>Share of the requests' wall time spent in each suspect's gaps.</figcaption></figure>\n";
}

std::string gap_lines(const GapExample& example) {
  std::string text;
  for (const LineRef& line : example.before) text += html(line.where) + "  " + html(line.text) + "\n";
  if (!example.before.empty()) text += fmt::format("    ↓ {}\n", html(duration(example.gap_ms)));
  text += html(example.after.where) + "  " + html(example.after.text) + "\n";
  return text;
}

void suspect(std::string& out, const Finding& f, const Analysis& a) {
  out += fmt::format("<section class=\"suspect\" id=\"suspect-{}\">\n<h3>#{} {}</h3>\n", f.rank, f.rank, html(f.title));
  out += fmt::format(
      "<p><span class=\"{}\">{}</span> · confidence <b>{:.2f}</b> · <code>{}</code> · {} of {} ({}–{}), {} in {} "
      "requests, {} of their wall time · {}</p>\n",
      tier_of(f), tier_of(f), f.confidence, html(f.cause), f.values, html(duration(f.interval_ms)),
      html(duration(f.interval_lo_ms)), html(duration(f.interval_hi_ms)), html(count(f.gaps)), html(count(f.requests)),
      html(percent(f.wall_share)), html(p_value(f.log10_p)));
  if (!f.summary.empty()) out += "<p>" + prose(f.summary) + "</p>\n";
  if (!f.implies.empty()) out += "<p><b>Implies</b> " + prose(f.implies) + "</p>\n";
  if (f.wall_clock) {
    const Finding::WallClock& w = *f.wall_clock;
    out += fmt::format(
        "<p><b>Slowdown</b> {} (UTC): {} times as long there (geometric mean {} against {}), slower there in {} of "
        "{} {}s</p>\n",
        html(clock_place(w.fold, w.start, w.width)), fmt::format("{:.2f}", w.ratio), html(duration(w.inside_ms)),
        html(duration(w.outside_ms)), html(count(w.slower)), html(count(w.cycles)), html(w.fold));
    for (const Finding::WallClock::JobLine& job : w.job_lines)
      out += fmt::format("<p><b>Job</b> <code>{}</code> {} ({} of its {} lines at or just before then)</p>\n",
                         html(job.line.where), html(job.line.text), html(count(job.aligned)), html(count(job.lines)));
  }
  if (f.timing) {
    const Finding::Timing& t = *f.timing;
    const std::string_view noun = f.values == "durations" ? "values" : "gaps after the line";
    out += t.kind == "window"
               ? fmt::format("<p><b>When</b> {} of {} {} from {} to {} UTC are stalls, {} of {} before or after</p>\n",
                             html(count(t.inside_stalls)), html(count(t.inside)), noun, html(t.start), html(t.end),
                             html(count(t.outside_stalls)), html(count(t.outside)))
               : fmt::format("<p><b>When</b> {} of {} {}, scattered at a steady rate from {} to {} UTC</p>\n",
                             html(count(t.inside_stalls)), html(count(t.inside)), noun, html(t.start), html(t.end));
  }
  if (f.saturation) {
    const Finding::Saturation& w = *f.saturation;
    out += fmt::format(
        "<p><b>Waited</b> {} of {} requests in the {} phase, {}–{} (p10–p90), median {}, longest {}; {} of the "
        "requests' time, spread over a range (no fixed delay)</p>\n",
        html(count(w.waited)), html(count(w.requests)), html(w.phase), html(duration(w.p10_ms)),
        html(duration(w.p90_ms)), html(duration(w.p50_ms)), html(duration(w.longest_ms)), html(percent(w.time_share)));
  }
  if (f.values == "gaps" && !f.wall_clock) {
    const std::string plot = histogram_svg(a.gap_histogram, &f);
    if (!plot.empty()) {
      out += "<figure>" + plot +
             fmt::format(
                 "<figcaption>All gaps between the lines of a request; red: this suspect's interval {}–{} and "
                 "its mode {}{}.</figcaption></figure>\n",
                 html(duration(f.interval_lo_ms)), html(duration(f.interval_hi_ms)), html(duration(f.interval_ms)),
                 f.delay_window_hi_ms > 0
                     ? fmt::format("; yellow: the catalog window {}–{}", html(duration(f.delay_window_lo_ms)),
                                   html(duration(f.delay_window_hi_ms)))
                     : std::string());
    }
  }
  if (f.timeline) {
    const Timeline& t = *f.timeline;
    const std::string plot = timeline_svg(t);
    if (!plot.empty()) {
      out +=
          "<figure>" + plot +
          fmt::format(
              "<figcaption>Timeline of {}, lines {}–{} of {}: {} stall{} of {}–{} (red) = {}, {} of {}.{}"
              "</figcaption></figure>\n",
              t.request.empty() ? std::string("the whole input") : "request <code>" + html(t.request) + "</code>",
              html(count(t.first_index + 1)), html(count(t.first_index + t.points.size())), html(count(t.window_lines)),
              html(count(t.stalls)), t.stalls == 1 ? "" : "s", html(duration(t.lo_ms)), html(duration(t.hi_ms)),
              html(duration(t.stall_ms)), html(percent(t.stall_share)), html(duration(t.span_ms)),
              t.longest > 0 ? fmt::format(" Longest: {} before <code>{}</code>.",
                                          html(duration(t.points[t.longest].gap_ms)), html(t.points[t.longest].where))
                            : std::string());
    }
  }
  if (!f.evidence.empty()) {
    out += "<h4>Evidence</h4>\n<ul class=\"evidence\">\n";
    for (const EvidenceResult& e : f.evidence) {
      out += fmt::format("<li class=\"{}\">{} of {} — {} <code>{}</code> ({})</li>\n", e.weight < 0 ? "against" : "for",
                         html(count(e.hits)), html(count(e.samples)), html(e.meaning), html(e.pattern), html(e.scope));
    }
    out += "</ul>\n";
  }
  if (!f.examples.empty()) {
    const GapExample& example = f.examples.front();
    out += fmt::format("<h4>Typical {} of {}{}</h4>\n<pre>{}</pre>\n", f.values == "durations" ? "duration" : "gap",
                       html(duration(example.gap_ms)),
                       example.request.empty() ? "" : " (request <code>" + html(example.request) + "</code>)",
                       gap_lines(example));
  }
  for (const auto& [heading, items] :
       {std::pair{"Confirm", &f.confirm}, std::pair{"Fix", &f.fix}, std::pair{"References", &f.references}}) {
    if (items->empty()) continue;
    out += fmt::format("<h4>{}</h4>\n<ul>\n", heading);
    for (const std::string& item : *items) out += "<li>" + prose(item) + "</li>\n";
    out += "</ul>\n";
  }
  if (!f.alternatives.empty()) {
    std::string also;
    for (const Alternative& alt : f.alternatives)
      also += fmt::format("{}<code>{}</code> ({:.2f})", also.empty() ? "" : ", ", html(alt.cause), alt.confidence);
    out += "<p class=\"muted\">Also fits: " + also + "</p>\n";
  }
  out += "</section>\n";
}

void gap_summary(std::string& out, const Analysis& a) {
  if (a.gaps == 0) {
    out += "<p>No gap measured: fewer than two timed lines in any request.</p>\n";
    return;
  }
  out +=
      "<table class=\"gaps\"><thead><tr><th>gaps</th><th>median</th><th>p90</th><th>p99</th><th>largest</th></tr>"
      "</thead><tbody>\n";
  out += fmt::format(
      "<tr><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
      "<td class=\"n\">{}</td></tr>\n</tbody></table>\n",
      html(count(a.gaps)), html(duration(a.gap_median_ms)), html(duration(a.gap_p90_ms)), html(duration(a.gap_p99_ms)),
      a.largest_gap ? html(duration(a.largest_gap->gap_ms)) : std::string("–"));
  const std::string plot = histogram_svg(a.gap_histogram, nullptr);
  if (!plot.empty())
    out += "<figure>" + plot + "<figcaption>All gaps between the lines of a request.</figcaption></figure>\n";
  if (a.largest_gap) {
    out += fmt::format(
        "<h4>The largest gap{}</h4>\n<pre>{}</pre>\n",
        a.largest_gap->request.empty() ? "" : " (request <code>" + html(a.largest_gap->request) + "</code>)",
        gap_lines(*a.largest_gap));
  }
}

void accounting(std::string& out, const Report& report) {
  const LineSummary& lines = report.lines;
  out += "<h2>What was read</h2>\n<ul class=\"accounting\">\n";
  out += fmt::format("<li>Lines: {} read: {} records, {} continuation, {} blank, {} unparsed</li>\n",
                     html(count(lines.lines)), html(count(lines.records)), html(count(lines.continuation)),
                     html(count(lines.blank)), html(count(lines.unparsed)));
  for (const Input& input : report.inputs) {
    out += fmt::format("<li>Input <code>{}</code>: {}{}, {} lines, {} bytes{}</li>\n", html(input.name),
                       html(input.format), input.encoding == "plain" ? "" : ", " + html(input.encoding),
                       html(count(input.lines)), html(count(input.bytes)),
                       input.error.empty() ? "" : " (stopped early: " + html(input.error) + ")");
    if (!input.unread.empty()) out += fmt::format("<li>Unread: {}</li>\n", html(input.unread));
    if (!input.sketch.empty()) {
      out += fmt::format(
          "<li>A format file that reads that line (<code>gapscan --format-file my-format.toml "
          "…</code>):<pre>{}</pre></li>\n",
          html(input.sketch));
    }
  }
  const Analysis& a = report.analysis;
  out += fmt::format("<li>Analysis: {} streams ({} windows, {} with a request id), {} gaps</li>\n",
                     html(count(a.streams)), html(count(a.windows)), html(count(a.keyed_windows)), html(count(a.gaps)));
  out += fmt::format("<li>Catalog: {}, {} causes; gapscan {}</li>\n</ul>\n", html(report.catalog_origin),
                     report.catalog_causes, html(report.tool_version));
  if (!report.diagnostics.empty()) {
    out += "<h2>Diagnostics</h2>\n<ul class=\"diagnostics\">\n";
    for (const Diagnostic& d : report.diagnostics) out += "<li>" + html(to_string(d)) + "</li>\n";
    out += "</ul>\n";
  }
}

}  // namespace

std::string render_html(const Report& report) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>gapscan report</title>\n<style>" +
      std::string(k_style) + "</style>\n</head>\n<body>\n<h1>gapscan report</h1>\n";
  std::size_t named = 0;
  for (const Finding& f : report.findings) named += (f.likely || f.unexplained) ? 1 : 0;
  if (named == 0) {
    out += fmt::format(
        "<p id=\"verdict\"><b>No characteristic delay found</b>: no suspected cause reaches confidence "
        "{:.1f}.</p>\n",
        report.likely_threshold);
    gap_summary(out, report.analysis);
  }
  if (!report.findings.empty()) {
    out += "<h2>Suspects</h2>\n";
    profile(out, report);
    for (const Finding& f : report.findings) {
      if (f.likely || f.unexplained) suspect(out, f, report.analysis);
    }
  }
  if (!report.phases.empty()) {
    out += fmt::format(
        "<h2>Phases</h2>\n<p>Where the time of {} timed requests went, by their lines' own timers, most "
        "time first.</p>\n<table class=\"phases\">\n<tr><th>phase</th><th>share of the time</th>"
        "<th>requests</th><th>finding</th><th>usually</th></tr>\n",
        count(report.phase_requests));
    for (const PhaseRow& row : report.phases) {
      const std::string what = row.finding_rank > 0
                                   ? fmt::format("{} at {}–{}: #{} {}", count(row.in_band), duration(row.lo_ms),
                                                 duration(row.hi_ms), row.finding_rank, html(row.cause))
                                   : fmt::format("{} spent 1 ms or more, p90 {}", count(row.spent),
                                                 (row.p90_ms > 0 ? duration(row.p90_ms) : std::string("0")));
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", html(row.phase),
                         percent(row.time_share), count(row.requests), what,
                         row.median_ms > 0 ? duration(row.median_ms) : std::string("0"));
    }
    out += "</table>\n";
  }
  if (named > 0) {
    out += "<h2>Gaps</h2>\n";
    gap_summary(out, report.analysis);
  }
  accounting(out, report);
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace gapscan::report
