#pragma once
// Renderers of the report model. They format; they never compute, filter or sort.

#include <gapscan/report/model.hpp>

#include <string>

namespace gapscan::report {

/// The human-readable report (docs/ARCHITECTURE.md shows an example).
std::string render_text(const Report& report);

/// One JSON document, schema in docs/json-output.md.
std::string render_json(const Report& report);

/// Markdown (CommonMark with tables) for an issue tracker: the profile table, each suspect with
/// its evidence, a fenced example and the commands to confirm and fix it.
std::string render_markdown(const Report& report);

}  // namespace gapscan::report
