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
  options.max_parked = 3;
  Harness h(options);
  const std::string line(100, 'x');
  const std::vector<std::string> keys = {"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"};
  for (TimeNs t = 0; t < 200; ++t) h.add(keys[static_cast<std::size_t>(t / 20)], t, line);  // 10 requests of 20 lines
  CHECK(h.table.stats().early_flushes > 0);
  CHECK(h.table.stats().peak_buffered_bytes <= 4096 + 4096);
  CHECK(h.table.stats().forgotten > 0);
  h.table.finish();
  // Every line is handed over exactly once, plus one carried line per extra window of a stream.
  std::map<std::string, std::vector<TimeNs>> by_key;
  for (const Seen& w : h.windows) {
    auto& times = by_key[w.key];
    for (TimeNs t : w.times) {
      if (times.empty() || times.back() != t) times.push_back(t);
    }
  }
  REQUIRE(by_key.size() == 10);
  for (const auto& [key, times] : by_key) CHECK(times.size() == 20);
}
