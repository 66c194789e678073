#include <gapscan/catalog/embedded.hpp>
#include <gapscan/catalog/loader.hpp>

#include <gapscan/core/regex.hpp>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace gapscan;
using namespace gapscan::catalog;

namespace {

const char* const k_valid = R"(id = "demo"
title = "Demo cause"
summary = "A demo."
shapes = ["PER-OP"]
evidence_weight = 0.5
confirm = ["look"]
fix = ["fix it"]
references = ["nowhere"]

[[delay]]
value_ms = 44.0
tolerance_ms = 0.5
label = "HZ=250"
implies = "the peer runs HZ=250"
satellite_ms = 48.0
compare = "upper"

[[evidence]]
pattern = 'memcached'
scope = "before"
weight = 0.5
meaning = "a memcached line"

[[example]]
expect = "match"
description = "d"
log = "x"

[[example]]
expect = "no-match"
description = "d"
log = "y"
)";

std::vector<Diagnostic> errors_of(const std::string& text, const std::string& name = "patterns/demo.toml") {
  std::vector<Diagnostic> diagnostics;
  const auto cause = parse_cause(text, name, diagnostics);
  CHECK_FALSE(cause.has_value());
  return diagnostics;
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("A valid catalog file loads with all its fields", "[catalog][loader]") {
  std::vector<Diagnostic> diagnostics;
  const auto cause = parse_cause(k_valid, "patterns/demo.toml", diagnostics);
  REQUIRE(cause);
  CHECK(diagnostics.empty());
  CHECK(cause->id == "demo");
  REQUIRE(cause->delays.size() == 1);
  CHECK(cause->delays[0].value_ms == 44.0);
  CHECK(cause->delays[0].compare_upper);
  CHECK(cause->delays[0].satellite_ms == 48.0);
  REQUIRE(cause->evidence.size() == 1);
  CHECK(cause->evidence[0].scope == EvidenceScope::before);
  CHECK(cause->examples.size() == 2);
  CHECK(cause->examples[0].where == "patterns/demo.toml:24");
}

TEST_CASE("Broken catalog files give file:line errors", "[catalog][loader]") {
  SECTION("TOML syntax") {
    const auto d = errors_of(replace(k_valid, "value_ms = 44.0", "value_ms = = 44.0"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].where.rfind("patterns/demo.toml:11:", 0) == 0);
  }
  SECTION("unknown key with a suggestion") {
    const auto d = errors_of(replace(k_valid, "tolerance_ms = 0.5", "tolerence_ms = 0.5"));
    REQUIRE(d.size() == 2);  // the unknown key, then the missing one
    CHECK(to_string(d[0]) ==
          "patterns/demo.toml:12: error: unknown key 'tolerence_ms' in [[delay]] (did you mean 'tolerance_ms'?)");
    CHECK(to_string(d[1]) == "patterns/demo.toml:10: error: missing key 'tolerance_ms'");
  }
  SECTION("bad regular expression") {
    const auto d = errors_of(replace(k_valid, "pattern = 'memcached'", "pattern = '(?<=x)memcached'"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].where == "patterns/demo.toml:19");
    CHECK(d[0].message.find("invalid regular expression") == 0);
  }
  SECTION("id and file name disagree") {
    const auto d = errors_of(k_valid, "patterns/other.toml");
    REQUIRE(d.size() == 1);
    CHECK(to_string(d[0]) ==
          "patterns/other.toml:1: error: id 'demo' does not match the file name (name the file demo.toml)");
  }
  SECTION("unknown shape") {
    const auto d = errors_of(replace(k_valid, "[\"PER-OP\"]", "[\"PEROP\"]"));
    REQUIRE(d.size() == 1);
    CHECK(to_string(d[0]) == "patterns/demo.toml:4: error: unknown shape 'PEROP' (did you mean 'PER-OP'?)");
  }
  SECTION("trigger lines need the ONE-OFF shape, and a valid pattern") {
    const std::string with_trigger =
        replace(k_valid, "[[evidence]]",
                "[[trigger]]\npattern = 'Background saving started'\nmeaning = \"a fork\"\n\n[[evidence]]");
    const auto d = errors_of(with_trigger);
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "a cause with [[trigger]] lines needs the shape ONE-OFF");
    std::vector<Diagnostic> diagnostics;
    const auto ok =
        parse_cause(replace(with_trigger, "[\"PER-OP\"]", "[\"ONE-OFF\"]"), "patterns/demo.toml", diagnostics);
    REQUIRE(ok);
    CHECK(diagnostics.empty());
    REQUIRE(ok->triggers.size() == 1);
    CHECK(ok->triggers[0].meaning == "a fork");
    const auto bad = errors_of(
        replace(replace(with_trigger, "[\"PER-OP\"]", "[\"ONE-OFF\"]"), "'Background saving started'", "'(unclosed'"));
    REQUIRE(bad.size() == 1);
    CHECK(bad[0].where == "patterns/demo.toml:19");
    CHECK(bad[0].message.find("invalid regular expression") == 0);
  }
  SECTION("a cause needs a delay or a trigger") {
    std::string text = k_valid;
    const auto start = text.find("[[delay]]");
    const auto end = text.find("[[evidence]]");
    text.erase(start, end - start);
    const auto d = errors_of(text);
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "a cause needs at least one [[delay]] or [[trigger]]");
  }
  SECTION("examples must include a match and a no-match") {
    const auto d = errors_of(replace(k_valid, "expect = \"no-match\"", "expect = \"match\""));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message.find("at least one [[example]]") != std::string::npos);
  }
}

TEST_CASE("The built-in catalog loads without errors", "[catalog][loader]") {
  std::vector<Diagnostic> diagnostics;
  const auto catalog = load_builtin(diagnostics);
  REQUIRE(catalog);
  CHECK(diagnostics.empty());
  CHECK(catalog->causes.size() >= 6);
  bool noreply = false, write_write_read = false;
  for (const Cause& cause : catalog->causes) {
    noreply |= cause.id == "nagle_delack_noreply_pipeline";
    write_write_read |= cause.id == "nagle_delack_write_write_read";
  }
  CHECK(noreply);
  CHECK(write_write_read);
}

TEST_CASE("The built-in catalog read without its examples has the same causes", "[catalog][loader]") {
  std::vector<Diagnostic> diagnostics;
  const auto full = load_builtin(diagnostics);
  const auto lean = load_builtin(diagnostics, Examples::skip);
  REQUIRE(full);
  REQUIRE(lean);
  CHECK(diagnostics.empty());
  REQUIRE(lean->causes.size() == full->causes.size());
  for (std::size_t i = 0; i < full->causes.size(); ++i) {
    const Cause& a = full->causes[i];
    const Cause& b = lean->causes[i];
    INFO(a.id);
    CHECK(b.id == a.id);
    CHECK(!a.examples.empty());
    CHECK(b.examples.empty());
    // Everything else: the files keep their [[example]] tables last, so nothing is cut with them.
    CHECK(b.title == a.title);
    CHECK(b.summary == a.summary);
    CHECK(b.shapes == a.shapes);
    CHECK(b.evidence_weight == a.evidence_weight);
    REQUIRE(b.delays.size() == a.delays.size());
    for (std::size_t d = 0; d < a.delays.size(); ++d) {
      CHECK(b.delays[d].label == a.delays[d].label);
      CHECK(b.delays[d].implies == a.delays[d].implies);
    }
    REQUIRE(b.evidence.size() == a.evidence.size());
    for (std::size_t e = 0; e < a.evidence.size(); ++e) {
      CHECK(b.evidence[e].pattern == a.evidence[e].pattern);
      CHECK(b.evidence[e].weight == a.evidence[e].weight);
      CHECK(b.evidence[e].scope == a.evidence[e].scope);
    }
    REQUIRE(b.triggers.size() == a.triggers.size());
    for (std::size_t t = 0; t < a.triggers.size(); ++t) CHECK(b.triggers[t].pattern == a.triggers[t].pattern);
    CHECK(b.confirm == a.confirm);
    CHECK(b.fix == a.fix);
    CHECK(b.references == a.references);
  }
}

TEST_CASE("The embedded files read the same after their pages are given back", "[catalog][loader]") {
  std::vector<std::string> before;
  for (const EmbeddedFile& file : embedded_files()) before.emplace_back(file.text);
  REQUIRE(!before.empty());
  release_embedded_pages();
  std::size_t i = 0;
  for (const EmbeddedFile& file : embedded_files()) CHECK(file.text == before.at(i++));
  std::vector<Diagnostic> diagnostics;
  CHECK(load_builtin(diagnostics));
  CHECK(diagnostics.empty());
}

TEST_CASE("A folder of catalog files loads, and a broken one fails with its diagnostics", "[catalog][loader]") {
  std::vector<Diagnostic> diagnostics;
  CHECK(load_directory(GAPSCAN_SOURCE_DIR "/patterns", diagnostics));
  CHECK(diagnostics.empty());
  const auto missing = load_directory("/nonexistent/patterns", diagnostics);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().where == "/nonexistent/patterns");
}

TEST_CASE("Evidence scopes, counter-evidence and trigger windows load and are checked", "[catalog][loader]") {
  SECTION("request and file scopes, a negative weight") {
    std::string text = replace(k_valid, "scope = \"before\"", "scope = \"request\"");
    text = replace(text, "weight = 0.5\nmeaning", "weight = -0.4\nmeaning");
    std::vector<Diagnostic> diagnostics;
    const auto cause = parse_cause(text, "patterns/demo.toml", diagnostics);
    REQUIRE(cause);
    CHECK(cause->evidence[0].scope == EvidenceScope::request);
    CHECK(cause->evidence[0].weight == -0.4);
    CHECK(cause->evidence[0].pattern == "memcached");
    const auto file =
        parse_cause(replace(k_valid, "scope = \"before\"", "scope = \"file\""), "patterns/demo.toml", diagnostics);
    REQUIRE(file);
    CHECK(file->evidence[0].scope == EvidenceScope::file);
    CHECK(to_string(EvidenceScope::file) == "file");
  }
  SECTION("an unknown scope, a zero or out-of-range weight") {
    const auto d = errors_of(replace(k_valid, "scope = \"before\"", "scope = \"requets\""));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "unknown scope 'requets'");
    CHECK(d[0].hint == "did you mean 'request'?");
    CHECK(errors_of(replace(k_valid, "weight = 0.5\nmeaning", "weight = 0\nmeaning")).size() == 1);
    CHECK(errors_of(replace(k_valid, "weight = 0.5\nmeaning", "weight = -1.5\nmeaning")).size() == 1);
  }
  SECTION("a fact, and a window that needs one") {
    std::string text =
        replace(k_valid, "pattern = 'memcached'\nscope = \"before\"", "pattern = \"all_silent\"\nscope = \"fact\"");
    text = replace(text, "tolerance_ms = 0.5\n", "tolerance_ms = 0.5\nwhen = \"all_silent\"\n");
    std::vector<Diagnostic> diagnostics;
    const auto cause = parse_cause(text, "patterns/demo.toml", diagnostics);
    REQUIRE(cause);
    CHECK(cause->evidence[0].scope == EvidenceScope::fact);
    CHECK(cause->delays[0].when == "all_silent");
    const auto unknown = errors_of(replace(text, "pattern = \"all_silent\"", "pattern = \"all_silen\""));
    REQUIRE(unknown.size() == 1);
    CHECK(unknown[0].message == "unknown fact 'all_silen'");
    CHECK(unknown[0].hint == "did you mean 'all_silent'?");
    const auto window = errors_of(replace(text, "when = \"all_silent\"", "when = \"quiet\""));
    REQUIRE(window.size() == 1);
    CHECK(window[0].message == "unknown fact 'quiet'");
  }
  SECTION("a trigger's after_ms") {
    const std::string with_trigger =
        replace(replace(k_valid, "[\"PER-OP\"]", "[\"ONE-OFF\"]"), "[[evidence]]",
                "[[trigger]]\npattern = 'Background saving started'\nmeaning = \"a fork\"\nafter_ms = 3000\n\n"
                "[[evidence]]");
    std::vector<Diagnostic> diagnostics;
    const auto cause = parse_cause(with_trigger, "patterns/demo.toml", diagnostics);
    REQUIRE(cause);
    CHECK(cause->triggers[0].after_ms == 3000);
    const auto d = errors_of(replace(with_trigger, "after_ms = 3000", "after_ms = -5"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "after_ms must be between 0 and 60000");
  }
}

TEST_CASE("Field evidence loads, is checked, and tests one field's value", "[catalog][loader][field]") {
  const auto field_cause = [](const std::string& evidence) {
    return replace(k_valid, "pattern = 'memcached'\n", evidence);
  };
  SECTION("a duration bound with the unit the names imply, per name") {
    std::vector<Diagnostic> diagnostics;
    const auto cause = parse_cause(field_cause("field = \"time_connect|connect_ms|connect_time\"\nunit = \"s\"\n"
                                               "above_ms = 900\n"),
                                   "patterns/demo.toml", diagnostics);
    REQUIRE(cause);
    const EvidencePattern& e = cause->evidence[0];
    REQUIRE(e.field);
    CHECK(e.field->names == std::vector<std::string>{"time_connect", "connect_ms", "connect_time"});
    CHECK(e.field->units == std::vector<std::int64_t>{1'000'000'000, 1'000'000, 1'000'000'000});
    CHECK(e.pattern == "time_connect|connect_ms|connect_time >= 900 ms");
    CHECK(e.matches("op=upload time_connect=1.021 time_total=2.0"));
    CHECK(e.matches("pool connect_ms=1003.5"));
    CHECK(e.matches(R"(db pool: connected connect_time=3.037s)"));  // the value's own unit wins
    CHECK(e.matches(R"({"msg":"x","connect_time":"1.2s"})"));
    CHECK_FALSE(e.matches("op=upload time_connect=0.000190 time_total=1.002828"));
    CHECK_FALSE(e.matches("time_connect=slow"));
    CHECK_FALSE(e.matches("the connection took time_connect seconds"));  // no such field
    CHECK_FALSE(e.matches("xtime_connect=5"));                           // another key
  }
  SECTION("a plain number bound and a regex on the value") {
    std::vector<Diagnostic> diagnostics;
    const auto size = parse_cause(field_cause("field = \"size_upload|request_length\"\nabove = 1048576\n"),
                                  "patterns/demo.toml", diagnostics);
    REQUIRE(size);
    CHECK(size->evidence[0].pattern == "size_upload|request_length >= 1048576");
    CHECK(size->evidence[0].matches("size_upload=1572864 time_total=1.0"));
    CHECK_FALSE(size->evidence[0].matches("size_upload=16384 time_total=0.001"));
    const auto status = parse_cause(field_cause("field = \"cache_status|upstream_cache_status\"\n"
                                                "pattern = '(?i)^(?:miss|pass|bypass)$'\n"),
                                    "patterns/demo.toml", diagnostics);
    REQUIRE(status);
    CHECK(status->evidence[0].matches("GET /wiki/A cache_status=MISS request_time=0.208"));
    CHECK(status->evidence[0].matches(R"({"upstream_cache_status":"BYPASS","request_time":0.2})"));
    CHECK_FALSE(status->evidence[0].matches("GET /wiki/MISS cache_status=HIT"));  // MISS elsewhere
    // A positional access log's fields, which its parser names (Record::fields): the field is
    // read there first; a regex is searched in the line and in the fields.
    const std::string line = R"(1.2.3.4 - - [02/Dec/2026:09:14:00 +0000] "GET /w HTTP/1.1" 200 9 "-" "M" 142890 miss)";
    CHECK(status->evidence[0].matches(line, "method=GET path=/w status=200 cache_status=miss"));
    CHECK_FALSE(status->evidence[0].matches(line, "method=GET path=/w status=200 cache_status=hit"));
    CHECK_FALSE(status->evidence[0].matches(line));  // the bare word is no field
    const auto regex =
        parse_cause(field_cause("pattern = 'set_cookie=\"?PHPSESSID='\n"), "patterns/demo.toml", diagnostics);
    REQUIRE(regex);
    CHECK(regex->evidence[0].matches(line, R"(status=200 set_cookie="PHPSESSID=ab; path=/")"));
    CHECK_FALSE(regex->evidence[0].matches(line, "status=200"));
  }
  SECTION("mistakes are reported") {
    auto d = errors_of(field_cause("field = \"connect_time\"\nabove_ms = 900\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "field 'connect_time' is compared as a duration, but its name implies no unit");
    d = errors_of(field_cause("field = \"time_connect\"\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message.starts_with("a field test needs a 'pattern' for its value, or a bound"));
    d = errors_of(field_cause("field = \"time_connect\"\nabove_ms = 9\nunit = \"min\"\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "unknown unit 'min'");
    d = errors_of(field_cause("pattern = 'x'\nabove_ms = 9\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "'above_ms' needs a 'field' to compare");
    d = errors_of(
        replace(field_cause("field = \"time_connect\"\nabove_ms = 9\n"), "scope = \"before\"", "scope = \"file\""));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "a field test cannot have scope \"file\"");
    d = errors_of(field_cause("field = \"\"\nabove_ms = 9\nunit = \"s\"\n"));
    REQUIRE(d.size() == 1);
    CHECK(d[0].message == "'field' names no field");
  }
}

TEST_CASE("Limits on untrusted catalogs: file size, table counts, pattern size, folder size",
          "[catalog][loader][limits]") {
  auto message_of = [](const std::vector<Diagnostic>& diagnostics) {
    std::string all;
    for (const Diagnostic& d : diagnostics) all += d.where + ": " + d.message + "\n";
    return all;
  };
  // A file beyond 4 MiB is not parsed at all.
  const std::string huge = std::string(k_valid) + "# " + std::string(k_max_cause_file_bytes, 'x') + "\n";
  CHECK_THAT(message_of(errors_of(huge)), Catch::Contains("at most 4194304 are read"));

  // 65 evidence tables: one more than a cause may have.
  std::string many(k_valid);
  for (std::size_t i = 0; i < k_max_evidence; ++i) {
    many +=
        "\n[[evidence]]\npattern = 'w" + std::to_string(i) + "'\nscope = \"before\"\nweight = 0.1\nmeaning = \"m\"\n";
  }
  CHECK_THAT(message_of(errors_of(many)), Catch::Contains("65 [[evidence]] tables: a cause may have at most 64"));

  // A pattern whose compiled program is too large (a bounded repeat of 1000), and one too long.
  CHECK_THAT(message_of(errors_of(replace(k_valid, "pattern = 'memcached'", "pattern = '(?:a|b).{0,1000}memcached'"))),
             Catch::Contains("is too large"));
  CHECK_THAT(message_of(errors_of(replace(k_valid, "pattern = 'memcached'",
                                          "pattern = '" + std::string(Regex::k_max_pattern_length + 1, 'a') + "'"))),
             Catch::Contains("at most 4096 are allowed"));

  // A folder of more than 1000 files is refused before any is read.
  char folder_template[] = "/tmp/gapscan-catalog-XXXXXX";
  REQUIRE(mkdtemp(folder_template) != nullptr);
  const std::string folder = folder_template;
  for (std::size_t i = 0; i <= k_max_cause_files; ++i) {
    std::ofstream(folder + "/c" + std::to_string(i) + ".toml") << "id = 'x'\n";
  }
  std::vector<Diagnostic> diagnostics;
  const auto catalog = load_directory(folder, diagnostics);
  REQUIRE_FALSE(catalog);
  CHECK_THAT(catalog.error().message, Catch::Contains("1001 catalog files: at most 1000 are read"));
  std::filesystem::remove_all(folder);
}

TEST_CASE("A catalog may hold only a few line patterns without a literal atom", "[catalog][loader][limits]") {
  // Each such pattern is searched for on every line read; nine are one too many.
  std::string cause(k_valid);
  for (std::size_t i = 0; i <= k_max_patterns_without_atoms; ++i) {
    cause += "\n[[evidence]]\npattern = '\\w+=\\d+\\s{0," + std::to_string(i + 1) +
             "}'\nscope = \"file\"\nweight = 0.1\nmeaning = \"m\"\n";
  }
  char folder_template[] = "/tmp/gapscan-catalog-XXXXXX";
  REQUIRE(mkdtemp(folder_template) != nullptr);
  const std::string folder = folder_template;
  std::ofstream(folder + "/demo.toml") << cause;
  std::vector<Diagnostic> diagnostics;
  const auto catalog = load_directory(folder, diagnostics);
  INFO(to_string(diagnostics.empty() ? Diagnostic{} : diagnostics.front()));
  REQUIRE_FALSE(catalog);
  CHECK_THAT(catalog.error().message,
             Catch::Contains("9 trigger or file-scope patterns without a literal of three bytes or more, at most 8"));
  // The built-in catalog has none.
  std::vector<Diagnostic> builtin_diagnostics;
  CHECK(load_builtin(builtin_diagnostics));
  std::filesystem::remove_all(folder);
}
