#pragma once
// A cause as described by one catalog file (docs/catalog.md has the file format).

#include <gapscan/core/regex.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gapscan::catalog {

struct DelayWindow {
  double value_ms = 0;
  double tolerance_ms = 0;
  std::string label;                   ///< e.g. "Linux receiver, CONFIG_HZ=250"
  std::string implies;                 ///< what seeing this value tells the user
  std::optional<double> satellite_ms;  ///< the occasional +1-tick companion mode
  /// false: the value is compared with the mode's centre. true ("upper"): the value is the
  /// mode's upper edge, because work done between the triggering line and the blocking call
  /// shortens the logged gap, so the mode spreads below the value; the top of the mode's
  /// 80 % interval is compared with it.
  bool compare_upper = false;
  /// For compare_upper: how much later than the value the band may end (scheduling latency
  /// on a busy host) before it counts against this window.
  double late_ms = 0;
  /// A fact (k_facts) the window needs: its fit is multiplied by the share of the finding's
  /// stalls the fact holds for (0 when it was not measured). A period anyone may set (the CFS
  /// period) names the cause only when the stalls behave as that cause's do.
  std::string when;
};

/// Where an evidence pattern is looked for, relative to an example gap: the lines before it,
/// the line after it, both, any other line of the same request (its first and last lines and a
/// few between), or any line of the inputs read together (a startup warning). Scope "fact" is
/// not a line: the pattern names a fact the detection measured about the finding's stalls
/// (k_facts), which holds in a share of them.
enum class EvidenceScope { before, after, around, request, file, fact };

/// The facts an evidence of scope "fact" (or a delay window's `when`) may name:
///   all_silent  during a clock's stalls, the other streams that were running went silent too
///               (80 % of them or more, in the share of stalls given): the whole process
///               stopped, as a cgroup out of CPU quota or a stop-the-world pause stops it.
///   arrival_stamps  the input's stamps are arrival times, not when the lines were written: its
///               lines came in bursts (dozens within 0.1 ms, then silence), or its request lines
///               were stamped sooner than the durations they log allow (detect/arrival.hpp)
///   wall_clock  the finding is a slowdown at one place of every minute or hour, in the share of
///               the cycles tested that were slower there (detect/wall_clock.hpp)
///   queue_saturation  the finding is waits in a proxy's queue or a pool spread over a range, in
///               a share of the requests (detect/phase_profile.hpp): a saturated server, no delay
///   stalls_in_window  the finding's stalls hit (nearly) every operation of their kind inside one
///               stretch of the run and (nearly) none outside it (detect::TimingDetail): a dead
///               server, a failover, a blocked port
///   stalls_scattered  the finding's stalls hit a few operations at a steady rate over the whole
///               run: a race, a drop probability
inline constexpr std::array<std::string_view, 6> k_facts = {"all_silent",       "arrival_stamps",   "wall_clock",
                                                            "queue_saturation", "stalls_in_window", "stalls_scattered"};

std::string_view to_string(EvidenceScope scope);

/// Evidence read from one field of a line instead of its whole text: the field is found by
/// name (`name=value`, or a key path of the line's JSON object); its value must match the
/// evidence's regex (when it has one) and lie within the duration bounds (when given).
struct FieldTest {
  std::vector<std::string> names;   ///< the field's names, any of them ("time_connect", "connect_time")
  std::optional<double> above_ms;   ///< the value, as a duration, is at least this
  std::optional<double> below_ms;   ///< the value, as a duration, is less than this
  std::optional<double> above;      ///< the value, as a plain number (bytes, a count), is at least this
  std::optional<double> below;      ///< the value, as a plain number, is less than this
  std::vector<std::int64_t> units;  ///< per name, the unit of a bare number (the name's, or `unit`)
  bool has_regex = false;           ///< the value must match the evidence's regex
};

struct EvidencePattern {
  std::string pattern;  ///< RE2, as written; for a field test, a description of it
  Regex regex;
  EvidenceScope scope = EvidenceScope::around;
  double weight = 0.5;  ///< negative: counter-evidence, lowers the cause when it matches
  std::string meaning;
  std::optional<FieldTest> field;

  /// True when the line holds this evidence: the regex anywhere in it, or the field test.
  /// `fields`: the line's named fields of a positional format (parse::Record::fields), as
  /// `name=value` pairs; a regex is also searched there, a field test looks there first.
  bool matches(std::string_view line, std::string_view fields = {}) const;
};

/// A line that starts the stall (a fork, a GC pause): gaps of other streams around its time
/// are tested against the rest of the log (detect/triggers.hpp).
struct TriggerPattern {
  std::string pattern;  ///< RE2
  std::string meaning;
  double after_ms = 0;  ///< stalls may begin this long after the line (0: the default, 10 ms)
};

struct Example {
  bool expect_match = true;
  std::string description;
  std::string log;
  std::string where;  ///< file:line of the [[example]] table
};

struct Cause {
  std::string id;
  std::string title;
  std::string summary;
  std::vector<std::string> shapes;  ///< PER-OP, PERIODIC, ONE-OFF, QUANTISED, CAPPED, SERIALISED
  double evidence_weight = 0.5;     ///< how much naming this cause depends on the evidence
  /// The phases of a request its delay lands in (parse::Phase names: connect, lookup, response
  /// …); a duration of another phase counts against it. Empty: any.
  std::vector<std::string> phases;
  /// A cause that shapes other causes' delays rather than making one (the kernel's timer tick
  /// rounding a stall up to whole jiffies): it annotates the cause it modifies and never
  /// replaces it as the name of a finding that another cause explains.
  bool modifier = false;
  std::vector<DelayWindow> delays;
  std::vector<EvidencePattern> evidence;
  std::vector<TriggerPattern> triggers;
  std::vector<std::string> confirm;
  std::vector<std::string> fix;
  std::vector<std::string> references;
  std::vector<Example> examples;
  std::string origin;  ///< the file it was loaded from
};

struct Catalog {
  std::vector<Cause> causes;  ///< sorted by id
  std::string origin;         ///< "built-in" or the directory read
};

}  // namespace gapscan::catalog
