// The first real diagnosis: the real binary on logs made by really running memcached with
// php-memcached configured as MediaWiki's MemcachedPeclBagOStuff (samples/memcached-nagle/).

#include "run_binary.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>

using gapscan::testing::gapscan_command;
using gapscan::testing::run_command;

namespace {

nlohmann::json scan_json(const std::string& file) {
  const auto result = run_command(gapscan_command("--output json " + std::string(GAPSCAN_SOURCE_DIR) + "/" + file));
  REQUIRE(result.exit_code == 0);
  return nlohmann::json::parse(result.out);
}

}  // namespace

TEST_CASE("Nagle on: the delayed-ACK cause is ranked first with this machine's 44 ms", "[e2e][samples]") {
  const auto report = scan_json("samples/memcached-nagle.log");
  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  CHECK(top["rank"] == 1);
  CHECK(top["cause"] == "nagle_delack_noreply_pipeline");
  CHECK(top["confidence"].get<double>() >= 0.6);
  CHECK(top["likely"] == true);
  // The stall ends on the HZ=250 lattice value (40 ms + one 4 ms tick); work done between the
  // noreply write and the read shortens the logged gap, so the mode is a band below 44 ms.
  CHECK(top["delay"]["value_ms"] == 44.0);
  CHECK(top["interval_hi_ms"].get<double>() == Approx(44.0).margin(0.5));
  CHECK(top["interval_ms"].get<double>() > 40.0);
  CHECK(top["interval_ms"].get<double>() < 44.5);
  CHECK(top["requests"].get<int>() >= 35);
  CHECK(top["gaps"].get<int>() >= 400);
  CHECK(top["wall_share"].get<double>() > 0.5);
  CHECK(report["lines"]["unparsed"] == 0);
  CHECK(report["lines"]["total"] == report["lines"]["records"]);
}

TEST_CASE("Nagle off (TCP_NODELAY): no suspect reaches confidence 0.6", "[e2e][samples]") {
  const auto report = scan_json("samples/memcached-nodelay.log");
  for (const auto& finding : report["findings"]) {
    INFO(finding["cause"] << " at " << finding["interval_ms"] << " ms");
    CHECK(finding["confidence"].get<double>() < 0.6);
  }
  const auto text = run_command(gapscan_command(std::string(GAPSCAN_SOURCE_DIR) + "/samples/memcached-nodelay.log"));
  CHECK(text.out.find("No characteristic delay found") == 0);

  // What a user checks next: the gap distribution and the largest gap with its two lines, the
  // same in the text and in JSON.
  const auto& a = report["analysis"];
  const double median = a["gap_median_ms"], p90 = a["gap_p90_ms"], p99 = a["gap_p99_ms"];
  const auto& largest = a["largest_gap"];
  REQUIRE(largest.is_object());
  const double max = largest["gap_ms"];
  CHECK(0 < median);
  CHECK(median <= p90);
  CHECK(p90 <= p99);
  CHECK(p99 <= max * 1.002);  // within the histogram's bin width
  const std::string after = largest["after"]["where"];
  const std::string before = largest["before"][0]["where"];
  CHECK(after.find("samples/memcached-nodelay.log:") != std::string::npos);
  CHECK(a["gaps"] == 3206);
  CHECK(text.out.find("Gaps between the lines of a request: 3 206; median ") != std::string::npos);
  CHECK(text.out.find("in request " + largest["request"].get<std::string>()) != std::string::npos);
  CHECK(text.out.find(before.substr(before.rfind('/') + 1)) != std::string::npos);
  CHECK(text.out.find(after.substr(after.rfind('/') + 1)) != std::string::npos);
  // The largest gap is the real largest: its two lines are that far apart.
  const auto events =
      run_command(gapscan_command("events " + std::string(GAPSCAN_SOURCE_DIR) + "/samples/memcached-nodelay.log"));
  auto time_of = [&](const std::string& where) {
    const std::string line = where.substr(where.rfind(':') + 1) + "\t";
    const std::size_t at = events.out.find("\n" + line);
    REQUIRE(at != std::string::npos);
    return std::stoll(events.out.substr(at + 1 + line.size()));
  };
  CHECK(static_cast<double>(time_of(after) - time_of(before)) / 1e6 == Approx(max).epsilon(1e-9));
}

TEST_CASE("The text report names the cause, the interval and what it implies", "[e2e][samples]") {
  const auto result = run_command(gapscan_command(std::string(GAPSCAN_SOURCE_DIR) + "/samples/memcached-nagle.log"));
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("#1  Nagle's algorithm × delayed ACK on fire-and-forget writes (memcached noreply)") !=
        std::string::npos);
  CHECK(result.out.find("CONFIG_HZ=250") != std::string::npos);
  CHECK(result.out.find("Typical gap (request ") != std::string::npos);
  CHECK(result.out.find("samples/memcached-nagle.log:") != std::string::npos);
  CHECK(result.out.find("Lines      3 251 read: 3 251 records, 0 continuation, 0 blank, 0 unparsed") !=
        std::string::npos);
}

TEST_CASE("Reading from stdin gives the same findings as reading the file", "[e2e][samples]") {
  // A file's lines keep no text while they are analysed (it is read back for the report), a
  // pipe's do: the findings, their example lines among them, are the same.
  const std::string dir = std::string(GAPSCAN_SOURCE_DIR) + "/samples/";
  for (const std::string name : {"memcached-nagle.log", "memcached-nodelay.log", "redis-bgsave/redis.log"}) {
    INFO(name);
    const std::string file = dir + name;
    const auto piped = run_command("cat " + file + " | " + gapscan_command("--output json -"));
    REQUIRE(piped.exit_code == 0);
    const auto from_pipe = nlohmann::json::parse(piped.out);
    const auto from_file = scan_json("samples/" + name);
    for (const char* part : {"findings", "streams", "timers", "runs"}) {
      INFO(part);
      std::string piped_part = from_pipe[part].dump();
      for (std::size_t at = 0; (at = piped_part.find("<stdin>", at)) != std::string::npos; at += file.size())
        piped_part.replace(at, 7, file);
      CHECK(piped_part == from_file[part].dump());
    }
  }
  const auto from_pipe = nlohmann::json::parse(
      run_command("cat " + dir + "memcached-nagle.log | " + gapscan_command("--output json -")).out);
  CHECK(from_pipe["findings"][0]["gaps"] == scan_json("samples/memcached-nagle.log")["findings"][0]["gaps"]);
}

TEST_CASE("The report is the same for any number of threads", "[e2e][samples]") {
  // The samples, and a generated log of 2 000 requests in flight whose windows come in
  // thousands (so that several threads prepare them at once and hand them back out of order).
  const std::string dir = std::string(GAPSCAN_SOURCE_DIR) + "/samples/";
  const std::string generated = "/tmp/gapscan-jobs-test-" + std::to_string(::getpid()) + ".log";
  REQUIRE(
      run_command(std::string(GAPSCAN_GEN_MWLOG) + " --size 6M --concurrent 2000 --seed 3 -o " + generated).exit_code ==
      0);
  const std::vector<std::string> inputs = {
      dir + "memcached-nagle.log", dir + "redis-bgsave/client.log.gz " + dir + "redis-bgsave/redis.log", generated};
  for (const std::string& input : inputs) {
    INFO(input);
    const auto one = run_command(gapscan_command("-j 1 --output json " + input));
    REQUIRE(one.exit_code == 0);
    REQUIRE(nlohmann::json::parse(one.out)["findings"].size() > 0);
    // From -j 4 on, lines are also parsed on other threads; batches of three lines end
    // everywhere (in stack traces, between a request's lines).
    for (const char* jobs : {"2", "3", "4", "8", "8 --parse-batch 3"}) {
      INFO("-j " << jobs);
      const auto many = run_command(gapscan_command(std::string("-j ") + jobs + " --output json " + input));
      CHECK(many.exit_code == 0);
      CHECK(one.out == many.out);
    }
  }
  std::remove(generated.c_str());
}

TEST_CASE("Redis BGSAVE: the clients' stalls are tied to the server's fork lines", "[e2e][samples]") {
  const auto result = run_command(gapscan_command("--output json " + std::string(GAPSCAN_SOURCE_DIR) +
                                                  "/samples/redis-bgsave/client.log.gz " + GAPSCAN_SOURCE_DIR +
                                                  "/samples/redis-bgsave/redis.log"));
  REQUIRE(result.exit_code == 0);
  const auto report = nlohmann::json::parse(result.out);
  REQUIRE_FALSE(report["findings"].empty());
  const auto& top = report["findings"][0];
  CHECK(top["cause"] == "fork_page_table_copy");
  CHECK(top["confidence"].get<double>() >= 0.9);
  CHECK(top["shape"] == "ONE-OFF");
  // The fork times Redis measured in this run: 17-28 ms (samples/redis-bgsave/README.md).
  CHECK(top["interval_ms"].get<double>() > 15.0);
  CHECK(top["interval_ms"].get<double>() < 30.0);
  const auto& trigger = top["trigger"];
  CHECK(trigger["occurrences"] == 8);
  CHECK(trigger["aligned"] == 8);
  REQUIRE_FALSE(trigger["examples"].empty());
  const auto& example = trigger["examples"][0];
  CHECK(example["line"].get<std::string>().find("redis.log:") != std::string::npos);
  CHECK(example["stalled_streams"].get<int>() >= 2);
  for (const auto& stall : example["stalls"]) {
    CHECK(stall["line"].get<std::string>().find("client.log.gz:") != std::string::npos);
    CHECK(stall["start_ms"].get<double>() < 0);  // the stall began before the line was written
  }
  CHECK(report["lines"]["unparsed"] == 0);
}
