#pragma once
// Names the likely cause of each finding and ranks the results. The formulas are at the
// top of matcher.cpp and in docs/catalog.md.

#include <gapscan/catalog/cause.hpp>
#include <gapscan/detect/finding.hpp>

#include <memory>
#include <optional>
#include <vector>

namespace gapscan::catalog {

/// How often one evidence pattern matched the lines around the finding's example gaps.
struct EvidenceHit {
  const EvidencePattern* pattern = nullptr;
  std::size_t hits = 0;
  std::size_t samples = 0;
  std::string example;  ///< a matching line (cut), for --explain
};

/// One candidate explanation of a finding.
struct CauseMatch {
  const Cause* cause = nullptr;
  const DelayWindow* delay = nullptr;
  double value_match = 0;          ///< Gaussian closeness of the centre to the delay window (0-1)
  double offset_ms = 0;            ///< the finding's centre (or band end, for compare = "upper") minus the value
  bool satellite_in_band = false;  ///< the band runs on to the window's satellite (offset_ms is from it)
  double shape_factor = 0;         ///< compatibility of the finding's shape with the cause's (0-1)
  double evidence = 0;             ///< combined evidence score (0-1)
  double counter = 1;              ///< product of the counter-evidence factors (1: none matched)
  /// The phase of the request the finding's durations are (a proxy's connect timer), when they
  /// are one's, and whether the cause's delay lands there: 1 it does, -1 it does not (counted
  /// against), 0 not told (no phase, or the cause names none).
  std::string phase;
  int phase_fit = 0;
  double confidence = 0;
  std::vector<EvidenceHit> hits;
  /// Windows made from a setting the log itself states (a timeout a line sets): the storage
  /// `delay` may point into.
  std::shared_ptr<const std::vector<DelayWindow>> configured;
  /// The cause's trigger lines that other streams wrote during the example stalls, when more
  /// than chance puts there: evidence of scope "during", and the stalls' value need not fit.
  std::optional<detect::DuringHit> during;
};

/// The delay windows a cause that can be CAPPED gains from the settings its "file" evidence
/// found in the log: a marker line such as `busy_timeout_ms=100` or `innodb_lock_wait_timeout=3`
/// (the number after the key the pattern matched, in the unit its name or suffix gives; a bare
/// number may be milliseconds or seconds, both are tried) gives a window whose value is that
/// timeout, compared by the band's end. Empty for other causes.
std::vector<DelayWindow> configured_windows(const Cause& cause, const std::vector<detect::MarkerHit>& markers);

struct Suspect {
  const detect::Finding* finding = nullptr;
  CauseMatch best;                       ///< best.cause == nullptr means "unknown"
  std::vector<CauseMatch> alternatives;  ///< next best causes with confidence >= 0.1, at most 2
  double significance = 0;               ///< 0-1, from the finding's p-value
  double confidence = 0;                 ///< of the suspect as a whole (see matcher.cpp)
  double rank_score = 0;
  /// 0: named and likely; 1: an unexplained delay holding at least a quarter of the wall time;
  /// 2: the rest. Suspects are ranked by tier, then by rank_score.
  int tier = 2;
  const detect::Finding* satellite = nullptr;  ///< a +1-tick companion finding folded in
  /// Smaller modes 2-5 ticks above the named floor (think time in ticks), folded in.
  std::vector<const detect::Finding*> ticks_above;
  /// Other delay values the same cause explains (a busy handler's steps, a retry schedule),
  /// folded into the one that costs the most wall time (this suspect's finding), most time first.
  std::vector<const detect::Finding*> other_delays;
  /// A modifier cause (Cause::modifier) that matched the finding best and was set aside for the
  /// cause its stalls show: it annotates `best`. Its cause is null when there was none.
  CauseMatch modified_by;
  /// The finding as the named cause sees it when it is not the detector's own: a lattice of
  /// ticks read as the band of its modes (`finding` points here then).
  std::shared_ptr<const detect::Finding> reading;
};

/// Matches every finding against the catalog, folds satellites into their main mode, and
/// returns the suspects ranked (rank_score descending; ties by interval).
/// `markers` are the evidence patterns of scope "file" found in the inputs.
std::vector<Suspect> rank_suspects(const std::vector<detect::Finding>& findings, const Catalog& catalog,
                                   const std::vector<detect::MarkerHit>& markers = {});

/// The lines that the catalog's request-wide evidence (scope "request") can match, as a filter
/// for the lines kept as context of example gaps (stats::GapPool::keep_context_if): the other
/// lines of a request are read by nothing. `described` gets what it looks for, one entry per
/// pattern, so that scans which kept different lines are told apart. `screen` gets what a line
/// must hold for the filter to pass it (detect::LineMarker tests it on every line).
stats::LineFilter request_evidence_filter(const Catalog& catalog, std::vector<std::string>& described,
                                          stats::LineScreen* screen = nullptr);

/// The confidence from which the report calls a suspect likely.
inline constexpr double k_likely_confidence = 0.6;

/// An unnamed finding holding at least this share of its requests' wall time is reported as an
/// unexplained delay, ahead of the other unnamed findings.
inline constexpr double k_unexplained_wall_share = 0.25;

}  // namespace gapscan::catalog
