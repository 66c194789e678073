// Phase timers through the real binary: an nginx log whose log_format carries the upstream
// timers (`uct="…" uht="…" urt="…"`), a fifth of its requests spending ~1 s in the connect
// phase (a SYN to the backend dropped and sent again), against its control; the phase names the
// cause, a sleep loop or a slow backend does not.

#include "../test_random.hpp"
#include "run_binary.hpp"
#include "scan_json.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>

using gapscan::testing::Random;
using gapscan::testing::scan_json;

namespace {

void write_proxy_log(const std::string& path, bool drops) {
  Random random(drops ? 71 : 72);
  std::ofstream out(path);
  double t = 1'764'428'647.0;
  for (int i = 0; i < 600; ++i) {
    t += random.uniform() * 1.0;
    const double connect =
        drops && i % 5 == 2 ? 1.0 + 0.003 + random.uniform() * 0.004 : 0.0005 + random.uniform() * 0.001;
    const double header = connect + random.lognormal(0.030, 0.4);
    const double total = header + 0.0005 + random.uniform() * 0.002;
    const auto seconds = static_cast<std::time_t>(t + total);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char stamp[64];
    std::strftime(stamp, sizeof stamp, "%d/%b/%Y:%H:%M:%S +0000", &tm);
    char line[512];
    std::snprintf(line, sizeof line,
                  "10.8.0.%d - - [%s] \"GET /api/v2/stock/%d HTTP/1.1\" 200 %d \"-\" \"Go-http-client/1.1\" rt=%.3f "
                  "uct=\"%.3f\" uht=\"%.3f\" urt=\"%.3f\"",
                  2 + i % 50, stamp, 1000 + i, 200 + i % 900, total, connect, header, total);
    out << line << "\n";
  }
}

}  // namespace

TEST_CASE("Phase timers: a second in nginx's upstream connect phase is a dropped SYN", "[e2e][phases]") {
  const auto [report, control] = gapscan::testing::scan_fault_and_control(
      "gapscan_e2e_phases_drops", [](const std::string& path, bool fault) { write_proxy_log(path, fault); });

  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  INFO(top.dump(2).substr(0, 3000));
  CHECK(top["cause"] == "tcp_syn_drop_connect_stall");
  CHECK(top["confidence"].get<double>() >= 0.6);
  CHECK(top["group"] == "phase=connect");
  CHECK(top["interval_ms"].get<double>() > 990);
  CHECK(top["interval_ms"].get<double>() < 1020);

  INFO(control["findings"].dump(2).substr(0, 3000));
  for (const auto& f : control["findings"]) CHECK(f["confidence"].get<double>() < 0.6);
}

namespace {

/// HAProxy's default httplog line (after a syslog header): TR/Tw/Tc/Tr/Ta in ms, the captured
/// X-Request-Id as `{…}`. `connect_drops`: a fifth of the requests connect after ~1 s (a SYN
/// retransmission); `queue`: two thirds wait 5-600 ms in the backend queue (maxconn reached).
void write_haproxy_log(const std::string& path, bool connect_drops, bool queue, std::uint64_t seed) {
  Random random(seed);
  std::ofstream out(path);
  double t = 1'764'428'647.0;
  for (int i = 0; i < 400; ++i) {
    t += random.uniform() * 0.2;
    const int wait = queue && i % 3 != 0 ? 5 + static_cast<int>(random.uniform() * 595) : 0;
    const int connect = connect_drops && i % 5 == 2 ? 1003 + static_cast<int>(random.uniform() * 12)
                                                    : static_cast<int>(random.uniform() * 2);
    const int response = 8 + static_cast<int>(random.lognormal(20, 0.5));
    const int total = wait + connect + response + static_cast<int>(random.uniform() * 2);
    const auto seconds = static_cast<std::time_t>(t);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char header[64], accept[64];
    std::strftime(header, sizeof header, "%b %e %H:%M:%S", &tm);
    std::strftime(accept, sizeof accept, "%d/%b/%Y:%H:%M:%S", &tm);
    char line[512];
    std::snprintf(line, sizeof line,
                  "%s lb1 haproxy[2211]: 10.8.0.%d:%d [%s.%03d] www~ app/web%d 0/%d/%d/%d/%d 200 %d - - ---- "
                  "%d/%d/%d/%d/0 0/%d {%08x-%04x-4%03x-8%03x-%012llx} \"GET /api/v2/cart/%d HTTP/1.1\"",
                  header, 2 + i % 50, 40000 + i, accept, static_cast<int>((t - static_cast<double>(seconds)) * 1000),
                  1 + i % 2, wait, connect, response, total, 300 + i % 900, 20, 20, 18, 9, wait / 60,
                  static_cast<unsigned>(random.next() & 0xffffffffu), i, i % 4096, (i * 7) % 4096,
                  static_cast<unsigned long long>(random.next() & 0xffffffffffffull), 1000 + i);
    out << line << "\n";
  }
}

/// A MariaDB slow query log (long_query_time = 1): updates of hot rows that wait for a lock
/// another transaction holds, 1-3 s each; `timeouts`: a third of them run into
/// innodb_lock_wait_timeout = 3 s (ERROR 1205: Query_time 3.000-3.001 s, Rows_affected 0).
void write_slow_log(const std::string& path, bool timeouts, std::uint64_t seed) {
  Random random(seed);
  std::ofstream out(path);
  out << "/usr/sbin/mariadbd, Version: 10.11.6-MariaDB-0+deb12u1-log (Debian 12). started with:\n"
         "Tcp port: 3306  Unix socket: /run/mysqld/mysqld.sock\nTime\t\t    Id Command\tArgument\n";
  double t = 1'764'428'647.0;
  long last_second = 0;
  for (int i = 0; i < 90; ++i) {
    t += 0.5 + random.uniform() * 2;
    const bool timed_out = timeouts && i % 3 == 1;
    const double query = timed_out ? 3.0002 + random.uniform() * 0.001 : 1.0 + random.uniform() * 1.9;
    const auto start = static_cast<long>(t);
    if (start != last_second) {
      const auto seconds = static_cast<std::time_t>(start);
      std::tm tm{};
      gmtime_r(&seconds, &tm);
      char stamp[32];  // MariaDB's "261201  9:26:54": the hour padded with a blank
      std::snprintf(stamp, sizeof stamp, "%02d%02d%02d %2d:%02d:%02d", tm.tm_year % 100, tm.tm_mon + 1, tm.tm_mday,
                    tm.tm_hour, tm.tm_min, tm.tm_sec);
      out << "# Time: " << stamp << "\n";
      last_second = start;
    }
    char entry[640];
    std::snprintf(entry, sizeof entry,
                  "# User@Host: shop[shop] @ app1 [10.8.0.5]\n# Thread_id: %d  Schema: shop  QC_hit: No\n"
                  "# Query_time: %.6f  Lock_time: 0.000%03d  Rows_sent: 0  Rows_examined: %d\n"
                  "# Rows_affected: %d  Bytes_sent: %d\nSET timestamp=%ld;\n"
                  "UPDATE stock SET reserved = reserved + %d WHERE item_id = %d;\n",
                  40 + i % 6, query, 50 + i % 400, timed_out ? 0 : 1, timed_out ? 0 : 1, timed_out ? 67 : 52, start,
                  1 + i % 5, 7 + i % 3);
    out << entry;
  }
}

}  // namespace

TEST_CASE("Phase timers: HAProxy's Tc of a second is a dropped SYN, named by its phase", "[e2e][phases]") {
  const auto [report, control] = gapscan::testing::scan_fault_and_control(
      "gapscan_e2e_haproxy_drops",
      [](const std::string& path, bool fault) { write_haproxy_log(path, fault, false, fault ? 81 : 82); });

  CHECK(report["inputs"][0]["format"] == "haproxy");
  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  INFO(top.dump(2).substr(0, 3000));
  CHECK(top["cause"] == "tcp_syn_drop_connect_stall");
  CHECK(top["confidence"].get<double>() >= 0.6);
  CHECK(top["group"] == "phase=connect");
  CHECK(top["interval_ms"].get<double>() > 1000);
  CHECK(top["interval_ms"].get<double>() < 1020);
  // The phase profile names the connect phase's share and links the finding.
  const auto& rows = report["phases"]["rows"];
  REQUIRE_FALSE(rows.empty());
  CHECK(rows[0]["phase"] == "connect");
  CHECK(rows[0]["finding"]["cause"] == "tcp_syn_drop_connect_stall");
  CHECK(rows[0]["finding"]["values"].get<int>() >= 70);
  CHECK(report["phases"]["requests"] == 400);

  INFO(control["findings"].dump(2).substr(0, 3000));
  for (const auto& f : control["findings"]) CHECK(f["confidence"].get<double>() < 0.6);
}

TEST_CASE("Phase timers: waits in HAProxy's queue spread over a range are a saturation, no fixed delay",
          "[e2e][phases]") {
  const auto [report, control] = gapscan::testing::scan_fault_and_control(
      "gapscan_e2e_haproxy_queue",
      [](const std::string& path, bool fault) { write_haproxy_log(path, false, fault, fault ? 83 : 84); });

  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  INFO(report["findings"].dump(2).substr(0, 4000));
  CHECK(top["cause"] == "proxy_queue_saturation");
  CHECK(top["confidence"].get<double>() >= 0.6);
  CHECK(top["group"] == "phase=queue");
  CHECK(top["saturation"]["waited"].get<int>() > 250);
  CHECK(top["saturation"]["p90_ms"].get<double>() > 3 * top["saturation"]["p10_ms"].get<double>());
  for (const auto& f : report["findings"]) {
    if (f["cause"] != "proxy_queue_saturation") CHECK(f["confidence"].get<double>() < 0.6);
  }
  for (const auto& f : control["findings"]) CHECK(f["confidence"].get<double>() < 0.6);
}

TEST_CASE("Slow query log entries: lock waits cut off at innodb_lock_wait_timeout name it at the configured value",
          "[e2e][phases]") {
  const auto [report, control] = gapscan::testing::scan_fault_and_control(
      "gapscan_e2e_slow_timeouts",
      [](const std::string& path, bool fault) { write_slow_log(path, fault, fault ? 85 : 86); });

  CHECK(report["inputs"][0]["format"] == "mysql-slow");
  // Every line an entry's part or its record: none unparsed.
  CHECK(report["lines"]["unparsed"] == 0);
  CHECK(report["lines"]["records"] == 90);
  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  INFO(report["findings"].dump(2).substr(0, 4000));
  CHECK(top["cause"] == "mysql_innodb_lock_wait_timeout");
  CHECK(top["confidence"].get<double>() >= 0.6);
  CHECK(top["interval_ms"].get<double>() > 3000);
  CHECK(top["interval_ms"].get<double>() < 3005);
  CHECK(top["group"].get<std::string>().rfind("query=UPDATE stock SET reserved = reserved + ? WHERE item_id = ?", 0) ==
        0);
  INFO(control["findings"].dump(2).substr(0, 3000));
  for (const auto& f : control["findings"]) CHECK(f["confidence"].get<double>() < 0.6);
}

TEST_CASE("Phase profiles and saturations merge from partial scans as one scan gives them", "[e2e][phases][partial]") {
  const std::string a = "gapscan_e2e_haproxy_part_a.log", b = "gapscan_e2e_haproxy_part_b.log";
  const std::string pa = "gapscan_e2e_haproxy_part_a.gsp", pb = "gapscan_e2e_haproxy_part_b.gsp";
  write_haproxy_log(a, false, true, 87);
  write_haproxy_log(b, true, false, 88);
  const auto one = gapscan::testing::run_command(gapscan::testing::gapscan_command("-q --output json " + a + " " + b));
  gapscan::testing::run_command(gapscan::testing::gapscan_command("-q --partial " + pa + " " + a));
  gapscan::testing::run_command(gapscan::testing::gapscan_command("-q --partial " + pb + " " + b));
  const auto merged =
      gapscan::testing::run_command(gapscan::testing::gapscan_command("merge -q --output json " + pa + " " + pb));
  for (const std::string& path : {a, b, pa, pb}) std::remove(path.c_str());
  REQUIRE(one.exit_code == 0);
  CHECK(merged.exit_code == 0);
  const auto report = nlohmann::json::parse(one.out);
  CHECK(report["phases"]["requests"] == 800);
  CHECK(merged.out == one.out);
}

namespace {

/// A client's name lookups (logfmt, as tests/netfaults logs them): 600 requests over ten
/// minutes, each resolving then connecting. `window`: every lookup between minute 4 and 5 waits
/// the resolver's 5 s timeout (its first nameserver down); else the same number of 5 s lookups
/// scattered over the run at random (a race losing a packet now and then).
void write_lookups(const std::string& path, bool window, std::uint64_t seed) {
  Random random(seed);
  std::ofstream out(path);
  const double start = 1'764'428'400.0;
  for (int i = 0; i < 600; ++i) {
    const double t = start + i + random.uniform() * 0.5;
    const bool slow = window ? (t - start >= 240 && t - start < 300) : random.uniform() < 0.1;
    const double ms = slow ? 5002 + random.uniform() * 6 : 0.3 + random.uniform() * 1.5;
    const auto seconds = static_cast<std::time_t>(t + ms / 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    const int micros = static_cast<int>((t + ms / 1000 - static_cast<double>(seconds)) * 1e6);
    char line[256];
    std::snprintf(line, sizeof line, "%s.%06dZ level=info req=%d op=resolve ms=%.3f name=api.shop.internal", stamp,
                  micros, i, ms);
    out << line << "\n";
  }
}

/// The same lookups written as lines around them, without a duration: `getaddrinfo(…)` when the
/// lookup starts, `connected` when it is done (and the connect with it), a few more lines.
void write_lookup_lines(const std::string& path, bool window, std::uint64_t seed) {
  Random random(seed);
  std::ofstream out(path);
  const double start = 1'764'428'400.0;
  const auto line = [&](double t, int req, const char* text) {
    const auto seconds = static_cast<std::time_t>(t);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, "%s.%06dZ level=info req=%d msg=\"%s\"", stamp,
                  static_cast<int>((t - static_cast<double>(seconds)) * 1e6), req, text);
    out << buffer << "\n";
  };
  for (int i = 0; i < 600; ++i) {
    double t = start + i + random.uniform() * 0.5;
    const bool slow = window ? (t - start >= 240 && t - start < 300) : random.uniform() < 0.1;
    line(t, i, "handling GET /api/cart");
    t += 0.0002 + random.uniform() * 0.0005;
    line(t, i, "getaddrinfo(api.shop.internal)");
    t += slow ? 5.002 + random.uniform() * 0.006 : 0.0003 + random.uniform() * 0.0015;
    line(t, i, "connected to api.shop.internal");
    t += 0.002 + random.uniform() * 0.01;
    line(t, i, "done");
  }
}

}  // namespace

TEST_CASE("When the stalls happened: every lookup inside one minute is a dead nameserver, shown with its window",
          "[e2e][phases][timing]") {
  const auto [report, spread] = gapscan::testing::scan_fault_and_control(
      "gapscan_e2e_lookups_window",
      [](const std::string& path, bool fault) { write_lookups(path, fault, fault ? 91 : 92); });

  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  INFO(top.dump(2).substr(0, 3000));
  CHECK(top["cause"] == "dns_resolver_timeout");
  CHECK(top["confidence"].get<double>() >= 0.6);
  REQUIRE(top.contains("timing"));
  CHECK(top["timing"]["kind"] == "window");
  CHECK(top["timing"]["start_s"].get<double>() >= 1'764'428'400.0 + 240);
  CHECK(top["timing"]["end_s"].get<double>() <= 1'764'428'400.0 + 306);
  CHECK(top["timing"]["outside_stalls"] == 0);

  REQUIRE_FALSE(spread["findings"].empty());
  const auto& other = spread["findings"][0];
  INFO(other.dump(2).substr(0, 3000));
  CHECK(other["interval_ms"].get<double>() > 5000);
  REQUIRE(other.contains("timing"));
  CHECK(other["timing"]["kind"] == "scattered");
  // A race that loses a packet now and then, not a server that was down: the window's cause is
  // not preferred to it.
  CHECK(other["cause"] == "dns_parallel_a_aaaa_conntrack_race");
}

TEST_CASE("When the stalls happened: the same told from the gaps after the lookup's line", "[e2e][phases][timing]") {
  const auto [report, spread] = gapscan::testing::scan_fault_and_control(
      "gapscan_e2e_lookup_lines_window",
      [](const std::string& path, bool fault) { write_lookup_lines(path, fault, fault ? 93 : 94); });

  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  INFO(top.dump(2).substr(0, 3000));
  CHECK(top["cause"] == "dns_resolver_timeout");
  REQUIRE(top.contains("timing"));
  CHECK(top["timing"]["kind"] == "window");
  // Bins of the run's time: the window's edges within a bin (32 s for a ten-minute run).
  CHECK(top["timing"]["start_s"].get<double>() >= 1'764'428'400.0 + 240 - 33);
  CHECK(top["timing"]["end_s"].get<double>() <= 1'764'428'400.0 + 300 + 33);

  REQUIRE_FALSE(spread["findings"].empty());
  const auto& other = spread["findings"][0];
  INFO(other.dump(2).substr(0, 3000));
  REQUIRE(other.contains("timing"));
  CHECK(other["timing"]["kind"] == "scattered");
}

TEST_CASE("A busy, healthy HAProxy: waits of a few ms in the queue and responses spread over 5-80 ms name nothing",
          "[e2e][phases]") {
  Random random(95);
  const std::string path = "gapscan_e2e_haproxy_busy.log";
  {
    std::ofstream out(path);
    double t = 1'764'428'647.0;
    for (int i = 0; i < 3000; ++i) {
      t += 0.001 + random.uniform() * 0.009;
      const auto seconds = static_cast<std::time_t>(t);
      std::tm tm{};
      gmtime_r(&seconds, &tm);
      char accept[64];
      std::strftime(accept, sizeof accept, "%d/%b/%Y:%H:%M:%S", &tm);
      const int wait = static_cast<int>(random.uniform() * 4), connect = static_cast<int>(random.uniform() * 3);
      const int response = 5 + static_cast<int>(random.uniform() * 76);
      char line[512];
      std::snprintf(line, sizeof line,
                    "10.8.0.%d:%d [%s.%03d] www app/web%d 0/%d/%d/%d/%d 200 %d - - ---- 12/12/11/1/0 0/0 "
                    "{%016llx} \"GET /api/item/%d HTTP/1.1\"",
                    2 + i % 200, 30000 + i, accept, static_cast<int>((t - static_cast<double>(seconds)) * 1000), i % 4,
                    wait, connect, response, wait + connect + response + 1, 1000 + i % 5000,
                    static_cast<unsigned long long>(random.next()), i % 1000);
      out << line << "\n";
    }
  }
  const auto report = scan_json(path);
  std::remove(path.c_str());
  INFO(report["findings"].dump(2).substr(0, 3000));
  for (const auto& f : report["findings"]) {
    CHECK(f["confidence"].get<double>() < 0.6);
    CHECK(f["cause"] != "proxy_queue_saturation");  // a few ms of queue is a busy server, not a saturated one
  }
}
