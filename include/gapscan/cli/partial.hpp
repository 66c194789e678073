#pragma once
// Partial scans (gapscan scan --partial FILE) and their merge (gapscan merge FILE...): a scan's
// evidence saved before it is finished, in a versioned file, and added up later in the order
// of the inputs, which gives the report one scan over all the inputs would give.

#include <gapscan/cli/cli.hpp>
#include <gapscan/core/diagnostic.hpp>
#include <gapscan/core/expected.hpp>
#include <gapscan/detect/analyzer.hpp>
#include <gapscan/detect/durations.hpp>
#include <gapscan/parse/record_reader.hpp>
#include <gapscan/report/model.hpp>
#include <gapscan/stream/stream_table.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gapscan::cli {

/// A scan's evidence before it is finished: what a report is built from, what --partial saves
/// and what gapscan merge adds up.
struct ScanState {
  std::unique_ptr<detect::Analyzer> analyzer;
  detect::DurationAnalyzer durations;
  std::map<std::uint64_t, std::string> templates;  ///< message templates by hash (the first k_max_templates)
  std::uint64_t derived_streams = 0;               ///< template, log and process streams opened
  stream::GroupingStats grouping;
  parse::LineAccount lines;
  std::vector<std::string> sources;  ///< input names by SourceId
  std::vector<report::Input> inputs;
  std::vector<Diagnostic> diagnostics;

  static constexpr std::size_t k_max_templates = 4096;
  /// Adds the templates of an input or of another state: the k_max_templates smallest hashes of
  /// both are kept (the same in any grouping).
  void add_templates(std::map<std::uint64_t, std::string> more);
  /// Adds `other` (the inputs after this state's). Associative.
  void merge(ScanState&& other);
};

/// The version of the partial file format; a file of another version is refused.
inline constexpr int k_partial_version = 3;  // 3: the phase profile

/// What a scan's evidence depends on besides its inputs: how lines were grouped (--group-by,
/// --idle-timeout, --derived-streams), which partials must share, and the trigger lines (the
/// catalog's and --trigger), which must also be the merge's own.
struct PartialSettings {
  std::string grouping;
  std::string triggers;
};
PartialSettings partial_settings(const ScanConfig& config, const detect::AnalyzerOptions& options);

/// Writes `state` (its analyzer's clusters are sealed) to `path`.
Expected<void> write_partial(const std::string& path, ScanState& state, const PartialSettings& settings);

/// Reads the partial at `path` and merges it into `into` (whose inputs come first). `prototype`:
/// an empty analyzer made with the merge's options, whose triggers are `settings.triggers`;
/// `settings.grouping` is the first partial's (empty: take this one's). Errors name the file
/// and say what is wrong.
Expected<void> merge_partial(const std::string& path, PartialSettings& settings, const detect::Analyzer& prototype,
                             ScanState& into);

}  // namespace gapscan::cli
