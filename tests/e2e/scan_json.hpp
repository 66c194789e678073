#pragma once
// The real binary's JSON report of a scan, for end-to-end tests that read its findings.

#include "run_binary.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <utility>

namespace gapscan::testing {

/// `gapscan --quiet --output json ARGS`, which must exit 0, parsed.
inline nlohmann::json scan_json(const std::string& args) {
  const auto result = run_command(gapscan_command("--quiet --output json " + args));
  REQUIRE(result.exit_code == 0);
  return nlohmann::json::parse(result.out);
}

/// A faulty log and its healthy control, each written by `write(path, faulty)` to `stem` plus
/// `.fault.log` or `.control.log`, scanned, then removed: {faulty report, control report}.
template <class Write>
std::pair<nlohmann::json, nlohmann::json> scan_fault_and_control(const std::string& stem, Write write) {
  const std::string faulty = stem + ".fault.log", healthy = stem + ".control.log";
  write(faulty, true);
  write(healthy, false);
  auto reports = std::make_pair(scan_json(faulty), scan_json(healthy));
  std::remove(faulty.c_str());
  std::remove(healthy.c_str());
  return reports;
}

}  // namespace gapscan::testing
