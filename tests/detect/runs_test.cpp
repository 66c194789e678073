#include "../test_random.hpp"

#include <gapscan/detect/runs.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace gapscan;
using namespace gapscan::detect;
using gapscan::testing::Random;

TEST_CASE("A polling loop inside a request is one run", "[detect][runs]") {
  Random random(7);
  std::vector<double> gaps;
  for (int i = 0; i < 150; ++i) gaps.push_back(random.lognormal(1e6, 1.4));
  for (int i = 0; i < 20; ++i) gaps.push_back(50e6 * (1 + 0.005 * (random.uniform() - 0.5)));
  for (int i = 0; i < 150; ++i) gaps.push_back(random.lognormal(1e6, 1.4));
  const auto runs = find_runs(gaps, RunOptions{});
  REQUIRE(runs.size() >= 1);
  CHECK(runs[0].first == 150);
  CHECK(runs[0].length == 20);
  CHECK(std::abs(runs[0].centre_ns / 50e6 - 1) < 0.003);
  CHECK(runs[0].spread < 0.006);
  CHECK(runs[0].sum_ns == Approx(20 * 50e6).epsilon(0.01));
  CHECK(runs[0].log10_p < -10);
}

TEST_CASE("A stream that is all one value is one run", "[detect][runs]") {
  std::vector<double> gaps(100, 100e6);
  const auto runs = find_runs(gaps, RunOptions{});
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].length == 100);
  CHECK(runs[0].first == 0);
}

TEST_CASE("Short runs and coarse timestamps", "[detect][runs]") {
  // Three equal gaps are not a run; whole-millisecond stamps make 1-2 ms gaps equal by
  // rounding, which the resolution-wide band absorbs in the background as well.
  CHECK(find_runs({5e6, 50e6, 50e6, 50e6, 7e6}, RunOptions{}).empty());
  Random random(3);
  std::vector<double> gaps;
  for (int i = 0; i < 400; ++i) gaps.push_back(std::max(1e6, std::round(random.lognormal(2e6, 0.5) / 1e6) * 1e6));
  RunOptions coarse;
  coarse.resolution_ns = 1e6;
  CHECK(find_runs(gaps, coarse).empty());
}

TEST_CASE("Runs are rare in gaps without one: the false-positive rate stays near alpha", "[detect][runs]") {
  for (const std::size_t n : {20UL, 100UL, 1000UL}) {
    const int replicates = n == 1000 ? 300 : 1000;
    int false_positives = 0;
    for (int r = 0; r < replicates; ++r) {
      Random random(1000 * n + static_cast<std::uint64_t>(r));
      std::vector<double> gaps(n);
      for (double& g : gaps) g = random.lognormal(1e6, 1.4);
      if (!find_runs(gaps, RunOptions{}).empty()) ++false_positives;
    }
    const double rate = static_cast<double>(false_positives) / replicates;
    INFO("n = " << n << ": " << false_positives << " of " << replicates);
    CHECK(rate <= 0.02);  // alpha 0.01; the binomial band's upper end is about 0.016-0.023 here
  }
}

TEST_CASE("Gaps of one or two clock ticks are never a run", "[detect][runs]") {
  RunOptions seconds;
  seconds.resolution_ns = 1e9;
  CHECK(find_runs(std::vector<double>(50, 1e9), seconds).empty());
  CHECK(find_runs(std::vector<double>(50, 2e9), seconds).empty());
  CHECK(find_runs(std::vector<double>(50, 5e9), seconds).size() == 1);
}
