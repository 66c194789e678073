#include <gapscan/stats/gap_pool.hpp>
#include <gapscan/stats/gap_series.hpp>
#include <gapscan/stats/log_histogram.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace gapscan;
using namespace gapscan::stats;

namespace {

struct Window {
  std::vector<stream::Entry> entries;
  std::string text;
  stream::StreamWindow view() const {
    stream::StreamWindow window;
    window.key = "req";
    window.entries = entries;
    window.text = text;
    return window;
  }
  void add(TimeNs time, std::uint8_t digits, std::string line) {
    stream::Entry entry;
    entry.time = time;
    entry.time_digits = digits;
    entry.location = LineLocation{0, 0, entries.size() + 1, 0};
    entry.text_offset = static_cast<std::uint32_t>(text.size());
    entry.text_length = static_cast<std::uint32_t>(line.size());
    text += line;
    entries.push_back(entry);
  }
};

}  // namespace

TEST_CASE("LogHistogram bins are exact below 2^bits and at most 0.1 % wide above", "[stats]") {
  LogHistogram h(10);
  CHECK(h.index_of(0) == 0);
  CHECK(h.index_of(1023) == 1023);
  for (std::uint64_t v : {1024ull, 44'000'000ull, 5'000'000'000ull, (1ull << 62) + 12345}) {
    const std::size_t i = h.index_of(v);
    CHECK(h.lower(i) <= v);
    CHECK(v < h.upper(i));
    CHECK(static_cast<double>(h.upper(i) - h.lower(i)) / static_cast<double>(h.lower(i)) <= 1.0 / 1024);
  }
  h.add(44'000'000, 3);
  LogHistogram other(10);
  other.add(44'000'000);
  h.merge(other);
  CHECK(h.count(h.index_of(44'000'000)) == 4);
  CHECK(h.total() == 4);
}

TEST_CASE("Gap series: time order, zero gaps, out-of-order lines, resolution", "[stats]") {
  Window w;
  w.add(1'000'000'000, 3, "a");
  w.add(1'044'000'000, 3, "b");
  w.add(1'030'000'000, 3, "c");  // out of order
  w.add(1'044'000'000, 3, "d");  // zero gap after b
  const GapSeries s = build_gap_series(w.view());
  CHECK(s.out_of_order == 1);
  CHECK(s.zero_gaps == 1);
  CHECK(s.span == 44'000'000);
  CHECK(s.resolution == 1'000'000);  // 3 digits written, too few lines to trust the gcd
  REQUIRE(s.gaps.size() == 2);
  CHECK(s.gaps[0].raw == 30'000'000);
  CHECK(s.gaps[1].raw == 14'000'000);
  for (const Gap& gap : s.gaps) CHECK(std::abs(gap.value - static_cast<double>(gap.raw)) <= 500'000);
}

TEST_CASE("A clock set back splits the series instead of inventing a gap", "[stats]") {
  constexpr TimeNs hour = 3600 * k_ns_per_s;
  Window w;
  for (int i = 0; i < 5; ++i) w.add(10 * hour + i * 44'000'000, 3, "before");
  for (int i = 0; i < 5; ++i) w.add(9 * hour + i * 44'000'000, 3, "after");  // NTP stepped back an hour
  const GapSeries s = build_gap_series(w.view());
  CHECK(s.clock_steps == 1);
  CHECK(s.largest_clock_step == hour + 4 * 44'000'000);
  CHECK(s.largest_clock_step_at.line == 6);
  CHECK(s.out_of_order == 0);
  REQUIRE(s.gaps.size() == 8);  // 4 + 4: none across the step
  for (const Gap& gap : s.gaps) CHECK(gap.raw == 44'000'000);
  CHECK(s.span == 2 * 4 * 44'000'000);

  // One line stamped earlier but written later (an access log) is out of order, not a step.
  Window lone;
  lone.add(10 * hour, 3, "a");
  lone.add(10 * hour + 5 * k_ns_per_s, 3, "b");
  lone.add(10 * hour + 1 * k_ns_per_s, 3, "stamped at its start");
  lone.add(10 * hour + 6 * k_ns_per_s, 3, "c");
  const GapSeries l = build_gap_series(lone.view());
  CHECK(l.clock_steps == 0);
  CHECK(l.out_of_order == 1);
  REQUIRE(l.gaps.size() == 3);
  CHECK(l.gaps[0].raw == 1 * k_ns_per_s);
  CHECK(l.gaps[1].raw == 4 * k_ns_per_s);
}

TEST_CASE("Resolution from the exact gcd when there are enough lines", "[stats]") {
  Window w;
  for (int i = 0; i < 20; ++i) w.add(1'000'000'000 + i * 7'000'000, 6, "x");  // µs digits, ms ticks
  CHECK(build_gap_series(w.view()).resolution == 1'000'000);                  // gcd 7 ms: regular, not a 7 ms clock
  Window fine;
  for (int i = 0; i < 20; ++i) fine.add(1'000'000'000 + i * 7'000'123, 6, "x");
  CHECK(build_gap_series(fine.view()).resolution == 1'000);
}

TEST_CASE("The gap pool keeps example gaps with the lines around them", "[stats]") {
  Window w;
  w.add(0, 6, "first");
  w.add(1'000, 6, "set(k)");
  w.add(2'000, 6, "get(k)");
  w.add(44'002'000, 6, "result");
  GapPool pool;
  pool.add(w.view(), build_gap_series(w.view()));
  CHECK(pool.gap_count() == 3);
  const auto samples = pool.samples_between(43e6, 45e6, 44e6);
  REQUIRE(samples.size() == 1);
  CHECK(samples[0]->gap == 44'000'000);
  REQUIRE(samples[0]->before.size() == 2);
  CHECK(samples[0]->before[0].text() == "set(k)");
  CHECK(samples[0]->before[1].text() == "get(k)");
  CHECK(samples[0]->after.text() == "result");
  CHECK(samples[0]->after.location.line == 4);
  CHECK(pool.typical_resolution() == 1'000);
}

TEST_CASE("The gap pool keeps as context only the request lines its filter accepts", "[stats]") {
  // A request of 40 lines, 1 ms apart, with three 44 ms gaps; every tenth line names a session.
  Window w;
  TimeNs t = 0;
  for (int i = 0; i < 40; ++i) {
    t += (i % 13 == 12) ? 44'000'000 : 1'000'000;
    std::string line = i % 10 == 0 ? "session_start " : "step ";
    line += std::to_string(i);
    w.add(t, 6, line);
  }
  const GapSeries series = build_gap_series(w.view());

  GapPool all;
  all.add(w.view(), series);
  GapPool filtered;
  int asked = 0;
  filtered.keep_context_if([&asked](std::string_view text, std::string_view) {
    ++asked;
    return text.starts_with("session_start");
  });
  filtered.add(w.view(), series);

  const auto kept = all.samples_between(43e6, 45e6, 44e6);
  const auto samples = filtered.samples_between(43e6, 45e6, 44e6);
  REQUIRE(samples.size() == 3);
  REQUIRE(kept.size() == samples.size());
  std::size_t context_all = 0;
  std::size_t context_filtered = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    // The same examples, with the same lines before and after the gap.
    CHECK(samples[i]->gap == kept[i]->gap);
    CHECK(samples[i]->after.text() == kept[i]->after.text());
    REQUIRE(samples[i]->before.size() == kept[i]->before.size());
    for (std::size_t b = 0; b < samples[i]->before.size(); ++b)
      CHECK(samples[i]->before[b].text() == kept[i]->before[b].text());
    // The context: the accepted lines of the unfiltered one, in the same order.
    std::vector<std::string_view> expected;
    for (const EvidenceLine& line : kept[i]->context)
      if (line.text().starts_with("session_start")) expected.push_back(line.text());
    std::vector<std::string_view> got;
    for (const EvidenceLine& line : samples[i]->context) got.push_back(line.text());
    CHECK(got == expected);
    context_all += kept[i]->context.size();
    context_filtered += got.size();
  }
  CHECK(context_filtered > 0);  // the request's first line names a session
  CHECK(context_filtered < context_all);
  // Each line is tested once per window, however many examples hold it.
  CHECK(asked > 0);
  CHECK(static_cast<std::size_t>(asked) < context_all);
}

TEST_CASE("Evidence lines share their text and keep the named fields apart", "[stats]") {
  const EvidenceLine line(LineLocation{1, 0, 7, 70}, "GET /x 200", "status=200");
  const EvidenceLine copy = line;  // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
  CHECK(copy.text() == "GET /x 200");
  CHECK(copy.fields() == "status=200");
  CHECK(copy.text().data() == line.text().data());
  CHECK(copy.location.line == 7);
  const EvidenceLine empty;
  CHECK(empty.text().empty());
  CHECK(empty.fields().empty());
  const EvidenceLine no_fields(LineLocation{}, "text only");
  CHECK(no_fields.fields().empty());
}
