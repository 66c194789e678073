// Naming and ranking
//
// For a finding f (centre c, 80 % interval [lo, hi], significance p) and a cause e:
//
//   value match   M = max over e's delay windows d of exp(-1/2 ((c - v_d) / sqrt(w^2 + s_d^2))^2),
//                     w = (hi - lo) / 2, s_d = the window's tolerance; times
//                     exp(-1/2 ((r - a) / 0.15)^2) when the finding's relative width r exceeds
//                     a = max(0.15, 2 s_d / v_d): a fixed delay makes a tight mode, and a wide
//                     band (a wait point's stalls, logged durations) is not explained by a value;
//                   for a window compared by its upper edge (compare = "upper"), with
//                   d = hi - v_d the offset of the band's end from the value:
//                     M = exp(-1/2 (e / s_d)^2), e = d if d < 0, d - late_d if d > late_d, else 0,
//                     halved when lo < 0.75 v_d (a band reaching far below the value is not
//                     this delay); late_d allows for scheduling latency on a busy host.
//                   A band that runs on to the window's satellite (stalls of one and of two
//                   ticks merged, 44 and 48 ms) is fitted by its end against the satellite,
//                   times 0.95, and counts the satellite as evidence (below).
//                   Windows within 0.02 of the best M are told apart by the smaller |offset|.
//   shape factor  H = table below (finding shape x cause shapes), the best over e's shapes
//   evidence      E = 1 - prod_k (1 - weight_k * hits_k / samples), over e's evidence patterns
//                     of positive weight, each tested on the lines its scope names around f's
//                     example gaps (before, after, around, request: the request's other
//                     lines); a pattern of scope "file" counts as matched in every sample when
//                     any line read matches it; a satellite finding one tick above
//                     (d.satellite_ms) counts as one more item of weight 0.3
//                     a pattern of scope "fact" names a fact measured on the finding's stalls
//                     (cause.hpp k_facts: all_silent) and counts in the share it holds for
//   counter       K = prod_k (1 - |weight_k| * hits_k / samples), over the patterns of negative
//                     weight (counter-evidence: a line or a fact that says it was something else)
//   a window with `when` = a fact has its fit multiplied by the share that fact holds for
//   significance  S = 1 - exp(-max(0, -log10 p - 2) / 2)   (p = 1e-4 -> 0.63, 1e-6 -> 0.86)
//   confidence    C = S * M * H * (1 - eps_e + eps_e * E) * K,   eps_e = e.evidence_weight
//
// The cause with the highest C names the finding. When no cause reaches C >= 0.05 the finding
// is "unknown" with C = 0.5 * S: a real mode whose cause the catalog does not know is never
// called likely. A finding whose centre lies within its tolerance of the satellite value of a
// higher-ranked suspect of the same cause is folded into that suspect.
//
// A modifier cause (Cause::modifier: the timer tick) that names a lattice whose modes are
// consecutive multiples (one stall, with whole ticks of think time above it) steps aside when
// the band of those modes, read as one finding, names another cause with C >= 0.4: that cause
// names the finding and the modifier annotates it (Suspect::modified_by).
//
// Gap modes on several multiples of a lattice that holds most gaps are folded into one
// QUANTISED finding (LatticeDetail): H = 1 for QUANTISED causes, which are matched by the
// lattice's base (with w = 1 % of it) instead of a mode's centre, 0.6 for PERIODIC ones and
// 0.4 for the others.
//
// Trigger lines inside a finding's example stalls (Finding::during: another stream, a server's log,
// says what the requests wait for): for stalls of 10 ms or more, in at least 2 of them, half or
// more, where chance (the lines at their rate over the span, binomially over the examples, for
// the best of several onset leads) gives p <= 0.01, they count as evidence of weight
// 0.9 × their share, and M is at least min(1, 2 × share): the stall lasts what the system took,
// not a catalog value.
//
// Stalls around trigger lines (detect/triggers.hpp) are named by the cause whose [[trigger]]
// pattern they follow, with M = 1 and E from the cause's "file" evidence only (the stalls have
// no lines of their own; E = 1 when the cause has none): C = S * H * (1 - eps + eps E) * K;
// patterns given with --trigger are "unknown".
//
//   rank score    R = C * (0.5 + 0.5 * min(1, wall_share / 0.3))
//
// Suspects are ranked by tier, then by R: named suspects with C >= 0.6 first, then findings
// that are not likely but hold at least a quarter of their requests' wall time with S >= 0.5,
// in three or more requests (reported as unexplained delays), then the rest. A user is told first what the catalog can
// name with confidence, and never loses a delay that costs a quarter of the time.
//
// An unknown mode below 1 ms is never first while a finding of 10 ms or more holds more wall time
// (its member gaps' sum): that finding moves to the front.
//
// One cause, several delays (a busy handler's steps, a retry schedule, the waits of one lock):
// the suspects a cause names become one, at the place of the best ranked, with its confidence
// and tier; the delay it reports first is the one whose gaps hold the most wall time (what the
// user feels), the others are listed (Suspect::other_delays). Stalls around trigger lines and
// slowdowns on the wall clock stay apart: they are not a delay value.

#include <gapscan/catalog/matcher.hpp>
#include <gapscan/core/prefilter.hpp>
#include <gapscan/parse/fields.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace gapscan::catalog {
namespace {

constexpr double k_unknown_threshold = 0.05;
constexpr double k_small_unknown_ns = 1e6;    // an unknown mode below this is never first ...
constexpr double k_stall_ns = 10e6;           // ... while a finding this long holds more time
constexpr std::size_t k_during_min_hits = 2;  // trigger lines inside example stalls: at least this many,
constexpr double k_during_min_share = 0.5;    // in at least half of them,
constexpr double k_during_log10_alpha = -2;   // and chance would put them there with p <= 0.01
constexpr double k_during_weight = 0.9;
constexpr double k_fixed_rel_width = 0.15;  // a fixed delay's mode is at most this wide (plus its window's width)
constexpr double k_modified_min_confidence = 0.4;  // a cause under a modifier must fit at least this well
constexpr double k_satellite_weight = 0.3;
constexpr double k_phase_weight = 0.8;  // a duration of the phase the cause's delay lands in
// ... when that phase is where any backend's time goes (the response, the transfer, the client's
// request): every wait of the server lands there, so it tells little about which
constexpr double k_generic_phase_weight = 0.3;
constexpr double k_phase_against = 0.2;  // ... of another phase
constexpr std::uint64_t k_unexplained_min_requests = 3;
constexpr double k_satellite_band_discount = 0.95;  // a band reaching the satellite fits a little less

double shape_factor(detect::Shape finding, const std::vector<std::string>& shapes) {
  double best = 0.3;
  for (const std::string& shape : shapes) {
    double factor = 0.3;
    if (finding == detect::Shape::periodic) {
      factor = shape == "PERIODIC" ? 1.0 : 0.2;  // a clock is not a per-operation delay
    } else if (finding == detect::Shape::quantised) {
      // Modes on several multiples of one base: a loop on a timer, not a per-operation delay.
      factor = shape == "QUANTISED" ? 1.0 : shape == "PERIODIC" ? 0.6 : 0.4;
    } else if (finding == detect::Shape::per_op) {
      if (shape == "PER-OP")
        factor = 1.0;
      else if (shape == "ONE-OFF" || shape == "CAPPED" || shape == "QUANTISED")
        factor = 0.6;
      else if (shape == "PERIODIC")
        factor = 0.5;
    } else {
      if (shape == "ONE-OFF" || shape == "CAPPED")
        factor = 1.0;
      else if (shape == "QUANTISED")
        factor = 0.8;
      else if (shape == "PER-OP")
        factor = 0.6;
      else if (shape == "PERIODIC")
        factor = 0.4;
    }
    best = std::max(best, factor);
  }
  return best;
}

double significance(double log10_p) { return 1 - std::exp(-std::max(0.0, -log10_p - 2) / 2); }

/// Identifiers read as words: snake_case and camelCase names split where their words meet
/// (`op=resolve_start` reads "op=resolve start", `connectTimeout` "connect Timeout"), so that
/// a pattern written for prose (\bresolve\b) reads the names programs log too. Keys (a name
/// followed by `=` or `:`) stay whole: `time_connect=0.0003` names a timer, not a connect.
std::string split_identifiers(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  std::size_t i = 0;
  while (i < text.size()) {
    if (!word(text[i])) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && word(text[end])) ++end;
    std::size_t next = end;
    if (next < text.size() && (text[next] == '"' || text[next] == '\'')) ++next;
    const bool key = next < text.size() && (text[next] == '=' || text[next] == ':');
    for (std::size_t k = i; k < end; ++k) {
      const char c = text[k];
      if (!key && c == '_' && k > i && k + 1 < end) {
        out += ' ';
        continue;
      }
      if (!key && k > i && std::isupper(static_cast<unsigned char>(c)) != 0 &&
          std::islower(static_cast<unsigned char>(text[k - 1])) != 0)
        out += ' ';
      out += c;
    }
    i = end;
  }
  return out;
}

/// Whether the pattern holds for the line as written or with its identifiers read as words.
bool reads(const EvidencePattern& pattern, const stats::EvidenceLine& line) {
  if (pattern.matches(line.text(), line.fields())) return true;
  if (pattern.field) return false;
  const std::string split = split_identifiers(line.text());
  return split != line.text() && pattern.matches(split, line.fields());
}

/// Whether the line after a gap reports the operation that took the gap: it logs a duration of
/// at least half the gap and not much more (`op=connect … ms=1022.2` after a 1.022 s gap;
/// `db_error … wait_ms=101.9`). Such a line names what waited as surely as a line before the gap
/// that says what began, so evidence looked for before the gap is looked for in it too.
bool reports_the_wait(const stats::GapSample& sample) {
  DurationNs logged = 0;
  std::uint8_t digits = 0;
  if (sample.gap <= 0 || !parse::find_duration(sample.after.text(), logged, digits)) return false;
  const double gap = static_cast<double>(sample.gap);
  return static_cast<double>(logged) >= 0.5 * gap && static_cast<double>(logged) <= 1.1 * gap + 2e6;
}

bool any_line(const EvidencePattern& pattern, const std::vector<stats::EvidenceLine>& lines, std::string* example) {
  for (const stats::EvidenceLine& line : lines) {
    if (!reads(pattern, line)) continue;
    if (example != nullptr && example->empty()) *example = line.text().substr(0, 200);
    return true;
  }
  return false;
}

bool scope_matches(const EvidencePattern& pattern, const stats::GapSample& sample, std::string* example) {
  const EvidenceScope scope = pattern.scope;
  if (scope != EvidenceScope::after && any_line(pattern, sample.before, example)) return true;
  const bool after = scope != EvidenceScope::before || reports_the_wait(sample);
  if (after && reads(pattern, sample.after)) {
    if (example != nullptr && example->empty()) *example = sample.after.text().substr(0, 200);
    return true;
  }
  return scope == EvidenceScope::request && any_line(pattern, sample.context, example);
}

/// How many of a finding's stalls a fact (k_facts) was tested on, and the share it holds for.
struct FactShare {
  double share = 0;
  std::size_t tested = 0;  ///< 0: not measured
};
constexpr std::size_t k_fact_min_tested = 5;

FactShare fact_share(const detect::Finding& finding, std::string_view fact) {
  if (fact == "all_silent" && finding.periodic && finding.periodic->silence_tested >= k_fact_min_tested)
    return {finding.periodic->silent_share, finding.periodic->silence_tested};
  if (fact == "arrival_stamps" && finding.arrival) {
    const std::size_t tested = finding.arrival->bursts ? finding.arrival->burst_count : finding.arrival->timed;
    if (tested >= k_fact_min_tested) return {1.0, tested};
  }
  if (fact == "wall_clock" && finding.wall_clock && finding.wall_clock->cycles >= k_fact_min_tested)
    return {static_cast<double>(finding.wall_clock->slower) / static_cast<double>(finding.wall_clock->cycles),
            finding.wall_clock->cycles};
  if (fact == "queue_saturation" && finding.saturation && finding.saturation->waited >= k_fact_min_tested)
    return {1.0, finding.saturation->waited};
  if ((fact == "stalls_in_window" || fact == "stalls_scattered") && finding.timing) {
    const bool window = finding.timing->kind == detect::TimingDetail::Kind::window;
    const std::uint64_t stalls = finding.timing->inside_stalls + finding.timing->outside_stalls;
    // Measured, and the other answer: the fact holds for none of the stalls.
    if (stalls >= k_fact_min_tested) return {window == (fact == "stalls_in_window") ? 1.0 : 0.0, stalls};
  }
  return {};
}

/// Tests each evidence pattern of `cause` on the finding's samples (or the markers, for scope
/// "file"; the measured facts, for scope "fact") and sets match.evidence (E), match.counter (K)
/// and match.hits.
void weigh_evidence(CauseMatch& match, const detect::Finding& finding, const Cause& cause,
                    const std::vector<detect::MarkerHit>& markers, bool files_only) {
  double miss = 1, counter = 1;
  bool any_positive = false;
  for (const EvidencePattern& pattern : cause.evidence) {
    const bool file = pattern.scope == EvidenceScope::file;
    if (files_only && !file) continue;
    any_positive |= pattern.weight > 0;
    EvidenceHit hit{&pattern, 0, file ? 1 : finding.samples.size(), {}};
    if (pattern.scope == EvidenceScope::fact) {
      const FactShare fact = fact_share(finding, pattern.pattern);
      hit.samples = fact.tested;
      hit.hits = static_cast<std::size_t>(std::lround(fact.share * static_cast<double>(fact.tested)));
      if (fact.tested > 0) hit.example = fmt::format("{} of {} stalls tested", hit.hits, hit.samples);
    } else if (file) {
      for (const detect::MarkerHit& marker : markers) {
        if (marker.pattern != pattern.pattern) continue;
        hit.hits = 1;
        hit.example = marker.first_text;
      }
    } else {
      for (const stats::GapSample& sample : finding.samples) {
        if (scope_matches(pattern, sample, &hit.example)) ++hit.hits;
      }
    }
    if (hit.samples > 0) {
      const double share = static_cast<double>(hit.hits) / static_cast<double>(hit.samples);
      if (pattern.weight > 0)
        miss *= 1 - pattern.weight * share;
      else
        counter *= 1 + pattern.weight * share;
    }
    match.hits.push_back(std::move(hit));
  }
  match.evidence = files_only && !any_positive ? 1 : 1 - miss;
  match.counter = counter;
}

/// The phase of the request a finding's durations are ("phase=connect": a proxy's or client's
/// connect timer), against the phases the cause's delay lands in: strong evidence where it does
/// (one second of connect is a lost SYN, never a slow backend), counted against where it does
/// not.
void weigh_phase(CauseMatch& match, const detect::Finding& finding, const Cause& cause) {
  constexpr std::string_view k_prefix = "phase=";
  if (finding.values != detect::ValueKind::duration || !finding.group.starts_with(k_prefix)) return;
  match.phase = finding.group.substr(k_prefix.size());
  if (cause.phases.empty()) return;
  const bool lands = std::find(cause.phases.begin(), cause.phases.end(), match.phase) != cause.phases.end();
  match.phase_fit = lands ? 1 : -1;
  if (lands)
    match.evidence = 1 - (1 - match.evidence) *
                             (1 - (match.phase == "response" || match.phase == "transfer" || match.phase == "request"
                                       ? k_generic_phase_weight
                                       : k_phase_weight));
  else
    match.counter *= k_phase_against;
}

/// The windows of a CAPPED cause with one more: the ceiling the finding's durations pile at
/// (detect::CapDetail), a timeout whose setting the log does not state.
std::shared_ptr<const std::vector<DelayWindow>> with_observed_cap(
    std::shared_ptr<const std::vector<DelayWindow>> windows, const detect::CapDetail& cap, const Cause& cause) {
  if (std::find(cause.shapes.begin(), cause.shapes.end(), "CAPPED") == cause.shapes.end()) return windows;
  auto out = std::make_shared<std::vector<DelayWindow>>(windows ? *windows : std::vector<DelayWindow>{});
  DelayWindow window;
  window.value_ms = cap.value_ns / 1e6;
  const std::string value =
      window.value_ms >= 1000 ? fmt::format("{:g} s", window.value_ms / 1000) : fmt::format("{:g} ms", window.value_ms);
  window.tolerance_ms = std::max(0.5, window.value_ms * 0.005);
  window.compare_upper = true;
  window.late_ms = std::max(3.0, window.value_ms * 0.01);
  window.label = fmt::format("a ceiling at {}: no duration longer, {} shorter (a timeout cuts the waits off there)",
                             value, cap.shorter);
  window.implies = fmt::format(
      "The durations pile at {} and none goes beyond it, while many end sooner: a timeout of {} cut the "
      "longest waits off, so what they waited for took longer still (the statement or request failed there).",
      value, value);
  out->push_back(std::move(window));
  return out;
}

double combine(double s, const CauseMatch& match, double evidence_weight) {
  return s * match.value_match * match.shape_factor * (1 - evidence_weight + evidence_weight * match.evidence) *
         match.counter;
}

/// M for each delay window (the cause's and those the log's settings give); the best window is
/// kept in match.delay.
void fit_delays(CauseMatch& match, const detect::Finding& finding, const Cause& cause) {
  // A loop on a lattice is characterised by its base (the sleep or tick), not by one multiple.
  const bool lattice_value =
      finding.lattice && std::find(cause.shapes.begin(), cause.shapes.end(), "QUANTISED") != cause.shapes.end();
  const double centre_ms = lattice_value ? finding.lattice->base_ns / 1e6 : finding.centre_ns / 1e6;
  const double half_width_ms =
      lattice_value ? finding.lattice->base_ns * 0.01 / 1e6 : (finding.hi_ns - finding.lo_ns) / 2e6;
  const double lo_ms = finding.lo_ns / 1e6;
  const double hi_ms = finding.hi_ns / 1e6;
  struct Fit {
    double value;
    double offset;   // how far the finding sits from the window's value
    bool satellite;  // the band runs on to the window's satellite
  };
  // For compare = "upper": how well a band ending at hi_ms fits an edge at `edge`, with the
  // latency allowance late_ms above it.
  const auto upper_fit = [&](const DelayWindow& delay, double edge) {
    const double offset = hi_ms - edge;
    double distance = 0;
    if (offset < 0) distance = offset / delay.tolerance_ms;
    if (offset > delay.late_ms) distance = (offset - delay.late_ms) / delay.tolerance_ms;
    return Fit{std::exp(-0.5 * distance * distance) * (lo_ms < 0.75 * delay.value_ms ? 0.5 : 1.0), offset, false};
  };
  std::vector<const DelayWindow*> windows;
  for (const DelayWindow& delay : cause.delays) windows.push_back(&delay);
  if (match.configured) {
    for (const DelayWindow& delay : *match.configured) windows.push_back(&delay);
  }
  std::vector<Fit> fits;
  for (const DelayWindow* window : windows) {
    const DelayWindow& delay = *window;
    Fit fit{0, 0, false};
    if (delay.compare_upper) {
      // The band ends at the value; scheduling latency may delay the end by up to late_ms
      // without counting against the window.
      fit = upper_fit(delay, delay.value_ms);
      // Stalls of one and of two ticks above the floor (44 and 48 ms at HZ=250) merge into one
      // band that ends at the satellite: the window with its satellite, not a value between.
      if (delay.satellite_ms) {
        Fit on = upper_fit(delay, *delay.satellite_ms);
        on.value *= k_satellite_band_discount;
        on.satellite = true;
        if (on.value > fit.value) fit = on;
      }
    } else {
      fit.offset = centre_ms - delay.value_ms;
      const double sigma = std::sqrt(half_width_ms * half_width_ms + delay.tolerance_ms * delay.tolerance_ms);
      fit.value = std::exp(-0.5 * (fit.offset / sigma) * (fit.offset / sigma));
      // A fixed delay makes a tight mode: a band much wider than the window (a wait point's stalls,
      // a band of logged durations) is not explained by its value, however close its centre.
      if (!lattice_value && finding.centre_ns > 0) {
        const double allowed = std::max(k_fixed_rel_width, 2 * delay.tolerance_ms / delay.value_ms);
        const double excess = finding.rel_width - allowed;
        if (excess > 0) fit.value *= std::exp(-0.5 * (excess / k_fixed_rel_width) * (excess / k_fixed_rel_width));
      }
    }
    if (!delay.when.empty()) fit.value *= fact_share(finding, delay.when).share;
    fits.push_back(fit);
    match.value_match = std::max(match.value_match, fit.value);
  }
  // Windows that fit about as well (several lattice values within the latency allowance) are
  // told apart by which value the finding is closest to.
  for (std::size_t i = 0; i < fits.size(); ++i) {
    if (fits[i].value < match.value_match - 0.02) continue;
    if (match.delay == nullptr || std::abs(fits[i].offset) < std::abs(match.offset_ms)) {
      match.delay = windows[i];
      match.offset_ms = fits[i].offset;
      match.satellite_in_band = fits[i].satellite;
    }
  }
}

CauseMatch match_cause(const detect::Finding& finding, const Cause& cause, double s,
                       const std::vector<detect::MarkerHit>& markers,
                       std::shared_ptr<const std::vector<DelayWindow>> configured) {
  CauseMatch match;
  match.cause = &cause;
  if (configured && !configured->empty()) match.configured = std::move(configured);
  if (finding.cap) match.configured = with_observed_cap(match.configured, *finding.cap, cause);
  if (finding.trigger) {
    // Stalls around trigger lines: the cause that owns the pattern is named by it; the stall's
    // length depends on the system (a fork costs ~10-25 ms per GiB), so no delay window is
    // compared. Other causes do not explain the alignment.
    if (finding.trigger->cause != cause.id) return match;
    match.value_match = 1;
    match.shape_factor = shape_factor(finding.shape, cause.shapes);
    weigh_evidence(match, finding, cause, markers, true);
    match.confidence = combine(s, match, cause.evidence_weight);
    return match;
  }
  fit_delays(match, finding, cause);
  match.shape_factor = shape_factor(finding.shape, cause.shapes);
  weigh_evidence(match, finding, cause, markers, false);
  for (const detect::DuringHit& during : finding.during) {
    // A few ms of a healthy server's own pauses (a young GC) are not a stall it explains.
    if (during.cause != cause.id || during.samples == 0 || finding.centre_ns < k_stall_ns) continue;
    const double share = static_cast<double>(during.hits) / static_cast<double>(during.samples);
    if (during.hits < k_during_min_hits || share < k_during_min_share || during.log10_p > k_during_log10_alpha)
      continue;
    // Another stream says, while these requests wait, what they wait for: the value of the stall
    // is the system's (how long the fsync or the lock holder took), not a catalog constant.
    match.during = during;
    match.evidence = 1 - (1 - match.evidence) * (1 - k_during_weight * share);
    match.value_match = std::max(match.value_match, std::min(1.0, 2 * share));
    break;
  }
  if (match.satellite_in_band) match.evidence = 1 - (1 - match.evidence) * (1 - k_satellite_weight);
  weigh_phase(match, finding, cause);
  match.confidence = combine(s, match, cause.evidence_weight);
  return match;
}

double rank_score(double confidence, double wall_share) {
  return confidence * (0.5 + 0.5 * std::min(1.0, wall_share / 0.3));
}

/// Folds a +1-tick satellite finding into the suspect whose delay window names it.
void fold_satellite(std::vector<Suspect>& suspects, std::size_t main, const std::vector<std::size_t>& order,
                    std::vector<bool>& folded) {
  Suspect& suspect = suspects[main];
  if (suspect.best.cause == nullptr || !suspect.best.delay || !suspect.best.delay->satellite_ms ||
      suspect.best.satellite_in_band)
    return;
  const double satellite_ms = *suspect.best.delay->satellite_ms;
  const double tolerance_ms = std::max(suspect.best.delay->tolerance_ms, satellite_ms * 0.01);
  for (std::size_t other : order) {
    if (other == main || folded[other] || suspects[other].satellite != nullptr) continue;
    const Suspect& candidate = suspects[other];
    if (candidate.finding->gaps > suspect.finding->gaps) continue;
    if (std::abs(candidate.finding->centre_ns / 1e6 - satellite_ms) > 2 * tolerance_ms) continue;
    folded[other] = true;
    suspect.satellite = candidate.finding;
    CauseMatch& best = suspect.best;
    best.evidence = 1 - (1 - best.evidence) * (1 - k_satellite_weight);
    best.confidence = combine(suspect.significance, best, best.cause->evidence_weight);
    suspect.confidence = best.confidence;
    return;
  }
}

/// A floor with a tick lattice above it (44, 48, 52, 56 ms at HZ=250 when the peer adds think
/// time measured in ticks): smaller gap modes a whole number of ticks (2-5) above the window's
/// value are the same stall, folded into the suspect that names the floor. The tick is the
/// window's satellite minus its value; only windows compared by their band end have one.
void fold_ticks_above(std::vector<Suspect>& suspects, std::size_t main, const std::vector<std::size_t>& order,
                      std::vector<bool>& folded) {
  Suspect& suspect = suspects[main];
  const DelayWindow* delay = suspect.best.delay;
  if (suspect.best.cause == nullptr || suspect.confidence < k_likely_confidence || delay == nullptr ||
      !delay->compare_upper || !delay->satellite_ms)
    return;
  const double tick = *delay->satellite_ms - delay->value_ms;
  if (tick <= 0) return;
  for (std::size_t other : order) {
    if (other == main || folded[other]) continue;
    const Suspect& candidate = suspects[other];
    const detect::Finding& f = *candidate.finding;
    if (f.trigger || f.periodic || f.values != suspect.finding->values) continue;
    if (candidate.confidence >= k_likely_confidence && candidate.best.cause != suspect.best.cause) continue;
    // The mode's band must lie between one and five ticks above the floor's band end.
    const double lo_ticks = (f.lo_ns / 1e6 - delay->value_ms) / tick;
    const double hi_ticks = (f.hi_ns / 1e6 - delay->value_ms) / tick;
    if (lo_ticks < 0.5 || hi_ticks > 5 + delay->late_ms / tick) continue;
    folded[other] = true;
    suspect.ticks_above.push_back(candidate.finding);
  }
}

int tier_of(const Suspect& suspect) {
  if (suspect.best.cause != nullptr && suspect.confidence >= k_likely_confidence) return 0;
  // A delay seen in one stream only (a daemon's log between its rare events) is not a delay
  // requests pay: at least k_unexplained_min_requests streams must show it.
  const detect::Finding& f = *suspect.finding;
  if (f.wall_share >= k_unexplained_wall_share && suspect.significance >= 0.5 &&
      f.requests >= k_unexplained_min_requests)
    return 1;
  return 2;
}

/// Whether a lattice's modes (those holding 5 % of its gaps or more) are consecutive multiples:
/// one stall and the whole ticks of think time above it (44, 48, 52, 56 ms), not a loop that
/// sleeps some number of ticks (50, 60, 100, 110 ms).
bool one_stall(const detect::LatticeDetail& lattice) {
  std::uint64_t total = 0;
  for (const auto& [multiple, gaps] : lattice.modes) total += gaps;
  std::vector<int> held;
  for (const auto& [multiple, gaps] : lattice.modes)
    if (static_cast<double>(gaps) >= 0.05 * static_cast<double>(total)) held.push_back(multiple);
  std::sort(held.begin(), held.end());
  if (held.empty()) return false;
  return held.back() - held.front() + 1 == static_cast<int>(held.size());
}

/// A lattice finding read as the band its modes span: centre at the median of its gaps' modes,
/// 80 % of them between lo and hi, no lattice (so that a cause is fitted by the stall's own value).
detect::Finding lattice_band(const detect::Finding& finding) {
  detect::Finding band = finding;
  const detect::LatticeDetail& lattice = *finding.lattice;
  std::vector<std::pair<int, std::uint64_t>> modes = lattice.modes;
  std::sort(modes.begin(), modes.end());
  std::uint64_t total = 0;
  for (const auto& [multiple, gaps] : modes) total += gaps;
  const auto at = [&](double share) {
    std::uint64_t seen = 0;
    for (const auto& [multiple, gaps] : modes) {
      seen += gaps;
      if (static_cast<double>(seen) >= share * static_cast<double>(total))
        return multiple * lattice.base_ns + lattice.offset_ns;
    }
    return modes.back().first * lattice.base_ns + lattice.offset_ns;
  };
  if (total > 0) {
    band.lo_ns = at(0.1);
    band.centre_ns = at(0.5);
    band.hi_ns = at(0.9);
    band.rel_width = (band.hi_ns - band.lo_ns) / band.centre_ns;
  }
  band.shape = finding.gaps > finding.requests * 3 / 2 ? detect::Shape::per_op : detect::Shape::one_off;
  band.lattice.reset();
  return band;
}

/// The suspects one cause names, as one (see the top of the file): in rank order.
std::vector<Suspect> fold_same_cause(std::vector<Suspect> ranked) {
  std::vector<std::vector<std::size_t>> groups;
  std::map<const Cause*, std::size_t> group_of;
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    const Suspect& suspect = ranked[i];
    if (suspect.best.cause == nullptr || suspect.finding->trigger || suspect.finding->wall_clock ||
        suspect.finding->saturation) {
      groups.push_back({i});
      continue;
    }
    const auto [it, fresh] = group_of.try_emplace(suspect.best.cause, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  std::vector<Suspect> out;
  out.reserve(groups.size());
  for (const std::vector<std::size_t>& group : groups) {
    const Suspect& lead = ranked[group.front()];
    std::vector<std::size_t> by_time = group;
    std::stable_sort(by_time.begin(), by_time.end(), [&](std::size_t a, std::size_t b) {
      return ranked[a].finding->member_time_ns > ranked[b].finding->member_time_ns;
    });
    Suspect head = ranked[by_time.front()];
    head.confidence = lead.confidence;
    head.tier = lead.tier;
    head.rank_score = lead.rank_score;
    for (std::size_t k = 1; k < by_time.size(); ++k) head.other_delays.push_back(ranked[by_time[k]].finding);
    out.push_back(std::move(head));
  }
  return out;
}

/// The value a marker line gives to the key its pattern matched at [begin, end): the rest of the
/// key (`_ms` of `busy_timeout_ms`), then `=`, `:` or spaces, a number and an optional unit. The
/// values in ms: one when the key or the number names its unit, else both readings (ms and s).
std::vector<double> setting_values(std::string_view text, std::size_t end) {
  const auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  std::size_t i = end;
  while (i < text.size() && is_word(text[i])) ++i;
  std::string key(text.substr(0, i));
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::size_t after_key = i;
  while (i < text.size() && (text[i] == '=' || text[i] == ':' || text[i] == ' ' || text[i] == '"' || text[i] == '\''))
    ++i;
  if (i == after_key || i >= text.size() || std::isdigit(static_cast<unsigned char>(text[i])) == 0) return {};
  std::size_t j = i;
  while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) != 0 || text[j] == '.')) ++j;
  const double number = std::strtod(std::string(text.substr(i, j - i)).c_str(), nullptr);
  if (!(number > 0)) return {};
  std::size_t u = j;
  while (u < text.size() && text[u] == ' ') ++u;
  std::size_t unit_end = u;
  while (unit_end < text.size() && std::isalpha(static_cast<unsigned char>(text[unit_end])) != 0) ++unit_end;
  std::string unit(text.substr(u, unit_end - u));
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto ends_with = [&](std::string_view suffix) {
    return key.size() >= suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (unit == "ms" || unit == "msec" || unit == "milliseconds") return {number};
  if (unit == "s" || unit == "sec" || unit == "secs" || unit == "seconds") return {number * 1e3};
  if (unit == "us" || unit == "usec" || unit == "microseconds") return {number / 1e3};
  if (ends_with("_ms") || ends_with("msec") || ends_with("millis") || ends_with("_msecs")) return {number};
  if (ends_with("_us") || ends_with("usec") || ends_with("_micros")) return {number / 1e3};
  if (ends_with("_s") || ends_with("_sec") || ends_with("_secs") || ends_with("_seconds")) return {number * 1e3};
  return {number, number * 1e3};
}

/// An unknown mode below 1 ms is never reported first while a finding of 10 ms or more holds more
/// of the requests' time: the first is what the user feels.
std::vector<Suspect> lead_with_stalls(std::vector<Suspect> ranked) {
  if (ranked.empty()) return ranked;
  const Suspect& top = ranked.front();
  if (top.best.cause != nullptr || top.finding->centre_ns >= k_small_unknown_ns) return ranked;
  for (std::size_t i = 1; i < ranked.size(); ++i) {
    const detect::Finding& f = *ranked[i].finding;
    if (f.centre_ns >= k_stall_ns && f.member_time_ns > top.finding->member_time_ns) {
      std::rotate(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(i),
                  ranked.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      break;
    }
  }
  return ranked;
}

}  // namespace

std::vector<DelayWindow> configured_windows(const Cause& cause, const std::vector<detect::MarkerHit>& markers) {
  std::vector<DelayWindow> windows;
  if (std::find(cause.shapes.begin(), cause.shapes.end(), "CAPPED") == cause.shapes.end()) return windows;
  for (const EvidencePattern& pattern : cause.evidence) {
    if (pattern.scope != EvidenceScope::file || pattern.weight <= 0 || pattern.field) continue;
    for (const detect::MarkerHit& marker : markers) {
      if (marker.pattern != pattern.pattern) continue;
      const std::string_view text = marker.first_text;
      std::size_t begin = 0, end = 0, from = 0;
      while (from < text.size() && pattern.regex.find(text, from, begin, end)) {
        for (const double value_ms : setting_values(text, end)) {
          if (value_ms < 1 || value_ms > 3.6e6) continue;
          DelayWindow window;
          window.value_ms = value_ms;
          window.tolerance_ms = std::max(0.5, value_ms * 0.005);
          window.compare_upper = true;
          window.late_ms = std::max(3.0, value_ms * 0.02);
          const std::size_t key_end = text.find_first_of("=: ", begin);
          const std::string key(text.substr(begin, (key_end == std::string_view::npos ? end : key_end) - begin));
          window.label = fmt::format("the {} the log sets ({} ms, line {})", key, value_ms, marker.first.line);
          window.implies = fmt::format(
              "The waits end where the {} the log itself states runs out: they were cut off by it, so what they "
              "waited for took longer still (the operation failed or was retried).",
              key);
          windows.push_back(std::move(window));
        }
        from = std::max(end, begin + 1);
      }
    }
  }
  return windows;
}

stats::LineFilter request_evidence_filter(const Catalog& catalog, std::vector<std::string>& described,
                                          stats::LineScreen* screen) {
  // Tested on every context line a kept example gap takes, in the analysis's one ordered stage:
  // RE2 pattern by pattern cost 6 % of a scan, so the regexes are prefiltered by their atoms
  // (core/prefilter) and RE2 confirms only the lines that hold one. Field tests are few and
  // are tested as they are.
  struct Patterns {
    std::vector<EvidencePattern> regexes;
    std::vector<EvidencePattern> fields;
    std::optional<Prefilter> prefilter;
  };
  auto patterns = std::make_shared<Patterns>();
  std::vector<std::string> regexes;
  for (const Cause& cause : catalog.causes) {
    for (const EvidencePattern& evidence : cause.evidence) {
      if (evidence.scope != EvidenceScope::request) continue;
      std::string what = evidence.pattern;
      if (evidence.field) {
        for (const std::string& name : evidence.field->names) what += " field:" + name;
        patterns->fields.push_back(evidence);
      } else {
        patterns->regexes.push_back(evidence);
        regexes.push_back(evidence.pattern);
      }
      described.push_back(std::move(what));
    }
  }
  if (screen != nullptr) *screen = stats::LineScreen{regexes, !patterns->fields.empty()};
  patterns->prefilter.emplace(regexes);
  return [patterns = std::shared_ptr<const Patterns>(std::move(patterns))](std::string_view text,
                                                                           std::string_view fields) {
    for (const EvidencePattern& pattern : patterns->fields) {
      if (pattern.matches(text, fields)) return true;
    }
    if (patterns->regexes.empty()) return false;
    std::vector<int> found;
    for (const std::string_view part : {text, fields}) {
      if (part.empty()) continue;
      patterns->prefilter->potentials(part, found);
      for (const int i : found) {
        if (patterns->regexes[static_cast<std::size_t>(i)].matches(text, fields)) return true;
      }
    }
    return false;
  };
}

std::vector<Suspect> rank_suspects(const std::vector<detect::Finding>& findings, const Catalog& catalog,
                                   const std::vector<detect::MarkerHit>& markers) {
  std::vector<std::shared_ptr<const std::vector<DelayWindow>>> configured;
  for (const Cause& cause : catalog.causes)
    configured.push_back(std::make_shared<const std::vector<DelayWindow>>(configured_windows(cause, markers)));
  std::vector<Suspect> suspects;
  for (const detect::Finding& finding : findings) {
    Suspect suspect;
    suspect.finding = &finding;
    suspect.significance = significance(finding.log10_p);
    std::vector<CauseMatch> matches;
    for (std::size_t c = 0; c < catalog.causes.size(); ++c)
      matches.push_back(match_cause(finding, catalog.causes[c], suspect.significance, markers, configured[c]));
    std::stable_sort(matches.begin(), matches.end(),
                     [](const CauseMatch& a, const CauseMatch& b) { return a.confidence > b.confidence; });
    if (!matches.empty() && matches.front().cause->modifier && finding.lattice && one_stall(*finding.lattice)) {
      // A modifier names the lattice; the stall its modes hold may have a cause of its own.
      auto band = std::make_shared<const detect::Finding>(lattice_band(finding));
      std::vector<CauseMatch> under;
      for (std::size_t c = 0; c < catalog.causes.size(); ++c) {
        if (catalog.causes[c].modifier) continue;
        under.push_back(match_cause(*band, catalog.causes[c], suspect.significance, markers, configured[c]));
      }
      std::stable_sort(under.begin(), under.end(),
                       [](const CauseMatch& a, const CauseMatch& b) { return a.confidence > b.confidence; });
      if (!under.empty() && under.front().confidence >= k_modified_min_confidence) {
        suspect.modified_by = matches.front();
        suspect.reading = band;
        suspect.finding = band.get();
        matches = std::move(under);
      }
    }
    if (!matches.empty() && matches.front().confidence >= k_unknown_threshold) {
      suspect.best = matches.front();
      for (std::size_t i = 1; i < matches.size() && suspect.alternatives.size() < 2; ++i) {
        if (matches[i].confidence >= 0.1) suspect.alternatives.push_back(matches[i]);
      }
      suspect.confidence = suspect.best.confidence;
    } else {
      suspect.confidence = 0.5 * suspect.significance;
    }
    suspects.push_back(std::move(suspect));
  }

  std::vector<bool> folded(suspects.size(), false);
  std::vector<std::size_t> order(suspects.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return suspects[a].finding->gaps > suspects[b].finding->gaps; });
  for (std::size_t main : order) {
    if (folded[main]) continue;
    fold_satellite(suspects, main, order, folded);
    fold_ticks_above(suspects, main, order, folded);
  }
  std::vector<Suspect> kept;
  for (std::size_t i = 0; i < suspects.size(); ++i) {
    if (folded[i]) continue;
    suspects[i].rank_score = rank_score(suspects[i].confidence, suspects[i].finding->wall_share);
    suspects[i].tier = tier_of(suspects[i]);
    kept.push_back(std::move(suspects[i]));
  }
  std::stable_sort(kept.begin(), kept.end(), [](const Suspect& a, const Suspect& b) {
    if (a.tier != b.tier) return a.tier < b.tier;
    if (a.rank_score != b.rank_score) return a.rank_score > b.rank_score;
    return a.finding->centre_ns < b.finding->centre_ns;
  });
  return lead_with_stalls(fold_same_cause(std::move(kept)));
}

}  // namespace gapscan::catalog
