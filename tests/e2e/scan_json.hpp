#pragma once
// The real binary's JSON report of a scan, for end-to-end tests that read its findings.

#include "run_binary.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

namespace gapscan::testing {

/// `gapscan --quiet --output json ARGS`, which must exit 0, parsed.
inline nlohmann::json scan_json(const std::string& args) {
  const auto result = run_command(gapscan_command("--quiet --output json " + args));
  REQUIRE(result.exit_code == 0);
  return nlohmann::json::parse(result.out);
}

}  // namespace gapscan::testing
