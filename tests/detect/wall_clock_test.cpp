#include <gapscan/detect/wall_clock.hpp>

#include "../test_random.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace gapscan;
using namespace gapscan::detect;
using gapscan::testing::Random;

namespace {

constexpr TimeNs k_start = 1'764'424'807'000'000'000;  // 2025-11-29T14:00:07Z: not on a minute
constexpr std::uint32_t k_request = 11, k_step = 12, k_done = 13;

/// Hands windows to a WallClock as the analyzer would, with lines numbered in order.
class Feeder {
 public:
  explicit Feeder(WallClock& clock) : m_clock(&clock) {}
  /// A request of three lines (start, a step, `done` logging its duration) starting at `t`.
  void request(TimeNs t, double duration_ns, std::uint32_t done = k_done) {
    const auto d = static_cast<TimeNs>(duration_ns);
    const std::uint32_t kind = done - k_done;  // another kind of request has lines of its own
    window("req-" + std::to_string(m_line),
           {{t, k_request + 100 * kind, false}, {t + d / 3, k_step + 100 * kind, false}, {t + d, done, true}});
  }
  /// A line outside any request (a whole-input stream of one line).
  void job_line(TimeNs t, std::uint32_t id) { window("", {{t, id, false}}); }
  void use(WallClock& clock) { m_clock = &clock; }

 private:
  struct Line {
    TimeNs time;
    std::uint32_t template_id;
    bool logs_duration;
  };
  void window(const std::string& key, const std::vector<Line>& lines) {
    std::vector<stream::Entry> entries;
    std::string text;
    for (const Line& line : lines) {
      stream::Entry entry;
      entry.time = line.time;
      entry.time_digits = 6;
      entry.location = LineLocation{0, 0, ++m_line, 0};
      const std::string words = "line " + std::to_string(line.template_id);
      entry.text_offset = static_cast<std::uint32_t>(text.size());
      entry.text_length = static_cast<std::uint32_t>(words.size());
      text += words;
      entry.template_id = line.template_id;
      if (line.logs_duration) entry.duration_us = static_cast<std::uint32_t>((line.time - lines.front().time) / 1000);
      entries.push_back(entry);
    }
    stream::StreamWindow w;
    w.key = key;
    w.stream_id = m_line;
    w.entries = entries;
    w.text = text;
    m_clock->add(w, stats::build_gap_series(w), false);
  }
  WallClock* m_clock;
  std::uint64_t m_line = 0;
};

/// Requests arriving at random (`per_s` a second) for `minutes`, each ~10 ms (log-normal), times
/// `slow(t)`; and, when `job`, a job's line just after the start of every minute.
void feed(Feeder& feeder, Random& random, int minutes, double per_s, const std::function<double(TimeNs)>& slow,
          bool job = false) {
  const TimeNs end = k_start + static_cast<TimeNs>(minutes) * 60 * k_ns_per_s;
  for (TimeNs t = k_start; t < end; t += static_cast<TimeNs>(-std::log(1 - random.uniform()) / per_s * 1e9))
    feeder.request(t, random.lognormal(10e6, 0.5) * slow(t));
  if (job) {
    for (TimeNs m = (k_start / (60 * k_ns_per_s) + 1) * 60 * k_ns_per_s; m < end; m += 60 * k_ns_per_s)
      feeder.job_line(m + static_cast<TimeNs>(random.uniform() * 2e8), 90);
  }
}

double second_of_minute(TimeNs t) { return static_cast<double>(t % (60 * k_ns_per_s)) / 1e9; }

}  // namespace

TEST_CASE("A mild slowdown in the first seconds of every minute is found, with the job's line",
          "[detect][wall_clock]") {
  WallClock clock;
  Feeder feeder(clock);
  Random random(7);
  feed(
      feeder, random, 30, 12, [](TimeNs t) { return second_of_minute(t) < 5 ? 1.4 : 1.0; }, true);
  const std::vector<WallClockSlowdown> found = clock.finish(0.01);
  REQUIRE(found.size() == 1);
  const WallClockSlowdown& s = found.front();
  CHECK(s.fold == WallClockSlowdown::Fold::minute);
  // Seconds 0-4, give or take the second a request that spans the edge is placed in.
  CHECK((s.start == 0 || s.start == 59));
  CHECK(s.width >= 4);
  CHECK(s.width <= 6);
  CHECK(s.ratio == Approx(1.4).margin(0.12));
  CHECK(s.slower * 10 >= s.cycles * 9);
  CHECK(s.cycles >= 28);
  CHECK(s.log10_p < -6);
  CHECK(s.beaten <= 1);
  CHECK(s.draws > 0);
  CHECK_FALSE(s.examples.empty());
  REQUIRE(s.job_lines.size() == 1);
  CHECK(s.job_lines.front().aligned == s.job_lines.front().lines);
  CHECK(s.job_lines.front().line.text() == "line 90");
}

TEST_CASE("No slowdown on the wall clock without one at the same place of every minute", "[detect][wall_clock]") {
  SECTION("the same speed all the time, a job's line every minute") {
    WallClock clock;
    Feeder feeder(clock);
    Random random(8);
    feed(
        feeder, random, 30, 12, [](TimeNs) { return 1.0; }, true);
    CHECK(clock.finish(0.01).empty());
  }
  SECTION("one slow spell of ten minutes, twice as slow: it does not come back") {
    WallClock clock;
    Feeder feeder(clock);
    Random random(9);
    const TimeNs from = k_start + 12 * 60 * k_ns_per_s, to = from + 10 * 60 * k_ns_per_s;
    feed(feeder, random, 30, 12, [&](TimeNs t) { return t >= from && t < to ? 2.0 : 1.0; });
    CHECK(clock.finish(0.01).empty());
  }
  SECTION("a job's own long operations at second 0, the requests' speed unchanged") {
    WallClock clock;
    Feeder feeder(clock);
    Random random(10);
    feed(feeder, random, 30, 12, [](TimeNs) { return 1.0; });
    // Other kinds of lines: they compare with nothing outside the job's seconds.
    for (int m = 1; m < 30; ++m) {
      const TimeNs at = (k_start / (60 * k_ns_per_s) + m) * 60 * k_ns_per_s;
      for (int k = 0; k < 5; ++k) feeder.request(at + k * 200'000'000, 900e6, 77);
    }
    CHECK(clock.finish(0.01).empty());
  }
  SECTION("slowdowns at random places of each minute") {
    WallClock clock;
    Feeder feeder(clock);
    Random random(11);
    std::vector<double> places;
    for (int m = 0; m < 31; ++m) places.push_back(random.uniform() * 55);
    feed(feeder, random, 30, 12, [&](TimeNs t) {
      const auto minute = static_cast<std::size_t>((t - k_start) / (60 * k_ns_per_s));
      const double s = second_of_minute(t);
      return s >= places[minute] && s < places[minute] + 5 ? 1.5 : 1.0;
    });
    CHECK(clock.finish(0.01).empty());
  }
}

TEST_CASE("An hourly slowdown is placed in the minutes of the hour", "[detect][wall_clock]") {
  WallClock clock;
  Feeder feeder(clock);
  Random random(12);
  feed(feeder, random, 8 * 60, 1.5, [](TimeNs t) {
    const double minute = static_cast<double>(t % (3600 * k_ns_per_s)) / 60e9;
    return minute >= 17 && minute < 20 ? 1.5 : 1.0;
  });
  const std::vector<WallClockSlowdown> found = clock.finish(0.01);
  REQUIRE(found.size() == 1);
  const WallClockSlowdown& s = found.front();
  CHECK(s.fold == WallClockSlowdown::Fold::hour);
  CHECK(s.start >= 16);
  CHECK(s.start <= 17);
  CHECK(s.start + s.width >= 20);
  CHECK(s.start + s.width <= 21);
  CHECK(s.ratio == Approx(1.5).margin(0.15));
}

TEST_CASE("Wall-clock folds merged from two halves find what one fold of all finds", "[detect][wall_clock]") {
  WallClock all, first, second;
  Feeder to_all(all), halves(first);
  Random a(13), b(13);
  const auto slow = [](TimeNs t) { return second_of_minute(t) >= 30 && second_of_minute(t) < 33 ? 1.6 : 1.0; };
  feed(to_all, a, 20, 10, slow, true);
  // The same requests, in the same order, the first half of the windows to one fold.
  int n = 0;
  const TimeNs end = k_start + 20 * 60 * k_ns_per_s;
  for (TimeNs t = k_start; t < end; t += static_cast<TimeNs>(-std::log(1 - b.uniform()) / 10 * 1e9)) {
    if (n++ == 6000) halves.use(second);
    halves.request(t, b.lognormal(10e6, 0.5) * slow(t));
  }
  for (TimeNs m = (k_start / (60 * k_ns_per_s) + 1) * 60 * k_ns_per_s; m < end; m += 60 * k_ns_per_s)
    halves.job_line(m + static_cast<TimeNs>(b.uniform() * 2e8), 90);
  first.merge(std::move(second));
  const auto one = all.finish(0.01), merged = first.finish(0.01);
  REQUIRE(one.size() == 1);
  REQUIRE(merged.size() == 1);
  CHECK(merged.front().start == one.front().start);
  CHECK(merged.front().width == one.front().width);
  CHECK(merged.front().ratio == Approx(one.front().ratio).epsilon(1e-4));
  CHECK(merged.front().log10_p == Approx(one.front().log10_p).epsilon(1e-3));
  CHECK(merged.front().job_lines.size() == one.front().job_lines.size());
  CHECK(first.folded() == all.folded());
}

TEST_CASE("The wall-clock folds keep the earliest cycles within their bound", "[detect][wall_clock]") {
  WallClock clock;
  Feeder feeder(clock);
  Random random(14);
  // One request a minute for 10 000 minutes, each of its own kind of first line: more records
  // than the bound; the folds keep the first ones and count the rest.
  for (int m = 0; m < 10'000; ++m)
    feeder.request(k_start + static_cast<TimeNs>(m) * 60 * k_ns_per_s, random.lognormal(10e6, 0.5),
                   k_done + static_cast<std::uint32_t>(m % 3));
  CHECK(clock.unfolded() > 0);
  CHECK(clock.folded() > 0);
  CHECK(clock.finish(0.01).empty());
}
