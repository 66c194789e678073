#include <gapscan/cli/cli.hpp>
#include <gapscan/cli/commands.hpp>
#include <gapscan/cli/reading.hpp>
#include <gapscan/parse/format.hpp>
#include <gapscan/parse/layouts.hpp>
#include <gapscan/parse/user_format.hpp>

#include <fmt/format.h>

namespace gapscan::cli {

int formats_command(const std::vector<std::string>& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    write_stdout(
        "Usage: gapscan formats\n\nLists the built-in log formats in detection priority order, the layouts the\n"
        "generic format reads (each with a sample line), then the format presets that\n"
        "--format-file NAME selects (a web server's own format string, its fields named).\n");
    return k_exit_ok;
  }
  std::string text;
  for (const parse::FormatInfo& format : parse::builtin_formats()) {
    std::string sample = format.sample;  // an entry's lines one under the other
    for (std::size_t at = sample.find('\n'); at != std::string::npos; at = sample.find('\n', at + 11))
      sample.replace(at, 1, "\n          ");
    text += fmt::format("{}\n  {}\n  sample: {}\n\n", format.name, format.description, sample);
  }
  text +=
      "Layouts the generic format reads (a stamp family at a place learnt from the first lines; docs/formats.md)\n\n";
  for (const parse::GenericLayout& layout : parse::generic_layouts()) {
    std::string example(layout.example);
    for (std::size_t at = example.find('\n'); at != std::string::npos; at = example.find('\n', at + 11))
      example.replace(at, 1, "\n          ");
    for (std::size_t at = example.find('\x1b'); at != std::string::npos; at = example.find('\x1b', at))
      example.replace(at, 1, "\\e");  // shown, not obeyed by the terminal
    text += fmt::format("{}\n  sample: {}\n\n", layout.name, example);
  }
  text += "Presets (--format-file NAME; the fields each line names are shown by `gapscan events -o json`)\n\n";
  std::vector<Diagnostic> diagnostics;
  for (const auto& [name, file] : format_presets()) {
    const auto format = parse::parse_format_file(file, "preset " + name, diagnostics);
    if (!format) continue;
    text += fmt::format("{}\n  {}\n  sample: {}\n\n", name, format->description, format->sample);
  }
  for (const Diagnostic& diagnostic : diagnostics) print_diagnostic(diagnostic);
  write_stdout(text);
  return diagnostics.empty() ? k_exit_ok : k_exit_usage;
}

}  // namespace gapscan::cli
