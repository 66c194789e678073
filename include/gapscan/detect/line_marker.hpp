#pragma once
// What a window's analysis would search each line's text for, found once where the line is
// parsed: the trigger patterns it matches, and whether it may be evidence of its request. The
// windows then carry no text but that of the trigger lines (docs/ARCHITECTURE.md, "Windows
// without text"); the answers are those the analysis gives on a window's text.

#include <gapscan/core/prefilter.hpp>
#include <gapscan/core/regex.hpp>
#include <gapscan/detect/triggers.hpp>
#include <gapscan/stats/gap_pool.hpp>
#include <gapscan/stream/stream_table.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::detect {

class LineMarker {
 public:
  /// `triggers`: the analysis's aligner (its patterns, in its spec order); `evidence`: its
  /// context filter (AnalyzerOptions::keep_context; unset: no line is screened, as every line
  /// is context), which lines holding what `screen` says it needs may pass; `grouping`: the line
  /// text and fields the stream table keeps, which are what is tested.
  LineMarker(const TriggerAligner& triggers, stats::LineFilter evidence, const stats::LineScreen& screen,
             const stream::GroupingOptions& grouping);

  /// Marks one line (`text`: the physical line; `fields`: its record's named fields). The
  /// answer's views are valid until the next call. Called by one thread.
  stream::LineMarks mark(std::string_view text, std::string_view fields);

 private:
  std::vector<Regex> m_regexes;  // by spec
  // The prefilter's patterns: the triggers' (as many as m_regexes), then the screen's regexes.
  std::vector<std::string> m_patterns;
  std::shared_ptr<const Prefilter> m_prefilter;
  bool m_adapted = false;
  std::string m_sample;      // the first lines' text, to adapt the prefilter to (TriggerAligner's way)
  bool m_screening;          // the analysis filters the lines it keeps as context
  bool m_screen_any = true;  // every line may pass that filter (LineScreen::any_line)
  std::size_t m_max_text;
  std::size_t m_max_fields;
  std::vector<Prefilter::Candidate> m_hits;
  std::vector<int> m_atoms;
  std::vector<int> m_potentials;
  std::vector<std::uint32_t> m_found;
};

}  // namespace gapscan::detect
