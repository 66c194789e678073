// Command-line behaviour of the real binary: usage errors, bad inputs, closed pipes.

#include "run_binary.hpp"

#include <gapscan/cli/progress.hpp>

#include <catch2/catch.hpp>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using gapscan::testing::gapscan_command;
using gapscan::testing::run_command;

TEST_CASE("Version, help and the command table", "[e2e][cli]") {
  const std::string version = run_command(gapscan_command("--version")).out;
  CHECK(version.rfind("gapscan 0.1.0 (commit ", 0) == 0);
  CHECK(version.find(")\n") == version.size() - 2);
  const auto help = run_command(gapscan_command("--help"));
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("  patterns   check, test or list the cause catalog") != std::string::npos);
  CHECK(help.out.find("  causes     list the causes gapscan knows") != std::string::npos);
  CHECK(run_command(gapscan_command("help scan")).out.find("--output") != std::string::npos);
  CHECK(run_command(gapscan_command("help help")).exit_code == 0);
  const auto misspelt = run_command(gapscan_command("help evnets"), true);
  CHECK(misspelt.exit_code == 2);
  CHECK(misspelt.out == "gapscan: error: help: unknown command 'evnets' (did you mean gapscan help events?)\n");
  CHECK(run_command(gapscan_command("formats")).out.find("mediawiki-line") == 0);
}

TEST_CASE("Usage errors exit 2 with a message", "[e2e][cli]") {
  const auto bad = run_command(gapscan_command("--output yaml x.log"), true);
  CHECK(bad.exit_code == 2);
  CHECK(bad.out == "gapscan: error: unknown output format 'yaml' (use text, json, markdown, html)\n");
  const auto unknown = run_command(gapscan_command("--frobnicate"), true);
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.out.find("gapscan: error: unrecognised option '--frobnicate'") == 0);
  const auto two = run_command(gapscan_command("--follow a.log b.log"), true);
  CHECK(two.exit_code == 2);
  CHECK(two.out == "gapscan: error: --follow follows one file or standard input (run one gapscan per file)\n");
  const auto folder = run_command(gapscan_command("--follow " + std::string(GAPSCAN_SOURCE_DIR) + "/samples"), true);
  CHECK(folder.exit_code == 2);
  CHECK(folder.out.find("not a folder") != std::string::npos);
  const auto trigger = run_command(gapscan_command("--trigger '(unclosed' x.log"), true);
  CHECK(trigger.exit_code == 2);
  CHECK(trigger.out.find("--trigger") != std::string::npos);
  CHECK(trigger.out.find("invalid regular expression") != std::string::npos);
}

TEST_CASE("The report option writes the report to a file, and an unwritable one fails before the scan", "[e2e][cli]") {
  const std::string sample = std::string(GAPSCAN_SOURCE_DIR) + "/samples/memcached-nagle.log";
  const std::string path = "gapscan_cli_test_report.html";
  std::remove(path.c_str());
  const auto written = run_command(gapscan_command("--output html --report " + path + " " + sample));
  CHECK(written.exit_code == 0);
  CHECK(written.out.empty());  // nothing on stdout
  std::ifstream in(path);
  std::stringstream page;
  page << in.rdbuf();
  CHECK(page.str().rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(page.str().find("nagle_delack_noreply_pipeline") != std::string::npos);
  CHECK(page.str().find("data-plot=\"timeline\"") != std::string::npos);
  std::remove(path.c_str());
  // Text into a file: no colour even when asked for auto, 80 columns.
  const std::string text_path = "gapscan_cli_test_report.txt";
  CHECK(run_command(gapscan_command("--report " + text_path + " " + sample)).exit_code == 0);
  std::ifstream text_in(text_path);
  std::stringstream text;
  text << text_in.rdbuf();
  CHECK(text.str().find("Profile") == 0);
  CHECK(text.str().find('\x1b') == std::string::npos);
  std::remove(text_path.c_str());

  const auto unwritable = run_command(gapscan_command("--report /nonexistent/dir/r.html " + sample), true);
  CHECK(unwritable.exit_code == 2);
  CHECK(unwritable.out.find("gapscan: /nonexistent/dir/r.html: error: cannot write the report") == 0);
}

TEST_CASE("A missing input is named, the others are still read, exit 1", "[e2e][cli]") {
  const auto result = run_command(gapscan_command("--output json /nonexistent/a.log " +
                                                  std::string(GAPSCAN_SOURCE_DIR) + "/samples/memcached-nagle.log"));
  CHECK(result.exit_code == 1);
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["diagnostics"][0]["where"] == "/nonexistent/a.log");
  CHECK(json["findings"][0]["cause"] == "nagle_delack_noreply_pipeline");
}

TEST_CASE("Unparsed lines are counted and shown with file and line", "[e2e][cli]") {
  const std::string path = "gapscan_cli_test_unparsed.log";
  {
    std::ofstream out(path);
    out << "2026-11-29T10:00:00.000001Z reqId=a one\n"
        << "this line is no log record\n"
        << "2026-11-29T10:00:00.000002Z reqId=a two\n";
  }
  const auto result = run_command(gapscan_command("--output json " + path));
  std::remove(path.c_str());
  const auto json = nlohmann::json::parse(result.out);
  CHECK(json["lines"]["total"] == 3);
  CHECK(json["lines"]["records"] == 2);
  CHECK(json["lines"]["unparsed"] == 1);
  CHECK(json["lines"]["unparsed_examples"][0]["where"] == path + ":2");
}

TEST_CASE("A broken catalog folder is reported with file and line, exit 2", "[e2e][cli]") {
  const std::string dir = "gapscan_cli_test_patterns";
  std::system(("mkdir -p " + dir).c_str());
  {
    std::ofstream out(dir + "/broken.toml");
    out << "id = \"broken\"\ntitle = [\n";
  }
  const auto check = run_command(gapscan_command("patterns check " + dir), true);
  const auto scan = run_command(gapscan_command("--patterns " + dir + " /dev/null"), true);
  std::system(("rm -rf " + dir).c_str());
  CHECK(check.exit_code == 2);
  CHECK(check.out.find("gapscan: " + dir + "/broken.toml:2:11: error: Error while parsing array") == 0);
  CHECK(scan.exit_code == 2);
  CHECK(scan.out.find(dir + "/broken.toml:2:11:") != std::string::npos);
  CHECK(run_command(gapscan_command("patterns check")).out.find("built-in: ") == 0);
  const auto list = run_command(gapscan_command("patterns list")).out;
  CHECK(list.find("fork_page_table_copy") != std::string::npos);
  CHECK(list.find("stalls around lines matching (?i)Background saving started by pid") != std::string::npos);
  CHECK(list.find("44 ms") != std::string::npos);
}

TEST_CASE("A closed output pipe ends the run quietly", "[e2e][cli]") {
  // PIPESTATUS[0] is gapscan's own exit status, not head's.
  const auto result =
      run_command("bash -c '" + gapscan_command(std::string(GAPSCAN_SOURCE_DIR) + "/samples/memcached-nagle.log") +
                      " | head -c 10; echo \" exit=${PIPESTATUS[0]}\"'",
                  true);
  CHECK(result.out == "Profile\n   exit=0\n");  // the first 10 bytes, then gapscan's own status
}

TEST_CASE("An empty input reports nothing characteristic", "[e2e][cli]") {
  const auto result = run_command(gapscan_command("/dev/null"));
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("No characteristic delay found") == 0);
  CHECK(result.out.find("Lines      0 read") != std::string::npos);
}

TEST_CASE("Compressed inputs are read by their magic bytes, folders filtered by globs", "[e2e][cli]") {
  const std::string dir = "gapscan_cli_test_archives";
  const std::string sample = std::string(GAPSCAN_SOURCE_DIR) + "/samples/memcached-nagle.log";
  run_command("rm -rf " + dir + " && mkdir -p " + dir + "/sub && gzip -c " + sample + " > " + dir +
              "/sub/app.log.1 && cp " + sample + " " + dir + "/skipped.txt");
  const auto result = run_command(gapscan_command("--output json --include '*.log*' " + dir));
  const auto events = run_command(gapscan_command("events " + dir + "/sub/app.log.1") + " | head -n 1");
  run_command("rm -rf " + dir);
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  REQUIRE(json["inputs"].size() == 1);
  CHECK(json["inputs"][0]["name"] == dir + "/sub/app.log.1");
  CHECK(json["inputs"][0]["encoding"] == "gzip");
  CHECK(json["inputs"][0]["format"] == "mediawiki-line");
  CHECK(json["findings"][0]["cause"] == "nagle_delack_noreply_pipeline");
  CHECK(events.out == "1\t1795986538820468000\tdfe55e7918345efcece82d1c\tmediawiki-line\n");
}

TEST_CASE("A truncated archive is named with its offset, and what was read is analysed", "[e2e][cli]") {
  const std::string path = "gapscan_cli_test_truncated.gz";
  const std::string sample = std::string(GAPSCAN_SOURCE_DIR) + "/samples/memcached-nagle.log";
  run_command("gzip -c " + sample + " | head -c 40000 > " + path);
  const auto result = run_command(gapscan_command("--output json " + path));
  std::remove(path.c_str());
  CHECK(result.exit_code == 1);
  const auto json = nlohmann::json::parse(result.out);
  const std::string error = json["inputs"][0]["error"];
  CHECK(error.rfind("gzip data ends early (truncated) at compressed byte offset 40000", 0) == 0);
  CHECK(json["lines"]["records"].get<int>() > 100);
  CHECK(json["diagnostics"][0]["where"] == path);
}

TEST_CASE("Option tz takes zone names and reads a log through the autumn change", "[e2e][cli]") {
  // 02:59 CEST, then the clocks go back: 02:05 CET is six minutes later, not 54 minutes earlier.
  const auto events = run_command("printf '2026-10-25 02:59:00 a\\n2026-10-25 02:05:00 b\\n' | " +
                                  gapscan_command("events --tz Europe/Berlin"));
  CHECK(events.exit_code == 0);
  CHECK(events.out == "1\t1792889940000000000\t-\tgeneric\n2\t1792890300000000000\t-\tgeneric\n");
  const auto unknown = run_command(gapscan_command("events --tz Mars/Olympus_Mons /dev/null"), true);
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.out.find("gapscan: error: --tz: unknown time zone 'Mars/Olympus_Mons'") == 0);
}

TEST_CASE("A clock set back is reported, not turned into a gap", "[e2e][cli]") {
  const std::string path = "gapscan_cli_test_step.log";
  {
    std::ofstream out(path);
    for (int i = 0; i < 30; ++i) out << "2026-11-29 10:00:" << (i < 10 ? "0" : "") << i << ".000 before the step\n";
    for (int i = 0; i < 30; ++i) out << "2026-11-29 09:00:" << (i < 10 ? "0" : "") << i << ".500 after the step\n";
  }
  const auto json_run = run_command(gapscan_command("--output json " + path));
  const auto text_run = run_command(gapscan_command(path));
  std::remove(path.c_str());
  REQUIRE(json_run.exit_code == 0);
  const auto json = nlohmann::json::parse(json_run.out);
  CHECK(json["analysis"]["clock_steps"] == 1);
  CHECK(json["analysis"]["largest_clock_step_s"] == 3628.5);
  CHECK(json["analysis"]["largest_clock_step_at"] == path + ":31");
  CHECK(json["analysis"]["gaps"] == 58);
  CHECK(json["analysis"]["out_of_order"] == 0);
  CHECK(text_run.out.find("1 clock step back (largest 3628.500 s before " + path + ":31") != std::string::npos);
}

TEST_CASE("gapscan causes lists the catalog and shows one cause in full", "[e2e][cli]") {
  const auto list = run_command(gapscan_command("causes"));
  CHECK(list.exit_code == 0);
  CHECK(list.out.find("tcp_syn_drop_connect_stall") != std::string::npos);
  CHECK(list.out.find("1.02 s, 2.04 s, 3.06 s, …") != std::string::npos);
  const auto one = run_command(gapscan_command("causes tcp_syn_drop_connect_stall"));
  CHECK(one.exit_code == 0);
  CHECK(one.out.find("Delays\n  1.02 s ± 20 ms") != std::string::npos);
  CHECK(one.out.find("Confirm\n") != std::string::npos);
  CHECK(one.out.find("Evidence (weight, where it is looked for)") != std::string::npos);
  const auto typo = run_command(gapscan_command("causes tcp_syn_drop_conect_stall"), true);
  CHECK(typo.exit_code == 2);
  CHECK(typo.out.find("did you mean 'tcp_syn_drop_connect_stall'?") != std::string::npos);
  const auto part = run_command(gapscan_command("causes nagle"), true);
  CHECK(part.out.find("nagle_delack_noreply_pipeline") != std::string::npos);
}

TEST_CASE("gapscan patterns test runs the examples of a catalog folder", "[e2e][cli]") {
  const auto ok = run_command(gapscan_command("patterns test " + std::string(GAPSCAN_SOURCE_DIR) + "/patterns"));
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("examples behave as they say") != std::string::npos);
  CHECK(ok.out.find("FAIL") == std::string::npos);
}

TEST_CASE("The catalog option given before the causes or patterns command belongs to it", "[e2e][cli]") {
  const std::string dir = std::string(GAPSCAN_SOURCE_DIR) + "/patterns";
  const auto causes = run_command(gapscan_command("--patterns " + dir + " causes"));
  CHECK(causes.exit_code == 0);
  CHECK(causes.out.find("causes (" + dir + ")") != std::string::npos);
  const auto check = run_command(gapscan_command("--patterns=" + dir + " patterns check"));
  CHECK(check.exit_code == 0);
  const auto both = run_command(gapscan_command("--patterns /nonexistent patterns check " + dir), true);
  CHECK(both.exit_code == 2);
  CHECK(both.out.find("two catalog folders") != std::string::npos);
}

TEST_CASE("The explain option prints the score's terms and the evidence tested", "[e2e][cli]") {
  const std::string sample = std::string(GAPSCAN_SOURCE_DIR) + "/samples/memcached-nagle.log";
  const auto explained = run_command(gapscan_command("--explain " + sample));
  CHECK(explained.exit_code == 0);
  CHECK(explained.out.find("Score      C 0.") != std::string::npos);
  CHECK(explained.out.find("R 0.") != std::string::npos);
  CHECK(explained.out.find("  pattern  +0.") != std::string::npos);
  CHECK(run_command(gapscan_command(sample)).out.find("Score      C") == std::string::npos);
}

TEST_CASE("Misspelt commands, options and values get a suggestion", "[e2e][cli]") {
  const auto command = run_command(gapscan_command("scna"), true);
  CHECK(command.exit_code == 2);
  CHECK(command.out ==
        "gapscan: error: unknown command 'scna', and no such file (did you mean gapscan scan? see "
        "gapscan help)\n");
  const auto option = run_command(gapscan_command("--outptu json x.log"), true);
  CHECK(option.exit_code == 2);
  CHECK(option.out.find("did you mean --output?") != std::string::npos);
  CHECK(run_command(gapscan_command("events --grup-by x"), true).out.find("did you mean --group-by?") !=
        std::string::npos);
  CHECK(run_command(gapscan_command("-o jsn x.log"), true).out.find("did you mean json?") != std::string::npos);
  CHECK(run_command(gapscan_command("patterns chek"), true).out.find("did you mean check?") != std::string::npos);
  CHECK(run_command(gapscan_command("causes nagle_delack_noreply"), true).out.find("did you mean") !=
        std::string::npos);
  // A word far from every command is read as a file, as before.
  CHECK(run_command(gapscan_command("/nonexistent/x.log"), true).out.find("cannot read input") != std::string::npos);
}

TEST_CASE("Option fail-on exits 3 when a suspect reaches the level, for CI", "[e2e][cli]") {
  const std::string samples = std::string(GAPSCAN_SOURCE_DIR) + "/samples/";
  CHECK(run_command(gapscan_command("--fail-on likely " + samples + "memcached-nagle.log")).exit_code == 3);
  CHECK(run_command(gapscan_command("--fail-on 0.99 " + samples + "memcached-nagle.log")).exit_code == 0);
  CHECK(run_command(gapscan_command("--fail-on likely " + samples + "memcached-nodelay.log")).exit_code == 0);
  CHECK(run_command(gapscan_command(samples + "memcached-nagle.log")).exit_code == 0);  // off by default
  const auto bad = run_command(gapscan_command("--fail-on likly x.log"), true);
  CHECK(bad.exit_code == 2);
  CHECK(bad.out.find("did you mean likely?") != std::string::npos);
  CHECK(run_command(gapscan_command("--fail-on 1.5 x.log"), true).exit_code == 2);
}

TEST_CASE("SIGINT and SIGTERM stop the reading: the report of what was read, then 130 or 143", "[e2e][cli]") {
  // The log arrives on a fifo that stays open; the signal comes once gapscan has read it.
  for (const auto& [signal, code] : {std::pair<std::string, int>{"INT", 130}, {"TERM", 143}}) {
    INFO(signal);
    // A script file, so that no shell between here and bash expands its $. The script holds
    // the fifo open itself, so gapscan's input never ends until the signal.
    std::ofstream("gapscan_signal.sh") << "rm -f gapscan_signal.fifo; mkfifo gapscan_signal.fifo\n"
                                       << gapscan_command("--output json")
                                       << " < gapscan_signal.fifo > gapscan_signal.json 2> gapscan_signal.err &\n"
                                       << "pid=$!\n"
                                       << "exec 3> gapscan_signal.fifo\n"
                                       << "cat " << GAPSCAN_SOURCE_DIR << "/samples/memcached-nagle.log >&3\n"
                                       << "sleep 1\n"
                                       << "kill -" << signal << " $pid\n"
                                       << "wait $pid; status=$?\n"
                                       << "exec 3>&-\n"
                                       << "rm -f gapscan_signal.fifo\n"
                                       << "echo $status\n";
    const auto result = run_command("bash gapscan_signal.sh", true);
    std::remove("gapscan_signal.sh");
    INFO(result.out);
    CHECK(result.out.find(std::to_string(code)) != std::string::npos);
    std::ifstream json_file("gapscan_signal.json");
    const auto json = nlohmann::json::parse(json_file, nullptr, false);
    REQUIRE_FALSE(json.is_discarded());
    REQUIRE_FALSE(json["findings"].empty());
    CHECK(json["findings"][0]["cause"] == "nagle_delack_noreply_pipeline");
    std::ifstream err_file("gapscan_signal.err");
    const std::string err((std::istreambuf_iterator<char>(err_file)), std::istreambuf_iterator<char>());
    CHECK(err.find("interrupted by SIG" + signal) != std::string::npos);
    std::remove("gapscan_signal.json");
    std::remove("gapscan_signal.err");
  }
}

TEST_CASE("An over-long line is one line, reported once, and the lines around it are read", "[e2e][cli]") {
  {
    std::ofstream out("gapscan_long.log");
    out << "2026-12-03T10:00:00.000Z level=info msg=first\n";
    out << "2026-12-03T10:00:01.000Z level=info msg=" << std::string(20u << 20, 'x') << "\n";
    out << "2026-12-03T10:00:02.000Z level=info msg=third\n";
  }
  const auto result = run_command(gapscan_command("--output json gapscan_long.log"), true);
  std::remove("gapscan_long.log");
  CHECK(result.exit_code == 0);
  const std::size_t json_at = result.out.find('{');
  REQUIRE(json_at != std::string::npos);
  CHECK(result.out.substr(0, json_at) ==
        "gapscan: gapscan_long.log:2: warning: 1 line longer than 16 MiB: each read up to there, the rest of it "
        "skipped\n");
  const auto json = nlohmann::json::parse(result.out.substr(json_at));
  CHECK(json["lines"]["total"] == 3);
  CHECK(json["lines"]["records"] == 3);
  CHECK(json["lines"]["truncated"] == 1);
  CHECK(json["lines"]["unparsed"] == 0);
}

TEST_CASE("Control bytes and invalid UTF-8 in log lines reach the terminal escaped", "[e2e][cli]") {
  // An escape sequence in a log line (here: clear the screen, set a title) must not be obeyed by
  // the terminal that shows the report; the report's own UTF-8 (→, µ) stays as it is.
  std::ofstream("gapscan_binary.log") << "\x1b[2J\x1b]0;pwned\x07 \xff\xfe not a log line\n"
                                      << "plain words, \xc2\x85 and caf\xc3\xa9\n";
  const auto result = run_command(gapscan_command("gapscan_binary.log"));
  std::remove("gapscan_binary.log");
  CHECK(result.exit_code == 0);
  CHECK(result.out.find('\x1b') == std::string::npos);
  CHECK(result.out.find('\x07') == std::string::npos);
  CHECK(result.out.find("\\x1b[2J\\x1b]0;pwned\\x07 \\xff\\xfe not a log line") != std::string::npos);
  CHECK(result.out.find("\\xc2\\x85 and caf\xc3\xa9") != std::string::npos);  // a C1 control; é kept
  CHECK(result.out.find("Lines      2 read: 0 records, 0 continuation, 0 blank, 2 unparsed") != std::string::npos);
}

namespace {

/// The times (ns) of `gapscan events` rows, in order.
std::vector<long long> times(const std::string& out) {
  std::vector<long long> t;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) t.push_back(std::stoll(line.substr(line.find('\t') + 1)));
  return t;
}

/// The report of one input (as JSON) and its exit status; every line must be accounted for.
nlohmann::json scan_bad(const std::string& path, int& exit_code, const std::string& args = "") {
  const auto result = run_command(gapscan_command("--output json " + args + path));
  exit_code = result.exit_code;
  const auto json = nlohmann::json::parse(result.out, nullptr, false);
  REQUIRE_FALSE(json.is_discarded());
  const auto& l = json["lines"];
  CHECK(l["total"].get<std::uint64_t>() == l["records"].get<std::uint64_t>() + l["continuation"].get<std::uint64_t>() +
                                               l["untimed"].get<std::uint64_t>() + l["blank"].get<std::uint64_t>() +
                                               l["comment"].get<std::uint64_t>() + l["unparsed"].get<std::uint64_t>());
  return json;
}

}  // namespace

TEST_CASE("Bad inputs: each is read as far as it can be, every line accounted for", "[e2e][cli][bad-input]") {
  const std::string dir = "gapscan_bad_inputs";
  const std::string sample = std::string(GAPSCAN_SOURCE_DIR) + "/samples/memcached-nagle.log";
  run_command("rm -rf " + dir + " && mkdir -p " + dir + "/loop && ln -s ../loop " + dir + "/loop/self");
  int code = 0;
  SECTION("random binary: unparsed lines, no crash") {
    run_command("head -c 200000 /dev/urandom > " + dir + "/random.bin");
    const auto json = scan_bad(dir + "/random.bin", code);
    CHECK(code == 0);
    CHECK(json["lines"]["records"] == 0);
    CHECK(json["lines"]["unparsed"].get<int>() > 100);
  }
  SECTION("NUL bytes, invalid UTF-8 and CRLF inside timestamped lines") {
    std::ofstream(dir + "/mixed.log") << std::string("2026-12-03T10:00:00Z a\r\n2026-12-03T10:00:01Z b\0c\r\n", 50)
                                      << "2026-12-03T10:00:02Z \xff\xfe bad utf8\n";
    const auto json = scan_bad(dir + "/mixed.log", code);
    CHECK(code == 0);
    CHECK(json["lines"]["total"] == 3);
    CHECK(json["lines"]["records"] == 3);
  }
  SECTION("a file of continuation lines only") {
    std::ofstream(dir + "/cont.log") << "   indented\n\tat Foo.bar(Foo.java:1)\n  more\n";
    const auto json = scan_bad(dir + "/cont.log", code);
    CHECK(json["lines"]["total"] == 3);
    CHECK(json["lines"]["unparsed"] == 3);  // no record before them to continue
  }
  SECTION("a missing file and a symlink loop among good inputs") {
    const auto json = scan_bad(dir + "/missing.log " + dir + "/loop " + sample, code);
    CHECK(code == 1);
    CHECK(json["findings"][0]["cause"] == "nagle_delack_noreply_pipeline");
    bool missing = false;
    for (const auto& d : json["diagnostics"]) missing |= d["where"] == dir + "/missing.log";
    CHECK(missing);
  }
  SECTION("truncated and corrupted archives: the error names the offset, what was read is counted") {
    for (const std::string kind : {"gzip", "xz", "zstd", "bzip2"}) {
      INFO(kind);
      const std::string file = dir + "/trunc." + kind;
      run_command(kind + " -c " + sample + " | head -c 20000 > " + file);
      const auto json = scan_bad(file, code);
      CHECK(code == 1);
      const std::string error = json["inputs"][0]["error"].is_string() ? json["inputs"][0]["error"] : "";
      CHECK(error.find(kind + " data ends early (truncated) at compressed byte offset 20000") == 0);
    }
    run_command("gzip -c " + sample + " > " + dir + "/bad.gz && printf '\\xff\\xff\\xff\\xff' | dd of=" + dir +
                "/bad.gz bs=1 seek=20000 conv=notrunc 2>/dev/null");
    const auto json = scan_bad(dir + "/bad.gz", code);
    CHECK(code == 1);
    const std::string damaged = json["inputs"][0]["error"].is_string() ? json["inputs"][0]["error"] : "";
    CHECK(damaged.find("gzip data is damaged at compressed byte offset") == 0);
  }
  SECTION("time-only stamps across midnight and syslog stamps across New Year keep going forward") {
    std::ofstream(dir + "/midnight.log") << "23:59:59.000 a\n00:00:01.000 b\n";
    const auto events = run_command(gapscan_command("events " + dir + "/midnight.log"));
    CHECK(events.out.find("\t-\t") != std::string::npos);
    const auto midnight = times(events.out);
    REQUIRE(midnight.size() == 2);
    CHECK(midnight[1] - midnight[0] == 2'000'000'000);
    std::ofstream(dir + "/newyear.log") << "Dec 31 23:59:59 host app[1]: a\nJan  1 00:00:01 host app[1]: b\n";
    const auto year = times(run_command(gapscan_command("events --year 2025 " + dir + "/newyear.log")).out);
    REQUIRE(year.size() == 2);
    CHECK(year[1] - year[0] == 2'000'000'000);
  }
  SECTION("an unreadable file and an unreadable folder among good inputs") {
    std::ofstream(dir + "/secret.log") << "2026-12-03T10:00:00Z a\n";
    run_command("mkdir -p " + dir + "/closed && cp " + sample + " " + dir + "/closed/x.log && chmod 000 " + dir +
                "/secret.log " + dir + "/closed");
    // Root reads anything: as root the scan runs in a user namespace of its own, where it is
    // nobody (the files stay root's, mode 000).
    std::string prefix;
    if (geteuid() == 0) {
      REQUIRE(run_command("unshare --user -- true").exit_code == 0);  // user namespaces must work here
      prefix = "unshare --user -- ";
    }
    const auto result =
        run_command(prefix + gapscan_command("--output json " + dir + "/secret.log " + dir + "/closed " + sample));
    run_command("chmod 755 " + dir + "/closed && chmod 644 " + dir + "/secret.log");
    CHECK(result.exit_code == 1);
    const auto json = nlohmann::json::parse(result.out, nullptr, false);
    REQUIRE_FALSE(json.is_discarded());
    CHECK(json["findings"][0]["cause"] == "nagle_delack_noreply_pipeline");
    std::string where;
    for (const auto& d : json["diagnostics"])
      where += d["where"].get<std::string>() + ": " + d["message"].get<std::string>() + "\n";
    INFO(where);
    CHECK(where.find(dir + "/secret.log: ") != std::string::npos);
    CHECK(where.find("Permission denied") != std::string::npos);
    CHECK(where.find(dir + "/closed") != std::string::npos);
  }
  SECTION("daylight-saving changes written as zone abbreviations: PDT to PST, CDT to CST with --tz") {
    std::ofstream(dir + "/pdt.log") << "Sun Nov  1 01:40:00 PDT 2026 a\nSun Nov  1 01:50:00 PDT 2026 b\n"
                                    << "Sun Nov  1 01:00:00 PST 2026 c\nSun Nov  1 01:10:00 PST 2026 d\n";
    std::ofstream(dir + "/cdt.log") << "2026-11-01 01:40:00 CDT a\n2026-11-01 01:50:00 CDT b\n"
                                    << "2026-11-01 01:00:00 CST c\n2026-11-01 01:10:00 CST d\n";
    for (const std::string& args : {"events " + dir + "/pdt.log", "events --tz America/Chicago " + dir + "/cdt.log"}) {
      INFO(args);
      const auto t = times(run_command(gapscan_command(args)).out);
      REQUIRE(t.size() == 4);
      for (std::size_t i = 1; i < t.size(); ++i) CHECK(t[i] - t[i - 1] == 600'000'000'000);
    }
    const auto json = scan_bad(dir + "/pdt.log", code);
    CHECK(json["analysis"]["clock_steps"] == 0);
  }
  SECTION("an empty file among good inputs: nothing read from it, no error") {
    std::ofstream(dir + "/empty.log").flush();
    const auto json = scan_bad(dir + "/empty.log " + sample, code);
    CHECK(code == 0);
    CHECK(json["inputs"][0]["lines"] == 0);
    CHECK(json["findings"][0]["cause"] == "nagle_delack_noreply_pipeline");
  }
  SECTION("corrupted zstd, bzip2 and xz: the error names the offset") {
    for (const std::string kind : {"xz", "zstd", "bzip2"}) {
      INFO(kind);
      const std::string file = dir + "/bad." + kind;
      run_command(kind + " -c " + sample + " > " + file +
                  " && printf '\\xff\\x00\\xff\\x00\\xff\\x00\\xff\\x00' | dd of=" + file +
                  " bs=1 seek=30000 conv=notrunc 2>/dev/null");
      const auto json = scan_bad(file, code);
      CHECK(code == 1);
      const std::string error = json["inputs"][0]["error"].is_string() ? json["inputs"][0]["error"] : "";
      CHECK(error.find(kind + " data is damaged at compressed byte offset") == 0);
    }
  }
  SECTION("out-of-order lines and a clock step forward: no negative gap, the step is no suspect") {
    {
      std::ofstream out(dir + "/order.log");
      for (int i = 0; i < 40; ++i) {
        const int second = i == 20 ? 5 : i;  // one line stamped 15 s behind its neighbours
        out << "2026-12-03T10:00:" << (second < 10 ? "0" : "") << second << ".000Z req=a step " << i << "\n";
      }
      for (int i = 0; i < 40; ++i)
        out << "2026-12-03T11:30:" << (i < 10 ? "0" : "") << i << ".000Z req=a after " << i << "\n";
    }
    const auto json = scan_bad(dir + "/order.log", code);
    CHECK(code == 0);
    CHECK(json["lines"]["records"] == 80);
    CHECK(json["analysis"]["out_of_order"] == 1);
    for (const auto& finding : json["findings"]) CHECK(finding["confidence"].get<double>() < 0.6);
  }
  SECTION("two formats in one file: each line read by the format that parses it") {
    std::ofstream(dir + "/two.log") << "2026-12-03T10:00:00Z level=info a\n"
                                    << "203.0.113.7 - - [03/Dec/2026:10:00:01 +0000] \"GET / HTTP/1.1\" 200 5\n"
                                    << "2026-12-03T10:00:02Z level=info b\n";
    const auto json = scan_bad(dir + "/two.log", code);
    CHECK(json["lines"]["records"] == 3);
  }
  run_command("rm -rf " + dir);
}

TEST_CASE("A progress line on a terminal's stderr only, silenced by --quiet", "[e2e][cli][progress]") {
  CHECK(gapscan::cli::Progress::line(1, 3, 250'000'000, 1'000'000'000, 2.0) ==
        "gapscan: 1 of 3 files, 250 MB of 1.00 GB, 125 MB/s, 0:06 left");
  CHECK(gapscan::cli::Progress::line(0, 1, 1'500'000, 0, 0.5) ==
        "gapscan: 0 of 1 file, 2 MB, 3 MB/s");  // stdin: no total
  // A scan that lasts about a second (the sample, then a pipe held open), under a terminal made
  // by script(1): the line is drawn and erased on stderr, the report on stdout is unchanged.
  const std::string sample = std::string(GAPSCAN_SOURCE_DIR) + "/samples/memcached-nagle.log";
  const std::string scan = "(cat " + sample + "; sleep 1) | " + gapscan_command("--output json");
  auto on_terminal = [&](const std::string& args) {
    run_command("script -qfec \"" + std::string("(cat ") + sample + "; sleep 1) | " +
                gapscan_command(args + " --output json") + " > gapscan_progress.json\" gapscan_progress.ts");
    std::ifstream in("gapscan_progress.ts");
    std::string typescript((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove("gapscan_progress.ts");
    return typescript;
  };
  const std::string shown = on_terminal("");
  CHECK(shown.find("\rgapscan: 0 of 1 file, ") != std::string::npos);
  CHECK(shown.find("\r\x1b[K") != std::string::npos);  // erased at the end
  const auto json = nlohmann::json::parse(std::ifstream("gapscan_progress.json"), nullptr, false);
  std::remove("gapscan_progress.json");
  REQUIRE_FALSE(json.is_discarded());
  CHECK(json["findings"][0]["cause"] == "nagle_delack_noreply_pipeline");
  CHECK(on_terminal("--quiet").find("gapscan: 0 of") == std::string::npos);
  // Not a terminal: nothing on stderr, the same report on stdout.
  REQUIRE(run_command("sh -c '" + scan + " >gapscan_progress.json 2>gapscan_progress.err'").exit_code == 0);
  std::ifstream err_in("gapscan_progress.err");
  const std::string err((std::istreambuf_iterator<char>(err_in)), std::istreambuf_iterator<char>());
  const auto piped = nlohmann::json::parse(std::ifstream("gapscan_progress.json"), nullptr, false);
  std::remove("gapscan_progress.err");
  std::remove("gapscan_progress.json");
  CHECK(err.empty());
  REQUIRE_FALSE(piped.is_discarded());
  CHECK(piped["findings"][0]["cause"] == "nagle_delack_noreply_pipeline");
}

TEST_CASE("Colour and width follow the terminal: --color, NO_COLOR, COLUMNS", "[e2e][cli][color]") {
  const std::string sample = std::string(GAPSCAN_SOURCE_DIR) + "/samples/memcached-nagle.log";
  const auto piped = run_command(gapscan_command(sample));
  CHECK(piped.out.find('\x1b') == std::string::npos);  // auto, not a terminal
  const auto always = run_command(gapscan_command("--color always " + sample));
  CHECK(always.out.find("\x1b[1m#1  Nagle's algorithm") != std::string::npos);
  CHECK(always.out.find("    \x1b[32mlikely\x1b[0m · confidence") != std::string::npos);
  CHECK(always.out.find("\x1b[31m^") != std::string::npos);  // the histogram's marks
  CHECK(run_command("NO_COLOR=1 " + gapscan_command("--color always " + sample)).out.find('\x1b') != std::string::npos);
  // On a terminal (script(1)): colour unless NO_COLOR or --color never; the histogram fits COLUMNS.
  auto on_terminal = [&](const std::string& environment, const std::string& args) {
    run_command("script -qfec \"env " + environment + " " + gapscan_command(args + " " + sample) +
                "\" gapscan_color.ts");
    std::ifstream in("gapscan_color.ts");
    std::string typescript((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove("gapscan_color.ts");
    return typescript;
  };
  const auto bars = [](const std::string& report) {  // columns of the histogram's bar line
    const std::size_t at = report.find("    All gaps   ");
    if (at == std::string::npos) return std::size_t{0};
    const std::string line = report.substr(at + 15, report.find('\n', at) - at - 15);
    std::size_t columns = 0;
    for (const char c : line) columns += (static_cast<unsigned char>(c) & 0xc0) != 0x80 ? 1 : 0;
    return columns;
  };
  const std::string wide = on_terminal("COLUMNS=200", "");
  CHECK(wide.find("\x1b[1m#1  ") != std::string::npos);
  CHECK(on_terminal("NO_COLOR=1 COLUMNS=200", "").find("\x1b[1m") == std::string::npos);
  CHECK(on_terminal("COLUMNS=200", "--color never").find("\x1b[1m") == std::string::npos);
  const std::string narrow = on_terminal("COLUMNS=60", "--color never");
  CHECK(bars(narrow) <= 20);
  CHECK(bars(narrow) > 0);
  CHECK(bars(narrow) < bars(piped.out));
  const auto bad = run_command(gapscan_command("--color blue " + sample), true);
  CHECK(bad.exit_code == 2);
  CHECK(bad.out.find("unknown --color value 'blue'") != std::string::npos);
}

TEST_CASE(
    "An input whose lines have no readable stamp is named on stderr and in every report, with a format file "
    "that reads it",
    "[e2e][cli][wild]") {
  std::ofstream("gapscan_unread.log") << "job=12|12:00:00.100|started\njob=12|12:00:00.144|done\n";
  REQUIRE(run_command("touch -d '2026-12-05 13:00:00' gapscan_unread.log").exit_code == 0);  // its dates
  const auto text = run_command(gapscan_command("gapscan_unread.log"), true);
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("gapscan: gapscan_unread.log:1: warning: no timestamp gapscan can read on any "
                                       "of its 2 lines"));
  CHECK_THAT(text.out, Catch::Contains("--format-file my-format.toml gapscan_unread.log"));
  CHECK_THAT(text.out, Catch::Contains("           unread gapscan_unread.log:1: no timestamp"));
  CHECK_THAT(text.out, Catch::Contains("time_layout = \"%H:%M:%S.%f\""));
  const auto markdown = run_command(gapscan_command("-o markdown gapscan_unread.log"));
  CHECK_THAT(markdown.out, Catch::Contains("  - Unread: gapscan_unread.log:1"));
  const auto html = run_command(gapscan_command("-o html gapscan_unread.log"));
  CHECK_THAT(html.out, Catch::Contains("<li>Unread: gapscan_unread.log:1"));
  const auto json = nlohmann::json::parse(run_command(gapscan_command("-o json gapscan_unread.log")).out);
  const nlohmann::json& input = json["inputs"][0];
  CHECK_THAT(input["unread"].get<std::string>(), Catch::Contains("no timestamp"));
  CHECK(json["diagnostics"][0]["severity"] == "warning");
  // The format file shown reads the file.
  std::ofstream("gapscan_unread.toml") << input["format_file_sketch"].get<std::string>();
  const auto events = run_command(gapscan_command("events --format-file gapscan_unread.toml gapscan_unread.log"));
  CHECK(events.out == "1\t1796472000100000000\t-\tmy-format\n2\t1796472000144000000\t-\tmy-format\n");
  // A file read whole is quiet.
  std::ofstream("gapscan_unread.log") << "2026-12-07T10:00:00.000Z a\n2026-12-07T10:00:01.000Z b\n";
  CHECK(run_command(gapscan_command("gapscan_unread.log"), true).out.find("warning") == std::string::npos);
  std::remove("gapscan_unread.log");
  std::remove("gapscan_unread.toml");
}

TEST_CASE("Uptime stamps are analysed as such: the report says so, and a restart is a clock step, not a gap",
          "[e2e][cli][wild]") {
  std::ofstream("gapscan_jvm.log") << "[0.512s][info][gc] start\n[1.044s][info][gc] run\n[2.100s][info][gc] run\n"
                                      "[3.000s][info][gc] run\n[0.010s][info][gc] start again\n"
                                      "[0.054s][info][gc] run again\n[0.300s][info][gc] run again\n";
  const auto json = nlohmann::json::parse(run_command(gapscan_command("-o json gapscan_jvm.log")).out);
  std::remove("gapscan_jvm.log");
  CHECK_THAT(json["inputs"][0]["format"].get<std::string>(), Catch::Contains("no wall-clock time"));
  CHECK(json["analysis"]["clock_steps"] == 1);
  CHECK(json["analysis"]["gaps"] == 5);
  CHECK(json["lines"]["records"] == 7);
}

TEST_CASE("Untimed text among timed lines is no unread warning, a line that looks timed is one", "[e2e][cli][wild]") {
  std::ofstream("gapscan_untimed.log") << "2026-12-07T10:00:00.000Z job=1 failed\nTraceback follows here\n"
                                       << "File lib.py line 3\n2026-12-07T10:00:01.000Z job=2 ok\n";
  CHECK(run_command(gapscan_command("gapscan_untimed.log"), true).out.find("warning") == std::string::npos);
  std::ofstream("gapscan_untimed.log") << "2026-12-07T10:00:00.000Z job=1 failed\njob=2|10:00:00.500|ok\n"
                                       << "2026-12-07T10:00:01.000Z job=3 ok\n";
  const auto result = run_command(gapscan_command("gapscan_untimed.log"), true);
  std::remove("gapscan_untimed.log");
  CHECK_THAT(result.out, Catch::Contains("gapscan_untimed.log:2: warning: 1 of its 3 lines have no timestamp"));
}
