// Clocks through the real binary, in loggers and wordings of other programs than those gapscan
// was tuned on: a clock whose stalls silence every running stream at once (a worker pool in a
// cgroup throttled on a period set by hand) against one loop sleeping while the rest goes on, and
// requests run one after another whose stall ends only keep the worker's pace. Each with its
// control.

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
#include <vector>

using gapscan::testing::Random;
using gapscan::testing::scan_json;

namespace {

/// "2026-04-02 11:MM:SS,mmm" (log4j's default ISO8601 with a comma) for a time in µs since 11:00.
std::string log4j_stamp(std::int64_t micros) {
  const std::int64_t seconds = micros / 1'000'000;
  char out[64];
  std::snprintf(out, sizeof out, "2026-04-02 11:%02lld:%02lld,%06lld", static_cast<long long>(seconds / 60),
                static_cast<long long>(seconds % 60), static_cast<long long>(micros % 1'000'000));
  return out;
}

/// A Rust service logging with `tracing` (`2026-04-02T11:00:00.123456Z DEBUG thumbnailer: …`),
/// three pool threads resizing images for jobs of 30 tiles, each tile ~1.4 ms of CPU. With
/// `quota`, the cgroup may run 12 ms per 20 ms period (cpu.max "12000 20000"): the three threads
/// burn it in ~4 ms of wall time, then all three are silent until the next 20 ms boundary.
void write_pool_log(const std::string& path, bool quota) {
  Random random(41);
  std::ofstream out(path);
  struct Worker {
    std::int64_t t = 0;
    int job = 0, tile = 0;
  };
  std::vector<Worker> workers(3);
  int next_job = 7001;
  for (std::size_t w = 0; w < workers.size(); ++w) {
    workers[w].t = static_cast<std::int64_t>(w) * 300 + static_cast<std::int64_t>(random.uniform() * 900);
    workers[w].tile = static_cast<int>(w) * 7;  // the pool did not start all jobs at once
    workers[w].job = next_job++;
  }
  std::vector<std::pair<std::int64_t, std::string>> lines;
  const std::int64_t period = 20'000, burst = 4'000, end = 6'000'000;
  for (Worker& w : workers) {
    while (w.t < end) {
      if (quota && w.t % period >= burst)
        w.t += period - w.t % period + static_cast<std::int64_t>(random.uniform() * 300);
      w.t += 1'200 + static_cast<std::int64_t>(random.uniform() * 400);
      ++w.tile;
      std::string text = " DEBUG thumbnailer::pool: tile resized job_id=";
      text += std::to_string(w.job) + " tile=" + std::to_string(w.tile) + " px=262144";
      lines.emplace_back(w.t, text);
      if (w.tile == 30) {
        w.job = next_job++;
        w.tile = 0;
      }
    }
  }
  std::sort(lines.begin(), lines.end());
  for (const auto& [t, text] : lines) {
    const std::int64_t seconds = t / 1'000'000;
    char stamp[64];
    std::snprintf(stamp, sizeof stamp, "2026-04-02T11:%02lld:%02lld.%06lldZ", static_cast<long long>(seconds / 60),
                  static_cast<long long>(seconds % 60), static_cast<long long>(t % 1'000'000));
    out << stamp << text << "\n";
  }
}

/// A Java order service logging with log4j (`… [worker-1] DEBUG OrderHandler - txn=…`): one
/// worker thread runs 200 transactions one after another, 4 lines each, then waits 200 ms for the
/// next. With `stall`, the reply to its cache lookup comes 44-48 ms late every time.
void write_sequential_log(const std::string& path, bool stall) {
  Random random(43);
  std::ofstream out(path);
  std::int64_t t = 0;
  for (int i = 0; i < 200; ++i) {
    const std::string txn = "txn=" + std::to_string(880'100 + i);
    const auto emit = [&](const std::string& what) {
      out << log4j_stamp(t) << " [worker-1] DEBUG OrderHandler - " << txn << ' ' << what << "\n";
    };
    emit("begin GET /orders/" + std::to_string(1000 + i));
    t += 400 + static_cast<std::int64_t>(random.uniform() * 800);
    emit("cache lookup key=order:" + std::to_string(1000 + i));
    t += stall ? 44'000 + static_cast<std::int64_t>(random.uniform() * 4'000)
               : 300 + static_cast<std::int64_t>(random.uniform() * 500);
    emit("render template=order.html");
    t += 800 + static_cast<std::int64_t>(random.uniform() * 1'200);
    emit("end status=200");
    t += 200'000 + static_cast<std::int64_t>(random.uniform() * 500);
  }
}

}  // namespace

TEST_CASE("Clocks: stalls that silence every running thread at once are a throttled cgroup, on any period",
          "[e2e][clocks]") {
  const std::string faulty = "gapscan_e2e_clock_quota.log", healthy = "gapscan_e2e_clock_free.log";
  write_pool_log(faulty, true);
  write_pool_log(healthy, false);
  const auto report = scan_json(faulty);
  const auto control = scan_json(healthy);
  std::remove(faulty.c_str());
  std::remove(healthy.c_str());

  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  INFO(top.dump(2).substr(0, 2500));
  CHECK(top["cause"] == "cfs_bandwidth_throttling");
  CHECK(top["confidence"].get<double>() >= 0.6);
  CHECK(std::abs(top["interval_ms"].get<double>() - 20) < 0.2);
  REQUIRE_FALSE(top["periodic"].is_null());
  CHECK(top["periodic"]["silence_tested"].get<int>() >= 20);
  CHECK(top["periodic"]["silent_share"].get<double>() > 0.8);
  bool fact = false;
  for (const auto& e : top["evidence"]) fact = fact || (e["scope"] == "fact" && e["pattern"] == "all_silent");
  CHECK(fact);

  for (const auto& f : control["findings"]) {
    INFO(f.dump(2).substr(0, 1500));
    CHECK(f["confidence"].get<double>() < 0.6);
  }
}

TEST_CASE("Clocks: requests run one after another keep the worker's pace, and their own stall is what is reported",
          "[e2e][clocks]") {
  const std::string faulty = "gapscan_e2e_clock_seq.log", healthy = "gapscan_e2e_clock_seq_ok.log";
  write_sequential_log(faulty, true);
  write_sequential_log(healthy, false);
  const auto report = scan_json(faulty);
  const auto control = scan_json(healthy);
  std::remove(faulty.c_str());
  std::remove(healthy.c_str());

  REQUIRE_FALSE(report["findings"].empty());
  bool stall = false;
  for (const auto& f : report["findings"]) {
    INFO(f.dump(2).substr(0, 1500));
    CHECK(f["shape"] != "PERIODIC");  // the pace of the transactions is no clock of stalls
    CHECK(f["cause"] != "app_polling_sleep_loop");
    const double ms = f["interval_ms"].get<double>();
    stall = stall || (ms > 44 && ms < 48 && f["requests"].get<int>() >= 150);
  }
  CHECK(stall);
  CHECK(report["findings"][0]["interval_ms"].get<double>() > 44);
  CHECK(report["findings"][0]["interval_ms"].get<double>() < 48);

  for (const auto& f : control["findings"]) {
    INFO(f.dump(2).substr(0, 1500));
    CHECK(f["confidence"].get<double>() < 0.6);
  }
}

namespace {

/// A Go service logging logfmt (`time=… level=info msg="request started" … request_id=…`): 2 500
/// quote requests of three lines each, arriving at random, and beside them one line on a clock.
/// With `poller`, the clock is a mail worker that finds nothing to do and sleeps 1 s each pass
/// (a sleep loop); without, the clock is the connection pool's status line every 5 s (a timer of
/// the program's own, no stall of anything).
void write_clock_line_log(const std::string& path, bool poller) {
  Random random(47);
  std::vector<std::pair<std::int64_t, std::string>> lines;
  std::int64_t t = 0;
  char id[32];
  for (int i = 0; i < 2500; ++i) {
    t += static_cast<std::int64_t>(-std::log(1.0 - random.uniform()) * 125'000);
    std::snprintf(id, sizeof id, "%08x-%04x", static_cast<unsigned>(random.uniform() * 4e9),
                  static_cast<unsigned>(random.uniform() * 65535));
    std::int64_t u = t;
    for (const char* step : {R"(msg="request started" method=GET path=/v1/quote)",
                             R"(msg="price fetched" source=cache)", R"(msg="request finished" status=200)"}) {
      lines.emplace_back(u, std::string("level=info ") + step + " request_id=" + id);
      u += 500 + static_cast<std::int64_t>(random.uniform() * 3'500);
    }
  }
  const std::int64_t period = poller ? 1'000'000 : 5'000'000;
  for (std::int64_t s = 410'000; s < t; s += period + 100 + static_cast<std::int64_t>(random.uniform() * 800)) {
    if (poller) {
      lines.emplace_back(s, R"(level=debug msg="no pending jobs, sleeping" queue=mail worker=outbox)");
    } else {
      lines.emplace_back(
          s, "level=info msg=\"pool status\" open_conns=" + std::to_string(3 + static_cast<int>(random.uniform() * 7)) +
                 " idle=" + std::to_string(static_cast<int>(random.uniform() * 4)) +
                 " goroutines=" + std::to_string(40 + static_cast<int>(random.uniform() * 20)));
    }
  }
  std::sort(lines.begin(), lines.end());
  std::ofstream out(path);
  for (const auto& [when, text] : lines) {
    const std::int64_t seconds = when / 1'000'000;
    char stamp[64];
    std::snprintf(stamp, sizeof stamp, "time=2026-04-02T11:%02lld:%02lld.%06lldZ ",
                  static_cast<long long>(seconds / 60), static_cast<long long>(seconds % 60),
                  static_cast<long long>(when % 1'000'000));
    out << stamp << text << "\n";
  }
}

}  // namespace

TEST_CASE("Clocks: a line the program writes on its own timer is a timer, not a sleep loop, unless it says it sleeps",
          "[e2e][clocks]") {
  const std::string status = "gapscan_e2e_clock_status.log", poller = "gapscan_e2e_clock_poller.log";
  write_clock_line_log(status, false);
  write_clock_line_log(poller, true);
  const auto report = scan_json(status);
  const auto control = scan_json(poller);
  std::remove(status.c_str());
  std::remove(poller.c_str());

  INFO(report.dump(2).substr(0, 3000));
  for (const auto& f : report["findings"]) CHECK(f["cause"] != "app_polling_sleep_loop");
  REQUIRE(report["timers"].size() == 1);
  const auto& timer = report["timers"][0];
  CHECK(std::abs(timer["period_ms"].get<double>() - 5000) < 5);
  CHECK(timer["gaps"].get<int>() >= 50);
  CHECK(timer["template"] == R"(level=info msg="pool status" open_conns=<*> idle=<*> goroutines=<*>)");
  CHECK(timer["example"]["text"].get<std::string>().find("pool status") != std::string::npos);

  // The poller's line says it found nothing and sleeps: that is the sleep loop, named as one.
  INFO(control.dump(2).substr(0, 3000));
  CHECK(control["timers"].empty());
  REQUIRE_FALSE(control["findings"].empty());
  const auto& top = control["findings"][0];
  CHECK(top["cause"] == "app_polling_sleep_loop");
  CHECK(std::abs(top["interval_ms"].get<double>() - 1000) < 5);
}
