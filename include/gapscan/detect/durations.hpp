#pragma once
// Logged durations as a second kind of value: a request time in an access log
// ($request_time, %D), `elapsed_ms=`, `took 12ms`, a user format's duration group. They are
// collected per group (the --group-by key when it names a field or a regex, else one group
// for all), up to a bounded sample per group chosen by line hash, and scanned for tight modes
// with the same test as the gaps of a request (mode_scan.hpp), corrected for the groups
// tested. Neighbouring modes with values as dense between them are one band (a service time
// with its spread) and fold into one finding. A mode becomes a finding with values = durations: the catalog names it
// like a gap mode (a 5 s request time is the resolver's timeout as surely as a 5 s gap).

#include <gapscan/core/location.hpp>
#include <gapscan/core/time.hpp>
#include <gapscan/detect/finding.hpp>
#include <gapscan/detect/phase_profile.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::detect {

struct StateCodec;

struct DurationOptions {
  double alpha = 0.01;
  double min_members = 3;
  std::size_t min_values = 20;       ///< groups with fewer durations are not tested
  std::size_t max_values = 16384;    ///< per group, sampled by line hash
  std::size_t max_groups = 64;       ///< groups kept (the first keys); the durations of others are counted
  std::size_t max_samples = 32;      ///< example lines per finding
  double max_rel_width = 0.10;       ///< of one mode's 80 % interval
  double max_band_rel_width = 0.35;  ///< of a band folded from neighbouring modes
};

class DurationAnalyzer {
 public:
  explicit DurationAnalyzer(DurationOptions options = {}) : m_options(options) {}

  /// `fields`: the line's named fields of a positional format (parse::Record::fields).
  /// `time`: when the line was written (its stamp), for when the stalls happened; 0 unknown.
  void add(std::string_view group, DurationNs value, std::uint8_t digits, const LineLocation& where,
           std::string_view line, std::string_view fields = {}, TimeNs time = 0);

  /// A line's phase timers (parse::Record::phases) and its duration, for the phase profile.
  void add_phases(const std::array<DurationNs, parse::k_phase_count>& phases, DurationNs total) {
    m_profile.add(phases, total);
  }
  const PhaseProfile& phase_profile() const { return m_profile; }

  /// Adds another analyzer's durations (same options): groups, samples and examples as one
  /// analyzer would keep them. Associative.
  void merge(DurationAnalyzer&& other);

  /// Modes of every group, as findings (values = durations), most significant first; and a
  /// saturation of the queue phase (PhaseProfile::saturation).
  std::vector<Finding> finish();

  std::uint64_t values() const { return m_values; }

 private:
  friend struct StateCodec;  // --partial: saves and loads the state
  struct Value {
    std::uint64_t hash;
    DurationNs value;
    double spread;  // value + (u - 1/2) × its resolution, u from the line hash: ties untied
    TimeNs time = 0;
  };
  struct Example {
    std::uint64_t hash;
    DurationNs value;
    LineLocation where;
    std::string line;
    std::string fields;
  };
  static constexpr std::size_t k_examples = 128;  // lines kept per group
  struct Group {
    std::vector<Value> values;
    std::uint64_t threshold = UINT64_MAX;  // hashes at or above are not kept
    std::vector<Example> examples;
    std::uint64_t example_threshold = UINT64_MAX;
    std::uint64_t seen = 0;
    std::uint8_t digits = 0;
  };

  /// Scans one group's kept values: the modes' sorted members and p-values; returns all its
  /// values, sorted.
  std::vector<double> scan_group(Group& group, std::vector<std::vector<double>>& modes,
                                 std::vector<double>& log10_ps) const;
  /// Folds the group's modes on a lattice that holds most of its values into one QUANTISED finding.
  void fold_group_lattice(const Group& group, std::vector<Finding>& group_findings) const;
  void add_examples(const std::string& key, const Group& group, Finding& f) const;

  DurationOptions m_options;
  std::map<std::string, Group, std::less<>> m_groups;
  std::uint64_t m_values = 0;
  std::uint64_t m_dropped_values = 0;  ///< durations of groups not kept
  PhaseProfile m_profile;
};

/// Adds duration findings to a detection result: one whose interval overlaps a gap finding's
/// (the request time of a request that waited 5 s, beside the 5 s gap) is folded into it as
/// `logged_durations`; the others join the findings, which stay ordered by significance.
void add_duration_findings(DetectionResult& result, std::vector<Finding> durations);

}  // namespace gapscan::detect
