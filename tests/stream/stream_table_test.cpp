#include <gapscan/stream/stream_table.hpp>

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

using namespace gapscan;
using namespace gapscan::stream;

namespace {

struct Seen {
  std::string key;
  std::uint32_t index;
  std::vector<TimeNs> times;
  std::vector<std::string> texts;
};

struct Harness {
  std::vector<Seen> windows;
  StreamTable table;
  explicit Harness(GroupingOptions options)
      : table(options, [this](OwnedWindow&& owned) {
          const StreamWindow window = owned.view();
          Seen seen{std::string(window.key), window.window_index, {}, {}};
          for (const Entry& entry : window.entries) {
            seen.times.push_back(entry.time);
            seen.texts.emplace_back(window.line_text(entry));
          }
          windows.push_back(std::move(seen));
        }) {}
  void add(std::string_view group, TimeNs time, std::string_view text, SourceId source = 0) {
    parse::Record record;
    record.group = group;
    record.time = time;
    table.add(record, text,
              LineLocation{source, static_cast<std::uint32_t>(source), static_cast<std::uint64_t>(time), 0});
  }
};

/// Each request's line times over all its windows, the carried line of a later window once.
std::map<std::string, std::vector<TimeNs>> lines_by_request(const std::vector<Seen>& windows) {
  std::map<std::string, std::vector<TimeNs>> by_key;
  for (const Seen& w : windows) {
    auto& times = by_key[w.key];
    for (TimeNs t : w.times) {
      if (times.empty() || times.back() != t) times.push_back(t);
    }
  }
  return by_key;
}

}  // namespace

TEST_CASE("Records are grouped by request id, unkeyed records by input", "[stream]") {
  Harness h(GroupingOptions{});
  h.add("a", 1, "a1");
  h.add("b", 2, "b1");
  h.add("a", 3, "a2");
  h.add("", 4, "x1", 7);
  h.add("", 5, "y1", 8);
  h.table.finish();
  REQUIRE(h.windows.size() == 4);
  CHECK(h.windows[0].key == "a");
  CHECK(h.windows[0].texts == std::vector<std::string>{"a1", "a2"});
  CHECK(h.windows[1].key == "b");
  CHECK(h.windows[2].key.empty());
  CHECK(h.windows[2].texts == std::vector<std::string>{"x1"});
  CHECK(h.table.stats().streams == 4);
}

TEST_CASE("Long streams are cut into windows that overlap by one record", "[stream]") {
  GroupingOptions options;
  options.window_records = 3;
  Harness h(options);
  for (TimeNs t = 1; t <= 7; ++t) h.add("r", t, "line");
  h.table.finish();
  REQUIRE(h.windows.size() == 3);
  CHECK(h.windows[0].times == std::vector<TimeNs>{1, 2, 3});
  CHECK(h.windows[1].times == std::vector<TimeNs>{3, 4, 5});
  CHECK(h.windows[2].times == std::vector<TimeNs>{5, 6, 7});
  CHECK(h.windows[2].index == 2);
}

TEST_CASE("Idle streams close and the memory budget flushes the least recently used", "[stream]") {
  GroupingOptions options;
  options.idle_timeout = 100;
  Harness h(options);
  h.add("old", 0, "o1");
  h.add("old", 10, "o2");
  h.add("new", 500, "n1");  // "old" has been idle for 490 > 100
  REQUIRE(h.windows.size() == 1);
  CHECK(h.windows[0].key == "old");
  CHECK(h.windows[0].times == std::vector<TimeNs>{0, 10});
  CHECK(h.table.stats().idle_closed == 1);
}

TEST_CASE("Above the memory budget finished streams are handed over and parked", "[stream]") {
  GroupingOptions options;
  options.max_buffered_bytes = 4096;
  options.spill = false;
  options.max_parked = 3;
  options.max_parked_in_flight = 3;  // the requests below have not ended by the pauses seen (too few)
  Harness h(options);
  const std::string line(100, 'x');
  const std::vector<std::string> keys = {"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"};
  for (TimeNs t = 0; t < 200; ++t) h.add(keys[static_cast<std::size_t>(t / 20)], t, line);  // 10 requests of 20 lines
  CHECK(h.table.stats().early_flushes > 0);
  CHECK(h.table.stats().peak_buffered_bytes <= 4096 + 4096);
  CHECK(h.table.stats().forgotten > 0);
  h.table.finish();
  // Every line is handed over exactly once, plus one carried line per extra window of a stream.
  const std::map<std::string, std::vector<TimeNs>> by_key = lines_by_request(h.windows);
  REQUIRE(by_key.size() == 10);
  for (const auto& [key, times] : by_key) CHECK(times.size() == 20);
}

TEST_CASE(
    "With more requests in flight than max_parked none is cut in two, and parked ones that have ended are forgotten",
    "[stream]") {
  GroupingOptions options;
  options.max_buffered_bytes = 16u << 10;  // a few dozen lines
  options.spill = false;
  options.max_parked = 8;
  Harness h(options);
  const std::string line(100, 'x');
  // 200 requests in flight, 20 lines each, a line of each every 1 000 ns: they are handed over
  // early, line by line, and parked between their lines, far more than max_parked at once.
  for (TimeNs k = 0; k < 20; ++k)
    for (TimeNs r = 0; r < 200; ++r) h.add("live" + std::to_string(r), k * 1000 + r, line);
  CHECK(h.table.stats().early_flushes > 0);
  CHECK(h.table.stats().forgotten == 0);
  // Then, a millisecond later, requests one after another: those 200 have ended (idle for far
  // longer than any pause inside a request), and go once more than max_parked are parked.
  for (TimeNs q = 0; q < 50; ++q)
    for (TimeNs k = 0; k < 30; ++k) h.add("later" + std::to_string(q), 1'000'000 + (q * 30 + k) * 1000, line);
  CHECK(h.table.stats().forgotten >= 190);
  h.table.finish();
  // Each request is one stream: one first window, and its lines all there (a later window
  // begins with the line the one before ended with).
  std::map<std::string, int> first_windows;
  for (const Seen& w : h.windows)
    if (w.index == 0) ++first_windows[w.key];
  const std::map<std::string, std::vector<TimeNs>> by_key = lines_by_request(h.windows);
  REQUIRE(by_key.size() == 250);
  for (const auto& [key, times] : by_key) {
    INFO(key);
    CHECK(first_windows[key] == 1);
    CHECK(times.size() == (key.starts_with("live") ? 20u : 30u));
  }
}

namespace {

/// 300 requests of 40 lines each, 100 in flight at a time, lines of 150-250 bytes.
void interleaved_requests(Harness& h) {
  for (int wave = 0; wave < 3; ++wave) {
    for (int line = 0; line < 40; ++line) {
      for (int r = 0; r < 100; ++r) {
        std::string key = "req";
        key += std::to_string(wave * 100 + r);
        const TimeNs t = (wave * 40 + line) * 1000 + r;
        std::string text = key;
        text.append(" line ").append(std::to_string(line)).append(150 + static_cast<std::size_t>(r), 'x');
        h.add(key, t, text);
      }
    }
  }
  h.table.finish();
}

}  // namespace

TEST_CASE("Above the memory budget line text goes to a temporary file and requests stay whole", "[stream][spill]") {
  GroupingOptions roomy;
  roomy.max_buffered_bytes = std::size_t{1} << 30;
  Harness whole(roomy);
  interleaved_requests(whole);
  CHECK(whole.table.stats().spills == 0);

  GroupingOptions tight;
  // The text of 100 requests in flight is ~800 KiB, their entries ~350 KiB (56 bytes each, with
  // vectors' spare capacity): only text goes out.
  tight.max_buffered_bytes = 640u << 10;
  Harness spilled(tight);
  interleaved_requests(spilled);
  const GroupingStats& stats = spilled.table.stats();
  CHECK(stats.spills > 0);
  CHECK(stats.spilled_bytes > (1u << 20));
  CHECK(stats.peak_buffered_bytes <= tight.max_buffered_bytes + 16384);  // one line over, its buffers grown
  CHECK(stats.spill_error.empty());
  // Ended requests may be handed over before the end (least recently used first), but each
  // request is one window with the same lines, byte for byte.
  std::map<std::string, const Seen*> by_key;
  for (const Seen& w : whole.windows) by_key[w.key] = &w;
  REQUIRE(spilled.windows.size() == whole.windows.size());
  for (const Seen& w : spilled.windows) {
    REQUIRE(by_key.count(w.key) == 1);
    CHECK(w.index == 0);
    CHECK(w.times == by_key[w.key]->times);
    CHECK(w.texts == by_key[w.key]->texts);
  }
}

TEST_CASE("A snapshot of open streams shows their spilled text too", "[stream][spill]") {
  GroupingOptions tight;
  tight.max_buffered_bytes = 128u << 10;  // text ~240 KiB, entries ~60 KiB
  Harness h(tight);
  for (int line = 0; line < 30; ++line) {
    for (int r = 0; r < 40; ++r) {
      std::string key = "r";
      key += std::to_string(r);
      h.add(key, line * 100 + r, std::string(200, static_cast<char>('a' + r % 26)));
    }
  }
  REQUIRE(h.table.stats().spills > 0);
  REQUIRE(h.table.stats().early_flushes == 0);
  std::size_t seen = 0;
  h.table.peek([&](const StreamWindow& window) {
    ++seen;
    REQUIRE(window.entries.size() == 30);
    const char expected = window.line_text(window.entries.back())[0];
    for (const Entry& entry : window.entries) CHECK(window.line_text(entry) == std::string(200, expected));
  });
  CHECK(seen == 40);
}

TEST_CASE("When no temporary file can be made, requests over the budget are handed over in pieces", "[stream][spill]") {
  GroupingOptions tight;
  tight.max_buffered_bytes = 256u << 10;
  tight.spill_directory = "/nonexistent/gapscan-spill-test";
  Harness h(tight);
  interleaved_requests(h);
  const GroupingStats& stats = h.table.stats();
  CHECK_THAT(stats.spill_error, Catch::Contains("/nonexistent/gapscan-spill-test"));
  CHECK(stats.early_flushes > 0);
  // Every line is still handed over exactly once (plus the carried line of each later window).
  const std::map<std::string, std::vector<TimeNs>> by_key = lines_by_request(h.windows);
  REQUIRE(by_key.size() == 300);
  for (const auto& [key, times] : by_key) CHECK(times.size() == 40);
}

TEST_CASE("Over the memory budget requests that have ended are handed over before any text is spilled",
          "[stream][spill]") {
  // 400 requests of 30 lines, 4 in flight, a line every 1 µs in each: once a thousand gaps
  // are known, a request idle for far longer than any pause inside one has ended.
  GroupingOptions tight;
  tight.max_buffered_bytes = 128u << 10;  // about three groups of four requests
  tight.max_parked = 32;  // a parked stream keeps its last line: few, to leave the budget to those in flight
  Harness h(tight);
  std::uint64_t text_bytes = 0;
  for (int group = 0; group < 100; ++group) {
    for (int line = 0; line < 30; ++line) {
      for (int r = 0; r < 4; ++r) {
        std::string key = "q";
        key += std::to_string(group * 4 + r);
        const std::string text(200, static_cast<char>('a' + r));
        text_bytes += text.size();
        h.add(key, (group * 30 + line) * 1000 + r, text);
      }
    }
  }
  h.table.finish();
  const GroupingStats& stats = h.table.stats();
  CHECK(stats.early_flushes > 0);
  CHECK(stats.spilled_bytes < text_bytes / 10);
  REQUIRE(h.windows.size() == 400);
  for (const Seen& w : h.windows) CHECK(w.times.size() == 30);
}
