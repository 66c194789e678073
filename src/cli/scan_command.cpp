#include <gapscan/cli/cli.hpp>
#include <gapscan/cli/commands.hpp>
#include <gapscan/cli/options.hpp>
#include <gapscan/cli/terminal.hpp>
#include <gapscan/core/interrupt.hpp>
#include <gapscan/report/printers.hpp>
#include <gapscan/report/units.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

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
  return run_scan_command(std::move(*options));
}

int run_scan_command(ScanOptions scan_options) {
  ScanOptions* options = &scan_options;
  // The report file is opened before the scan, so that a long scan does not end in an error.
  std::ofstream report_file;
  const std::string& report_path = options->config.report_file;
  if (!report_path.empty()) {
    report_file.open(report_path, std::ios::binary | std::ios::trunc);
    if (!report_file) {
      print_diagnostic(make_error(report_path, fmt::format("cannot write the report: {}", std::strerror(errno)),
                                  "give --report a path in a writable folder"));
      return k_exit_usage;
    }
  }
  if (options->config.follow) {
    // Each suspect as it becomes likely: on stdout above the final text report, else on stderr
    // (stdout then carries only the JSON, Markdown or HTML document).
    const bool to_stdout = options->config.output == OutputFormat::text && report_path.empty();
    const report::TextStyle style{to_stdout ? use_color(options->config.color) : false,
                                  to_stdout ? output_width() : 80};
    options->config.on_suspect = [to_stdout, style](const report::Finding& finding, const report::Report& now,
                                                    std::uint64_t lines) {
      const std::string text = fmt::format("After {} lines: a suspect became likely\n{}", report::count(lines),
                                           report::render_text_suspect(finding, now, style));
      if (to_stdout) {
        write_stdout(text);
      } else {
        fmt::print(stderr, "{}", text);
        std::fflush(stderr);
      }
    };
  }
  install_interrupt_handlers();
  int exit_code = k_exit_ok;
  auto report = run_scan(options->config, exit_code);
  if (!report) {
    print_diagnostic(report.error());
    return k_exit_usage;
  }
  for (const Diagnostic& diagnostic : report->diagnostics) print_diagnostic(diagnostic);
  if (!options->config.partial_file.empty()) return exit_code;  // the evidence is saved; no report
  const OutputFormat output = options->config.output;
  std::string text;
  if (output == OutputFormat::json) {
    text = report::render_json(*report);
  } else if (output == OutputFormat::markdown) {
    text = report::render_markdown(*report);
  } else if (output == OutputFormat::html) {
    text = report::render_html(*report);
  } else if (report_file.is_open()) {
    text = report::render_text(*report, {options->config.color == "always", 80});
  } else {
    text = report::render_text(*report, {use_color(options->config.color), output_width()});
  }
  if (report_file.is_open()) {
    report_file << text;
    report_file.close();
    if (!report_file) {
      print_diagnostic(make_error(report_path, "cannot write the report (disk full?)"));
      return k_exit_usage;
    }
  } else {
    write_stdout(text);
  }
  if (options->config.fail_on >= 0 && exit_code < 128) {
    for (const report::Finding& finding : report->findings) {
      if (finding.cause != "unknown" && finding.confidence >= options->config.fail_on) return k_exit_found;
    }
  }
  return exit_code;
}

}  // namespace gapscan::cli
