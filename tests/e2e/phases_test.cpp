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
  const std::string faulty = "gapscan_e2e_phases_drops.log", healthy = "gapscan_e2e_phases_ok.log";
  write_proxy_log(faulty, true);
  write_proxy_log(healthy, false);
  const auto report = scan_json(faulty);
  const auto control = scan_json(healthy);
  std::remove(faulty.c_str());
  std::remove(healthy.c_str());

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
