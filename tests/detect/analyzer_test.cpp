#include <gapscan/detect/analyzer.hpp>

#include "../test_random.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace gapscan;
using namespace gapscan::detect;
using gapscan::testing::Random;

namespace {

/// Feeds one request: `background` log-normal gaps and `stalls` gaps of `stall_ns`.
void feed_request(Analyzer& analyzer, Random& random, std::string key, int background, int stalls, double stall_ns) {
  std::vector<stream::Entry> entries;
  std::string text;
  TimeNs t = 1'700'000'000'000'000'000;
  auto add = [&](std::string line) {
    stream::Entry entry;
    entry.time = t;
    entry.time_digits = 6;
    entry.location = LineLocation{0, 0, entries.size() + 1, 0};
    entry.text_offset = static_cast<std::uint32_t>(text.size());
    entry.text_length = static_cast<std::uint32_t>(line.size());
    text += line;
    entries.push_back(entry);
  };
  add("start " + key);
  const int total = background + stalls;
  const int every = stalls > 0 ? total / stalls : total + 1;
  for (int i = 0; i < total; ++i) {
    const bool stall = stalls > 0 && i % every == every - 1 && i / every < stalls;
    const double gap = stall ? stall_ns * (1 + 0.0005 * random.normal()) : random.lognormal(2e6, 1.2);
    t += static_cast<TimeNs>(gap / 1000) * 1000 + 1000;
    add(stall ? "set(k) then get(k)" : "work");
  }
  static std::uint64_t next_stream = 0;
  stream::StreamWindow window;
  window.key = key;
  window.stream_id = next_stream++;
  window.entries = entries;
  window.text = text;
  analyzer.add(window);
}

}  // namespace

TEST_CASE("A per-op stall shared by many requests becomes one finding", "[detect][analyzer]") {
  Analyzer analyzer;
  Random random(42);
  for (int r = 0; r < 30; ++r) feed_request(analyzer, random, "req" + std::to_string(r), 40, 10, 50e6);
  const DetectionResult result = analyzer.finish();
  CHECK(result.summary.windows == 30);
  CHECK(result.summary.pooled_test_run);
  REQUIRE_FALSE(result.findings.empty());
  const Finding& top = result.findings.front();
  CHECK(top.centre_ns == Approx(50e6).epsilon(0.002));
  CHECK(top.requests >= 25);
  CHECK(top.gaps >= 270);
  CHECK(top.shape == Shape::per_op);
  CHECK(top.wall_share > 0.5);
  CHECK(top.wall_share < 1.0);
  CHECK(top.log10_p < -20);
  REQUIRE_FALSE(top.samples.empty());
  CHECK(top.samples.front().after.text() == "set(k) then get(k)");
}

TEST_CASE("Healthy requests give no finding", "[detect][analyzer]") {
  Analyzer analyzer;
  Random random(43);
  for (int r = 0; r < 30; ++r) feed_request(analyzer, random, "req" + std::to_string(r), 50, 0, 0);
  const DetectionResult result = analyzer.finish();
  for (const Finding& finding : result.findings) {
    INFO(finding.centre_ns << " " << finding.log10_p);
    CHECK(finding.log10_p > -6);  // at most a weak, unexplained mode; nothing strong
  }
}

TEST_CASE("A one-off gap repeated across requests is found by the pooled test", "[detect][analyzer]") {
  Analyzer analyzer;
  Random random(44);
  for (int r = 0; r < 12; ++r) feed_request(analyzer, random, "req" + std::to_string(r), 30, 1, 5.0012e9);
  const DetectionResult result = analyzer.finish();
  REQUIRE_FALSE(result.findings.empty());
  const Finding& top = result.findings.front();
  CHECK(top.centre_ns == Approx(5.0012e9).epsilon(0.002));
  CHECK(top.shape == Shape::one_off);
  CHECK(top.log10_p_pooled < -10);
  CHECK(top.requests == 12);
}

namespace {

/// Feeds one whole-input stream (no request id) with the given gaps and stamps cut to
/// `resolution` ns.
void feed_input(Analyzer& analyzer, const std::vector<double>& gaps, TimeNs resolution, int digits) {
  std::vector<stream::Entry> entries;
  std::string text;
  double t = 1.7e18;
  auto add = [&] {
    stream::Entry entry;
    entry.time = static_cast<TimeNs>(t) / resolution * resolution;
    entry.time_digits = static_cast<std::uint8_t>(digits);
    entry.location = LineLocation{0, 0, entries.size() + 1, 0};
    entry.text_offset = static_cast<std::uint32_t>(text.size());
    const std::string line = "polling job queue";
    entry.text_length = static_cast<std::uint32_t>(line.size());
    text += line;
    entries.push_back(entry);
  };
  add();
  for (double gap : gaps) {
    t += gap;
    add();
  }
  stream::StreamWindow window;
  window.stream_id = 900;
  window.entries = entries;
  window.text = text;
  analyzer.add(window);
}

}  // namespace

TEST_CASE("Modes on several multiples of one base become one QUANTISED finding", "[detect][analyzer]") {
  // A poller that sleeps 100 ms and works ~1 ms: gaps of 1-4 periods.
  Random random(44);
  std::vector<double> gaps;
  for (int i = 0; i < 400; ++i) {
    const double u = random.uniform();
    const int k = u < 0.45 ? 1 : u < 0.75 ? 2 : u < 0.9 ? 3 : 4;
    gaps.push_back(k * 101.1e6 + random.uniform() * 0.3e6);
  }
  Analyzer analyzer;
  feed_input(analyzer, gaps, 1000, 6);
  const DetectionResult result = analyzer.finish();
  REQUIRE(result.quantisation);
  CHECK(result.quantisation->base_ns == Approx(101.1e6).epsilon(0.01));
  std::size_t lattice_findings = 0;
  for (const Finding& finding : result.findings) {
    INFO(finding.centre_ns << " " << to_string(finding.shape));
    if (!finding.lattice) {
      // Nothing else near the lattice's multiples survives as a finding of its own.
      const double position = finding.centre_ns / 101.1e6;
      CHECK(std::abs(position - std::round(position)) > 0.05);
      continue;
    }
    ++lattice_findings;
    CHECK(finding.shape == Shape::quantised);
    CHECK(finding.centre_ns == Approx(101.1e6).epsilon(0.01));
    CHECK(finding.lattice->modes.size() >= 3);
    CHECK(finding.lattice->occupied >= 3);
  }
  CHECK(lattice_findings == 1);
}

TEST_CASE("A single value repeated is a mode, not a lattice", "[detect][analyzer]") {
  Random random(45);
  std::vector<double> gaps;
  for (int i = 0; i < 300; ++i)
    gaps.push_back(i % 3 == 0 ? 44e6 + random.uniform() * 0.2e6 : random.lognormal(1e6, 1.0));
  Analyzer analyzer;
  feed_input(analyzer, gaps, 1000, 6);
  const DetectionResult result = analyzer.finish();
  REQUIRE_FALSE(result.findings.empty());
  for (const Finding& finding : result.findings) CHECK_FALSE(finding.lattice);
}

TEST_CASE("Stamps cut to the second do not keep a 1 s clock", "[detect][analyzer][periodicity]") {
  // Irregular lines (a few per second) written with whole-second stamps: every stall ends on
  // a whole second, which is the logger's resolution, not a period.
  Random random(46);
  std::vector<double> gaps;
  for (int i = 0; i < 600; ++i) gaps.push_back(random.lognormal(700e6, 0.8));
  Analyzer analyzer;
  feed_input(analyzer, gaps, 1'000'000'000, 0);
  const DetectionResult result = analyzer.finish();
  for (const Finding& finding : result.findings) {
    INFO(finding.centre_ns << " " << to_string(finding.shape));
    CHECK(finding.shape != Shape::periodic);
  }
}

TEST_CASE("A poller's loop among request lines is a renewal finding", "[detect][analyzer][renewal]") {
  // A 100 ms poll loop whose work takes 0-15 ms (no clock, no tight gap mode), among three
  // times as many request lines.
  Random random(47);
  std::vector<double> times;
  for (double t = 0; t < 120e9; t += 100e6 + random.uniform() * 15e6) times.push_back(t);
  for (double t = 0; t < 120e9;) {
    t += -std::log(1 - random.uniform()) / 27 * 1e9;
    times.push_back(t);
  }
  std::sort(times.begin(), times.end());
  std::vector<double> gaps;
  for (std::size_t i = 1; i < times.size(); ++i) gaps.push_back(std::max(1000.0, times[i] - times[i - 1]));
  Analyzer analyzer;
  feed_input(analyzer, gaps, 1000, 6);
  const DetectionResult result = analyzer.finish();
  const Finding* renewal = nullptr;
  for (const Finding& finding : result.findings) {
    INFO(finding.centre_ns << " " << to_string(finding.shape));
    if (finding.periodic && finding.periodic->renewal) renewal = &finding;
  }
  REQUIRE(renewal != nullptr);
  CHECK(renewal->centre_ns == Approx(107.5e6).epsilon(0.03));
  CHECK(renewal->requests == 1);
  REQUIRE_FALSE(result.streams.empty());
  REQUIRE(result.streams.front().renewal.has_value());
  CHECK(result.streams.front().renewal->periodic_fraction > 0.1);
}

TEST_CASE("A long stream carries its own lattice and clock", "[detect][analyzer]") {
  // 600 lines of a poller that sleeps 101.1 ms (1-4 periods between lines): the pooled tests
  // find the lattice and the clock, and so does the stream's own entry.
  Random random(48);
  std::vector<double> gaps;
  for (int i = 0; i < 600; ++i) {
    const double u = random.uniform();
    gaps.push_back((u < 0.5 ? 1 : u < 0.8 ? 2 : 3) * 101.1e6 + random.uniform() * 0.2e6);
  }
  Analyzer analyzer;
  feed_input(analyzer, gaps, 1000, 6);
  const DetectionResult result = analyzer.finish();
  REQUIRE_FALSE(result.streams.empty());
  const StreamDetections& stream = result.streams.front();
  REQUIRE(stream.quantisation.has_value());
  CHECK(stream.quantisation->base_ns == Approx(101.1e6).epsilon(0.01));
  REQUIRE_FALSE(stream.periodicity.empty());
  CHECK(stream.periodicity.front().period_ns == Approx(101.1e6).epsilon(0.01));
}

TEST_CASE("A lone long gap is a stream's stall, ordinary tails are not", "[detect][analyzer]") {
  Random random(49);
  {
    std::vector<double> gaps;
    for (int i = 0; i < 200; ++i) gaps.push_back(random.lognormal(2e6, 0.8));
    gaps[120] = 900e6;  // one 900 ms stall among ~2 ms gaps
    Analyzer analyzer;
    feed_input(analyzer, gaps, 1000, 6);
    const DetectionResult result = analyzer.finish();
    REQUIRE_FALSE(result.streams.empty());
    REQUIRE_FALSE(result.streams.front().stalls.empty());
    const StreamStall& stall = result.streams.front().stalls.front();
    CHECK(stall.gap_ns == Approx(900e6).epsilon(0.001));
    CHECK(stall.log10_p < -3);
    CHECK(stall.median_ratio > 100);
  }
  int flagged = 0;
  for (int run = 0; run < 300; ++run) {
    std::vector<double> gaps;
    for (int i = 0; i < 100; ++i) {
      // Log-normal, or a log-normal body with a smooth Pareto (Lomax) tail.
      const bool tail = run % 2 == 1 && random.uniform() < 0.1;
      gaps.push_back(tail ? 5e6 * (std::pow(std::max(random.uniform(), 1e-12), -1 / 1.2) - 1) + 1000
                          : random.lognormal(2e6, 1.0));
    }
    Analyzer analyzer;
    feed_input(analyzer, gaps, 1000, 6);
    for (const StreamDetections& stream : analyzer.finish().streams) flagged += stream.stalls.empty() ? 0 : 1;
  }
  CHECK(flagged <= 9);  // 3 % of 300 at alpha = 0.01 (6 when this was written)
}

TEST_CASE("A busy log with stamps cut to the second has no 1 s gap mode and no 1 s run", "[detect][analyzer]") {
  // An access log: a dozen lines a second, written with whole-second stamps. Every positive gap
  // is one second or two, which says only that the lines were under three seconds apart.
  Random random(47);
  std::vector<double> gaps;
  for (int i = 0; i < 3000; ++i) gaps.push_back(random.lognormal(80e6, 1.0));
  Analyzer analyzer;
  feed_input(analyzer, gaps, 1'000'000'000, 0);
  const DetectionResult result = analyzer.finish();
  for (const Finding& finding : result.findings) {
    INFO(finding.centre_ns << " " << to_string(finding.shape));
    CHECK(finding.centre_ns >= 2.5e9);
  }
  for (const RunFinding& run : result.runs) {
    INFO(run.centre_ns);
    CHECK(run.centre_ns >= 2.5e9);
  }
}
