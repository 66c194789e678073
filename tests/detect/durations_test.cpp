#include "../test_random.hpp"

#include <gapscan/detect/durations.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace gapscan;
using namespace gapscan::detect;
using gapscan::testing::Random;

namespace {

/// Request times in ms digits: log-normal around 50 ms, and `timeouts` of them at 5.002 s.
void fill(DurationAnalyzer& analyzer, std::string_view group, int n, int timeouts, std::uint64_t seed) {
  Random random(seed);
  for (int i = 0; i < n; ++i) {
    double seconds = random.lognormal(0.05, 1.0);
    if (i < timeouts) seconds = 5.0 + 0.001 + 0.003 * random.uniform();
    const auto value = static_cast<DurationNs>(std::llround(seconds * 1e3)) * k_ns_per_ms;  // "%.3f"
    analyzer.add(group, value, 3,
                 LineLocation{static_cast<SourceId>(seed), static_cast<std::uint32_t>(static_cast<SourceId>(seed)),
                              static_cast<std::uint64_t>(i + 1), 0},
                 "GET /x " + std::to_string(seconds));
  }
}

}  // namespace

TEST_CASE("A 5 s mode in logged request times, and none from millisecond rounding", "[detect][durations]") {
  DurationAnalyzer with;
  fill(with, "", 2000, 80, 1);
  const auto found = with.finish();
  REQUIRE(found.size() == 1);
  CHECK(found[0].values == ValueKind::duration);
  CHECK(std::abs(found[0].centre_ns / 5.0025e9 - 1) < 0.001);
  CHECK(found[0].gaps == 80);
  CHECK(found[0].duration_values == 2000);
  REQUIRE_FALSE(found[0].samples.empty());
  CHECK(found[0].samples[0].after.text().rfind("GET /x 5.00", 0) == 0);

  DurationAnalyzer without;
  fill(without, "", 2000, 0, 2);
  CHECK(without.finish().empty());
}

TEST_CASE("Durations are tested per group", "[detect][durations]") {
  DurationAnalyzer analyzer;
  fill(analyzer, "payload=1024", 500, 0, 3);
  fill(analyzer, "payload=4096", 500, 40, 4);
  const auto found = analyzer.finish();
  REQUIRE(found.size() == 1);
  CHECK(found[0].group == "payload=4096");
}

TEST_CASE("A duration mode beside a gap mode is folded into it", "[detect][durations]") {
  DetectionResult result;
  Finding gap;
  gap.centre_ns = 5.002e9;
  gap.lo_ns = 5.001e9;
  gap.hi_ns = 5.003e9;
  gap.log10_p = -8;
  result.findings.push_back(gap);
  Finding duration;
  duration.values = ValueKind::duration;
  duration.centre_ns = 5.0021e9;
  duration.lo_ns = 5.0015e9;
  duration.hi_ns = 5.0030e9;
  duration.gaps = 12;
  duration.log10_p = -12;
  Finding other = duration;
  other.centre_ns = other.lo_ns = other.hi_ns = 0.2e9;
  other.log10_p = -5;
  add_duration_findings(result, {duration, other});
  REQUIRE(result.findings.size() == 2);
  CHECK(result.findings[0].values == ValueKind::gap);
  CHECK(result.findings[0].logged_durations == 12);
  CHECK(result.findings[0].log10_p == -12);
  CHECK(result.findings[1].values == ValueKind::duration);
}

TEST_CASE("A service time with a ±9 % spread is one band, not two modes", "[detect][durations]") {
  // Page renders log-normal around 205 ms (σ 8.5 %) among cache hits of under a millisecond:
  // the scan finds tight modes side by side in the band; they fold into one finding.
  Random random(7);
  DurationAnalyzer analyzer;
  for (int i = 0; i < 6000; ++i) {
    const bool render = i % 3 == 0;
    const double seconds = render ? random.lognormal(0.205, 0.085) : random.lognormal(0.0004, 0.8);
    const auto value = static_cast<DurationNs>(std::llround(seconds * 1e3)) * k_ns_per_ms;
    analyzer.add("", value, 3, LineLocation{1, static_cast<std::uint32_t>(1), static_cast<std::uint64_t>(i + 1), 0},
                 "GET /page");
  }
  const auto found = analyzer.finish();
  REQUIRE(found.size() == 1);
  CHECK(std::abs(found[0].centre_ns / 205e6 - 1) < 0.03);
  CHECK(found[0].gaps > 1500);
  CHECK(found[0].lo_ns < 190e6);
  CHECK(found[0].hi_ns > 220e6);
}

TEST_CASE("Durations of whole timer ticks are one quantised finding, not one per multiple", "[detect][durations]") {
  // Operations that each wait 11, 12, 22, 23 or 33 jiffies of 4 ms (a noreply write's delayed
  // ACK at HZ=250, once to three times per item), logged with 0.1 ms digits.
  Random random(11);
  DurationAnalyzer ticks;
  constexpr int k_multiples[] = {11, 12, 22, 23, 33};
  for (int i = 0; i < 400; ++i) {
    const int k = k_multiples[static_cast<std::size_t>(random.uniform() * 5) % 5];
    const double ms = 4.0 * k - 0.1 + 0.2 * random.uniform();
    const auto value = static_cast<DurationNs>(std::llround(ms * 10)) * (k_ns_per_ms / 10);
    ticks.add("", value, 4, LineLocation{9, static_cast<std::uint32_t>(9), static_cast<std::uint64_t>(i + 1), 0},
              "item took_ms=" + std::to_string(ms), "status=ok");
  }
  const auto found = ticks.finish();
  REQUIRE(found.size() == 1);
  CHECK(found[0].values == ValueKind::duration);
  CHECK(found[0].shape == Shape::quantised);
  REQUIRE(found[0].lattice);
  // The tick, or the largest multiple of it that is as coherent (find_quantisation's rule).
  const double jiffies = found[0].lattice->base_ns / 4e6;
  CHECK(std::abs(jiffies - std::round(jiffies)) < 0.02);
  CHECK(found[0].lattice->modes.size() >= 3);
  REQUIRE_FALSE(found[0].samples.empty());
  CHECK(found[0].samples[0].after.fields() == "status=ok");  // the line's named fields go with it

  // One mode alone (every item one delayed ACK) stays a mode.
  DurationAnalyzer one;
  for (int i = 0; i < 400; ++i) {
    const double ms = 44 - 0.1 + 0.2 * random.uniform() + (i % 3 == 0 ? random.lognormal(5, 0.5) : 0);
    one.add("", static_cast<DurationNs>(ms * 1e6), 4,
            LineLocation{10, static_cast<std::uint32_t>(10), static_cast<std::uint64_t>(i + 1), 0}, "x");
  }
  const auto single = one.finish();
  REQUIRE_FALSE(single.empty());
  CHECK(single[0].shape != Shape::quantised);
}
