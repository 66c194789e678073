// The seed incidents (tests/seed/*/README.md): each case's generator writes the logs the incident
// left, and gapscan must rank the right cause first, as likely, with the interval the case was
// built with.

#include "run_binary.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <string>

using gapscan::testing::gapscan_command;
using gapscan::testing::run_command;

namespace {

/// Runs tests/seed/CASE/generate.py into a fresh folder and returns it.
std::string generate(const std::string& name) {
  const std::string dir = "seed_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto made =
      run_command("python3 " + std::string(GAPSCAN_SOURCE_DIR) + "/tests/seed/" + name + "/generate.py " + dir);
  REQUIRE(made.exit_code == 0);
  return dir;
}

nlohmann::json first_finding(const std::string& args) {
  const auto result = run_command(gapscan_command("--output json " + args));
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["lines"]["unparsed"] == 0);
  REQUIRE_FALSE(json["findings"].empty());
  return json["findings"][0];
}

}  // namespace

TEST_CASE("Seed: Femiwiki's Flow cache writes stall 50 ms (HZ=100, Monolog JSON at +09:00)", "[e2e][seed]") {
  const std::string dir = generate("femiwiki");
  const auto f = first_finding(dir + "/femiwiki-fastcgi.log");
  std::filesystem::remove_all(dir);
  CHECK(f["cause"] == "nagle_delack_write_write_read");
  CHECK(f["likely"] == true);
  CHECK(f["delay"]["value_ms"] == 50.0);  // the window of CONFIG_HZ=100
  CHECK(std::abs(f["interval_ms"].get<double>() - 50) < 1.5);
}

TEST_CASE("Seed: a transport benchmark's p50 is 44 ms from 4096-byte payloads up", "[e2e][seed]") {
  const std::string dir = generate("transport-bench");
  const auto f = first_finding(dir + "/tbench-client.log");
  std::filesystem::remove_all(dir);
  CHECK(f["cause"] == "nagle_partial_tail_segment");
  CHECK(f["likely"] == true);
  CHECK(std::abs(f["interval_ms"].get<double>() - 44) < 1);
}

TEST_CASE("Seed: XE behind nginx proxy_cache, every anonymous page a MISS with a fresh PHPSESSID", "[e2e][seed]") {
  const std::string dir = generate("xe-gnuboard");
  const auto result = run_command(gapscan_command("--output json " + dir + "/access.log"));
  std::filesystem::remove_all(dir);
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["lines"]["unparsed"] == 0);
  REQUIRE_FALSE(json["findings"].empty());
  const auto& f = json["findings"][0];
  CHECK(f["cause"] == "http_cache_bypass_set_cookie");
  CHECK(f["likely"] == true);
  // One band at the backend's render time (log-normal around 205 ms), read from $request_time.
  CHECK(f["values"] == "durations");
  CHECK(std::abs(f["interval_ms"].get<double>() - 205) < 10);
  // The whole-second stamps make no 1 s gap mode of their own.
  for (const auto& other : json["findings"]) CHECK(std::abs(other["interval_ms"].get<double>() - 1000) > 50);
}

TEST_CASE("Seed: Redis with transparent huge pages stalls every client for ~300 ms after each fork", "[e2e][seed]") {
  const std::string dir = generate("redis-thp");
  const auto f = first_finding(dir + "/client.log.gz " + dir + "/redis.log");
  std::filesystem::remove_all(dir);
  CHECK(f["cause"] == "thp_fork_cow_amplification");
  CHECK(f["likely"] == true);
  // The stalls of the backlogs after the forks (~300 ms), not the fork's own 1-3 ms.
  CHECK(f["interval_ms"].get<double>() > 200);
  CHECK(f["interval_ms"].get<double>() < 400);
  CHECK(f["trigger"]["aligned"].get<int>() >= 4);
  // The start-up THP warning is what tells it from a plain page-table copy.
  bool warning = false;
  for (const auto& e : f["evidence"]) warning |= e["scope"] == "file" && e["weight"].get<double>() > 0 && e["hits"] > 0;
  CHECK(warning);
  for (const auto& other : f["alternatives"]) CHECK(other["cause"] != "fork_page_table_copy");
}
