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
