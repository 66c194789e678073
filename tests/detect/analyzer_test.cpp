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
    entry.location = LineLocation{0, entries.size() + 1, 0};
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
  CHECK(top.samples.front().after.text == "set(k) then get(k)");
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
