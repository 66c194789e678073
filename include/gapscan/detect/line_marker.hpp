#pragma once
// What a window's analysis would search each line's text for, found once where the line is
// parsed: the trigger patterns it matches, and whether it may be evidence of its request. The
// windows then carry no line text (docs/ARCHITECTURE.md, "Windows without text"); the answers
// are those the analysis gives on a window's text.

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
  /// What is looked for, compiled once for a run and shared by its markers (one per thread).
  struct Patterns {
    std::vector<Regex> regexes;         ///< the triggers', by spec
    std::vector<std::string> patterns;  ///< the prefilter's: the triggers', then the screen's regexes
    std::shared_ptr<const Prefilter> prefilter;
    bool adapted = false;     ///< the prefilter is adapted to the log already
    bool screening = false;   ///< the analysis filters the lines it keeps as context
    bool screen_any = false;  ///< every line may pass that filter (LineScreen::any_line)
  };
  /// `triggers`: the analysis's aligner (its patterns, in its spec order); `screening`: whether
  /// it filters the lines it keeps as context (AnalyzerOptions::keep_context), which only lines
  /// holding what `screen` says may pass.
  static std::shared_ptr<const Patterns> compile(const TriggerAligner& triggers, bool screening,
                                                 const stats::LineScreen& screen);

  /// `grouping`: the line text and fields the stream table keeps, which are what is tested.
  LineMarker(std::shared_ptr<const Patterns> patterns, const stream::GroupingOptions& grouping);

  /// Marks one line (`text`: the physical line; `fields`: its record's named fields). The
  /// answer's views are valid until the next call. Called by one thread.
  stream::LineMarks mark(std::string_view text, std::string_view fields);

 private:
  std::shared_ptr<const Patterns> m_patterns;
  std::shared_ptr<const Prefilter> m_prefilter;  // the shared one, until this marker adapts its own
  bool m_adapted;
  std::string m_sample;  // the first lines' text, to adapt the prefilter to (TriggerAligner's way)
  std::size_t m_max_text;
  std::size_t m_max_fields;
  std::vector<Prefilter::Candidate> m_hits;
  std::vector<int> m_atoms;
  std::vector<int> m_potentials;
  std::vector<std::uint32_t> m_found;
};

}  // namespace gapscan::detect
