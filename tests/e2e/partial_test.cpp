// Partial scans and their merge: gapscan scan --partial FILE, gapscan merge FILE... must give the
// report one scan over all the inputs gives, whatever the grouping of the inputs into partials
// and the threads each partial used.

#include "run_binary.hpp"

#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using gapscan::testing::gapscan_command;
using gapscan::testing::run_command;

namespace {

struct Scratch {
  std::string dir = "/tmp/gapscan-partial-test-" + std::to_string(::getpid());
  Scratch() { run_command("mkdir -p " + dir); }
  ~Scratch() { run_command("rm -rf " + dir); }
  std::string path(const std::string& name) const { return dir + "/" + name; }
};

std::string joined(const std::vector<std::string>& words, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) out += " " + words[i];
  return out;
}

}  // namespace

TEST_CASE("A merge of partial scans is the report of one scan over all their inputs", "[e2e][partial]") {
  const Scratch scratch;
  const std::string samples = std::string(GAPSCAN_SOURCE_DIR) + "/samples/";
  // Two generated logs with 2 000 requests in flight (thousands of windows each, early flushes,
  // trigger-aligner pruning) beside the real samples: the Redis pair is aligned across inputs.
  for (const char* seed : {"3", "4"}) {
    REQUIRE(run_command(std::string(GAPSCAN_GEN_MWLOG) + " --size 3M --concurrent 2000 --seed " + seed + " -o " +
                        scratch.path(std::string("gen") + seed + ".log"))
                .exit_code == 0);
  }
  const std::vector<std::string> inputs = {samples + "memcached-nagle.log",    samples + "redis-bgsave/client.log.gz",
                                           samples + "redis-bgsave/redis.log", scratch.path("gen3.log"),
                                           samples + "memcached-nodelay.log",  scratch.path("gen4.log")};
  const auto one = run_command(gapscan_command("-q -j 2 --output json" + joined(inputs, 0, inputs.size())));
  REQUIRE(one.exit_code == 0);
  const auto report = nlohmann::json::parse(one.out);
  REQUIRE(report["findings"].size() > 1);
  REQUIRE(report["inputs"].size() == inputs.size());
  // With -j 3 they are read one after another, each input's end marked in the analysis queue;
  // from four jobs on these inputs (none of them most of the bytes) are read several at once,
  // each with a stream table and an analysis of its own: the same report.
  for (const char* jobs : {"-j 1", "-j 3", "-j 8"}) {
    INFO(jobs);
    const auto again =
        run_command(gapscan_command(std::string("-q --output json ") + jobs + joined(inputs, 0, inputs.size())));
    CHECK(again.exit_code == 0);
    CHECK(again.out == one.out);
  }

  // Groupings of the inputs into partials (each entry: where a partial ends), and the threads
  // each partial is made with.
  const std::vector<std::vector<std::size_t>> groupings = {{1, 2, 3, 4, 5, 6}, {2, 6}, {3, 4, 6}, {5, 6}};
  const char* const jobs[] = {"1", "3", "2"};
  for (const auto& ends : groupings) {
    std::string partials;
    std::size_t begin = 0;
    for (std::size_t k = 0; k < ends.size(); ++k) {
      const std::string partial = scratch.path(fmt::format("p{}.gsp", k));
      std::string args = "-q -j ";
      args.append(jobs[k % 3]).append(" --partial ").append(partial).append(joined(inputs, begin, ends[k]));
      const auto made = run_command(gapscan_command(args));
      REQUIRE(made.exit_code == 0);
      CHECK(made.out.empty());  // no report: the evidence went to the file
      partials += " " + partial;
      begin = ends[k];
    }
    INFO("partials ending at inputs " << nlohmann::json(ends).dump());
    const auto merged = run_command(gapscan_command("merge -q --output json" + partials));
    CHECK(merged.exit_code == 0);
    CHECK(merged.out == one.out);
  }

  // The text report too, and the inputs are taken in the order the partials are given.
  run_command(gapscan_command("-q --partial " + scratch.path("a.gsp") + joined(inputs, 0, 3)));
  // (--partial -: to standard output, as over ssh)
  run_command(gapscan_command("-q --partial -" + joined(inputs, 3, inputs.size()) + " > " + scratch.path("b.gsp")));
  const auto text_one = run_command(gapscan_command("-q --color never" + joined(inputs, 0, inputs.size())));
  const auto text_merged =
      run_command(gapscan_command("merge -q --color never " + scratch.path("a.gsp") + " " + scratch.path("b.gsp")));
  CHECK(text_merged.exit_code == 0);
  CHECK(text_merged.out == text_one.out);
  const auto swapped =
      run_command(gapscan_command("merge -q --output json " + scratch.path("b.gsp") + " " + scratch.path("a.gsp")));
  REQUIRE(swapped.exit_code == 0);
  CHECK(nlohmann::json::parse(swapped.out)["inputs"][0]["name"] == inputs[3]);
}

TEST_CASE("gapscan merge refuses a partial it cannot add up, naming the file", "[e2e][partial]") {
  const Scratch scratch;
  const std::string log = std::string(GAPSCAN_SOURCE_DIR) + "/samples/memcached-nagle.log";
  const std::string good = scratch.path("good.gsp");
  REQUIRE(run_command(gapscan_command("-q --partial " + good + " " + log)).exit_code == 0);
  const auto refused = [&](const std::string& args, const std::string& file, const std::string& says) {
    const auto result = run_command(gapscan_command("merge -q " + args), true);
    INFO(result.out);
    CHECK(result.exit_code == 2);
    CHECK(result.out.find(file) != std::string::npos);
    CHECK(result.out.find(says) != std::string::npos);
  };
  SECTION("a log is not a partial") { refused(good + " " + log, log, "not a gapscan partial"); }
  SECTION("a missing file") { refused(scratch.path("none.gsp"), scratch.path("none.gsp"), "cannot open"); }
  SECTION("another format version") {
    const std::string other = scratch.path("v9.gsp");
    run_command("sed '1s/GAPSCAN-PARTIAL [0-9]*/GAPSCAN-PARTIAL 9/' " + good + " > " + other);
    refused(other, other, "format version 9");
  }
  SECTION("a cut-off partial") {
    const std::string cut = scratch.path("cut.gsp");
    run_command("head -c 5000 " + good + " > " + cut);
    refused(good + " " + cut, cut, "damaged");
  }
  SECTION("grouped otherwise") {
    const std::string other = scratch.path("none.gsp");
    REQUIRE(run_command(gapscan_command("-q --group-by none --partial " + other + " " + log)).exit_code == 0);
    refused(good + " " + other, other, "grouped otherwise");
  }
  SECTION("other trigger lines than the merge's") {
    const std::string other = scratch.path("trigger.gsp");
    REQUIRE(run_command(gapscan_command("-q --trigger 'BGSAVE' --partial " + other + " " + log)).exit_code == 0);
    refused(other, other, "other trigger or evidence lines");
    const auto same = run_command(gapscan_command("merge -q --trigger 'BGSAVE' " + other));
    CHECK(same.exit_code == 0);
  }
  SECTION("no partial, or --follow") {
    CHECK(run_command(gapscan_command("merge")).exit_code == 2);
    CHECK(run_command(gapscan_command("merge --follow " + good)).exit_code == 2);
    CHECK(run_command(gapscan_command("--partial x.gsp --follow " + log)).exit_code == 2);
  }
}
