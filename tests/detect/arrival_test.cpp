#include "../test_random.hpp"

#include <gapscan/detect/arrival.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using gapscan::LineLocation;
using gapscan::TimeNs;
using gapscan::detect::ArrivalSummary;
using gapscan::detect::ArrivalTracker;
using gapscan::testing::Random;

namespace {

ArrivalSummary poisson(double lines_per_s, std::size_t lines, TimeNs resolution) {
  Random random(61);
  ArrivalTracker tracker;
  double t = 1e15;
  for (std::size_t i = 0; i < lines; ++i) {
    t += -std::log(1.0 - random.uniform()) * 1e9 / lines_per_s;
    const auto stamp = static_cast<TimeNs>(t) / resolution * resolution;
    tracker.add(stamp, LineLocation{0, 0, i + 1, i * 80}, "GET /index.html 200");
  }
  return tracker.finish(0);
}

}  // namespace

TEST_CASE("Arrival bursts: a buffer's lines stamped together, then silence, are arrival times", "[detect][arrival]") {
  Random random(67);
  ArrivalTracker tracker;
  TimeNs t = 1'000'000'000'000'000;
  std::uint64_t line = 0;
  for (int burst = 0; burst < 40; ++burst) {
    t += static_cast<TimeNs>((1.5 + random.uniform()) * 1e9);  // the buffer fills in 1.5-2.5 s
    const int lines = 40 + static_cast<int>(random.uniform() * 20);
    for (int k = 0; k < lines; ++k) {
      ++line;
      tracker.add(t + k * 7'000, LineLocation{0, 0, line, line * 90}, "worker: step " + std::to_string(line));
    }
  }
  const ArrivalSummary s = tracker.finish(3);
  CHECK(s.input == 3);
  CHECK(s.lines == line);
  CHECK(s.level() == 0);
  CHECK(s.levels[0].bursts == 40);
  CHECK(s.levels[0].burst_lines == line);
  CHECK(s.median_size() >= 32);
  CHECK(s.median_size() <= 64);
  CHECK(s.median_length_ns() < 1e6);
  CHECK(s.median_silence_ns() > 1.2e9);
  CHECK(s.median_silence_ns() < 2.6e9);
  CHECK(s.silence_count() == 39);
  REQUIRE(s.levels[0].examples.size() == ArrivalSummary::k_examples);
  CHECK(s.levels[0].examples[0].after.text().find("worker: step") == 0);
  CHECK(s.holds());
}

TEST_CASE("Arrival bursts: lines at random never pass, at any rate or resolution", "[detect][arrival]") {
  for (const double rate : {5.0, 200.0, 5'000.0, 50'000.0, 400'000.0}) {
    INFO("lines per second " << rate);
    CHECK_FALSE(poisson(rate, 20'000, 1).holds());
    CHECK_FALSE(poisson(rate, 20'000, 1'000).holds());
    CHECK_FALSE(poisson(rate, 20'000, 1'000'000).holds());
  }
  // Stamps of whole seconds: lines within one second say nothing, however many.
  CHECK_FALSE(poisson(100.0, 20'000, 1'000'000'000).holds());
  CHECK(poisson(100.0, 20'000, 1'000'000).level() == 1);
}
