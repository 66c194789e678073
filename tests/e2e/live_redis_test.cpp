// The fork stall reproduced live: starts a private redis-server on 127.0.0.1 (stopped by pid by
// the generator), fills it, runs the phpredis workload while BGSAVE forks it, and checks that
// gapscan finds the stalls around the server's "Background saving started" lines.
// scripts/test.sh installs redis-server and php-redis.

#include "run_binary.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <string>

using gapscan::testing::gapscan_command;
using gapscan::testing::run_command;

TEST_CASE("Live: Redis BGSAVE forks stall every client around the fork line", "[e2e][live]") {
  const std::string dir = "live_redis_run";
  const auto generated = run_command("rm -rf " + dir + " && " + std::string(GAPSCAN_SOURCE_DIR) +
                                         "/samples/redis-bgsave/generate.sh --quick -o " + dir,
                                     true);
  INFO(generated.out);
  REQUIRE(generated.exit_code == 0);

  const auto scan = run_command(gapscan_command("--output json " + dir + "/client.log.gz " + dir + "/redis.log"));
  REQUIRE(scan.exit_code == 0);
  const auto report = nlohmann::json::parse(scan.out);
  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  CHECK(top["cause"] == "fork_page_table_copy");
  CHECK(top["confidence"].get<double>() >= 0.6);
  CHECK(top["shape"] == "ONE-OFF");
  const auto& trigger = top["trigger"];
  REQUIRE(trigger.is_object());
  CHECK(trigger["occurrences"].get<int>() >= 4);
  CHECK(trigger["aligned"].get<int>() * 4 >= trigger["occurrences"].get<int>() * 3);
  // A fork of ~190 MB takes a few ms; the client's usual gap is about 2 ms.
  CHECK(top["interval_ms"].get<double>() > 3.0);
  CHECK(top["interval_ms"].get<double>() < 100.0);
  std::system(("rm -rf " + dir).c_str());
}
