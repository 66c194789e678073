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
    if (pattern) cause.evidence.push_back({*Regex::compile(pattern, "test"), EvidenceScope::before, 1.0, "m"});
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
    sample.before.push_back({LineLocation{}, line});
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
