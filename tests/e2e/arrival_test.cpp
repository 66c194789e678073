// Stamps that are arrival times, through the real binary, in wordings and layouts gapscan was not
// tuned on: a block-buffered exporter read by journald (its lines stamped a buffer at a time),
// and a Node service whose request lines are written, and stamped, when the request ends. Each
// with its control: the same programs with stamps taken when each line is written.

#include "../test_random.hpp"
#include "run_binary.hpp"
#include "scan_json.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

using gapscan::testing::Random;
using gapscan::testing::scan_json;

namespace {

/// A time in µs after 2026-04-02 11:00 as `journalctl -o short-iso-precise` writes it.
std::string journal_stamp(std::int64_t micros) {
  const std::int64_t seconds = micros / 1'000'000;
  char out[64];
  std::snprintf(out, sizeof out, "2026-04-02T11:%02lld:%02lld.%06lld+00:00", static_cast<long long>(seconds / 60 % 60),
                static_cast<long long>(seconds % 60), static_cast<long long>(micros % 1'000'000));
  return out;
}

/// An exporter (`exporter[812]: task=… fetch took 41.2ms`) running 1 200 tasks of five lines, 3
/// tasks a second. With `buffered`, its stdout is a pipe to journald: the lines leave 4 KiB at a
/// time and journald stamps each buffer's lines as it reads them, ~6 µs apart.
void write_exporter_log(const std::string& path, bool buffered) {
  Random random(53);
  std::vector<std::pair<std::int64_t, std::string>> written;
  std::int64_t t = 0;
  for (int i = 0; i < 1200; ++i) {
    t += static_cast<std::int64_t>(-std::log(1.0 - random.uniform()) * 330'000);
    std::string task = "task=";
    task += std::to_string(52'000 + i);
    std::int64_t u = t;
    written.emplace_back(u, task + " begin source=s3://exports/daily");
    for (const char* step : {"fetch", "convert", "upload"}) {
      const auto took = 10'000 + static_cast<std::int64_t>(random.uniform() * 60'000);
      u += took;
      char text[128];
      std::snprintf(text, sizeof text, "%s %s took %.1fms", task.c_str(), step, static_cast<double>(took) / 1e3);
      written.emplace_back(u, text);
    }
    u += 300;
    written.emplace_back(u, task + " end status=ok");
  }
  std::sort(written.begin(), written.end());
  std::ofstream out(path);
  std::size_t buffered_bytes = 0;
  std::vector<std::string> pending;
  for (const auto& [when, text] : written) {
    if (!buffered) {
      out << journal_stamp(when + 40) << " batch1 exporter[812]: " << text << "\n";
      continue;
    }
    pending.push_back(text);
    buffered_bytes += text.size() + 1;
    if (buffered_bytes < 4096) continue;
    for (std::size_t k = 0; k < pending.size(); ++k)
      out << journal_stamp(when + 40 + static_cast<std::int64_t>(k) * 6) << " batch1 exporter[812]: " << pending[k]
          << "\n";
    pending.clear();
    buffered_bytes = 0;
  }
}

/// A JSON line's fields after its time: level, msg, req_id and one more field.
std::string field_line(const char* msg, const std::string& id, const char* more) {
  std::string text = R"("level":"info","msg":")";
  text += msg;
  text += R"(","req_id":")";
  text += id;
  text += "\",";
  text += more;
  return text;
}

/// A Node service logging JSON lines (`{"time":…,"msg":"db query done","req_id":…,
/// "duration_ms":39.5}`), 400 requests of four lines. With `at_end`, a request's lines are kept
/// and written (and stamped) together when it completes: each line is stamped microseconds
/// after the request's first, though it says its query took 15-60 ms.
void write_cart_log(const std::string& path, bool at_end) {
  Random random(59);
  std::vector<std::pair<std::int64_t, std::string>> lines;
  std::int64_t t = 0;
  for (int i = 0; i < 400; ++i) {
    t += static_cast<std::int64_t>(-std::log(1.0 - random.uniform()) * 250'000);
    std::string id = "c";
    id += std::to_string(71'000 + i);
    std::vector<std::pair<std::int64_t, std::string>> request;
    std::int64_t u = t;
    request.emplace_back(u, field_line("incoming request", id, R"("url":"/cart")"));
    for (const char* step : {"db query done", "pricing call done"}) {
      const auto took = 15'000 + static_cast<std::int64_t>(random.uniform() * 45'000);
      u += took;
      char text[160];
      std::snprintf(text, sizeof text, R"("level":"info","msg":"%s","req_id":"%s","duration_ms":%.1f)", step,
                    id.c_str(), static_cast<double>(took) / 1e3);
      request.emplace_back(u, text);
    }
    u += 400 + static_cast<std::int64_t>(random.uniform() * 400);
    request.emplace_back(u, field_line("request completed", id, R"("status":200)"));
    for (std::size_t k = 0; k < request.size(); ++k) {
      if (at_end) request[k].first = u + static_cast<std::int64_t>(k) * 4;
      lines.push_back(request[k]);
    }
  }
  std::sort(lines.begin(), lines.end());
  std::ofstream out(path);
  for (const auto& [when, text] : lines) {
    const std::string stamp = journal_stamp(when);
    out << R"({"time":")" << stamp.substr(0, 26) << R"(Z",)" << text << "}\n";
  }
}

/// A control's stamps are when its lines were written: no finding says otherwise.
void check_written_stamps(const nlohmann::json& control) {
  for (const auto& f : control["findings"]) {
    INFO(f.dump(2).substr(0, 1500));
    CHECK(f["arrival"].is_null());
    CHECK(f["cause"] != "log_pipeline_artifacts");
  }
}

}  // namespace

TEST_CASE("Arrival stamps: lines that come a buffer at a time are named first, and their gaps set aside",
          "[e2e][arrival]") {
  const std::string faulty = "gapscan_e2e_arrival_buffered.log", healthy = "gapscan_e2e_arrival_lines.log";
  write_exporter_log(faulty, true);
  write_exporter_log(healthy, false);
  const auto report = scan_json(faulty);
  const auto control = scan_json(healthy);
  std::remove(faulty.c_str());
  std::remove(healthy.c_str());

  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  INFO(top.dump(2).substr(0, 3000));
  CHECK(top["cause"] == "log_pipeline_artifacts");
  CHECK(top["confidence"].get<double>() >= 0.6);
  REQUIRE(top["arrival"].is_object());
  CHECK(top["arrival"]["bursts"] == true);
  CHECK(top["arrival"]["burst_count"].get<int>() >= 20);
  CHECK(top["arrival"]["median_burst_lines"].get<double>() >= 30);
  CHECK(top["arrival"]["burst_lines"].get<double>() >= 0.8 * top["arrival"]["lines"].get<double>());
  // The silences are how long a 4 KiB buffer took to fill (~90 lines at ~15 a second).
  CHECK(top["interval_ms"].get<double>() > 2'000);
  CHECK(top["interval_ms"].get<double>() < 12'000);
  for (std::size_t k = 1; k < report["findings"].size(); ++k) CHECK(report["findings"][k]["arrival"].is_null());

  check_written_stamps(control);
}

TEST_CASE("Arrival stamps: request lines stamped sooner than the durations they log are not write times",
          "[e2e][arrival]") {
  const std::string faulty = "gapscan_e2e_arrival_at_end.log", healthy = "gapscan_e2e_arrival_as_written.log";
  write_cart_log(faulty, true);
  write_cart_log(healthy, false);
  const auto report = scan_json(faulty);
  const auto control = scan_json(healthy);
  std::remove(faulty.c_str());
  std::remove(healthy.c_str());

  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  INFO(top.dump(2).substr(0, 3000));
  CHECK(top["cause"] == "log_pipeline_artifacts");
  CHECK(top["confidence"].get<double>() >= 0.6);
  REQUIRE(top["arrival"].is_object());
  CHECK(top["arrival"]["bursts"] == false);  // four lines a request: no buffer's burst
  CHECK(top["arrival"]["timed"].get<int>() == 800);
  CHECK(top["arrival"]["early"].get<int>() >= 760);

  check_written_stamps(control);
}
