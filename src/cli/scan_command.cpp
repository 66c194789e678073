#include <gapscan/cli/cli.hpp>
#include <gapscan/cli/commands.hpp>
#include <gapscan/cli/options.hpp>
#include <gapscan/cli/terminal.hpp>
#include <gapscan/core/interrupt.hpp>
#include <gapscan/report/printers.hpp>

namespace gapscan::cli {

int scan_command(const std::vector<std::string>& args) {
  auto options = parse_scan_options(args);
  if (!options) {
    print_diagnostic(options.error());
    return k_exit_usage;
  }
  if (options->help) {
    write_stdout(scan_usage());
    return k_exit_ok;
  }
  install_interrupt_handlers();
  int exit_code = k_exit_ok;
  auto report = run_scan(options->config, exit_code);
  if (!report) {
    print_diagnostic(report.error());
    return k_exit_usage;
  }
  for (const Diagnostic& diagnostic : report->diagnostics) print_diagnostic(diagnostic);
  const OutputFormat output = options->config.output;
  const std::string text = output == OutputFormat::json ? report::render_json(*report)
                           : output == OutputFormat::markdown
                               ? report::render_markdown(*report)
                               : report::render_text(*report, {use_color(options->config.color), output_width()});
  write_stdout(text);
  if (options->config.fail_on >= 0 && exit_code < 128) {
    for (const report::Finding& finding : report->findings) {
      if (finding.cause != "unknown" && finding.confidence >= options->config.fail_on) return k_exit_found;
    }
  }
  return exit_code;
}

}  // namespace gapscan::cli
