#include <gapscan/detect/triggers.hpp>

#include "../test_random.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace gapscan;
using namespace gapscan::detect;
using gapscan::testing::Random;

namespace {

constexpr TimeNs k_start = 1'700'000'000'000'000'000;
constexpr TimeNs k_ms = 1'000'000;

struct Line {
  TimeNs time;
  std::string text;
};

/// Hands one stream's lines to the aligner as a single window.
void feed(TriggerAligner& aligner, const std::string& key, std::uint64_t stream_id, const std::vector<Line>& lines,
          SourceId input = 0) {
  std::vector<stream::Entry> entries;
  std::string text;
  for (const Line& line : lines) {
    stream::Entry entry;
    entry.time = line.time;
    entry.time_digits = 6;
    entry.location = LineLocation{input, static_cast<std::uint32_t>(input), entries.size() + 1, 0};
    entry.text_offset = static_cast<std::uint32_t>(text.size());
    entry.text_length = static_cast<std::uint32_t>(line.text.size());
    text += line.text;
    entries.push_back(entry);
  }
  stream::StreamWindow window;
  window.key = key;
  window.input = input;
  window.stream_id = stream_id;
  window.entries = entries;
  window.text = text;
  const stats::GapSeries series = stats::build_gap_series(window);
  aligner.add(window, series);
}

/// A client worker: a call every 3-7 ms for `seconds`; at each of `stalls` it waits `stall_ms`.
std::vector<Line> worker(Random& random, double seconds, const std::vector<TimeNs>& stalls, double stall_ms) {
  std::vector<Line> lines;
  TimeNs t = k_start + static_cast<TimeNs>(random.uniform() * 5e6);
  const TimeNs end = k_start + static_cast<TimeNs>(seconds * 1e9);
  while (t < end) {
    lines.push_back({t, "GET key"});
    TimeNs next = t + static_cast<TimeNs>((3 + 4 * random.uniform()) * 1e6);
    for (TimeNs stall : stalls) {
      if (t < stall && stall <= next)
        next = stall + static_cast<TimeNs>(stall_ms * 1e6 * (0.9 + 0.2 * random.uniform()));
    }
    t = next;
  }
  return lines;
}

std::vector<TimeNs> moments(Random& random, int count, double seconds) {
  std::vector<TimeNs> out;
  for (int i = 0; i < count; ++i)
    out.push_back(k_start + static_cast<TimeNs>((2 + (seconds - 4) * random.uniform()) * 1e9));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Line> server_log(const std::vector<TimeNs>& forks, double seconds) {
  std::vector<Line> lines{{k_start, "Server initialized"}};
  // The parent logs the line right after fork() returns, i.e. at the end of the stall.
  for (TimeNs fork : forks) lines.push_back({fork + 100 * k_ms, "Background saving started by pid 4242"});
  lines.push_back({k_start + static_cast<TimeNs>(seconds * 1e9), "Received SIGTERM"});
  return lines;
}

std::string worker_key(int w) {
  std::string key = "w";
  key += std::to_string(w);
  return key;
}

TriggerAligner make_aligner(TriggerOptions options = {}) {
  return TriggerAligner({{"fork_page_table_copy", "Background saving started by pid", "a fork"}}, options);
}

}  // namespace

TEST_CASE("Stalls of every worker around each fork line are found", "[detect][triggers]") {
  Random random(11);
  const double seconds = 60;
  const std::vector<TimeNs> forks = moments(random, 8, seconds);
  TriggerAligner aligner = make_aligner();
  for (int w = 0; w < 4; ++w)
    feed(aligner, worker_key(w), 10 + static_cast<std::uint64_t>(w), worker(random, seconds, forks, 100));
  feed(aligner, "", 1, server_log(forks, seconds), 1);
  const auto found = aligner.finish();
  REQUIRE(found.size() == 1);
  CHECK(found[0].occurrences == 8);
  CHECK(found[0].aligned >= 7);
  CHECK(found[0].streams_stalled == 4);
  CHECK(found[0].log10_p < -8);
  REQUIRE_FALSE(found[0].examples.empty());
  const TriggerOccurrence& example = found[0].examples.front();
  CHECK(example.active == 4);  // the server's own stream is not counted
  CHECK(example.stalled == 4);
  for (const AlignedStall& stall : example.stalls) {
    CHECK(stall.gap > 80 * k_ms);
    CHECK(stall.start < example.time);  // the stall began before the line was written
  }
  std::vector<double> centre = found[0].stall_ns;
  std::sort(centre.begin(), centre.end());
  CHECK(centre[centre.size() / 2] == Approx(100e6).epsilon(0.1));
}

TEST_CASE("Stalls at other moments than the fork lines are not blamed on them", "[detect][triggers]") {
  int false_alarms = 0;
  for (int run = 0; run < 20; ++run) {
    Random random(100 + static_cast<std::uint64_t>(run));
    const double seconds = 60;
    const std::vector<TimeNs> forks = moments(random, 8, seconds);
    const std::vector<TimeNs> stalls = moments(random, 8, seconds);  // the same stalls, elsewhere
    TriggerAligner aligner = make_aligner();
    for (int w = 0; w < 4; ++w)
      feed(aligner, worker_key(w), 10 + static_cast<std::uint64_t>(w), worker(random, seconds, stalls, 100));
    feed(aligner, "", 1, server_log(forks, seconds), 1);
    false_alarms += aligner.finish().empty() ? 0 : 1;
  }
  CHECK(false_alarms <= 1);
}

TEST_CASE("One worker stalling once around one fork line is not conclusive", "[detect][triggers]") {
  Random random(5);
  const double seconds = 10;
  const std::vector<TimeNs> forks{k_start + 5'000 * k_ms};
  TriggerAligner aligner = make_aligner();
  feed(aligner, "w0", 10, worker(random, seconds, forks, 100));
  feed(aligner, "", 1, server_log(forks, seconds), 1);
  // A random moment falls into that 100 ms stall 1 % of the time: p >= 0.01 before correction.
  CHECK(aligner.finish().empty());
}

TEST_CASE("The trigger's own sparse stream does not hide the stalls", "[detect][triggers]") {
  // The server writes a line every few seconds: its long gaps must not enter the reference.
  Random random(7);
  const double seconds = 60;
  const std::vector<TimeNs> forks = moments(random, 6, seconds);
  TriggerAligner aligner = make_aligner();
  feed(aligner, "w0", 10, worker(random, seconds, forks, 100));
  std::vector<Line> server = server_log(forks, seconds);
  for (int i = 1; i < 30; ++i) server.push_back({k_start + i * 2'000 * k_ms + 7 * k_ms, "DB saved on disk"});
  std::sort(server.begin(), server.end(), [](const Line& a, const Line& b) { return a.time < b.time; });
  feed(aligner, "", 1, server, 1);
  const auto found = aligner.finish();
  REQUIRE(found.size() == 1);
  INFO(found[0].aligned << " of " << found[0].occurrences << " occurrences aligned");
  CHECK(found[0].occurrences >= 4);  // forks within a second of each other count once
  CHECK(found[0].aligned == found[0].occurrences);
}

TEST_CASE("Trigger memory stays bounded: streams are subsampled by hash", "[detect][triggers]") {
  Random random(3);
  const double seconds = 60;
  const std::vector<TimeNs> forks = moments(random, 8, seconds);
  TriggerOptions options;
  options.max_windows = 16;
  options.max_stalls = 64;
  TriggerAligner aligner = make_aligner(options);
  for (int w = 0; w < 40; ++w)
    feed(aligner, worker_key(w), 10 + static_cast<std::uint64_t>(w), worker(random, seconds, forks, 100));
  feed(aligner, "", 1, server_log(forks, seconds), 1);
  const auto found = aligner.finish();
  REQUIRE(found.size() == 1);
  CHECK(found[0].streams_stalled < 40);  // only the kept streams are tested
  CHECK(found[0].streams_stalled >= 1);
  CHECK(found[0].log10_p < -4);
}

TEST_CASE("Patterns that never occur are not tested and cost no correction", "[detect][triggers]") {
  Random random(11);
  const double seconds = 60;
  const std::vector<TimeNs> forks = moments(random, 8, seconds);
  TriggerAligner one = make_aligner();
  TriggerAligner three({{"a", "Background saving started by pid", ""}, {"b", "never seen", ""}, {"c", "nor this", ""}},
                       TriggerOptions{});
  for (TriggerAligner* aligner : {&one, &three}) {
    Random local(21);
    for (int w = 0; w < 3; ++w)
      feed(*aligner, worker_key(w), 10 + static_cast<std::uint64_t>(w), worker(local, seconds, forks, 100));
    feed(*aligner, "", 1, server_log(forks, seconds), 1);
  }
  const auto a = one.finish();
  const auto b = three.finish();
  REQUIRE(a.size() == 1);
  REQUIRE(b.size() == 1);
  CHECK(a[0].log10_p == Approx(b[0].log10_p));
}

TEST_CASE("Trigger patterns: literals with folded case, and regular expressions", "[detect][triggers]") {
  Random random(11);
  const double seconds = 60;
  const std::vector<TimeNs> forks = moments(random, 8, seconds);
  const std::vector<std::string> patterns = {
      "(?i)background SAVING started by pid", R"(saving start(?:ed|ing) by pid \d+)",
      "Background saving started by pid|never written", "by pid 4242"};  // a literal whose rarest byte is a digit
  for (const std::string& pattern : patterns) {
    INFO(pattern);
    TriggerAligner aligner({{"", pattern, ""}}, TriggerOptions{});
    Random local(12);
    for (int w = 0; w < 4; ++w)
      feed(aligner, worker_key(w), 10 + static_cast<std::uint64_t>(w), worker(local, seconds, forks, 100));
    feed(aligner, "", 1, server_log(forks, seconds), 1);
    const auto found = aligner.finish();
    REQUIRE(found.size() == 1);
    CHECK(found[0].lines == 8);
  }
  // Case matters where the pattern says so.
  TriggerAligner strict({{"", "background saving started by pid", ""}}, TriggerOptions{});
  Random local(12);
  for (int w = 0; w < 4; ++w)
    feed(strict, worker_key(w), 10 + static_cast<std::uint64_t>(w), worker(local, seconds, forks, 100));
  feed(strict, "", 1, server_log(forks, seconds), 1);
  CHECK(strict.finish().empty());
}

TEST_CASE("A slow spell of seconds after each fork line is found with a long after window", "[detect][triggers]") {
  // Copy-on-write after a fork: every worker stalls for ~300 ms from ~40 ms after each line and
  // again every ~0.6 s for two seconds, and a save comes every ~15 s, so that a quarter of all
  // moments have a stall within 3 s after them; few have one beginning within 100 ms.
  Random random(31);
  const double seconds = 120;
  std::vector<TimeNs> forks;
  for (int k = 0; k < 7; ++k) forks.push_back(k_start + static_cast<TimeNs>((5 + 15.0 * k) * 1e9));
  std::vector<TimeNs> stalls;
  for (TimeNs fork : forks) {
    for (double at : {0.04, 0.6, 1.2, 1.8}) stalls.push_back(fork + 100 * k_ms + static_cast<TimeNs>(at * 1e9));
  }
  TriggerAligner aligner({{"thp_fork_cow_amplification", "Background saving started by pid", "a fork", 3e9}}, {});
  for (int w = 0; w < 4; ++w)
    feed(aligner, worker_key(w), 10 + static_cast<std::uint64_t>(w), worker(random, seconds, stalls, 300));
  feed(aligner, "", 1, server_log(forks, seconds), 1);
  const auto found = aligner.finish();
  REQUIRE(found.size() == 1);
  CHECK(found[0].occurrences == 7);
  CHECK(found[0].aligned >= 6);
  CHECK(found[0].log10_p < -6);
  // Found by the stalls that begin just after the lines, not by a window as long as the spells.
  CHECK(found[0].onset);
  CHECK(found[0].after_ns < 1e9);
}

TEST_CASE("With a long after window, spells at other moments are not blamed on the lines", "[detect][triggers]") {
  int false_alarms = 0;
  for (int run = 0; run < 20; ++run) {
    Random random(200 + static_cast<std::uint64_t>(run));
    const double seconds = 120;
    const std::vector<TimeNs> forks = moments(random, 7, seconds);
    std::vector<TimeNs> stalls;
    for (TimeNs spell : moments(random, 7, seconds)) {
      for (double at : {0.04, 0.6, 1.2}) stalls.push_back(spell + static_cast<TimeNs>(at * 1e9));
    }
    TriggerAligner aligner({{"thp_fork_cow_amplification", "Background saving started by pid", "a fork", 3e9}}, {});
    for (int w = 0; w < 4; ++w)
      feed(aligner, worker_key(w), 10 + static_cast<std::uint64_t>(w), worker(random, seconds, stalls, 300));
    feed(aligner, "", 1, server_log(forks, seconds), 1);
    false_alarms += aligner.finish().empty() ? 0 : 1;
  }
  CHECK(false_alarms <= 1);
}

TEST_CASE("Aligners of inputs analysed apart merge into the one of all, their stream ids shifted first",
          "[detect][triggers]") {
  // The clients' input (its streams 0-3) and the server's (its stream 0), each analysed on its own
  // as a scan does: merged with the server's ids shifted past the clients', the finding is the
  // one aligner fed both gives; unshifted, the server's stream 0 would be taken for client 0.
  Random random(23);
  const double seconds = 60;
  const std::vector<TimeNs> forks = moments(random, 8, seconds);
  std::vector<std::vector<Line>> workers;
  for (int w = 0; w < 4; ++w) workers.push_back(worker(random, seconds, forks, 100));
  const std::vector<Line> server = server_log(forks, seconds);

  TriggerAligner one = make_aligner();
  for (int w = 0; w < 4; ++w)
    feed(one, worker_key(w), static_cast<std::uint64_t>(w), workers[static_cast<std::size_t>(w)]);
  feed(one, "", 4, server, 1);
  const auto expected = one.finish();
  REQUIRE(expected.size() == 1);
  REQUIRE_FALSE(expected[0].examples.empty());
  CHECK(expected[0].examples.front().active == 4);

  const auto merged = [&](bool shift) {
    TriggerAligner clients = make_aligner();
    TriggerAligner servers = make_aligner();
    for (int w = 0; w < 4; ++w)
      feed(clients, worker_key(w), static_cast<std::uint64_t>(w), workers[static_cast<std::size_t>(w)]);
    feed(servers, "", 0, server, 1);
    if (shift) servers.shift_streams(4);
    clients.merge(std::move(servers));
    return clients.finish();
  };
  const auto shifted = merged(true);
  REQUIRE(shifted.size() == 1);
  CHECK(shifted[0].occurrences == expected[0].occurrences);
  CHECK(shifted[0].aligned == expected[0].aligned);
  CHECK(shifted[0].streams_stalled == expected[0].streams_stalled);
  CHECK(shifted[0].log10_p == expected[0].log10_p);
  REQUIRE_FALSE(shifted[0].examples.empty());
  CHECK(shifted[0].examples.front().active == expected[0].examples.front().active);
  CHECK(shifted[0].examples.front().stalled == expected[0].examples.front().stalled);

  const auto colliding = merged(false);
  REQUIRE_FALSE(colliding.empty());
  REQUIRE_FALSE(colliding[0].examples.empty());
  CHECK(colliding[0].examples.front().active < expected[0].examples.front().active);
}

TEST_CASE("Silences: a process stopped as a whole silences every running stream, one stream waiting alone does not",
          "[detect][triggers]") {
  Random random(23);
  const double seconds = 20;
  const std::vector<TimeNs> stops = moments(random, 12, seconds);
  const auto stalls_of = [](const std::vector<Line>& lines, std::uint64_t id) {
    std::vector<TriggerAligner::Interval> out;
    for (std::size_t i = 1; i < lines.size(); ++i) {
      if (lines[i].time - lines[i - 1].time > 40 * k_ms) out.push_back({lines[i - 1].time, lines[i].time, id});
    }
    return out;
  };
  SECTION("every worker stops at the same moments") {
    TriggerAligner aligner = make_aligner();
    std::vector<Line> first;
    for (int w = 0; w < 4; ++w) {
      std::vector<Line> lines = worker(random, seconds, stops, 60);
      if (w == 0) first = lines;
      feed(aligner, worker_key(w), 10 + static_cast<std::uint64_t>(w), lines);
    }
    const auto intervals = stalls_of(first, 10);
    REQUIRE(intervals.size() >= 10);
    const auto silences = aligner.silences(intervals);
    REQUIRE(silences.size() == intervals.size());
    for (const TriggerAligner::Silence& silence : silences) {
      CHECK(silence.active == 3);  // not the stream itself
      CHECK(silence.silent == 3);
    }
  }
  SECTION("one worker waits while the others go on") {
    TriggerAligner aligner = make_aligner();
    const std::vector<Line> waiting = worker(random, seconds, stops, 60);
    feed(aligner, worker_key(0), 10, waiting);
    for (int w = 1; w < 4; ++w)
      feed(aligner, worker_key(w), 10 + static_cast<std::uint64_t>(w), worker(random, seconds, {}, 0));
    const auto intervals = stalls_of(waiting, 10);
    REQUIRE(intervals.size() >= 10);
    for (const TriggerAligner::Silence& silence : aligner.silences(intervals)) {
      CHECK(silence.active == 3);
      CHECK(silence.silent == 0);
    }
  }
  SECTION("a stream that logs less often than the stall lasts says nothing") {
    TriggerAligner aligner = make_aligner();
    const std::vector<Line> waiting = worker(random, seconds, stops, 60);
    feed(aligner, worker_key(0), 10, waiting);
    std::vector<Line> slow;
    for (TimeNs t = k_start; t < k_start + static_cast<TimeNs>(seconds * 1e9); t += 500 * k_ms)
      slow.push_back({t, "tick"});
    feed(aligner, worker_key(1), 11, slow);
    for (const TriggerAligner::Silence& silence : aligner.silences(stalls_of(waiting, 10))) CHECK(silence.active == 0);
  }
}
