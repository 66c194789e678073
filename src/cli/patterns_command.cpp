#include <gapscan/catalog/loader.hpp>
#include <gapscan/cli/cli.hpp>
#include <gapscan/cli/commands.hpp>
#include <gapscan/cli/options.hpp>

#include <fmt/format.h>

namespace gapscan::cli {

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
