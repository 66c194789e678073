// Slowdowns on the wall clock through the real binary, in loggers gapscan was not tuned on: a Go
// service writing logfmt whose requests are 1.45 times slower in the first seconds of every
// minute, with the host's cron log beside it; an nginx access log (request time in `rt=`) whose
// requests are 1.6 times slower for three minutes from hh:30 of every hour, with no job's line
// given. Each with its control: the same programs at the same speed all the time.

#include "../test_random.hpp"
#include "run_binary.hpp"
#include "scan_json.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

using gapscan::testing::Random;
using gapscan::testing::scan_json;

namespace {

constexpr std::int64_t k_start_us = 1'764'428'647'000'000;  // 2025-11-29T15:04:07Z

/// `2025-11-29T15:04:07.123456Z`, or with `zone` "+00:00" as journalctl -o short-iso-precise.
std::string iso_stamp(std::int64_t micros, const char* zone = "Z") {
  const std::time_t seconds = static_cast<std::time_t>(micros / 1'000'000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char out[64];
  std::snprintf(out, sizeof out, "%04d-%02d-%02dT%02d:%02d:%02d.%06lld%s", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(micros % 1'000'000), zone);
  return out;
}

/// nginx's $time_local: `29/Nov/2025:15:04:07 +0000`.
std::string nginx_stamp(std::int64_t micros) {
  const std::time_t seconds = static_cast<std::time_t>(micros / 1'000'000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char out[64];
  std::strftime(out, sizeof out, "%d/%b/%Y:%H:%M:%S +0000", &tm);
  return out;
}

double second_of_minute(std::int64_t micros) { return static_cast<double>(micros % 60'000'000) / 1e6; }
double minute_of_hour(std::int64_t micros) { return static_cast<double>(micros % 3'600'000'000) / 60e6; }

void write_sorted(const std::string& path, std::vector<std::pair<std::int64_t, std::string>> lines) {
  std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::ofstream out(path);
  for (const auto& [t, text] : lines) out << text << "\n";
}

/// A Go catalogue service (logfmt, `req_id=`), ~8 requests a second for 24 minutes, each three
/// lines and ~12 ms; with `slow`, a job started by cron at second 0 of every minute takes the CPU
/// and the requests in seconds 0-3 take 1.45 times as long. The host's cron log goes to `cron`.
void write_catalogue(const std::string& path, const std::string& cron, bool slow) {
  Random random(slow ? 61 : 62);
  std::vector<std::pair<std::int64_t, std::string>> lines;
  const std::int64_t end = k_start_us + 24 * 60'000'000LL;
  int id = 0;
  for (std::int64_t t = k_start_us; t < end;
       t += static_cast<std::int64_t>(-std::log(1 - random.uniform()) / 8 * 1e6)) {
    double d = random.lognormal(12e3, 0.45);  // µs
    if (slow && second_of_minute(t) < 4) d *= 1.45;
    char req[32];
    std::snprintf(req, sizeof req, "c%07d", ++id);
    const auto lookup = t + static_cast<std::int64_t>(d * 0.2);
    const auto done = t + static_cast<std::int64_t>(d);
    std::string first = "time=" + iso_stamp(t) + " level=info msg=\"request started\" req_id=" + req;
    first += " method=GET path=/v1/items/" + std::to_string(1000 + id % 5000);
    lines.emplace_back(t, first);
    lines.emplace_back(lookup, "time=" + iso_stamp(lookup) + " level=debug msg=\"cache lookup\" req_id=" + req +
                                   " hit=" + (random.uniform() < 0.7 ? "true" : "false"));
    char duration[32];
    std::snprintf(duration, sizeof duration, "%.2f", d / 1e3);
    lines.emplace_back(done, "time=" + iso_stamp(done) + " level=info msg=\"request finished\" req_id=" + req +
                                 " status=200 duration_ms=" + duration);
  }
  write_sorted(path, std::move(lines));
  std::vector<std::pair<std::int64_t, std::string>> jobs;
  for (std::int64_t m = (k_start_us / 60'000'000 + 1) * 60'000'000; m < end; m += 60'000'000) {
    const auto at = m + 40'000 + static_cast<std::int64_t>(random.uniform() * 150'000);
    jobs.emplace_back(at, iso_stamp(at, "+00:00") + " web3 CRON[" + std::to_string(40'000 + (m / 60'000'000) % 9000) +
                              "]: (www-data) CMD (/usr/local/bin/refresh-sitemaps --all)");
  }
  write_sorted(cron, std::move(jobs));
}

/// nginx in front of an orders API, ~1.2 requests a second for 6 hours, its log_format the
/// combined one with ` rt=$request_time`; with `slow`, a backup at hh:30 of every hour makes the
/// requests of the next three minutes 1.6 times as slow.
void write_orders(const std::string& path, bool slow) {
  Random random(slow ? 63 : 64);
  std::vector<std::pair<std::int64_t, std::string>> lines;
  const std::int64_t end = k_start_us + 6 * 3'600'000'000LL;
  for (std::int64_t t = k_start_us; t < end;
       t += static_cast<std::int64_t>(-std::log(1 - random.uniform()) / 1.2 * 1e6)) {
    double d = random.lognormal(45e3, 0.5);
    if (slow && minute_of_hour(t) >= 30 && minute_of_hour(t) < 33) d *= 1.6;
    const auto done = t + static_cast<std::int64_t>(d);
    char rt[16];
    std::snprintf(rt, sizeof rt, "%.3f", d / 1e6);
    std::string line =
        "10.4.0." + std::to_string(2 + static_cast<int>(random.uniform() * 200)) + " - - [" + nginx_stamp(done) +
        "] \"GET /api/orders/" + std::to_string(static_cast<int>(random.uniform() * 90000)) + " HTTP/1.1\" 200 " +
        std::to_string(300 + static_cast<int>(random.uniform() * 4000)) + " \"-\" \"okhttp/4.12.0\" rt=" + rt;
    lines.emplace_back(done, line);
  }
  write_sorted(path, std::move(lines));
}

const nlohmann::json* wall_clock_finding(const nlohmann::json& report) {
  for (const auto& f : report["findings"])
    if (f["wall_clock"].is_object()) return &f;
  return nullptr;
}

void check_quiet(const nlohmann::json& control) {
  INFO(control["findings"].dump(2).substr(0, 3000));
  CHECK(wall_clock_finding(control) == nullptr);
  for (const auto& f : control["findings"]) CHECK(f["confidence"].get<double>() < 0.6);
}

}  // namespace

TEST_CASE("Wall clock: requests slower in the first seconds of every minute are named with the cron job's line",
          "[e2e][wall_clock]") {
  const std::string faulty = "gapscan_e2e_wall_clock_catalogue.log", cron = "gapscan_e2e_wall_clock_cron.log";
  const std::string healthy = "gapscan_e2e_wall_clock_catalogue_ok.log", cron_ok = "gapscan_e2e_wall_clock_cron_ok.log";
  write_catalogue(faulty, cron, true);
  write_catalogue(healthy, cron_ok, false);
  const auto report = scan_json(faulty + " " + cron);
  const auto control = scan_json(healthy + " " + cron_ok);
  for (const std::string& path : {faulty, cron, healthy, cron_ok}) std::remove(path.c_str());

  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  INFO(top.dump(2).substr(0, 3000));
  CHECK(top["cause"] == "cron_scheduled_jobs");
  CHECK(top["confidence"].get<double>() >= 0.6);
  REQUIRE(top["wall_clock"].is_object());
  const auto& w = top["wall_clock"];
  CHECK(w["fold"] == "minute");
  CHECK((w["start"] == 0 || w["start"] == 59));
  CHECK(w["width"].get<int>() <= 6);
  CHECK(w["ratio"].get<double>() > 1.25);
  CHECK(w["ratio"].get<double>() < 1.65);
  CHECK(w["slower"].get<int>() >= 20);
  REQUIRE(w["job_lines"].size() >= 1);
  CHECK(w["job_lines"][0]["text"].get<std::string>().find("CRON[") != std::string::npos);
  CHECK(w["job_lines"][0]["aligned"].get<int>() >= 20);

  check_quiet(control);
}

TEST_CASE("Wall clock: an access log slower for minutes at the same place of every hour", "[e2e][wall_clock]") {
  const std::string faulty = "gapscan_e2e_wall_clock_orders.log", healthy = "gapscan_e2e_wall_clock_orders_ok.log";
  write_orders(faulty, true);
  write_orders(healthy, false);
  const auto report = scan_json(faulty);
  const auto control = scan_json(healthy);
  std::remove(faulty.c_str());
  std::remove(healthy.c_str());

  const nlohmann::json* found = wall_clock_finding(report);
  INFO(report["findings"].dump(2).substr(0, 3000));
  REQUIRE(found != nullptr);
  const auto& f = *found;
  CHECK(f["cause"] == "cron_scheduled_jobs");
  CHECK(f["rank"] == 1);
  const auto& w = f["wall_clock"];
  CHECK(w["fold"] == "hour");
  CHECK(w["series"] == "durations");
  CHECK(w["start"].get<int>() >= 29);
  CHECK(w["start"].get<int>() <= 30);
  CHECK(w["start"].get<int>() + w["width"].get<int>() >= 33);
  CHECK(w["start"].get<int>() + w["width"].get<int>() <= 34);
  CHECK(w["ratio"].get<double>() > 1.35);
  CHECK(w["job_lines"].empty());

  check_quiet(control);
}
