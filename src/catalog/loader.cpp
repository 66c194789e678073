#include <gapscan/catalog/embedded.hpp>
#include <gapscan/catalog/loader.hpp>
#include <gapscan/core/prefilter.hpp>
#include <gapscan/parse/fields.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <system_error>
#include <thread>

namespace gapscan::catalog {
namespace {

constexpr std::array<std::string_view, 8> k_phases = {"lookup",  "queue",    "connect",  "tls",
                                                      "request", "response", "transfer", "lock"};
constexpr std::array<std::string_view, 6> k_shapes = {"PER-OP",    "PERIODIC", "ONE-OFF",
                                                      "QUANTISED", "CAPPED",   "SERIALISED"};

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// Collects diagnostics for one file, each located at a TOML node.
class FileChecker {
 public:
  FileChecker(const std::string& name, std::vector<Diagnostic>& diagnostics)
      : m_name(name), m_diagnostics(diagnostics) {}

  std::string where(const toml::node& node) const { return fmt::format("{}:{}", m_name, node.source().begin.line); }
  std::string where(const toml::source_region& region) const {
    return fmt::format("{}:{}:{}", m_name, region.begin.line, region.begin.column);
  }

  void error(std::string where, std::string message, std::string hint = {}) {
    m_diagnostics.push_back(make_error(std::move(where), std::move(message), std::move(hint)));
    m_failed = true;
  }
  void add(Diagnostic diagnostic) {
    m_diagnostics.push_back(std::move(diagnostic));
    m_failed = true;
  }
  bool failed() const { return m_failed; }
  const std::string& name() const { return m_name; }

  /// Reports keys of `table` that are not in `known`.
  void check_keys(const toml::table& table, std::span<const std::string_view> known, std::string_view what) {
    for (const auto& [key, node] : table) {
      if (std::find(known.begin(), known.end(), key.str()) == known.end()) {
        error(where(node), fmt::format("unknown key '{}' in {}", key.str(), what), suggestion(key.str(), known));
      }
    }
  }

  std::string string(const toml::table& table, std::string_view key, const toml::node& owner, bool required = true) {
    const toml::node* node = table.get(key);
    if (node == nullptr) {
      if (required) error(where(owner), fmt::format("missing key '{}'", key));
      return {};
    }
    if (!node->is_string()) {
      error(where(*node), fmt::format("'{}' must be a string", key));
      return {};
    }
    return std::string(*node->value<std::string_view>());
  }

  std::optional<double> number(const toml::table& table, std::string_view key, const toml::node& owner,
                               bool required = true) {
    const toml::node* node = table.get(key);
    if (node == nullptr) {
      if (required) error(where(owner), fmt::format("missing key '{}'", key));
      return std::nullopt;
    }
    if (!node->is_number()) {
      error(where(*node), fmt::format("'{}' must be a number", key));
      return std::nullopt;
    }
    return node->value<double>();
  }

  std::vector<std::string> strings(const toml::table& table, std::string_view key, const toml::node& owner) {
    std::vector<std::string> values;
    const toml::node* node = table.get(key);
    if (node == nullptr) {
      error(where(owner), fmt::format("missing key '{}'", key));
      return values;
    }
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      error(where(*node), fmt::format("'{}' must be an array of strings", key));
      return values;
    }
    for (const toml::node& item : *array) {
      if (!item.is_string()) {
        error(where(item), fmt::format("'{}' must hold only strings", key));
        continue;
      }
      values.emplace_back(*item.value<std::string_view>());
    }
    return values;
  }

  /// The tables of an array of tables (e.g. [[delay]]); empty when absent.
  std::vector<const toml::table*> tables(const toml::table& table, std::string_view key) {
    std::vector<const toml::table*> result;
    const toml::node* node = table.get(key);
    if (node == nullptr) return result;
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      error(where(*node), fmt::format("'{}' must be an array of tables ([[{}]])", key, key));
      return result;
    }
    for (const toml::node& item : *array) {
      if (const toml::table* t = item.as_table())
        result.push_back(t);
      else
        error(where(item), fmt::format("'{}' entries must be tables", key));
    }
    return result;
  }

 private:
  const std::string& m_name;
  std::vector<Diagnostic>& m_diagnostics;
  bool m_failed = false;
};

std::string stem_of(const std::string& name) { return std::filesystem::path(name).stem().string(); }

constexpr std::array<std::string_view, 6> k_scopes = {"before", "after", "around", "request", "file", "fact"};

/// Per name of a field test, the unit of a bare number: the one the name implies (`wait_ms`,
/// curl's `time_connect` in seconds), else `unit`; an error when neither says.
std::vector<std::int64_t> field_units(FileChecker& check, const toml::table& table, const FieldTest& test) {
  static constexpr std::array<std::pair<std::string_view, std::int64_t>, 4> k_units = {
      {{"s", k_ns_per_s}, {"ms", k_ns_per_ms}, {"us", k_ns_per_us}, {"ns", 1}}};
  std::int64_t given = 0;
  if (const toml::node* node = table.get("unit")) {
    const std::string unit = check.string(table, "unit", table);
    for (const auto& [name, ns] : k_units) {
      if (unit == name) given = ns;
    }
    if (given == 0) check.error(check.where(*node), fmt::format("unknown unit '{}'", unit), "one of s, ms, us, ns");
  }
  std::vector<std::int64_t> units;
  for (const std::string& name : test.names) {
    const std::int64_t implied = parse::duration_unit_of_key(name);
    units.push_back(implied != 0 ? implied : given);
    if (units.back() == 0 && !table.get("unit")) {
      check.error(check.where(table),
                  fmt::format("field '{}' is compared as a duration, but its name implies no unit", name),
                  "add unit = \"s\", \"ms\", \"us\" or \"ns\" (used for the names that imply none)");
    }
  }
  return units;
}

/// `field` (with `pattern`, `above_ms`, `below_ms`, `unit`): the test and a description of it.
std::optional<FieldTest> parse_field_test(FileChecker& check, const toml::table& table, EvidenceScope scope,
                                          std::string& description) {
  FieldTest test;
  std::string names = check.string(table, "field", table);
  for (std::size_t start = 0; start <= names.size();) {
    const std::size_t bar = std::min(names.find('|', start), names.size());
    if (bar > start) test.names.push_back(names.substr(start, bar - start));
    start = bar + 1;
  }
  if (test.names.empty()) check.error(check.where(table), "'field' names no field", "e.g. field = \"time_connect\"");
  if (scope == EvidenceScope::file) {
    check.error(check.where(table), "a field test cannot have scope \"file\"",
                "file-scope evidence is searched on every line read: give a pattern");
  }
  test.above_ms = check.number(table, "above_ms", table, false);
  test.below_ms = check.number(table, "below_ms", table, false);
  test.above = check.number(table, "above", table, false);
  test.below = check.number(table, "below", table, false);
  test.has_regex = table.get("pattern") != nullptr;
  if (!test.has_regex && !test.above_ms && !test.below_ms && !test.above && !test.below) {
    check.error(check.where(table),
                "a field test needs a 'pattern' for its value, or a bound: above_ms, below_ms, above, below");
  }
  if (test.above_ms || test.below_ms) test.units = field_units(check, table, test);
  description = names;
  if (test.has_regex) description += fmt::format(" ~ {}", check.string(table, "pattern", table));
  if (test.above_ms) description += fmt::format(" >= {:g} ms", *test.above_ms);
  if (test.below_ms) description += fmt::format(" < {:g} ms", *test.below_ms);
  const auto number = [](double v) { return v == std::floor(v) ? fmt::format("{:.0f}", v) : fmt::format("{:g}", v); };
  if (test.above) description += " >= " + number(*test.above);
  if (test.below) description += " < " + number(*test.below);
  return test;
}

std::optional<EvidencePattern> parse_evidence(FileChecker& check, const toml::table& table) {
  static constexpr std::array<std::string_view, 10> k_evidence_keys = {
      "pattern", "scope", "weight", "meaning", "field", "above_ms", "below_ms", "above", "below", "unit"};
  check.check_keys(table, k_evidence_keys, "[[evidence]]");
  const bool field = table.get("field") != nullptr;
  const std::string pattern = check.string(table, "pattern", table, !field);
  const std::string scope = check.string(table, "scope", table);
  const double weight = check.number(table, "weight", table).value_or(0.5);
  const std::string meaning = check.string(table, "meaning", table);
  if (!field) {
    for (std::string_view key : {"above_ms", "below_ms", "above", "below", "unit"}) {
      if (const toml::node* node = table.get(key))
        check.error(check.where(*node), fmt::format("'{}' needs a 'field' to compare", key));
    }
  }
  const toml::node* pattern_node = table.get("pattern");
  auto regex = Regex::compile(pattern, pattern_node ? check.where(*pattern_node) : check.where(table));
  if (!regex) {
    check.add(regex.error());
    return std::nullopt;
  }
  EvidencePattern evidence{pattern, std::move(*regex), EvidenceScope::around, weight, meaning, std::nullopt};
  const auto known = std::find(k_scopes.begin(), k_scopes.end(), scope);
  if (known != k_scopes.end()) {
    evidence.scope = static_cast<EvidenceScope>(known - k_scopes.begin());
  } else if (!scope.empty()) {
    check.error(check.where(*table.get("scope")), fmt::format("unknown scope '{}'", scope),
                suggestion(scope, k_scopes));
  }
  if (weight < -1 || weight > 1 || weight == 0) {
    check.error(check.where(table), "evidence weight must be between -1 and 1 and not 0",
                "a negative weight is counter-evidence");
  }
  if (evidence.scope == EvidenceScope::fact) {
    if (field) check.error(check.where(table), "a fact is not a field test", "remove 'field', or the scope \"fact\"");
    if (std::find(k_facts.begin(), k_facts.end(), pattern) == k_facts.end())
      check.error(pattern_node ? check.where(*pattern_node) : check.where(table),
                  fmt::format("unknown fact '{}'", pattern), suggestion(pattern, k_facts));
  }
  if (field) evidence.field = parse_field_test(check, table, evidence.scope, evidence.pattern);
  return evidence;
}

/// id, title, summary, shapes and evidence_weight.
void parse_header(FileChecker& check, const toml::table& root, const std::string& name, Cause& cause) {
  cause.id = check.string(root, "id", root);
  if (!cause.id.empty() && cause.id != stem_of(name)) {
    check.error(check.where(*root.get("id")), fmt::format("id '{}' does not match the file name", cause.id),
                fmt::format("name the file {}.toml", cause.id));
  }
  cause.title = check.string(root, "title", root);
  cause.summary = check.string(root, "summary", root);
  cause.shapes = check.strings(root, "shapes", root);
  if (root.get("phases") != nullptr) {
    cause.phases = check.strings(root, "phases", root);
    for (const std::string& phase : cause.phases) {
      if (std::find(k_phases.begin(), k_phases.end(), phase) == k_phases.end()) {
        check.error(check.where(*root.get("phases")), fmt::format("unknown phase '{}'", phase),
                    suggestion(phase, k_phases));
      }
    }
  }
  for (const std::string& shape : cause.shapes) {
    if (std::find(k_shapes.begin(), k_shapes.end(), shape) == k_shapes.end()) {
      check.error(check.where(*root.get("shapes")), fmt::format("unknown shape '{}'", shape),
                  suggestion(shape, k_shapes));
    }
  }
  if (auto weight = check.number(root, "evidence_weight", root)) {
    if (*weight < 0 || *weight > 1)
      check.error(check.where(*root.get("evidence_weight")), "evidence_weight must be between 0 and 1");
    cause.evidence_weight = *weight;
  }
  if (const toml::node* modifier = root.get("modifier")) {
    if (const auto value = modifier->value<bool>())
      cause.modifier = *value;
    else
      check.error(check.where(*modifier), "modifier must be true or false");
  }
}

/// One [[delay]] window.
DelayWindow parse_delay(FileChecker& check, const toml::table& table) {
  static constexpr std::array<std::string_view, 8> k_delay_keys = {"value_ms",     "tolerance_ms", "label",   "implies",
                                                                   "satellite_ms", "compare",      "late_ms", "when"};
  static constexpr std::array<std::string_view, 2> k_compare = {"centre", "upper"};
  check.check_keys(table, k_delay_keys, "[[delay]]");
  DelayWindow delay;
  const auto value = check.number(table, "value_ms", table);
  const auto tolerance = check.number(table, "tolerance_ms", table);
  delay.value_ms = value.value_or(1);
  delay.tolerance_ms = tolerance.value_or(1);
  delay.label = check.string(table, "label", table);
  delay.implies = check.string(table, "implies", table);
  delay.satellite_ms = check.number(table, "satellite_ms", table, false);
  delay.late_ms = check.number(table, "late_ms", table, false).value_or(0);
  delay.when = check.string(table, "when", table, false);
  if (!delay.when.empty() && std::find(k_facts.begin(), k_facts.end(), delay.when) == k_facts.end()) {
    check.error(check.where(*table.get("when")), fmt::format("unknown fact '{}'", delay.when),
                suggestion(delay.when, k_facts));
  }
  const std::string compare = check.string(table, "compare", table, false);
  if (compare == "upper") {
    delay.compare_upper = true;
  } else if (!compare.empty() && compare != "centre") {
    check.error(check.where(*table.get("compare")), fmt::format("unknown compare '{}'", compare),
                suggestion(compare, k_compare));
  }
  if (delay.late_ms < 0 || (delay.late_ms > 0 && !delay.compare_upper)) {
    check.error(check.where(*table.get("late_ms")), "late_ms must be positive and needs compare = \"upper\"");
  }
  if (delay.value_ms <= 0 || delay.tolerance_ms <= 0) {
    check.error(check.where(table), "value_ms and tolerance_ms must be positive");
  }
  return delay;
}

/// One [[trigger]] line pattern.
std::optional<TriggerPattern> parse_trigger(FileChecker& check, const toml::table& table) {
  static constexpr std::array<std::string_view, 3> k_trigger_keys = {"pattern", "meaning", "after_ms"};
  check.check_keys(table, k_trigger_keys, "[[trigger]]");
  TriggerPattern trigger;
  trigger.pattern = check.string(table, "pattern", table);
  trigger.meaning = check.string(table, "meaning", table);
  trigger.after_ms = check.number(table, "after_ms", table, false).value_or(0);
  if (trigger.after_ms < 0 || trigger.after_ms > 60000)
    check.error(check.where(*table.get("after_ms")), "after_ms must be between 0 and 60000");
  const toml::node* pattern_node = table.get("pattern");
  auto regex = Regex::compile(trigger.pattern, pattern_node ? check.where(*pattern_node) : check.where(table));
  if (!regex) {
    check.add(regex.error());
    return std::nullopt;
  }
  return trigger;
}

/// The [[example]] tables; a file needs one of each kind.
void parse_examples(FileChecker& check, const toml::table& root, Cause& cause) {
  static constexpr std::array<std::string_view, 3> k_example_keys = {"expect", "description", "log"};
  bool has_match = false, has_no_match = false;
  for (const toml::table* table : check.tables(root, "example")) {
    check.check_keys(*table, k_example_keys, "[[example]]");
    Example example;
    const std::string expect = check.string(*table, "expect", *table);
    example.description = check.string(*table, "description", *table);
    example.log = check.string(*table, "log", *table);
    example.where = check.where(*table);
    if (expect == "match") {
      has_match = true;
    } else if (expect == "no-match") {
      example.expect_match = false;
      has_no_match = true;
    } else if (!expect.empty()) {
      static constexpr std::array<std::string_view, 2> k_expect = {"match", "no-match"};
      check.error(check.where(*table->get("expect")), fmt::format("unknown expect '{}'", expect),
                  suggestion(expect, k_expect));
    }
    cause.examples.push_back(std::move(example));
  }
  if (!has_match || !has_no_match) {
    check.error(check.where(root),
                "a cause needs at least one [[example]] with expect = \"match\" and one with expect = \"no-match\"");
  }
}

}  // namespace

std::optional<Cause> parse_cause(std::string_view text, const std::string& name, std::vector<Diagnostic>& diagnostics,
                                 Examples examples) {
  FileChecker check(name, diagnostics);
  if (text.size() > k_max_cause_file_bytes) {
    check.error(name, fmt::format("catalog file of {} bytes: at most {} are read", text.size(), k_max_cause_file_bytes),
                "one cause per file; long example logs belong in patterns/examples generators");
    return std::nullopt;
  }
  toml::table root;
  try {
    root = toml::parse(text, name);
  } catch (const toml::parse_error& error) {
    check.error(check.where(error.source()), std::string(error.description()));
    return std::nullopt;
  }
  static constexpr std::array<std::string_view, 14> k_top = {
      "id",    "title",    "summary", "shapes",  "phases", "evidence_weight", "modifier",
      "delay", "evidence", "trigger", "confirm", "fix",    "references",      "example"};
  check.check_keys(root, k_top, "the file");

  // Limits, so that a hostile or runaway catalog cannot make every line's matching slow.
  for (const auto& [key, limit] : {std::pair{"delay", k_max_delays}, std::pair{"evidence", k_max_evidence},
                                   std::pair{"trigger", k_max_triggers}, std::pair{"example", k_max_examples}}) {
    const toml::array* array = root[key].as_array();
    if (array != nullptr && array->size() > limit) {
      check.error(check.where(*array),
                  fmt::format("{} [[{}]] tables: a cause may have at most {}", array->size(), key, limit));
      return std::nullopt;
    }
  }

  Cause cause;
  cause.origin = name;
  parse_header(check, root, name, cause);
  for (const toml::table* table : check.tables(root, "delay")) cause.delays.push_back(parse_delay(check, *table));

  for (const toml::table* table : check.tables(root, "evidence")) {
    if (auto evidence = parse_evidence(check, *table)) cause.evidence.push_back(std::move(*evidence));
  }

  for (const toml::table* table : check.tables(root, "trigger")) {
    if (auto trigger = parse_trigger(check, *table)) cause.triggers.push_back(std::move(*trigger));
  }
  if (cause.delays.empty() && cause.triggers.empty())
    check.error(check.where(root), "a cause needs at least one [[delay]] or [[trigger]]");
  if (!cause.triggers.empty() && std::find(cause.shapes.begin(), cause.shapes.end(), "ONE-OFF") == cause.shapes.end()) {
    check.error(check.where(root), "a cause with [[trigger]] lines needs the shape ONE-OFF");
  }

  cause.confirm = check.strings(root, "confirm", root);
  cause.fix = check.strings(root, "fix", root);
  cause.references = check.strings(root, "references", root);

  if (examples == Examples::read) parse_examples(check, root, cause);
  if (check.failed()) return std::nullopt;
  return cause;
}

std::string suggestion(std::string_view word, std::span<const std::string_view> known) {
  std::string_view best;
  std::size_t best_distance = 3;
  for (std::string_view candidate : known) {
    const std::size_t distance = edit_distance(word, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best.empty() ? std::string() : fmt::format("did you mean '{}'?", best);
}

std::string_view to_string(EvidenceScope scope) { return k_scopes[static_cast<std::size_t>(scope)]; }

namespace {

/// A catalog file to parse: its text (embedded, or read into the caller's storage), or why it
/// could not be read.
struct CauseFile {
  std::string name;
  std::string_view text;
  std::optional<Diagnostic> unreadable;
  Examples examples = Examples::read;
};

/// parse_cause on each file, on up to 4 threads: toml++ and RE2 take most of a scan's start-up
/// (about 50 ms for the built-in catalog, examples included, on one thread). Each file's cause
/// and diagnostics are added in the order of the files, so the result is that of one thread.
bool parse_files(const std::vector<CauseFile>& files, Catalog& catalog, std::vector<Diagnostic>& diagnostics) {
  struct Parsed {
    std::optional<Cause> cause;
    std::vector<Diagnostic> diagnostics;
  };
  std::vector<Parsed> parsed(files.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      if (!files[i].unreadable)
        parsed[i].cause = parse_cause(files[i].text, files[i].name, parsed[i].diagnostics, files[i].examples);
    }
  };
  const std::size_t threads =
      std::min<std::size_t>({4, std::max(1u, std::thread::hardware_concurrency()), files.size()});
  std::vector<std::thread> helpers;
  try {
    for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  } catch (const std::system_error&) {
    // No more threads: this one parses what the others do not.
  }
  work();
  for (std::thread& helper : helpers) helper.join();
  bool failed = false;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (files[i].unreadable) diagnostics.push_back(*files[i].unreadable);
    for (Diagnostic& diagnostic : parsed[i].diagnostics) diagnostics.push_back(std::move(diagnostic));
    if (parsed[i].cause)
      catalog.causes.push_back(std::move(*parsed[i].cause));
    else
      failed = true;
  }
  return failed;
}

Expected<Catalog> finish_catalog(Catalog catalog, bool failed, const std::vector<Diagnostic>& diagnostics) {
  std::sort(catalog.causes.begin(), catalog.causes.end(), [](const Cause& a, const Cause& b) { return a.id < b.id; });
  for (std::size_t i = 1; i < catalog.causes.size(); ++i) {
    if (catalog.causes[i].id == catalog.causes[i - 1].id) {
      return unexpected(
          make_error(catalog.causes[i].origin, fmt::format("duplicate cause id '{}'", catalog.causes[i].id)));
    }
  }
  if (failed) {
    return unexpected(make_error(catalog.origin, fmt::format("the catalog has {} error(s)", diagnostics.size()),
                                 "run `gapscan patterns check` for the list"));
  }
  // Catalog-wide limits: every pattern is compiled for every scan, and the trigger and marker
  // patterns are searched on every line read. Those are found by their literal atoms in one
  // pass; one without any (no literal of three bytes or more) is searched for everywhere.
  std::size_t patterns = 0;
  std::vector<std::string> every_line;
  std::vector<std::string> origin;
  for (const Cause& cause : catalog.causes) {
    patterns += cause.evidence.size() + cause.triggers.size();
    for (const TriggerPattern& trigger : cause.triggers) {
      every_line.push_back(trigger.pattern);
      origin.push_back(cause.origin);
    }
    for (const EvidencePattern& evidence : cause.evidence) {
      if (evidence.scope != EvidenceScope::file) continue;
      every_line.push_back(evidence.pattern);
      origin.push_back(cause.origin);
    }
  }
  if (patterns > k_max_patterns) {
    return unexpected(make_error(
        catalog.origin, fmt::format("{} patterns in the catalog: at most {} are allowed", patterns, k_max_patterns),
        "every pattern is compiled for every scan"));
  }
  std::vector<std::string> without_atoms;
  for (std::size_t i = 0; i < every_line.size(); ++i) {
    if (Prefilter({every_line[i]}).unfiltered() > 0) without_atoms.push_back(origin[i] + ": '" + every_line[i] + "'");
  }
  if (without_atoms.size() > k_max_patterns_without_atoms) {
    return unexpected(make_error(
        catalog.origin,
        fmt::format("{} trigger or file-scope patterns without a literal of three bytes or more, at most {}: {}",
                    without_atoms.size(), k_max_patterns_without_atoms, fmt::join(without_atoms, ", ")),
        "such a pattern is searched for on every line read: give it a telling word (\\bETIMEDOUT\\b)"));
  }
  return catalog;
}

}  // namespace

Expected<Catalog> load_directory(const std::string& directory, std::vector<Diagnostic>& diagnostics) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> files;
  for (auto it = fs::directory_iterator(directory, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (it->path().extension() == ".toml") files.push_back(it->path().string());
  }
  if (ec) return unexpected(make_error(directory, "cannot read catalog folder: " + ec.message()));
  if (files.size() > k_max_cause_files) {
    return unexpected(make_error(directory,
                                 fmt::format("{} catalog files: at most {} are read", files.size(), k_max_cause_files),
                                 "is this the catalog folder? each cause is one *.toml file"));
  }
  std::sort(files.begin(), files.end());
  Catalog catalog;
  catalog.origin = directory;
  std::vector<CauseFile> texts;
  std::vector<std::string> contents_of(files.size());  // the texts' storage, one per file
  for (const std::string& file : files) {
    CauseFile& text = texts.emplace_back(CauseFile{file, {}, {}});
    const auto size = fs::file_size(file, ec);
    if (!ec && size > k_max_cause_file_bytes) {
      text.unreadable =
          make_error(file, fmt::format("catalog file of {} bytes: at most {} are read", size, k_max_cause_file_bytes));
      continue;
    }
    std::ifstream in(file, std::ios::binary);
    std::stringstream contents;
    contents << in.rdbuf();
    if (!in) {
      text.unreadable = make_error(file, "cannot read file");
      continue;
    }
    std::string& stored = contents_of[texts.size() - 1];
    stored = contents.str();
    text.text = stored;
  }
  const bool failed = parse_files(texts, catalog, diagnostics);
  if (files.empty()) diagnostics.push_back({Severity::warning, directory, "no *.toml catalog files", {}});
  return finish_catalog(std::move(catalog), failed, diagnostics);
}

Expected<Catalog> load_builtin(std::vector<Diagnostic>& diagnostics, Examples examples) {
  Catalog catalog;
  catalog.origin = "built-in";
  std::vector<CauseFile> files;
  for (const EmbeddedFile& file : embedded_files()) {
    if (file.name.find("/presets/") != std::string_view::npos) continue;  // log formats, not causes
    std::string_view text = file.text;
    const std::size_t first_example = text.find("\n[[example]]");
    if (examples == Examples::skip && first_example != std::string_view::npos) text = text.substr(0, first_example + 1);
    files.push_back({std::string(file.name), text, {}, examples});
  }
  const bool failed = parse_files(files, catalog, diagnostics);
  return finish_catalog(std::move(catalog), failed, diagnostics);
}

}  // namespace gapscan::catalog
