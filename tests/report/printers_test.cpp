#include <gapscan/report/printers.hpp>
#include <gapscan/report/units.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace gapscan::report;

namespace {

Report sample_report(bool likely) {
  Report report;
  report.tool_version = "0.1.0";
  Finding f;
  f.rank = 1;
  f.cause = likely ? "nagle_delack_noreply_pipeline" : "unknown";
  f.title = "Nagle";
  f.confidence = likely ? 0.92 : 0.3;
  f.likely = likely;
  f.interval_ms = 42.8;
  f.interval_lo_ms = 40.8;
  f.interval_hi_ms = 44.2;
  f.gaps = 589;
  f.requests = 40;
  f.wall_share = 0.843;
  f.shape = "PER-OP";
  f.log10_p = -400;
  f.implies = "the host runs CONFIG_HZ=250";
  f.examples.push_back(GapExample{"r1", 42.8, {{"a.log:1", "set(k)"}, {"a.log:2", "get(k)"}}, {"a.log:3", "result"}});
  report.findings.push_back(f);
  report.lines.lines = 10;
  report.lines.records = 8;
  report.lines.unparsed = 2;
  report.lines.unparsed_examples.push_back({"a.log:9", "???", "matches no known format"});
  report.inputs.push_back({"a.log", "mediawiki-line", "plain", 10, 100, "", "", ""});
  report.catalog_origin = "built-in";
  return report;
}

}  // namespace

TEST_CASE("JSON report: versioned, findings ranked with the documented fields", "[report][json]") {
  const auto json = nlohmann::json::parse(render_json(sample_report(true)));
  CHECK(json["version"] == 1);
  REQUIRE(json["findings"].size() == 1);
  const auto& f = json["findings"][0];
  CHECK(f["rank"] == 1);
  CHECK(f["cause"] == "nagle_delack_noreply_pipeline");
  CHECK(f["confidence"] == 0.92);
  CHECK(f["interval_ms"] == 42.8);
  CHECK(f["gaps"] == 589);
  CHECK(f["requests"] == 40);
  CHECK(f["wall_share"] == 0.843);
  CHECK(f["examples"][0]["before"][1]["where"] == "a.log:2");
  CHECK(json["lines"]["unparsed_examples"][0]["where"] == "a.log:9");
  CHECK(json["inputs"][0]["error"].is_null());
}

TEST_CASE("Text report: the suspect with its evidence, or a plain 'nothing characteristic'", "[report][text]") {
  const std::string likely = render_text(sample_report(true));
  CHECK(likely.find("Profile\n") == 0);  // the profile table first, then the suspects in full
  CHECK(likely.find("Suspected causes, most likely first (1 likely)") != std::string::npos);
  CHECK(likely.find("42.8 ms (80 % of gaps in 40.8 ms–44.2 ms)") != std::string::npos);
  CHECK(likely.find("589 gaps in 40 requests (PER-OP); 84.3 % of those requests' wall time") != std::string::npos);
  CHECK(likely.find("Implies    the host runs CONFIG_HZ=250") != std::string::npos);
  CHECK(likely.find("a.log:2  get(k)") != std::string::npos);
  CHECK(likely.find("p < 1e-300") == std::string::npos);  // no per-request or pooled p set
  CHECK(likely.find("unparsed a.log:9: matches no known format — ???") != std::string::npos);

  const std::string nothing = render_text(sample_report(false));
  CHECK(nothing.find("No characteristic delay found: no suspected cause reaches confidence 0.6.") == 0);
  CHECK(nothing.find("Other significant gap modes") != std::string::npos);
}

TEST_CASE("The gap histogram is drawn on a log axis with the suspect's interval marked", "[report][histogram]") {
  std::vector<std::uint64_t> counts(124, 0);
  counts[40] = 10;  // 2^(40/4) µs = 1.024 ms
  counts[41] = 100;
  counts[62] = 1000;  // 2^(62/4) µs ≈ 46 ms
  const auto lines = histogram_lines(counts, 44, 50, 60);
  REQUIRE(lines.size() == 3);
  // 23 bins (40..62), one column each; the tallest bar is the mode, an empty bin is a blank.
  CHECK(lines[0].substr(lines[0].size() - 3) == "█");
  CHECK(lines[0].find(' ') != std::string::npos);
  CHECK(lines[1] == std::string(21, ' ') + "^^");  // 39.0–46.3 ms and 46.3–55.1 ms overlap 44–50 ms
  CHECK(lines[2].find("1.02 ms") == 0);
  CHECK(lines[2].find("55.1 ms") != std::string::npos);
  // The catalog window (52–60 ms) marked with = where the interval is not, and kept in view.
  const auto windowed = histogram_lines(counts, 44, 50, 60, 52, 60);
  REQUIRE(windowed.size() == 3);
  CHECK(windowed[1] == std::string(21, ' ') + "^^=");  // 55.1–65.5 ms overlaps only the window
  CHECK(windowed[2].find("65.5 ms") != std::string::npos);
  // Wider than the width: bins merge into columns.
  std::vector<std::uint64_t> wide(124, 1);
  CHECK(histogram_lines(wide, 0, 0, 30)[1].empty());  // nothing marked
  CHECK(histogram_lines(std::vector<std::uint64_t>(124, 0), 1, 2, 60).empty());
}
