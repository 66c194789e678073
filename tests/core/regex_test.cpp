#include <gapscan/core/diagnostic.hpp>
#include <gapscan/core/regex.hpp>
#include <gapscan/core/time.hpp>

#include <catch2/catch.hpp>

using namespace gapscan;

TEST_CASE("Regex searches, extracts the first group and reports bad patterns", "[core][regex]") {
  auto regex = Regex::compile(R"(reqId=([0-9a-f]+))", "test");
  REQUIRE(regex);
  CHECK(regex->search("x reqId=abc123 y"));
  CHECK_FALSE(regex->search("x request=abc y"));
  std::string_view capture;
  REQUIRE(regex->extract("x reqId=abc123 y", capture));
  CHECK(capture == "abc123");

  auto broken = Regex::compile("(?<=x)y", "patterns/a.toml:7");
  REQUIRE_FALSE(broken);
  CHECK(broken.error().where == "patterns/a.toml:7");
  CHECK(broken.error().message.find("invalid regular expression '(?<=x)y'") == 0);
  CHECK(broken.error().hint == "patterns use RE2 syntax: no backreferences or lookaround");
}

TEST_CASE("Diagnostics print like a compiler's", "[core][diagnostic]") {
  CHECK(to_string(make_error("a.log:3", "bad month", "use 01-12")) == "a.log:3: error: bad month (use 01-12)");
  CHECK(to_string(Diagnostic{Severity::warning, "", "folder holds no files", ""}) == "warning: folder holds no files");
}

TEST_CASE("days_from_civil matches known dates", "[core][time]") {
  CHECK(days_from_civil(1970, 1, 1) == 0);
  CHECK(days_from_civil(2000, 3, 1) == 11017);
  CHECK(days_from_civil(2026, 11, 29) == 20786);
  CHECK(days_from_civil(1969, 12, 31) == -1);
}

TEST_CASE("Patterns beyond the limits are refused with the reason", "[core][regex][limits]") {
  const auto long_pattern = Regex::compile(std::string(Regex::k_max_pattern_length + 1, 'a'), "f.toml:3");
  REQUIRE_FALSE(long_pattern);
  CHECK(long_pattern.error().where == "f.toml:3");
  CHECK_THAT(long_pattern.error().message, Catch::Contains("at most 4096 are allowed"));
  const auto big = Regex::compile("x.{0,1000}y", "f.toml:4");
  REQUIRE_FALSE(big);
  CHECK_THAT(big.error().message, Catch::Contains("is too large"));
  // The catalog's largest patterns stay well inside: a bounded repeat of 120 twice.
  CHECK(Regex::compile(R"((?i)plugin/errors:.{0,120}\bAAAA\b.{0,120}\bi/o timeout\b)", "ok"));
  CHECK(Regex::compile(std::string(Regex::k_max_program_size - 10, 'a'), "ok"));
}
