#include <gapscan/detect/line_marker.hpp>

#include <algorithm>

namespace gapscan::detect {

std::shared_ptr<const LineMarker::Patterns> LineMarker::compile(const TriggerAligner& triggers, bool screening,
                                                                const stats::LineScreen& screen) {
  auto compiled = std::make_shared<Patterns>();
  compiled->regexes = triggers.regexes();
  compiled->patterns = triggers.patterns();
  compiled->screening = screening;
  compiled->screen_any = screen.any_line;
  // The aligner's own prefilter serves when nothing is screened (the same patterns); else one
  // of both kinds, so that one pass over a line finds the atoms of either.
  if (!screening || screen.regexes.empty()) {
    compiled->prefilter = triggers.prefilter();
    compiled->adapted = triggers.adapted_prefilter() != nullptr;
  } else {
    compiled->patterns.insert(compiled->patterns.end(), screen.regexes.begin(), screen.regexes.end());
    compiled->prefilter = std::make_shared<const Prefilter>(compiled->patterns);
  }
  return compiled;
}

LineMarker::LineMarker(std::shared_ptr<const Patterns> patterns, const stream::GroupingOptions& grouping)
    : m_patterns(std::move(patterns)),
      m_prefilter(m_patterns->prefilter),
      m_adapted(m_patterns->adapted),
      m_max_text(grouping.max_line_text),
      m_max_fields(grouping.max_line_fields) {}

stream::LineMarks LineMarker::mark(std::string_view text, std::string_view fields) {
  const Patterns& patterns = *m_patterns;
  const std::string_view kept = text.substr(0, m_max_text);
  const std::string_view kept_fields = fields.substr(0, m_max_fields);
  const std::size_t triggers = patterns.regexes.size();
  m_found.clear();
  bool screened = patterns.screen_any;  // the line holds what the context filter needs
  if (!patterns.patterns.empty()) {
    if (!m_adapted) {
      // Filed under the byte pairs this log has least of, once its first 64 KiB are seen: a
      // matter of speed only, as in TriggerAligner (the lines found are the same).
      m_sample.append(kept).push_back('\n');
      if (m_sample.size() >= TriggerAligner::k_adapt_sample) {
        auto adapted = std::make_shared<Prefilter>(patterns.patterns);
        adapted->adapt(m_sample);
        m_prefilter = std::move(adapted);
        m_adapted = true;
        std::string().swap(m_sample);
      }
    }
    const auto potentials_in = [&](std::string_view part) {
      m_hits.clear();
      m_potentials.clear();
      m_prefilter->candidates(part, 0, m_hits);
      if (m_hits.empty()) return;
      m_atoms.clear();
      for (const Prefilter::Candidate& hit : m_hits) m_atoms.push_back(hit.atom);
      m_prefilter->potentials_of(m_atoms, m_potentials);
    };
    potentials_in(kept);
    for (const int potential : m_potentials) {
      const auto p = static_cast<std::size_t>(potential);
      if (p >= triggers) {
        screened = true;
      } else if (patterns.regexes[p].search(kept)) {
        m_found.push_back(static_cast<std::uint32_t>(p));
      }
    }
    if (!screened && !kept_fields.empty() && patterns.patterns.size() > triggers) {
      potentials_in(kept_fields);
      screened = std::any_of(m_potentials.begin(), m_potentials.end(),
                             [&](int p) { return static_cast<std::size_t>(p) >= triggers; });
    }
  }
  stream::LineMarks marks;
  marks.known = true;
  marks.screened = patterns.screening && screened;
  marks.triggers = m_found;
  return marks;
}

}  // namespace gapscan::detect
