#include <gapscan/cli/cli.hpp>
#include <gapscan/cli/commands.hpp>
#include <gapscan/parse/format.hpp>

#include <fmt/format.h>

namespace gapscan::cli {

int formats_command(const std::vector<std::string>& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    write_stdout("Usage: gapscan formats\n\nLists the built-in log formats in detection priority order.\n");
    return k_exit_ok;
  }
  std::string text;
  for (const parse::FormatInfo& format : parse::builtin_formats()) {
    text += fmt::format("{}\n  {}\n  sample: {}\n\n", format.name, format.description, format.sample);
  }
  write_stdout(text);
  return k_exit_ok;
}

}  // namespace gapscan::cli
