#include <gapscan/detect/renewal.hpp>

#include "../test_random.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using namespace gapscan;
using namespace gapscan::detect;
using gapscan::testing::Random;

namespace {

constexpr TimeNs k_start = 1'700'000'000'000'000'000;

std::vector<TimeNs> poisson(Random& random, double rate, double seconds) {
  std::vector<TimeNs> out;
  double t = 0;
  for (;;) {
    t += -std::log(1 - random.uniform()) / rate;
    if (t > seconds) break;
    out.push_back(k_start + static_cast<TimeNs>(t * 1e9));
  }
  return out;
}

/// A loop that sleeps `period` and works a random 0-`work` ms: its phase wanders.
std::vector<TimeNs> loop(Random& random, double period_ms, double work_ms, double seconds) {
  std::vector<TimeNs> out;
  double t = random.uniform() * period_ms / 1e3;
  while (t < seconds) {
    out.push_back(k_start + static_cast<TimeNs>(t * 1e9));
    t += (period_ms + work_ms * random.uniform()) / 1e3;
  }
  return out;
}

std::vector<TimeNs> merged(std::vector<TimeNs> a, const std::vector<TimeNs>& b) {
  a.insert(a.end(), b.begin(), b.end());
  std::sort(a.begin(), a.end());
  return a;
}

}  // namespace

TEST_CASE("A sleep loop hidden among other lines is found from pair differences", "[detect][renewal]") {
  int found = 0;
  for (int run = 0; run < 20; ++run) {
    Random random(200 + static_cast<std::uint64_t>(run));
    // 10 loop lines a second among 30 other lines a second: consecutive gaps show nothing.
    const auto times = merged(loop(random, 100, 2, 120), poisson(random, 30, 120));
    const auto renewal = find_renewal(times, RenewalOptions{});
    if (!renewal) continue;
    ++found;
    CHECK(renewal->period_ns == Approx(101e6).epsilon(0.01));
    CHECK(renewal->log10_p < -2);
    CHECK(renewal->periodic_fraction > 0.15);
  }
  CHECK(found >= 18);
}

TEST_CASE("Lines without a loop give no renewal period", "[detect][renewal]") {
  int false_alarms = 0;
  for (int run = 0; run < 100; ++run) {
    Random random(300 + static_cast<std::uint64_t>(run));
    std::vector<TimeNs> times;
    if (run % 3 == 0) {
      times = poisson(random, 20, 200);
    } else if (run % 3 == 1) {
      // Bursty: log-normal gaps with a heavy spread.
      double t = 0;
      for (int i = 0; i < 4000; ++i) {
        t += random.lognormal(0.05, 1.5);
        times.push_back(k_start + static_cast<TimeNs>(t * 1e9));
      }
    } else {
      // Two Poisson streams of different rates, merged.
      times = merged(poisson(random, 5, 300), poisson(random, 40, 300));
    }
    false_alarms += find_renewal(times, RenewalOptions{}) ? 1 : 0;
  }
  CHECK(false_alarms <= 3);  // 0 of 600 when this was written
}
