// gapscan merge PARTIAL...: the report one scan over the partials' inputs would give.

#include <gapscan/cli/cli.hpp>
#include <gapscan/cli/commands.hpp>
#include <gapscan/cli/options.hpp>

#include <string>
#include <vector>

namespace gapscan::cli {

int merge_command(const std::vector<std::string>& args) {
  auto options = parse_scan_options(args);
  if (!options) {
    print_diagnostic(options.error());
    return k_exit_usage;
  }
  if (options->help) {
    write_stdout(merge_usage());
    return k_exit_ok;
  }
  ScanConfig& config = options->config;
  if (config.paths.empty()) {
    print_diagnostic(make_error("", "merge needs the partial files to add up",
                                "gapscan scan --partial a.gsp LOGS...; gapscan merge a.gsp b.gsp"));
    return k_exit_usage;
  }
  if (config.follow || !config.partial_file.empty()) {
    print_diagnostic(make_error("", "merge takes neither --follow nor --partial", "see gapscan merge --help"));
    return k_exit_usage;
  }
  config.partials = std::move(config.paths);
  config.paths.clear();
  return run_scan_command(std::move(*options));
}

}  // namespace gapscan::cli
