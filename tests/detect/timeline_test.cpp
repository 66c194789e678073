#include <gapscan/detect/analyzer.hpp>
#include <gapscan/detect/timeline.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace gapscan;
using namespace gapscan::detect;

namespace {

/// One request's lines: gaps in ns, the first line at line number `first_line`.
struct Request {
  std::string key;
  std::vector<stream::Entry> entries;
  std::string text;

  Request(std::string id, const std::vector<DurationNs>& gaps, std::uint64_t first_line) : key(std::move(id)) {
    TimeNs t = 1'700'000'000'000'000'000;
    for (std::size_t i = 0; i <= gaps.size(); ++i) {
      if (i > 0) t += gaps[i - 1];
      const std::string line = key + " line " + std::to_string(i);
      stream::Entry entry;
      entry.time = t;
      entry.time_digits = 6;
      entry.location = LineLocation{0, 0, first_line + i, 0};
      entry.text_offset = static_cast<std::uint32_t>(text.size());
      entry.text_length = static_cast<std::uint32_t>(line.size());
      text += line;
      entries.push_back(entry);
    }
  }
  stream::StreamWindow window() const {
    stream::StreamWindow w;
    w.key = key;
    w.entries = entries;
    w.text = text;
    return w;
  }
};

/// `n` gaps: every `every`-th one `stall`, the others `work`.
std::vector<DurationNs> gaps_with(std::size_t n, std::size_t every, DurationNs stall, DurationNs work = 1'000'000) {
  std::vector<DurationNs> gaps;
  for (std::size_t i = 0; i < n; ++i) gaps.push_back(i % every == every - 1 ? stall : work);
  return gaps;
}

std::size_t stalls_in(const Timeline& t, double lo, double hi) {
  std::size_t n = 0;
  for (std::size_t i = 1; i < t.points.size(); ++i) {
    const auto gap = static_cast<double>(t.points[i].offset - t.points[i - 1].offset);
    n += gap >= lo && gap <= hi ? 1 : 0;
  }
  return n;
}

}  // namespace

TEST_CASE("The timeline of an interval is the request with the most gaps in it", "[detect][timeline]") {
  const Request few("few", gaps_with(40, 8, 44'000'000), 1);         // 5 stalls of 44 ms
  const Request many("many", gaps_with(40, 2, 44'000'000), 100);     // 20 stalls
  const Request other("other", gaps_with(40, 2, 200'000'000), 200);  // 20 gaps of 200 ms
  for (const bool reversed : {false, true}) {
    TimelineKeeper keeper;
    std::vector<const Request*> order{&few, &many, &other};
    if (reversed) std::reverse(order.begin(), order.end());
    for (const Request* r : order) {
      const stream::StreamWindow w = r->window();
      keeper.add(w, stats::build_gap_series(w));
    }
    const std::optional<Timeline> t = keeper.worst(43e6, 45e6, "");
    REQUIRE(t);
    CHECK(t->stream == "many");
    CHECK(t->points.size() == 41);
    CHECK(t->window_lines == 41);
    CHECK(t->first_index == 0);
    CHECK(stalls_in(*t, 43e6, 45e6) == 20);
    CHECK(t->points.front().location.line == 100);
    CHECK(t->points.front().offset == 0);
    CHECK(t->first.text() == "many line 0");
    CHECK(t->last.text() == "many line 40");
    CHECK(t->lo_ns == 43e6);
    const std::optional<Timeline> slow = keeper.worst(190e6, 210e6, "");
    REQUIRE(slow);
    CHECK(slow->stream == "other");
    CHECK_FALSE(keeper.worst(1e9, 2e9, ""));  // no gap there
  }
}

TEST_CASE("A long request's timeline is its stretch of at most 400 lines holding the most stalls",
          "[detect][timeline]") {
  // 2 000 gaps: stalls only in gaps 1 000 to 1 199.
  std::vector<DurationNs> gaps(2000, 1'000'000);
  for (std::size_t i = 1000; i < 1200; ++i) gaps[i] = 50'000'000;
  const Request request("long", gaps, 1);
  const stream::StreamWindow w = request.window();
  const stats::GapSeries series = stats::build_gap_series(w);
  TimelineKeeper keeper;
  keeper.add(w, series);
  const std::optional<Timeline> t = keeper.worst(49e6, 51e6, "");
  REQUIRE(t);
  CHECK(t->points.size() == TimelineKeeper::k_max_points);
  CHECK(t->window_lines == 2001);
  // Stretches start every 399 lines: the one from line 798 holds the stalls of gaps 1 000 to 1 196.
  CHECK(t->first_index == 798);
  CHECK(stalls_in(*t, 49e6, 51e6) == 197);

  // A request's own mode: the stretch holding most of its members, starting anywhere.
  std::vector<std::uint32_t> members;
  for (std::uint32_t i = 0; i < series.gaps.size(); ++i) {
    if (series.gaps[i].raw == 50'000'000) members.push_back(i);
  }
  const Timeline own = TimelineKeeper::capture_most(w, series, members);
  CHECK(own.points.size() == TimelineKeeper::k_max_points);
  CHECK(stalls_in(own, 49e6, 51e6) == 200);  // any start: all of them
  CHECK(own.first_index == 1000);
}

TEST_CASE("A finding of the analysis carries its worst request's timeline", "[detect][timeline]") {
  Analyzer analyzer;
  for (int r = 0; r < 20; ++r) {
    // Background gaps spread from 1 to 3 ms; every 4th gap 44 ms; request 7 has twice as many.
    std::vector<DurationNs> gaps;
    for (int i = 0; i < 60; ++i) {
      const int every = r == 7 ? 2 : 4;
      gaps.push_back(i % every == every - 1 ? 44'000'000 + (i % 5) * 10'000 : 1'000'000 + (i * 37 % 20) * 100'000);
    }
    const Request request("req" + std::to_string(r), gaps, 1000 * static_cast<std::uint64_t>(r) + 1);
    stream::StreamWindow w = request.window();
    w.stream_id = static_cast<std::uint64_t>(r);
    analyzer.add(w);
  }
  const DetectionResult result = analyzer.finish();
  REQUIRE_FALSE(result.findings.empty());
  const Finding& top = result.findings.front();
  CHECK(top.centre_ns == Approx(44.02e6).epsilon(0.01));
  REQUIRE(top.timeline);
  CHECK(top.timeline->stream == top.top_request);
  CHECK(top.timeline->stream == "req7");
  CHECK(stalls_in(*top.timeline, top.timeline->lo_ns, top.timeline->hi_ns) == 30);
  CHECK(top.timeline->lo_ns <= top.lo_ns);
  CHECK(top.timeline->hi_ns >= top.hi_ns);
}
