#include "../test_random.hpp"

#include <gapscan/detect/quantisation.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace gapscan::detect;
using gapscan::testing::Random;

namespace {

std::vector<double> lattice(Random& random, std::size_t n, double base, double offset, double noise_sd) {
  std::vector<double> gaps(n);
  for (double& g : gaps) {
    const double k = 1 + std::floor(random.uniform() * 20);
    g = std::round(k * base + offset + noise_sd * random.normal());  // whole ns
  }
  return gaps;
}

}  // namespace

TEST_CASE("Gaps on a 4 ms timer lattice give the base, not a divisor", "[detect][quantisation]") {
  Random random(11);
  const auto gaps = lattice(random, 500, 4e6, 0, 100e3);  // HZ=250 ticks, 0.1 ms noise
  QuantisationOptions options;
  options.resolution_ns = 1000;  // µs stamps
  const auto q = find_quantisation(gaps, options);
  REQUIRE(q);
  CHECK(std::abs(q->base_ns / 4e6 - 1) < 0.02);
  CHECK(q->coherence > 0.9);
  CHECK(q->share > 0.95);
  CHECK(q->noise_rel < 0.06);
  CHECK(q->log10_p < -50);
  CHECK_FALSE(q->also_consistent_ns.empty());  // 2 ms fits as well: reported, not chosen
}

TEST_CASE("An offset lattice and a half-quantised mixture", "[detect][quantisation]") {
  Random random(12);
  auto gaps = lattice(random, 400, 10e6, 1.2e6, 200e3);
  auto q = find_quantisation(gaps, QuantisationOptions{});
  REQUIRE(q);
  CHECK(std::abs(q->base_ns / 10e6 - 1) < 0.02);
  CHECK(std::abs(q->offset_ns - 1.2e6) < 0.2e6);

  std::vector<double> mixture = lattice(random, 500, 10e6, 0, 200e3);
  for (int i = 0; i < 500; ++i) mixture.push_back(random.lognormal(50e6, 0.8));
  q = find_quantisation(mixture, QuantisationOptions{});
  REQUIRE(q);
  CHECK(std::abs(q->base_ns / 10e6 - 1) < 0.02);
  CHECK(q->share == Approx(0.5 + 0.5 / 4).margin(0.06));
}

TEST_CASE("No lattice in continuous gaps, in coarse stamps, or in one repeated value", "[detect][quantisation]") {
  int false_positives = 0;
  const int replicates = 300;
  for (int r = 0; r < replicates; ++r) {
    Random random(500 + static_cast<std::uint64_t>(r));
    std::vector<double> gaps(200);
    for (double& g : gaps) g = std::round(random.lognormal(50e6, 1.0));
    if (find_quantisation(gaps, QuantisationOptions{})) ++false_positives;
  }
  INFO(false_positives << " of " << replicates);
  CHECK(false_positives <= 6);  // alpha 0.01: at most 2 %

  Random random(9);
  std::vector<double> coarse(500);  // whole-millisecond stamps: multiples of 1 ms, no base above it
  for (double& g : coarse) g = std::max(1e6, std::round(random.lognormal(20e6, 1.0) / 1e6) * 1e6);
  QuantisationOptions ms;
  ms.resolution_ns = 1e6;
  const auto found = find_quantisation(coarse, ms);
  CHECK_FALSE(found);
  if (found) WARN("base " << found->base_ns << " R " << found->coherence << " p " << found->log10_p);

  std::vector<double> one_value(300);  // a spike is a mode, not a lattice
  for (double& g : one_value) g = 44e6 + 50e3 * random.normal();
  CHECK_FALSE(find_quantisation(one_value, QuantisationOptions{}));
}
