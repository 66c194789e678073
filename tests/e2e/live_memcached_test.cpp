// The incident reproduced live: starts a private memcached on 127.0.0.1 (stopped by pid by
// the generator), runs the MediaWiki-like PHP workload with Nagle on and off, and checks
// gapscan's diagnosis on the fresh logs. scripts/test.sh installs memcached and php-memcached.

#include "run_binary.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <string>

using gapscan::testing::gapscan_command;
using gapscan::testing::run_command;

TEST_CASE("Live: memcached noreply writes with Nagle on stall one delayed ACK, with Nagle off none", "[e2e][live]") {
  const std::string dir = "live_memcached_run";
  const auto generated = run_command("rm -rf " + dir + " && " + std::string(GAPSCAN_SOURCE_DIR) +
                                         "/samples/memcached-nagle/generate.sh --quick -o " + dir,
                                     true);
  INFO(generated.out);
  REQUIRE(generated.exit_code == 0);

  const auto nagle = run_command(gapscan_command("--output json " + dir + "/memcached-nagle.log"));
  REQUIRE(nagle.exit_code == 0);
  const auto with_nagle = nlohmann::json::parse(nagle.out);
  REQUIRE_FALSE(with_nagle["findings"].empty());
  const auto& top = with_nagle["findings"][0];
  CHECK(top["cause"] == "nagle_delack_noreply_pipeline");
  CHECK(top["confidence"].get<double>() >= 0.6);
  // 40 ms TCP_DELACK_MIN plus at most one tick of this kernel (1-10 ms for HZ 1000-100).
  CHECK(top["interval_hi_ms"].get<double>() > 40.0);
  CHECK(top["interval_hi_ms"].get<double>() < 51.0);

  const auto nodelay = run_command(gapscan_command("--output json " + dir + "/memcached-nodelay.log"));
  REQUIRE(nodelay.exit_code == 0);
  const auto without_nagle = nlohmann::json::parse(nodelay.out);
  for (const auto& finding : without_nagle["findings"]) {
    CHECK(finding["confidence"].get<double>() < 0.6);
  }
  std::system(("rm -rf " + dir).c_str());
}
