#pragma once
// Renderers of the report model. They format; they never compute, filter or sort.

#include <gapscan/report/model.hpp>

#include <cstddef>
#include <string>

namespace gapscan::report {

/// How the text report fits where it is shown: colour (ANSI, for a terminal) and the width the
/// histograms and the profile table use.
struct TextStyle {
  bool color = false;
  std::size_t width = 80;
};

/// The human-readable report (docs/reports.md shows an example).
std::string render_text(const Report& report, const TextStyle& style = {});

/// One suspect's block of the text report (gapscan --follow prints each as it becomes likely).
std::string render_text_suspect(const Finding& finding, const Report& report, const TextStyle& style = {});

/// One JSON document, schema in docs/json-output.md.
std::string render_json(const Report& report);

/// Markdown (CommonMark with tables) for an issue tracker: the profile table, each suspect with
/// its evidence, a fenced example and the commands to confirm and fix it.
std::string render_markdown(const Report& report);

/// One self-contained HTML page (no script, no network): the profile, SVG plots of each suspect's
/// gaps and of its worst request's timeline, the evidence and the commands (docs/reports.md).
std::string render_html(const Report& report);

}  // namespace gapscan::report
