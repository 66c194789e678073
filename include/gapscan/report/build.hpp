#pragma once
// Builds the report model from the results of the earlier stages.

#include <gapscan/catalog/matcher.hpp>
#include <gapscan/detect/finding.hpp>
#include <gapscan/detect/phase_profile.hpp>
#include <gapscan/parse/record_reader.hpp>
#include <gapscan/report/model.hpp>
#include <gapscan/source/input.hpp>
#include <gapscan/stream/stream_table.hpp>

#include <map>
#include <vector>

namespace gapscan::report {

struct RunResults {
  const std::vector<catalog::Suspect>* suspects = nullptr;
  const detect::DetectionSummary* detection = nullptr;
  std::vector<detect::RunFinding> runs;
  std::optional<detect::Quantisation> quantisation;
  std::vector<detect::Finding> timers;  ///< the program's own timers (detect::Finding::own_timer), not suspects
  std::vector<detect::StreamDetections> streams;
  std::map<std::uint64_t, std::string> templates;  ///< template hash -> text, for derived streams and wait points
  std::uint64_t derived_streams = 0;               ///< of the grouping's streams, the derived ones
  const stream::GroupingStats* grouping = nullptr;
  const parse::LineAccount* lines = nullptr;
  const source::SourceTable* sources = nullptr;
  const catalog::Catalog* catalog = nullptr;
  std::vector<Input> inputs;
  std::vector<Diagnostic> diagnostics;
  std::size_t max_examples = 3;                  ///< example gaps shown per finding
  const detect::PhaseProfile* phases = nullptr;  ///< the lines' phase timers; null: none
};

Report build_report(const RunResults& results);

}  // namespace gapscan::report
