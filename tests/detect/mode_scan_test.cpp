#include <gapscan/detect/mode_scan.hpp>

#include "../test_random.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace gapscan::detect;
using gapscan::testing::Random;

namespace {

std::vector<ScanPoint> points_from(const std::vector<double>& gaps_ns) {
  std::vector<ScanPoint> points;
  for (std::size_t i = 0; i < gaps_ns.size(); ++i)
    points.push_back({std::log(gaps_ns[i]), 1, static_cast<std::uint32_t>(i)});
  return points;
}

}  // namespace

TEST_CASE("A tight 44 ms mode among log-normal gaps is found with its members", "[detect][modes]") {
  Random random(1);
  std::vector<double> gaps;
  for (int i = 0; i < 60; ++i) gaps.push_back(random.lognormal(1e6, 1.5));
  for (int i = 0; i < 15; ++i) gaps.push_back(44e6 * (1 + 0.0005 * random.normal()));
  const auto modes = scan_modes(points_from(gaps), ScanOptions{});
  REQUIRE_FALSE(modes.empty());
  const ScanMode& mode = modes.front();
  CHECK(std::exp((mode.z_lo + mode.z_hi) / 2) == Approx(44e6).epsilon(0.01));
  CHECK(mode.count >= 15);
  CHECK(mode.log10_p < -10);
  std::size_t members_at_44 = 0;
  for (std::uint32_t id : mode.members) members_at_44 += id >= 60 ? 1 : 0;
  CHECK(members_at_44 == 15);
}

TEST_CASE("No mode in log-normal gaps: the false-positive rate stays near alpha", "[detect][modes]") {
  // Calibration check under the easy null (the full benchmark is bench/; this guards against
  // a regression that makes the test anti-conservative).
  int false_positives = 0;
  const int replicates = 300;
  for (int seed = 0; seed < replicates; ++seed) {
    Random random(1000 + static_cast<std::uint64_t>(seed));
    std::vector<double> gaps;
    for (int i = 0; i < 100; ++i)
      gaps.push_back(std::round(random.lognormal(1e6, 1.5) / 1000) * 1000 + random.uniform() * 1000);
    if (!scan_modes(points_from(gaps), ScanOptions{}).empty()) ++false_positives;
  }
  INFO(false_positives << " of " << replicates);
  CHECK(false_positives <= 9);  // alpha = 0.01; binomial 99.9 % bound for 300 replicates
}

TEST_CASE("A window is never narrower than twice the resolution", "[detect][modes]") {
  // Twenty gaps of 3 ms at 1 ms resolution are a real mode, but its width cannot be
  // claimed finer than the clock: the window spans at least ±1 ms.
  Random random(7);
  std::vector<double> gaps;
  for (int i = 0; i < 40; ++i) gaps.push_back(random.lognormal(50e6, 1.0));
  for (int i = 0; i < 20; ++i) gaps.push_back(3e6 + (random.uniform() - 0.5) * 1e6);
  ScanOptions options;
  options.resolution_ns = 1e6;
  const auto modes = scan_modes(points_from(gaps), options);
  REQUIRE_FALSE(modes.empty());
  CHECK(std::exp(modes.front().z_hi) - std::exp(modes.front().z_lo) >= 1.9e6);
}

TEST_CASE("CFAR rejects a window that is no denser than its surroundings", "[detect][modes]") {
  std::vector<ScanPoint> flat;
  for (int i = 0; i < 2000; ++i) flat.push_back({std::log(1e6) + i * 0.0005 - 0.5, 5, static_cast<std::uint32_t>(i)});
  CHECK(cfar_p_value(flat, std::log(1e6) - 0.005, std::log(1e6) + 0.005) > 0.1);
  flat[1000].weight = 500;
  CHECK(cfar_p_value(flat, flat[1000].z - 0.001, flat[1000].z + 0.001) < 0.01);
}
