#include <gapscan/cli/cli.hpp>
#include <gapscan/cli/commands.hpp>

#include <gapscan/cli/suggest.hpp>

#include "gapscan_commit.h"

#include <fmt/format.h>

#include <unistd.h>
#include <array>
#include <cerrno>
#include <cstdio>
#include <filesystem>

namespace gapscan::cli {

std::span<const Command> commands() {
  static constexpr std::array<Command, 7> k_commands = {{
      {"scan", "find regular gaps in logs and name their likely cause (the default)", scan_command},
      {"merge", "add up partial scans (scan --partial FILE) into the report of one scan over all their inputs",
       merge_command},
      {"events", "print one row per record: line, time in ns, group key, format", events_command},
      {"causes", "list the causes gapscan knows, or show one in full (gapscan causes ID)", causes_command},
      {"patterns", "check, test or list the cause catalog files (patterns/*.toml)", patterns_command},
      {"formats", "list the log formats gapscan reads, with a sample line each", formats_command},
      {"help", "show help for gapscan or a command", help_command},
  }};
  return k_commands;
}

bool write_stdout(std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(STDOUT_FILENO, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;  // EPIPE and friends: the reader went away; stop quietly
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void print_diagnostic(const Diagnostic& diagnostic) { fmt::print(stderr, "gapscan: {}\n", to_string(diagnostic)); }

int help_command(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] != "help" && args[0] != "--help" && args[0] != "-h") {
    for (const Command& command : commands()) {
      if (command.name == args[0]) return command.handler({"--help"});
    }
    std::vector<std::string> names;
    for (const Command& command : commands()) names.emplace_back(command.name);
    const std::string meant = closest(args[0], names);
    print_diagnostic(make_error("", fmt::format("help: unknown command '{}'", args[0]),
                                meant.empty() ? "the commands are listed by gapscan help"
                                              : fmt::format("did you mean gapscan help {}?", meant)));
    return k_exit_usage;
  }
  std::string text =
      fmt::format("gapscan {} — finds the regular gaps hidden in logs and names their cause\n\n", GAPSCAN_VERSION);
  text += "Usage: gapscan [COMMAND] [options] [FILE|FOLDER|-]...\n\nCommands:\n";
  for (const Command& command : commands()) text += fmt::format("  {:<10} {}\n", command.name, command.summary);
  text += "\nWithout a command, gapscan scans. `gapscan help scan` lists the scan options.\n";
  write_stdout(text);
  return k_exit_ok;
}

int run(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "--version" || args[0] == "-V")) {
    write_stdout(fmt::format("gapscan {} (commit {})\n", GAPSCAN_VERSION, GAPSCAN_COMMIT));
    return k_exit_ok;
  }
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) return help_command({});
  // `gapscan --patterns DIR causes …` (the catalog option before the command, as for a scan):
  // the option belongs to the command.
  const std::size_t width = !args.empty() && args[0] == "--patterns"              ? 2
                            : !args.empty() && args[0].starts_with("--patterns=") ? 1
                                                                                  : 0;
  if (width > 0 && args.size() > width && args[width] != "scan") {
    for (const Command& command : commands()) {
      if (command.name != args[width]) continue;
      std::vector<std::string> rest(args.begin() + static_cast<std::ptrdiff_t>(width) + 1, args.end());
      rest.insert(rest.end(), args.begin(), args.begin() + static_cast<std::ptrdiff_t>(width));
      return command.handler(rest);
    }
  }
  if (!args.empty()) {
    for (const Command& command : commands()) {
      if (command.name == args[0]) return command.handler(std::vector<std::string>(args.begin() + 1, args.end()));
    }
    // A first word that is no file but nearly a command's name is a misspelt command.
    std::error_code ec;
    if (!args[0].starts_with("-") && !std::filesystem::exists(args[0], ec)) {
      std::vector<std::string> names;
      for (const Command& command : commands()) names.emplace_back(command.name);
      if (const std::string meant = closest(args[0], names); !meant.empty()) {
        print_diagnostic(make_error("", fmt::format("unknown command '{}', and no such file", args[0]),
                                    fmt::format("did you mean gapscan {}? see gapscan help", meant)));
        return k_exit_usage;
      }
    }
  }
  return scan_command(args);
}

}  // namespace gapscan::cli
