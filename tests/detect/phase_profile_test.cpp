// The phase profile (detect/phase_profile.hpp) and the findings it and the duration analysis
// make beyond modes: a queue's saturation, a ceiling of durations (a timeout whose setting the
// log does not state).

#include "../test_random.hpp"

#include <gapscan/detect/durations.hpp>
#include <gapscan/detect/phase_profile.hpp>
#include <gapscan/detect/time_profile.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace gapscan;
using namespace gapscan::detect;
using gapscan::testing::Random;

namespace {

using Phases = std::array<DurationNs, parse::k_phase_count>;

Phases phases_of(DurationNs queue, DurationNs connect, DurationNs response) {
  Phases p;
  p.fill(-1);
  p[static_cast<std::size_t>(parse::Phase::queue)] = queue;
  p[static_cast<std::size_t>(parse::Phase::connect)] = connect;
  p[static_cast<std::size_t>(parse::Phase::response)] = response;
  return p;
}

/// `n` proxied requests of ~20 ms; `waiting` of every 3 wait 5-600 ms in the queue (uniform),
/// or all of them `fixed` ms when it is set.
PhaseProfile requests(int n, int waiting, double fixed_ms, std::uint64_t seed) {
  Random random(seed);
  PhaseProfile profile;
  for (int i = 0; i < n; ++i) {
    DurationNs queue = 0;
    if (i % 3 < waiting) queue = static_cast<DurationNs>((fixed_ms > 0 ? fixed_ms : 5 + random.uniform() * 595) * 1e6);
    const auto response = static_cast<DurationNs>(random.lognormal(20, 0.4) * 1e6);
    profile.add(phases_of(queue, 0, response), queue + response);
  }
  return profile;
}

}  // namespace

TEST_CASE("Phase profile: counts, shares and quantiles per phase, merged as one", "[detect][phases]") {
  PhaseProfile profile = requests(300, 2, 0, 1);
  const auto& queue = profile.phase(parse::Phase::queue);
  CHECK(queue.requests == 300);
  CHECK(queue.spent == 200);
  CHECK(profile.phase(parse::Phase::connect).spent == 0);
  CHECK(profile.phase(parse::Phase::lookup).requests == 0);
  CHECK(profile.records() == 300);
  // A third did not wait: the 30th percentile is 0; the median of all is in the waits' range.
  CHECK(profile.quantile(parse::Phase::queue, 0.3) == 0);
  const double median = profile.quantile(parse::Phase::queue, 0.5);
  CHECK(median > 50e6);
  CHECK(median < 300e6);
  CHECK(profile.count_between(parse::Phase::queue, 5e6, 700e6) == 200);

  PhaseProfile first = requests(150, 2, 0, 1), second = requests(150, 2, 0, 2);
  const double first_total = first.total_ns();
  first.merge(second);
  CHECK(first.records() == 300);
  CHECK(first.total_ns() == Approx(first_total + second.total_ns()));
  CHECK(first.phase(parse::Phase::queue).spent == 200);
}

TEST_CASE("Saturation: queue waits spread over a range, never a timer's fixed wait or a healthy proxy",
          "[detect][phases]") {
  const auto found = requests(300, 2, 0, 3).saturation();
  REQUIRE(found);
  REQUIRE(found->saturation);
  CHECK(found->group == "phase=queue");
  CHECK(found->saturation->waited == 200);
  CHECK(found->saturation->p90_ns > 3 * found->saturation->p10_ns);
  CHECK(found->wall_share > 0.5);
  CHECK(found->log10_p < -100);

  CHECK_FALSE(requests(300, 0, 0, 4).saturation());    // nobody waits
  CHECK_FALSE(requests(300, 2, 200, 5).saturation());  // every wait 200 ms: a timer, not a queue
  // A handful of waits among many requests: not a saturated server.
  PhaseProfile few = requests(1000, 0, 0, 6);
  for (int i = 0; i < 6; ++i) few.add(phases_of(100'000'000 + i * 50'000'000, 0, 20'000'000), 300'000'000);
  CHECK_FALSE(few.saturation());
}

TEST_CASE("A ceiling of durations: a pile at a round value, none longer, many shorter", "[detect][durations]") {
  Random random(7);
  DurationAnalyzer capped, constant;
  for (int i = 0; i < 120; ++i) {
    const LineLocation where{1, 1, static_cast<std::uint64_t>(i + 1), 0};
    // Lock waits of 0.5-2.9 s, a third cut off by a 3 s timeout (3.0002-3.0012 s).
    const double seconds = i % 3 == 0 ? 3.0002 + random.uniform() * 0.001 : 0.5 + random.uniform() * 2.4;
    capped.add("query=UPDATE t SET a = ?", static_cast<DurationNs>(seconds * 1e9), 6, where, "UPDATE t SET a = 1;");
    // An operation that always takes ~3 s: a mode, but no ceiling (nothing ends sooner).
    constant.add("op=x", static_cast<DurationNs>((3.0002 + random.uniform() * 0.001) * 1e9), 6, where, "x");
  }
  const auto found = capped.finish();
  REQUIRE_FALSE(found.empty());
  REQUIRE(found[0].cap);
  CHECK(found[0].cap->value_ns == Approx(3e9));
  CHECK(found[0].cap->longer == 0);
  CHECK(found[0].cap->shorter == 80);
  for (const Finding& f : constant.finish()) CHECK_FALSE(f.cap);
}

TEST_CASE("When the stalls happened: a window of the run, a steady rate, or unknown without times",
          "[detect][durations][timing]") {
  Random random(9);
  DurationAnalyzer window, steady, untimed;
  const TimeNs start = 1'764'428'400'000'000'000;
  for (int i = 0; i < 600; ++i) {
    const LineLocation where{1, 1, static_cast<std::uint64_t>(i + 1), 0};
    const TimeNs begun = start + static_cast<TimeNs>(i) * 1'000'000'000;
    const auto lookup = [&](bool slow) {
      return static_cast<DurationNs>((slow ? 5002 + random.uniform() * 6 : 0.3 + random.uniform() * 1.5) * 1e6);
    };
    const DurationNs in_window = lookup(i >= 240 && i < 300);
    window.add("op=resolve", in_window, 6, where, "op=resolve", {}, begun + in_window);
    const DurationNs at_random = lookup(random.uniform() < 0.1);
    steady.add("op=resolve", at_random, 6, where, "op=resolve", {}, begun + at_random);
    untimed.add("op=resolve", in_window, 6, where, "op=resolve");
  }
  const auto in = window.finish();
  REQUIRE_FALSE(in.empty());
  REQUIRE(in[0].timing);
  CHECK(in[0].timing->kind == TimingDetail::Kind::window);
  CHECK(in[0].timing->inside_stalls == 60);
  CHECK(in[0].timing->outside_stalls == 0);
  CHECK(in[0].timing->start == start + 240'000'000'000);
  CHECK(in[0].timing->end == start + 299'000'000'000);
  const auto scattered = steady.finish();
  REQUIRE_FALSE(scattered.empty());
  REQUIRE(scattered[0].timing);
  CHECK(scattered[0].timing->kind == TimingDetail::Kind::scattered);
  for (const Finding& f : untimed.finish()) CHECK_FALSE(f.timing);
}

TEST_CASE("Time profile: the same bins whatever the order of the gaps and the merges", "[detect][timing]") {
  Random random(11);
  std::vector<std::pair<TimeNs, double>> gaps;
  const TimeNs start = 1'764'428'400'000'000'000;
  for (int i = 0; i < 600; ++i) {
    const bool slow = i >= 240 && i < 300;
    gaps.emplace_back(start + static_cast<TimeNs>(i) * 1'000'000'000, slow ? 5.004e9 : 0.5e6 + random.uniform() * 1e6);
  }
  TimeProfile forward, backward, left, right;
  for (const auto& [t, g] : gaps) forward.add(t, g);
  for (auto it = gaps.rbegin(); it != gaps.rend(); ++it) backward.add(it->first, it->second);
  for (std::size_t i = 0; i < gaps.size(); ++i) (i % 2 == 0 ? left : right).add(gaps[i].first, gaps[i].second);
  left.merge(right);
  for (const TimeProfile* p : {&forward, &backward, &left}) {
    const auto t = p->timing(4.9e9, 5.1e9);
    REQUIRE(t);
    CHECK(t->kind == TimingDetail::Kind::window);
    CHECK(t->inside_stalls == 60);
    CHECK(t->outside_stalls == 0);
    CHECK(t->start == forward.timing(4.9e9, 5.1e9)->start);
    CHECK(t->end == forward.timing(4.9e9, 5.1e9)->end);
    CHECK(t->start <= start + 240'000'000'000);
    CHECK(t->end >= start + 300'000'000'000);
  }
  CHECK_FALSE(TimeProfile().timing(4.9e9, 5.1e9));
}
