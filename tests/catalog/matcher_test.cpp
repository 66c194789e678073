#include <gapscan/catalog/loader.hpp>
#include <gapscan/catalog/matcher.hpp>

#include <catch2/catch.hpp>

using namespace gapscan;
using namespace gapscan::catalog;

namespace {

Catalog demo_catalog() {
  Catalog catalog;
  auto add = [&](const std::string& id, double value, bool upper, double evidence_weight, const char* pattern) {
    Cause cause;
    cause.id = id;
    cause.shapes = {"PER-OP"};
    cause.evidence_weight = evidence_weight;
    DelayWindow delay;
    delay.value_ms = value;
    delay.tolerance_ms = 0.5;
    delay.compare_upper = upper;
    delay.satellite_ms = value + 4;
    cause.delays.push_back(delay);
    if (pattern)
      cause.evidence.push_back({pattern, *Regex::compile(pattern, "test"), EvidenceScope::before, 1.0, "m", {}});
    catalog.causes.push_back(std::move(cause));
  };
  add("delack", 44.0, true, 0.6, "memcached");
  add("other", 43.3, false, 0.2, nullptr);
  return catalog;
}

detect::Finding band(double lo_ms, double centre_ms, double hi_ms, std::uint64_t gaps, const char* line) {
  detect::Finding f;
  f.lo_ns = lo_ms * 1e6;
  f.centre_ns = centre_ms * 1e6;
  f.hi_ns = hi_ms * 1e6;
  f.gaps = gaps;
  f.requests = 10;
  f.wall_share = 0.8;
  f.log10_p = -30;
  for (int i = 0; i < 10; ++i) {
    stats::GapSample sample;
    sample.before.push_back({LineLocation{}, line, {}});
    f.samples.push_back(sample);
  }
  return f;
}

}  // namespace

TEST_CASE("A band below 44 ms is matched by its upper edge, with evidence", "[catalog][matcher]") {
  const Catalog catalog = demo_catalog();
  const std::vector<detect::Finding> findings = {band(40.8, 42.8, 44.1, 500, "memcached get(x)")};
  const auto suspects = rank_suspects(findings, catalog);
  REQUIRE(suspects.size() == 1);
  REQUIRE(suspects[0].best.cause != nullptr);
  CHECK(suspects[0].best.cause->id == "delack");
  CHECK(suspects[0].best.value_match == Approx(std::exp(-0.5 * 0.2 * 0.2)).epsilon(1e-6));
  CHECK(suspects[0].best.evidence == Approx(1.0));
  CHECK(suspects[0].confidence >= k_likely_confidence);
}

TEST_CASE("Without its evidence a cause that depends on it is not likely", "[catalog][matcher]") {
  const Catalog catalog = demo_catalog();
  const std::vector<detect::Finding> findings = {band(43.9, 44.0, 44.1, 500, "an unrelated line")};
  const auto suspects = rank_suspects(findings, catalog);
  REQUIRE(suspects.size() == 1);
  CHECK(suspects[0].best.cause->id == "delack");
  CHECK(suspects[0].best.evidence == 0);
  CHECK(suspects[0].confidence == Approx(suspects[0].significance * suspects[0].best.value_match * 0.4));
  CHECK(suspects[0].confidence < k_likely_confidence);
}

TEST_CASE("A satellite one tick higher is folded into its main mode", "[catalog][matcher]") {
  const Catalog catalog = demo_catalog();
  const std::vector<detect::Finding> findings = {band(43.9, 44.0, 44.1, 500, "memcached"),
                                                 band(47.9, 48.0, 48.1, 12, "memcached")};
  const auto suspects = rank_suspects(findings, catalog);
  REQUIRE(suspects.size() == 1);
  REQUIRE(suspects[0].satellite != nullptr);
  CHECK(suspects[0].satellite->centre_ns == 48e6);
}

TEST_CASE("A mode far from every catalog value is unknown and never likely", "[catalog][matcher]") {
  const Catalog catalog = demo_catalog();
  const std::vector<detect::Finding> findings = {band(69.9, 70.0, 70.1, 500, "memcached")};
  const auto suspects = rank_suspects(findings, catalog);
  REQUIRE(suspects.size() == 1);
  CHECK(suspects[0].best.cause == nullptr);
  CHECK(suspects[0].confidence == Approx(0.5 * suspects[0].significance));
}

TEST_CASE("Counter-evidence lowers a cause, and file evidence counts in every sample", "[catalog][matcher]") {
  Catalog catalog = demo_catalog();
  catalog.causes.pop_back();  // only "delack"
  Cause& delack = catalog.causes[0];
  delack.evidence.push_back(
      {"getaddrinfo", *Regex::compile("getaddrinfo", "test"), EvidenceScope::before, -0.5, "m", {}});
  const std::vector<detect::Finding> findings = {band(40.8, 42.8, 44.1, 500, "memcached getaddrinfo")};
  const auto against = rank_suspects(findings, catalog);
  REQUIRE(against.size() == 1);
  REQUIRE(against[0].best.cause != nullptr);
  CHECK(against[0].best.counter == Approx(0.5));
  CHECK(against[0].best.confidence ==
        Approx(against[0].significance * against[0].best.value_match * against[0].best.shape_factor * 0.5));
  CHECK(against[0].confidence < k_likely_confidence);

  Catalog with_file = demo_catalog();
  with_file.causes[0].evidence.clear();
  with_file.causes[0].evidence.push_back(
      {"THP enabled", *Regex::compile("THP enabled", "test"), EvidenceScope::file, 1.0, "m", {}});
  const std::vector<detect::Finding> plain = {band(40.8, 42.8, 44.1, 500, "an unrelated line")};
  CHECK(rank_suspects(plain, with_file)[0].best.evidence == 0);
  detect::MarkerHit marker;
  marker.pattern = "THP enabled";
  marker.lines = 1;
  marker.first_text = "WARNING THP enabled";
  const auto found = rank_suspects(plain, with_file, {marker});
  CHECK(found[0].best.evidence == Approx(1.0));
  REQUIRE(found[0].best.hits.size() == 1);
  CHECK(found[0].best.hits[0].example == "WARNING THP enabled");
}

TEST_CASE("Request evidence is looked for in the request's other lines", "[catalog][matcher]") {
  Catalog catalog = demo_catalog();
  catalog.causes[0].evidence.clear();
  catalog.causes[0].evidence.push_back(
      {"Set-Cookie", *Regex::compile("Set-Cookie", "test"), EvidenceScope::request, 1.0, "m", {}});
  std::vector<detect::Finding> findings = {band(40.8, 42.8, 44.1, 500, "an unrelated line")};
  CHECK(rank_suspects(findings, catalog)[0].best.evidence == 0);
  for (stats::GapSample& sample : findings[0].samples)
    sample.context.push_back({LineLocation{}, "Set-Cookie: x=1", {}});
  CHECK(rank_suspects(findings, catalog)[0].best.evidence == Approx(1.0));
}

TEST_CASE("The context filter accepts the lines request evidence matches, and only those", "[catalog][matcher]") {
  Catalog catalog = demo_catalog();
  catalog.causes[0].evidence.clear();
  catalog.causes[0].evidence.push_back(
      {"Set-Cookie", *Regex::compile("Set-Cookie", "test"), EvidenceScope::request, 1.0, "m", {}});
  catalog.causes[0].evidence.push_back(
      {"memcached", *Regex::compile("memcached", "test"), EvidenceScope::around, 1.0, "m", {}});
  // A pattern without literals of three bytes (no atoms for the prefilter) is still tested.
  catalog.causes[0].evidence.push_back(
      {"\\bq\\d+\\b", *Regex::compile("\\bq\\d+\\b", "test"), EvidenceScope::request, 1.0, "m", {}});
  std::vector<std::string> described;
  const stats::LineFilter keep = request_evidence_filter(catalog, described);
  CHECK(described == std::vector<std::string>{"Set-Cookie", "\\bq\\d+\\b"});
  CHECK(keep("took q42 then", ""));
  CHECK(keep("HTTP/1.1 200 Set-Cookie: x=1", ""));
  CHECK(keep("GET /x", "header=Set-Cookie"));  // named fields are searched as the matcher does
  CHECK_FALSE(keep("memcached get(x)", ""));   // not request-wide evidence: never read in the context
  CHECK_FALSE(keep("GET /x", ""));

  std::vector<std::string> none;
  const stats::LineFilter nothing = request_evidence_filter(demo_catalog(), none);
  CHECK(none.empty());
  CHECK_FALSE(nothing("Set-Cookie: x=1", ""));
}

TEST_CASE("A likely named suspect ranks before an unexplained one that costs more", "[catalog][matcher]") {
  const Catalog catalog = demo_catalog();
  detect::Finding named = band(40.8, 42.8, 44.1, 500, "memcached get(x)");
  named.wall_share = 0.02;
  detect::Finding unexplained = band(69.9, 70.0, 70.1, 5000, "memcached");
  unexplained.wall_share = 0.6;
  detect::Finding minor = band(129.9, 130.0, 130.1, 50, "x");
  minor.wall_share = 0.1;
  const std::vector<detect::Finding> findings = {minor, unexplained, named};
  const auto suspects = rank_suspects(findings, catalog);
  REQUIRE(suspects.size() == 3);
  CHECK(suspects[0].finding->centre_ns == 42.8e6);
  CHECK(suspects[0].tier == 0);
  CHECK(suspects[1].finding->centre_ns == 70e6);
  CHECK(suspects[1].tier == 1);  // a quarter of the wall time or more: an unexplained delay
  CHECK(suspects[2].tier == 2);
}

TEST_CASE("A band running from the value on to its satellite is named by the floor", "[catalog][matcher]") {
  const Catalog catalog = demo_catalog();
  // Stalls of one and of two ticks (44 and 48 ms) merged into one band ending at 48 ms.
  const std::vector<detect::Finding> findings = {band(42.3, 44.9, 48.1, 500, "memcached get(x)")};
  const auto suspects = rank_suspects(findings, catalog);
  REQUIRE(suspects.size() == 1);
  REQUIRE(suspects[0].best.cause != nullptr);
  CHECK(suspects[0].best.cause->id == "delack");
  CHECK(suspects[0].best.satellite_in_band);
  CHECK(suspects[0].best.offset_ms == Approx(0.1));
  CHECK(suspects[0].confidence >= k_likely_confidence);
}

TEST_CASE("Modes whole ticks above a likely floor are folded into it", "[catalog][matcher]") {
  const Catalog catalog = demo_catalog();
  const std::vector<detect::Finding> findings = {band(42.3, 44.9, 48.1, 500, "memcached get(x)"),
                                                 band(51.6, 52.1, 52.4, 800, "x"), band(55.7, 56.0, 56.3, 90, "x"),
                                                 band(75.0, 75.5, 76.0, 90, "x")};
  const auto suspects = rank_suspects(findings, catalog);
  REQUIRE(suspects.size() == 2);  // 52 and 56 ms folded; 75.5 ms (7.9 ticks) kept apart
  CHECK(suspects[0].best.cause->id == "delack");
  CHECK(suspects[0].ticks_above.size() == 2);
  CHECK(suspects[1].finding->centre_ns == 75.5e6);
}

TEST_CASE("A fact measured on the stalls is evidence, and a window that needs it fits only where it holds",
          "[catalog][matcher]") {
  Catalog catalog;
  Cause throttle;
  throttle.id = "throttle";
  throttle.shapes = {"PERIODIC"};
  throttle.evidence_weight = 0.25;
  DelayWindow any;  // any period from 1 ms to 1 s, when everything stopped
  any.value_ms = 1;
  any.tolerance_ms = 0.5;
  any.compare_upper = true;
  any.late_ms = 999;
  any.when = "all_silent";
  throttle.delays.push_back(any);
  throttle.evidence.push_back({"all_silent", *Regex::compile("all_silent", "test"), EvidenceScope::fact, 0.8, "m", {}});
  Cause sleep;
  sleep.id = "sleep";
  sleep.shapes = {"PERIODIC"};
  sleep.evidence_weight = 0.3;
  DelayWindow fifty;
  fifty.value_ms = 50;
  fifty.tolerance_ms = 1.5;
  sleep.delays.push_back(fifty);
  sleep.evidence.push_back({"all_silent", *Regex::compile("all_silent", "test"), EvidenceScope::fact, -0.7, "m", {}});
  catalog.causes = {sleep, throttle};
  const auto clock = [](std::size_t tested, double silent) {
    detect::Finding f;
    f.shape = detect::Shape::periodic;
    f.centre_ns = f.lo_ns = f.hi_ns = 50e6;
    f.gaps = 800;
    f.requests = 100;
    f.wall_share = 0.6;
    f.log10_p = -20;
    detect::PeriodicDetail detail;
    detail.silence_tested = tested;
    detail.silent_share = silent;
    f.periodic = detail;
    f.samples.resize(10);
    return f;
  };
  SECTION("every running stream went silent: the process stopped") {
    const auto suspects = rank_suspects({clock(400, 0.95)}, catalog);
    REQUIRE(suspects.size() == 1);
    CHECK(suspects[0].best.cause->id == "throttle");
    CHECK(suspects[0].best.value_match == Approx(0.95));
    CHECK(suspects[0].best.evidence == Approx(0.8 * 0.95).epsilon(0.01));
    CHECK(suspects[0].confidence >= k_likely_confidence);
  }
  SECTION("the others kept logging: a loop slept") {
    const auto suspects = rank_suspects({clock(400, 0.02)}, catalog);
    REQUIRE(suspects.size() == 1);
    CHECK(suspects[0].best.cause->id == "sleep");
  }
  SECTION("not measured (no other stream running): the window does not fit, the fact counts for nothing") {
    const auto suspects = rank_suspects({clock(3, 1.0)}, catalog);
    REQUIRE(suspects.size() == 1);
    CHECK(suspects[0].best.cause->id == "sleep");
    CHECK(suspects[0].best.counter == Approx(1.0));
  }
}
