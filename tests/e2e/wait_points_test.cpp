// Wait points through the real binary: a few stalls among tens of thousands of gaps, each after
// one kind of line, in loggers and wordings of other programs than those gapscan was tuned on
// (Python structlog key=value lines, a Node.js pino JSON log beside a PostgreSQL server log), each
// with its healthy control.

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

using gapscan::testing::gapscan_command;
using gapscan::testing::Random;
using gapscan::testing::run_command;
using gapscan::testing::scan_json;

namespace {

/// "2026-03-14T09:MM:SS.uuuuuuZ" for a time in µs since 09:00:00.
std::string stamp(std::int64_t micros) {
  const std::int64_t seconds = micros / 1'000'000;
  char out[64];
  std::snprintf(out, sizeof out, "2026-03-14T09:%02lld:%02lld.%06lldZ", static_cast<long long>(seconds / 60),
                static_cast<long long>(seconds % 60), static_cast<long long>(micros % 1'000'000));
  return out;
}

/// A structlog-style service log: 300 requests of ~100 lines each (~30 000 gaps), the lines a
/// few hundred µs apart. With `stalls`, 15 of the requests' `cache store` writes (a memcached
/// client sending noreply) are followed by a 44 ms delayed-ACK stall; that line comes ~6 times a
/// request, and is otherwise followed at once.
void write_service_log(const std::string& path, bool stalls) {
  Random random(30);
  std::ofstream out(path);
  std::int64_t t = 0;
  int stalled = 0;
  for (int r = 0; r < 300; ++r) {
    std::string id = "a";
    id += std::to_string(1000 + r);
    const auto emit = [&](const std::string& event) {
      out << stamp(t) << " [info     ] " << event << " request_id=" << id << "\n";
    };
    emit("request received path=/api/v2/items");
    for (int step = 0; step < 16; ++step) {
      t += 150 + static_cast<std::int64_t>(random.lognormal(250, 0.5));
      std::string query = "db query table=items rows=";
      query += std::to_string(step * 3);
      emit(query);
      for (int k = 0; k < 4; ++k) {
        t += 100 + static_cast<std::int64_t>(random.lognormal(200, 0.6));
        std::string fragment = "rendering fragment part=";
        fragment += std::to_string(k);
        emit(fragment);
      }
      if (step % 3 == 0) {
        t += 80 + static_cast<std::int64_t>(random.lognormal(150, 0.5));
        std::string store = "cache store via memcached noreply key=item:";
        store += std::to_string(r * 16 + step);
        emit(store);
        const bool stall = stalls && stalled < 15 && r % 20 == 7 && step == 3;
        t += stall ? 44'000 + static_cast<std::int64_t>(random.uniform() * 200)
                   : 60 + static_cast<std::int64_t>(random.lognormal(120, 0.4));
        stalled += stall ? 1 : 0;
      }
    }
    t += 200;
    emit("request finished status=200");
    t += 5'000;
  }
}

/// A Node.js service logging with pino (JSON, millisecond `time`, `reqId`) that updates rows
/// another job holds locked; beside it the PostgreSQL log, whose backends write `still waiting
/// for ShareLock` one deadlock_timeout (1 s) into each wait. Without `locks`, no row is held.
void write_lock_logs(const std::string& app, const std::string& db, bool locks) {
  Random random(35);
  std::ofstream out(app);
  std::ofstream server(db);
  std::int64_t t_ms = 1'773'478'800'000;  // 2026-03-14T09:00:00Z
  const auto pg_stamp = [](std::int64_t ms) {
    const std::int64_t in_day = ms % 86'400'000;
    char text[64];
    std::snprintf(text, sizeof text, "2026-03-14 %02lld:%02lld:%02lld.%03lld UTC",
                  static_cast<long long>(in_day / 3'600'000), static_cast<long long>(in_day / 60'000 % 60),
                  static_cast<long long>(in_day / 1000 % 60), static_cast<long long>(in_day % 1000));
    return std::string(text);
  };
  for (int r = 0; r < 400; ++r) {
    std::string id = "req-";
    id += std::to_string(5000 + r);
    const auto emit = [&](const std::string& msg) {
      out << R"({"level":30,"time":)" << t_ms << R"(,"pid":4242,"hostname":"api-1","reqId":")" << id << R"(","msg":")"
          << msg << "\"}\n";
    };
    emit("incoming request");
    t_ms += 1 + static_cast<std::int64_t>(random.uniform() * 2);
    emit("loaded account");
    t_ms += 1;
    emit("executing UPDATE accounts SET balance = balance - $1 WHERE id = $2");
    const bool wait = locks && r % 16 == 5;
    if (wait) {
      const std::int64_t wait_ms = 1200 + static_cast<std::int64_t>(random.uniform() * 1600);
      server << pg_stamp(t_ms + 1000) << " [" << 31000 + r << "] LOG:  process " << 31000 + r
             << " still waiting for ShareLock on transaction " << 900 + r << " after 1000.412 ms\n";
      t_ms += wait_ms;
      server << pg_stamp(t_ms) << " [" << 31000 + r << "] LOG:  process " << 31000 + r
             << " acquired ShareLock on transaction " << 900 + r << " after " << wait_ms << ".118 ms\n";
    } else {
      t_ms += 1 + static_cast<std::int64_t>(random.uniform() * 2);
    }
    emit("update done");
    t_ms += 1;
    emit("request completed");
    t_ms += 40 + static_cast<std::int64_t>(random.uniform() * 20);
  }
  if (!locks) server << pg_stamp(t_ms) << " [30999] LOG:  checkpoint starting: time\n";
}

/// A Python report service (logging's default `%(asctime)s %(levelname)s %(name)s %(message)s`
/// with `key=value` extras): each request takes a Redis lock on its report, renders it (90-400 ms
/// of CPU), then releases it. With `contention`, two requests for the same report arrive together
/// 60 times, and the second waits for the first: `lock acquired` then says how long it waited,
/// about as long as the rendering the other requests spend their time on. Without, every lock is
/// free.
void write_report_log(const std::string& path, bool contention) {
  Random random(52);
  std::ofstream out(path);
  struct Line {
    std::int64_t t;
    std::string text;
  };
  std::vector<Line> lines;
  std::int64_t t = 0;
  const auto stamp_of = [](std::int64_t micros) {
    const std::int64_t ms = micros / 1000, seconds = ms / 1000;
    char text[64];
    std::snprintf(text, sizeof text, "2026-03-14 10:%02lld:%02lld,%03lld", static_cast<long long>(seconds / 60 % 60),
                  static_cast<long long>(seconds % 60), static_cast<long long>(ms % 1000));
    return std::string(text);
  };
  for (int r = 0; r < 240; ++r) {
    const bool pair = contention && r % 4 == 1;
    const int copies = pair ? 2 : 1;
    std::int64_t held_until = 0;
    for (int c = 0; c < copies; ++c) {
      std::string id = "rq";
      id += std::to_string(7000 + r * 2 + c);
      std::int64_t u = t + c * 300;
      const auto emit = [&](const std::string& what) {
        lines.push_back({u, stamp_of(u) + " INFO reports.views " + what + " request=" + id});
      };
      emit("GET /reports/" + std::to_string(r) + "/pdf");
      u += 300 + static_cast<std::int64_t>(random.uniform() * 400);
      const std::int64_t waited = c == 1 ? std::max<std::int64_t>(0, held_until - u) : 0;
      u += waited + 200 + static_cast<std::int64_t>(random.uniform() * 300);
      char wait_text[32];
      std::snprintf(wait_text, sizeof wait_text, "%.1f", static_cast<double>(waited) / 1000 + 0.2);
      emit(std::string("lock acquired name=report:") + std::to_string(r) + " waited_ms=" + wait_text);
      u += 90'000 + static_cast<std::int64_t>(random.uniform() * 310'000);
      emit("rendered pages=12");
      u += 1000;
      emit("lock released");
      held_until = u;
      u += 500;
      emit("200 OK");
    }
    t += 600'000 + static_cast<std::int64_t>(random.uniform() * 400'000);
  }
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.t < b.t; });
  for (const Line& line : lines) out << line.text << "\n";
}

}  // namespace

TEST_CASE("Wait points: 15 stalls after one kind of line among 30 000 gaps are found and named", "[e2e][wait]") {
  const std::string faulty = "gapscan_e2e_wait_faulty.log";
  const std::string healthy = "gapscan_e2e_wait_healthy.log";
  write_service_log(faulty, true);
  write_service_log(healthy, false);
  const auto report = scan_json(faulty);
  const auto control = scan_json(healthy);
  const auto text = run_command(gapscan_command("--quiet --color never " + faulty));
  std::remove(faulty.c_str());
  std::remove(healthy.c_str());

  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  INFO(top.dump(2).substr(0, 2000));
  CHECK(top["cause"].get<std::string>().rfind("nagle_delack", 0) == 0);
  CHECK(std::abs(top["interval_ms"].get<double>() - 44.1) < 1.5);
  REQUIRE_FALSE(top["wait_point"].is_null());
  CHECK(top["wait_point"]["template"].get<std::string>().find("cache store via memcached noreply") !=
        std::string::npos);
  CHECK(top["wait_point"]["in_band"].get<int>() == 15);
  CHECK(top["wait_point"]["usual_ms"].get<double>() < 1);
  CHECK(text.out.find("after `[info ] cache store via memcached noreply") != std::string::npos);

  for (const auto& f : control["findings"]) {
    INFO(f.dump(2).substr(0, 1500));
    CHECK(f["confidence"].get<double>() < 0.6);
    CHECK(f["wait_point"].is_null());
  }
}

TEST_CASE("Wait points: lock waits with no value of their own are named by the server lines written during them",
          "[e2e][wait]") {
  const std::string app = "gapscan_e2e_wait_app.log", db = "gapscan_e2e_wait_pg.log";
  write_lock_logs(app, db, true);
  const std::string both = app + ' ' + db;
  const auto report = scan_json(both);
  const std::string calm_app = "gapscan_e2e_wait_app_ok.log", calm_db = "gapscan_e2e_wait_pg_ok.log";
  write_lock_logs(calm_app, calm_db, false);
  const std::string calm = calm_app + ' ' + calm_db;
  const auto control = scan_json(calm);
  std::remove(calm_app.c_str());
  std::remove(calm_db.c_str());
  std::remove(app.c_str());
  std::remove(db.c_str());

  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  INFO(top.dump(2).substr(0, 2500));
  CHECK(top["cause"] == "postgres_lock_wait_deadlock_timeout");
  CHECK(top["interval_ms"].get<double>() > 1200);
  CHECK(top["interval_ms"].get<double>() < 2800);
  REQUIRE_FALSE(top["wait_point"].is_null());
  CHECK(top["wait_point"]["template"].get<std::string>().find("executing UPDATE accounts") != std::string::npos);
  bool during = false;
  for (const auto& e : top["evidence"]) during = during || (e["scope"] == "during" && e["hits"].get<int>() >= 2);
  CHECK(during);

  for (const auto& f : control["findings"]) {
    INFO(f.dump(2).substr(0, 1500));
    CHECK(f["confidence"].get<double>() < 0.6);
  }
}

TEST_CASE("Wait points: waits the next line reports are found though the requests' work lasts as long", "[e2e][wait]") {
  const std::string faulty = "gapscan_e2e_wait_lock.log", healthy = "gapscan_e2e_wait_lock_ok.log";
  write_report_log(faulty, true);
  write_report_log(healthy, false);
  const auto report = scan_json(faulty);
  const auto control = scan_json(healthy);
  std::remove(faulty.c_str());
  std::remove(healthy.c_str());

  const nlohmann::json* wait = nullptr;
  for (const auto& f : report["findings"]) {
    if (!f["wait_point"].is_null() &&
        f["wait_point"]["template"].get<std::string>().find("reports.views GET ") != std::string::npos) {
      wait = &f;
      break;
    }
  }
  REQUIRE(wait != nullptr);
  INFO((*wait).dump(2).substr(0, 2500));
  const auto& point = (*wait)["wait_point"];
  CHECK(point["in_band"].get<int>() >= 50);
  CHECK(point["reported"].get<int>() * 10 >= point["in_band"].get<int>() * 8);
  CHECK((*wait)["interval_ms"].get<double>() > 90);
  CHECK((*wait)["interval_ms"].get<double>() < 400);
  CHECK((*wait)["significance"].get<double>() > 0.5);

  for (const auto& f : control["findings"]) {
    INFO(f.dump(2).substr(0, 1500));
    CHECK(f["confidence"].get<double>() < 0.6);
    CHECK(f["wait_point"].is_null());
  }
}
