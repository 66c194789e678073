#include <gapscan/catalog/loader.hpp>
#include <gapscan/catalog/matcher.hpp>
#include <gapscan/cli/cli.hpp>
#include <gapscan/cli/commands.hpp>
#include <gapscan/cli/options.hpp>

#include <fmt/format.h>

namespace gapscan::cli {
namespace {

/// Runs one example with the catalog under test, loaded from `directory` ("" for the built-in
/// one); returns what went wrong, or an empty string.
std::string run_example(const catalog::Cause& cause, const catalog::Example& example,
                        const std::shared_ptr<const catalog::Catalog>& catalog, const std::string& directory) {
  ScanConfig config;
  config.catalog = catalog;
  config.patterns_dir = directory;  // for its formats/ and presets/
  config.texts.push_back({example.where, example.log});
  int exit_code = 0;
  const auto report = run_scan(config, exit_code);
  if (!report) return to_string(report.error());
  if (report->lines.unparsed > 0) return fmt::format("{} line(s) not parsed", report->lines.unparsed);
  std::string found;
  for (const report::Finding& f : report->findings) {
    if (found.size() < 200)
      found += fmt::format("{}#{} {} {:.2f} at {:.1f} ms", found.empty() ? "" : "; ", f.rank, f.cause, f.confidence,
                           f.interval_ms);
  }
  if (found.empty()) found = "nothing";
  if (example.expect_match) {
    if (report->findings.empty() || report->findings.front().cause != cause.id ||
        report->findings.front().confidence < catalog::k_likely_confidence)
      return "expected it first at confidence 0.6 or more; found " + found;
    return {};
  }
  for (const report::Finding& f : report->findings) {
    if (f.cause == cause.id && f.confidence >= catalog::k_likely_confidence)
      return "expected no report of it at 0.6 or more; found " + found;
  }
  return {};
}

std::string test_examples(const std::shared_ptr<const catalog::Catalog>& catalog, const std::string& directory,
                          bool& failed) {
  std::string text;
  std::size_t passed = 0, total = 0;
  for (const catalog::Cause& cause : catalog->causes) {
    for (const catalog::Example& example : cause.examples) {
      ++total;
      const std::string problem = run_example(cause, example, catalog, directory);
      if (problem.empty()) {
        ++passed;
        continue;
      }
      text += fmt::format("FAIL {} ({}): {}\n     {}\n", example.where, example.expect_match ? "match" : "no-match",
                          example.description, problem);
    }
  }
  failed = passed < total;
  text += fmt::format("{}: {} of {} examples behave as they say\n", catalog->origin, passed, total);
  return text;
}

}  // namespace

int patterns_command(const std::vector<std::string>& args) {
  auto options = parse_patterns_options(args);
  if (!options) {
    print_diagnostic(options.error());
    return k_exit_usage;
  }
  if (options->help) {
    write_stdout(patterns_usage());
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
  std::string text;
  if (options->action == "test") {
    bool failed = false;
    write_stdout(
        test_examples(std::make_shared<const catalog::Catalog>(std::move(*catalog)), options->directory, failed));
    return failed ? 1 : k_exit_ok;  // 1: some example does not behave as it says
  }
  if (options->action == "check") {
    std::size_t examples = 0;
    for (const catalog::Cause& cause : catalog->causes) examples += cause.examples.size();
    text = fmt::format("{}: {} causes, {} examples, no errors\n", catalog->origin, catalog->causes.size(), examples);
  } else {
    for (const catalog::Cause& cause : catalog->causes) {
      std::string values;
      for (const catalog::DelayWindow& delay : cause.delays) {
        values += fmt::format("{}{:g} ms", values.empty() ? "" : ", ", delay.value_ms);
      }
      text += fmt::format("{:<38} {}\n", cause.id, cause.title);
      if (!values.empty()) text += fmt::format("{:<38} {}\n", "", values);
      for (const catalog::TriggerPattern& trigger : cause.triggers)
        text += fmt::format("{:<38} stalls around lines matching {}\n", "", trigger.pattern);
    }
  }
  write_stdout(text);
  return k_exit_ok;
}

}  // namespace gapscan::cli
