#pragma once
// Stage 8, the command line: parses options, runs the pipeline, prints, sets the exit code.
// The only place where diagnostics become messages on stderr and errors become exit codes.

#include <gapscan/catalog/catalog.hpp>
#include <gapscan/core/expected.hpp>
#include <gapscan/detect/analyzer.hpp>
#include <gapscan/parse/record_reader.hpp>
#include <gapscan/report/model.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gapscan::cli {

/// Exit codes: 0 success; 1 the scan ran but an input could not be read completely;
/// 2 bad usage or a broken catalog; 3 --fail-on: a suspect at that confidence was found;
/// 128 + the signal (130 SIGINT, 143 SIGTERM) when stopped early, after the report of what
/// was read. When several apply, the signal's comes first, then 3, then 1.
inline constexpr int k_exit_ok = 0;
inline constexpr int k_exit_input_error = 1;
inline constexpr int k_exit_usage = 2;
inline constexpr int k_exit_found = 3;

enum class OutputFormat { text, json, markdown, html };

struct NamedText {
  std::string name;
  std::string text;
};

struct ScanConfig {
  std::vector<std::string> paths;    ///< files, folders, "-"; empty means stdin
  std::vector<NamedText> texts;      ///< in-memory inputs (tests, catalog examples); used instead of paths when set
  std::vector<std::string> include;  ///< globs: files of folders to read (default all)
  std::vector<std::string> exclude;  ///< globs: files of folders to skip
  OutputFormat output = OutputFormat::text;
  std::string patterns_dir;  ///< empty: the built-in catalog
  std::shared_ptr<const catalog::Catalog>
      catalog;                            ///< already loaded (patterns test, tests): used instead of patterns_dir
  std::vector<std::string> format_files;  ///< --format-file: user-defined formats
  parse::GroupBy group_by;                ///< --group-by
  double idle_timeout_s = 600;
  int year = 0;                             ///< --year: for yearless stamps; 0: the file's modification year
  std::shared_ptr<const parse::Zone> zone;  ///< --tz: zone of stamps that do not say (null: UTC)
  unsigned jobs = 2;                        ///< threads: 1 reads and analyses; N reads on one, N - 1 analyse,
                                            ///< and from N = 4 one input's lines are parsed on N / 4 more (up to 4)
  std::size_t parse_batch = 2048;           ///< lines per parsing batch (hidden --parse-batch, for tests)
  int parse_threads = -1;                   ///< threads parsing one input beside the reading one; -1: by -j (hidden)
  bool explain = false;                     ///< print each suspect's score components (--explain)
  bool derived_streams = false;  ///< also analyse each message template's and each input's stream (--derived-streams)
  std::vector<std::string> triggers;  ///< --trigger: RE2 patterns of lines that may start a stall
  double fail_on = -1;                ///< --fail-on: exit 3 when a named suspect has this confidence; < 0: off
  bool quiet = false;                 ///< --quiet: no progress line on stderr
  std::string color = "auto";         ///< --color: auto, always or never
  std::string report_file;            ///< --report: write the report to this file instead of stdout
  bool follow = false;                ///< --follow: one growing file or stdin, suspects printed as they appear
  std::string partial_file;           ///< --partial: save the evidence to this file for gapscan merge, no report
  std::vector<std::string> partials;  ///< gapscan merge: the partial files to add up, instead of reading logs
  /// --follow: called when a suspect first becomes likely, with the report of the snapshot it is
  /// in and the lines read so far.
  std::function<void(const report::Finding&, const report::Report&, std::uint64_t lines)> on_suspect;
};

/// Runs the whole pipeline (or, with config.partials, merges partial scans). `exit_code` receives
/// 0 or k_exit_input_error; a catalog that fails to load, or a partial that cannot be read, is an
/// error (the caller prints it and exits with k_exit_usage).
Expected<report::Report> run_scan(const ScanConfig& config, int& exit_code);

/// The lines a scan aligns stalls with: the catalog's trigger patterns, its file-scope evidence
/// (looked for as markers, once per distinct pattern) and --trigger; an invalid --trigger is an
/// error.
Expected<detect::AnalyzerOptions> analyzer_options_for(const catalog::Catalog& catalog, const ScanConfig& config);

/// Entry point used by main().
int run(int argc, char** argv);

}  // namespace gapscan::cli
