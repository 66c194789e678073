#pragma once
// The subcommand table: name, one-line help, handler. Each handler lives in its own file.

#include <gapscan/cli/options.hpp>
#include <gapscan/core/diagnostic.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::cli {

using Handler = int (*)(const std::vector<std::string>& args);

struct Command {
  std::string_view name;
  std::string_view summary;
  Handler handler;
};

std::span<const Command> commands();

int scan_command(const std::vector<std::string>& args);
/// Runs a scan (or a merge) with options already parsed, prints its report, returns the exit code.
int run_scan_command(ScanOptions options);
int merge_command(const std::vector<std::string>& args);
int patterns_command(const std::vector<std::string>& args);
int causes_command(const std::vector<std::string>& args);
int events_command(const std::vector<std::string>& args);
int formats_command(const std::vector<std::string>& args);
int help_command(const std::vector<std::string>& args);

/// Writes `text` to stdout; returns false when stdout is closed (e.g. `| head`).
bool write_stdout(std::string_view text);
/// Prints a diagnostic on stderr as "gapscan: file:line: error: message (hint)".
void print_diagnostic(const Diagnostic& diagnostic);

}  // namespace gapscan::cli
