#include "../test_random.hpp"

#include <gapscan/detect/periodicity.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace gapscan;
using namespace gapscan::detect;
using gapscan::testing::Random;

namespace {

constexpr TimeNs k_start = 1'764'450'184'000'000'000;

/// Poisson events at `rate` per second over `seconds`.
void poisson(Random& random, std::vector<TimeNs>& out, double rate, double seconds) {
  double t = 0;
  while (true) {
    t += -std::log(std::max(random.uniform(), 1e-300)) / rate;
    if (t >= seconds) break;
    out.push_back(k_start + static_cast<TimeNs>(t * 1e9));
  }
}

}  // namespace

TEST_CASE("Stalls that end on a 100 ms clock are found, with phase and jitter", "[detect][periodicity]") {
  Random random(21);
  std::vector<TimeNs> times;
  const double phase = 37e6;
  for (int k = 0; k < 600; ++k) {  // 60 s of 100 ms periods, 30 % of them without a stall
    if (random.uniform() < 0.3) continue;
    times.push_back(k_start + static_cast<TimeNs>(k * 100e6 + phase + 1e6 * random.normal()));
  }
  poisson(random, times, 5, 60);  // unrelated events
  const auto found = find_periodicity(times, PeriodicityOptions{});
  REQUIRE_FALSE(found.empty());
  const Periodicity& p = found.front();
  CHECK(std::abs(p.period_ns / 100e6 - 1) < 0.001);
  CHECK(p.from_catalog);
  CHECK(p.on_beat_share > 0.5);
  CHECK(p.jitter_ns == Approx(1e6).epsilon(0.5));
  CHECK(p.missing_beat_ratio == Approx(0.3).margin(0.1));
  CHECK(p.log10_p < -5);
}

TEST_CASE("A period that is not in the catalog comes from the spectrum", "[detect][periodicity]") {
  Random random(22);
  std::vector<TimeNs> times;
  for (int k = 0; k < 200; ++k) times.push_back(k_start + static_cast<TimeNs>(k * 1.37e9 + 5e6 * random.normal()));
  poisson(random, times, 1, 274);
  const auto found = find_periodicity(times, PeriodicityOptions{});
  REQUIRE_FALSE(found.empty());
  CHECK(std::abs(found.front().period_ns / 1.37e9 - 1) < 0.002);
  CHECK_FALSE(found.front().from_catalog);
}

TEST_CASE("The spectrum's size does not grow with the span, its bins do", "[detect][periodicity]") {
  const PeriodicityOptions options;
  const double fine = options.min_period_ns / 8;
  for (double span : {1e6, 60e9, 164e9, 600e9, 3600e9, 86400e9, 30 * 86400e9}) {
    INFO("span " << span / 1e9 << " s");
    const SpectrumGrid grid = spectrum_grid(span, options);
    CHECK(grid.bins <= options.max_bins);
    CHECK((grid.bins & (grid.bins - 1)) == 0);
    CHECK(static_cast<double>(grid.bins) * grid.bin_ns >= span);
    // The finest bins while they cover the span; then as many bins as allowed, each twice as
    // wide until they do.
    if (static_cast<double>(options.max_bins) * fine >= span) {
      CHECK(grid.bin_ns == fine);
    } else {
      CHECK(grid.bins == options.max_bins);
      CHECK(static_cast<double>(grid.bins) * grid.bin_ns < 2 * span);
    }
  }
}

TEST_CASE("A period outside the catalog is found in a log spanning six hours, on coarser bins",
          "[detect][periodicity]") {
  Random random(23);
  std::vector<TimeNs> times;
  const double period = 2.37e9, hours = 6;
  for (int k = 0; k * period < hours * 3600e9; ++k) {
    if (random.uniform() < 0.4) continue;
    times.push_back(k_start + static_cast<TimeNs>(k * period + 4e6 * random.normal()));
  }
  poisson(random, times, 0.3, hours * 3600);
  const PeriodicityOptions options;
  REQUIRE(spectrum_grid(hours * 3600e9, options).bin_ns > options.min_period_ns / 8);  // coarser bins indeed
  const auto found = find_periodicity(times, options);
  REQUIRE_FALSE(found.empty());
  CHECK(std::abs(found.front().period_ns / period - 1) < 0.001);
  CHECK_FALSE(found.front().from_catalog);
}

TEST_CASE("No period in Poisson or bursty events: the false-positive rate stays near alpha", "[detect][periodicity]") {
  int poisson_hits = 0, bursty_hits = 0;
  const int replicates = 200;
  for (int r = 0; r < replicates; ++r) {
    Random random(7000 + static_cast<std::uint64_t>(r));
    std::vector<TimeNs> times;
    poisson(random, times, 5, 60);
    if (!find_periodicity(times, PeriodicityOptions{}).empty()) ++poisson_hits;
    // Bursty renewal: gamma(0.3) gaps (CV about 1.8), mean 200 ms, approximated by a
    // log-normal with the same CV.
    std::vector<TimeNs> bursty;
    double t = 0;
    for (int i = 0; i < 300; ++i) {
      t += random.lognormal(0.07, 1.2);
      bursty.push_back(k_start + static_cast<TimeNs>(t * 1e9));
    }
    if (!find_periodicity(bursty, PeriodicityOptions{}).empty()) ++bursty_hits;
  }
  INFO("poisson " << poisson_hits << ", bursty " << bursty_hits << " of " << replicates);
  CHECK(poisson_hits <= 5);  // alpha 0.01
  CHECK(bursty_hits <= 6);
}

TEST_CASE("The periodicity test gives the same result on any number of threads", "[detect][periodicity]") {
  Random random(5);
  std::vector<TimeNs> times;
  for (int k = 0; k < 300; ++k) times.push_back(k_start + static_cast<TimeNs>(k * 1e9 + 2e6 * random.normal()));
  for (int k = 0; k < 400; ++k) times.push_back(k_start + static_cast<TimeNs>(k * 730e6 + 1e6 * random.normal()));
  poisson(random, times, 3, 300);
  const auto one = find_periodicity(times, PeriodicityOptions{});
  REQUIRE(one.size() >= 2);
  for (unsigned threads : {2u, 3u, 16u}) {
    PeriodicityOptions options;
    options.threads = threads;
    const auto many = find_periodicity(times, options);
    REQUIRE(many.size() == one.size());
    for (std::size_t i = 0; i < one.size(); ++i) {
      CHECK(many[i].period_ns == one[i].period_ns);
      CHECK(many[i].phase_ns == one[i].phase_ns);
      CHECK(many[i].log10_p == one[i].log10_p);
      CHECK(many[i].jitter_ns == one[i].jitter_ns);
    }
  }
}
