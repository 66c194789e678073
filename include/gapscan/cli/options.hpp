#pragma once
// Command-line options of every subcommand, parsed with Boost.Program_options in options.cpp
// (the only file that includes it).

#include <gapscan/cli/cli.hpp>
#include <gapscan/core/expected.hpp>

#include <string>
#include <vector>

namespace gapscan::cli {

struct ScanOptions {
  ScanConfig config;
  bool help = false;
};

struct PatternsOptions {
  std::string action;     ///< "check", "test" or "list"
  std::string directory;  ///< empty: the built-in catalog
  bool help = false;
};

struct CausesOptions {
  std::string id;         ///< empty: list them all
  std::string directory;  ///< --patterns; empty: the built-in catalog
  bool help = false;
};

struct EventsOptions {
  std::vector<std::string> paths;
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  OutputFormat output = OutputFormat::text;
  parse::GroupBy group_by;
  std::vector<std::string> format_files;
  int year = 0;
  std::shared_ptr<const parse::Zone> zone;
  bool help = false;
};

Expected<ScanOptions> parse_scan_options(const std::vector<std::string>& args);
Expected<EventsOptions> parse_events_options(const std::vector<std::string>& args);
Expected<PatternsOptions> parse_patterns_options(const std::vector<std::string>& args);
Expected<CausesOptions> parse_causes_options(const std::vector<std::string>& args);

/// Usage text of a subcommand, generated from the same option table.
std::string scan_usage();
/// gapscan merge --help.
std::string merge_usage();
std::string patterns_usage();
std::string causes_usage();
std::string events_usage();

}  // namespace gapscan::cli
