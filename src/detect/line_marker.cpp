#include <gapscan/detect/line_marker.hpp>

#include <algorithm>

namespace gapscan::detect {
namespace {

std::vector<std::string> joined(std::vector<std::string> first, const std::vector<std::string>& second) {
  first.insert(first.end(), second.begin(), second.end());
  return first;
}

}  // namespace

LineMarker::LineMarker(const TriggerAligner& triggers, stats::LineFilter evidence, const stats::LineScreen& screen,
                       const stream::GroupingOptions& grouping)
    : m_regexes(triggers.regexes()),
      m_patterns(joined(triggers.patterns(), screen.regexes)),
      m_screening(static_cast<bool>(evidence)),
      m_screen_any(screen.any_line),
      m_max_text(grouping.max_line_text),
      m_max_fields(grouping.max_line_fields) {
  // The aligner's own prefilter serves when nothing is screened (the same patterns); else one
  // of both kinds, so that one pass over a line finds the atoms of either.
  if (screen.regexes.empty()) {
    m_prefilter = triggers.prefilter();
    m_adapted = triggers.adapted_prefilter() != nullptr;
  } else {
    m_prefilter = std::make_shared<const Prefilter>(m_patterns);
  }
}

stream::LineMarks LineMarker::mark(std::string_view text, std::string_view fields) {
  const std::string_view kept = text.substr(0, m_max_text);
  const std::string_view kept_fields = fields.substr(0, m_max_fields);
  m_found.clear();
  bool screened = m_screen_any;  // the line holds what the context filter needs
  if (!m_patterns.empty()) {
    if (!m_adapted) {
      // Filed under the byte pairs this log has least of, once its first 64 KiB are seen: a
      // matter of speed only, as in TriggerAligner (the lines found are the same).
      m_sample.append(kept).push_back('\n');
      if (m_sample.size() >= TriggerAligner::k_adapt_sample) {
        auto adapted = std::make_shared<Prefilter>(m_patterns);
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
      if (p >= m_regexes.size()) {
        screened = true;
      } else if (m_regexes[p].search(kept)) {
        m_found.push_back(static_cast<std::uint32_t>(p));
      }
    }
    if (!screened && !kept_fields.empty() && m_patterns.size() > m_regexes.size()) {
      potentials_in(kept_fields);
      screened = std::any_of(m_potentials.begin(), m_potentials.end(),
                             [&](int p) { return static_cast<std::size_t>(p) >= m_regexes.size(); });
    }
  }
  stream::LineMarks marks;
  marks.known = true;
  marks.screened = m_screening && screened;
  marks.triggers = m_found;
  return marks;
}

}  // namespace gapscan::detect
