// gapscan causes [ID]: the catalog as a user reads it. Without an id, one line per cause with its
// typical values; with one, everything the catalog knows about that cause.

#include <gapscan/catalog/loader.hpp>
#include <gapscan/cli/cli.hpp>
#include <gapscan/cli/commands.hpp>
#include <gapscan/cli/options.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace gapscan::cli {
namespace {

std::string milliseconds(double ms) {
  if (ms >= 1000) return fmt::format("{:g} s", ms / 1000);
  return fmt::format("{:g} ms", ms);
}

/// The distinct delay values of a cause, shortest first, at most `limit` of them.
std::string typical_values(const catalog::Cause& cause, std::size_t limit) {
  std::vector<double> values;
  for (const catalog::DelayWindow& delay : cause.delays) values.push_back(delay.value_ms);
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::string text;
  for (std::size_t i = 0; i < values.size() && i < limit; ++i)
    text += (text.empty() ? "" : ", ") + milliseconds(values[i]);
  if (values.size() > limit) text += ", …";
  if (text.empty() && !cause.triggers.empty()) text = "stalls after trigger lines";
  return text;
}

std::string list_causes(const catalog::Catalog& catalog) {
  std::string text = fmt::format("{:<36}  {:<34}  {}\n", "id", "typical values", "cause");
  for (const catalog::Cause& cause : catalog.causes) {
    text += fmt::format("{:<36}  {:<34}  {}\n", cause.id, typical_values(cause, 3), cause.title);
  }
  text +=
      fmt::format("\n{} causes ({}). `gapscan causes ID` shows one in full.\n", catalog.causes.size(), catalog.origin);
  return text;
}

void bullets(std::string& text, std::string_view heading, const std::vector<std::string>& items) {
  if (items.empty()) return;
  text += fmt::format("\n{}\n", heading);
  for (const std::string& item : items) text += fmt::format("  - {}\n", item);
}

std::string show_cause(const catalog::Cause& cause) {
  std::string text = fmt::format("{}\n{}\n\n{}\n\nShapes: ", cause.id, cause.title, cause.summary);
  for (std::size_t i = 0; i < cause.shapes.size(); ++i) text += (i ? ", " : "") + cause.shapes[i];
  text += fmt::format("; evidence weight {:.2f}\n", cause.evidence_weight);
  if (!cause.delays.empty()) text += "\nDelays\n";
  for (const catalog::DelayWindow& delay : cause.delays) {
    text += fmt::format("  {} ± {}{}  {}\n", milliseconds(delay.value_ms), milliseconds(delay.tolerance_ms),
                        delay.compare_upper ? " (band end)" : "", delay.label);
    if (delay.satellite_ms) text += fmt::format("      satellite at {}\n", milliseconds(*delay.satellite_ms));
    text += fmt::format("      {}\n", delay.implies);
  }
  if (!cause.triggers.empty()) text += "\nTrigger lines (stalls of other streams around them)\n";
  for (const catalog::TriggerPattern& trigger : cause.triggers) {
    text += fmt::format("  {}  — {}", trigger.pattern, trigger.meaning);
    if (trigger.after_ms > 0) text += fmt::format(" (stalls up to {} after)", milliseconds(trigger.after_ms));
    text += "\n";
  }
  if (!cause.evidence.empty()) text += "\nEvidence (weight, where it is looked for)\n";
  for (const catalog::EvidencePattern& evidence : cause.evidence) {
    text += fmt::format("  {:+.2f} {:<8} {}\n           {}\n", evidence.weight, catalog::to_string(evidence.scope),
                        evidence.meaning, evidence.pattern);
  }
  bullets(text, "Confirm", cause.confirm);
  bullets(text, "Fix", cause.fix);
  bullets(text, "References", cause.references);
  text += fmt::format("\n{} example(s) in {}\n", cause.examples.size(), cause.origin);
  return text;
}

}  // namespace

int causes_command(const std::vector<std::string>& args) {
  auto options = parse_causes_options(args);
  if (!options) {
    print_diagnostic(options.error());
    return k_exit_usage;
  }
  if (options->help) {
    write_stdout(causes_usage());
    return k_exit_ok;
  }
  std::vector<Diagnostic> diagnostics;
  auto catalog = options->directory.empty() ? catalog::load_builtin(diagnostics)
                                            : catalog::load_directory(options->directory, diagnostics);
  for (const Diagnostic& diagnostic : diagnostics) print_diagnostic(diagnostic);
  if (!catalog) {
    if (diagnostics.empty()) print_diagnostic(catalog.error());
    return k_exit_usage;
  }
  if (options->id.empty()) {
    write_stdout(list_causes(*catalog));
    return k_exit_ok;
  }
  std::vector<std::string_view> ids;
  for (const catalog::Cause& cause : catalog->causes) {
    if (cause.id == options->id) {
      write_stdout(show_cause(cause));
      return k_exit_ok;
    }
    ids.push_back(cause.id);
  }
  std::string hint = catalog::suggestion(options->id, ids);
  if (hint.empty()) {
    // A part of an id ("syn", "thp") names the causes that contain it.
    std::string containing;
    for (std::string_view id : ids) {
      if (id.find(options->id) != std::string_view::npos)
        containing += (containing.empty() ? "" : ", ") + std::string(id);
    }
    hint = containing.empty() ? "`gapscan causes` lists them" : "did you mean one of: " + containing + "?";
  }
  print_diagnostic(make_error("", fmt::format("no cause '{}' in the catalog", options->id), hint));
  return k_exit_usage;
}

}  // namespace gapscan::cli
