// Timestamps as real programs write them beyond the common layouts (issue "every timestamp in
// the wild"): lines wrapped by what collected them, relative and uptime stamps, dates in a
// header, and the long tail of layouts. Each case's lines are written here, in the shape the
// program's documentation or source gives.

#include <gapscan/parse/format_sketch.hpp>
#include <gapscan/parse/record_reader.hpp>
#include <gapscan/parse/user_format.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace gapscan;
using namespace gapscan::parse;

namespace {

constexpr TimeNs k_noon = 1796472000LL * k_ns_per_s;  // 2026-12-05 12:00:00 UTC
constexpr TimeNs k_ms = k_ns_per_ms;

struct Read {
  std::vector<LineClass> classes;
  std::vector<TimeNs> times;  ///< of the records, in order
  std::vector<std::string> groups;
  std::vector<DurationNs> durations;
  LineAccount account;
  std::string format;
};

/// Reads `lines` as one input whose file was last modified on `modified` (0: none, as stdin).
Read read_lines(const std::vector<std::string>& lines, TimeNs modified = k_noon) {
  ReaderOptions options;
  options.time = TimeSettings::of_input(0, modified, nullptr);
  RecordReader reader(options);
  reader.detect(lines);
  Read out;
  Record record;
  std::uint64_t number = 0;
  for (const std::string& line : lines) {
    out.classes.push_back(reader.read(line, LineLocation{0, 0, ++number, 0}, record));
    if (reader.record_ready()) {
      out.times.push_back(record.time);
      out.groups.emplace_back(record.group);
      out.durations.push_back(record.duration);
    }
  }
  out.account = reader.account();
  out.format = reader.detected_format();
  const LineAccount& a = out.account;
  CHECK(a.lines == lines.size());
  CHECK(a.lines == a.records + a.continuation + a.untimed + a.blank + a.comment + a.unparsed);
  return out;
}

}  // namespace

TEST_CASE("Wrapped lines: docker compose prefixes, terminal colours, syslog envelopes", "[parse][wild]") {
  SECTION("docker compose service prefixes") {
    const Read r = read_lines({"web-1  | 2026-12-05 12:00:00.100 INFO req=a1 start",
                               "web-1  | 2026-12-05 12:00:00.144 INFO req=a1 got",
                               "db-1   | 2026-12-05 12:00:00.200 LOG checkpoint starting"});
    CHECK(r.times == std::vector<TimeNs>{k_noon + 100 * k_ms, k_noon + 144 * k_ms, k_noon + 200 * k_ms});
    CHECK(r.groups[0] == "a1");
  }
  SECTION("ANSI colour escapes around the stamp, in two layouts") {
    const Read r = read_lines({"\x1b[32m2026-12-05 12:00:00.100\x1b[0m INFO req=a1 start",
                               "\x1b[32m2026-12-05 12:00:00.144\x1b[0m INFO req=a1 got",
                               "\x1b[2m[2026-12-05T12:00:00.300Z]\x1b[0m \x1b[1;31mERROR\x1b[0m req=a1 done"});
    CHECK(r.account.records == 3);
    CHECK(r.times == std::vector<TimeNs>{k_noon + 100 * k_ms, k_noon + 144 * k_ms, k_noon + 300 * k_ms});
  }
  SECTION("a syslog envelope in whole seconds around the application's finer stamp") {
    const Read r = read_lines({"Dec  5 12:00:00 host app[123]: 2026-12-05 12:00:00.100 INFO req=a1 start",
                               "Dec  5 12:00:00 host app[123]: 2026-12-05 12:00:00.144 INFO req=a1 got",
                               "Dec  5 12:00:01 host app[123]: 11:59:59.950 late line, delivered a second on",
                               "Dec  5 12:00:02 host app[123]: 2022-10-19 05:34:03.425 a replayed line"});
    CHECK(r.times ==
          std::vector<TimeNs>{k_noon + 100 * k_ms, k_noon + 144 * k_ms, k_noon - 50 * k_ms, k_noon + 2 * k_ns_per_s});
  }
}

TEST_CASE("Uptime and relative stamps: gaps exact, no wall-clock time", "[parse][wild]") {
  SECTION("JVM unified logging: uptime, uptimemillis, uptimenanos") {
    const Read seconds = read_lines({"[0.512s][info][gc] Using G1", "[0.556s][info][gc,init] Version: 17",
                                     "[1.044s][info][gc] GC(0) Pause Young (Normal) 10M->2M(256M) 4.123ms"});
    CHECK(seconds.times == std::vector<TimeNs>{512 * k_ms, 556 * k_ms, 1044 * k_ms});
    CHECK_THAT(seconds.format, Catch::Contains("no wall-clock time"));
    const Read millis = read_lines({"[512ms][info][gc] Using G1", "[556ms][info][gc] Heap region size: 1M"});
    CHECK(millis.times == std::vector<TimeNs>{512 * k_ms, 556 * k_ms});
    const Read nanos = read_lines({"[512000001ns][info][gc] Using G1", "[1556000002ns][info][gc] Periodic GC"});
    CHECK(nanos.times == std::vector<TimeNs>{512000001, 1556000002});
  }
  SECTION("both decorations: the wall clock wins") {
    const Read r = read_lines({"[2026-12-05T12:00:00.100+0000][0.512s][info][gc] Using G1",
                               "[2026-12-05T12:00:00.144+0000][0.556s][info][gc] Version: 17"});
    CHECK(r.times == std::vector<TimeNs>{k_noon + 100 * k_ms, k_noon + 144 * k_ms});
  }
  SECTION("dmesg") {
    const Read r =
        read_lines({"[    0.000000] Linux version 6.1.0-13-amd64", "[   12.345678] e1000e: eth0 NIC Link is Up"});
    CHECK(r.times == std::vector<TimeNs>{0, 12345678000});
  }
  SECTION("perf script, with and without the CPU") {
    const Read r = read_lines({"            perf  4242 [000] 12345.678901:     250000 cpu-clock:  ffffffff81 halt",
                               "         swapper     0 [001] 12345.722901:     250000 cpu-clock:  ffffffff81 halt"});
    CHECK(r.times == std::vector<TimeNs>{12345678901000, 12345722901000});
    const Read plain = read_lines({"php 4243 12345.900000: sched:sched_switch: prev_comm=php prev_pid=4243",
                                   "php 4243 12345.944000: sched:sched_switch: prev_comm=php prev_pid=4243"});
    CHECK(plain.times == std::vector<TimeNs>{12345900000000, 12345944000000});
  }
  SECTION("strace -tt and -ttt, with -f pids and unfinished/resumed pairs") {
    const Read tt = read_lines({"4242  12:00:00.100000 poll([{fd=3, events=POLLIN}], 1, 1000 <unfinished ...>",
                                "4243  12:00:00.100050 write(1, \"x\", 1) = 1 <0.000010>",
                                "4242  12:00:00.144100 <... poll resumed>) = 1 ([{fd=3, revents=POLLIN}]) <0.044050>"});
    CHECK(tt.times == std::vector<TimeNs>{k_noon + 100 * k_ms, k_noon + 100050000, k_noon + 144100000});
    CHECK(tt.groups == std::vector<std::string>{"4242", "4243", "4242"});
    CHECK_THAT(tt.format, Catch::Contains("modification time (2026-12-05)"));
    const Read ttt =
        read_lines({"1796472000.100000 write(1, \"a\", 1) = 1", "1796472000.144000 write(1, \"b\", 1) = 1"});
    CHECK(ttt.times == std::vector<TimeNs>{k_noon + 100 * k_ms, k_noon + 144 * k_ms});
  }
}

TEST_CASE("Dates in a header, times on the lines", "[parse][wild]") {
  SECTION("W3C extended log (IIS): #Fields names the columns, time-taken is the duration") {
    const Read r = read_lines(
        {"#Software: Microsoft Internet Information Services 10.0", "#Version: 1.0", "#Date: 2026-12-05 11:00:00",
         "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) "
         "sc-status sc-substatus sc-win32-status time-taken",
         "2026-12-05 12:00:00 10.0.0.1 GET /index.html - 80 - 10.0.0.2 Mozilla/5.0 200 0 0 44",
         "2026-12-05 12:00:01 10.0.0.1 GET /a.php q=1 80 - 10.0.0.2 Mozilla/5.0 200 0 0 1044"});
    CHECK(r.format == "w3c");
    CHECK(r.account.comment == 4);
    CHECK(r.times == std::vector<TimeNs>{k_noon, k_noon + k_ns_per_s});
    CHECK(r.durations == std::vector<DurationNs>{44 * k_ms, 1044 * k_ms});
  }
  SECTION("W3C rows with a time only take the #Date") {
    const Read r =
        read_lines({"#Version: 1.0", "#Date: 2026-12-05 11:00:00", "#Fields: time c-ip cs-method cs-uri sc-status",
                    "12:00:00 10.0.0.2 GET /a 200", "12:00:03 10.0.0.2 GET /b 200"},
                   0);
    CHECK(r.times == std::vector<TimeNs>{k_noon, k_noon + 3 * k_ns_per_s});
  }
  SECTION("a date line above time-only lines, and the next day's") {
    const Read r = read_lines({"=== 2026-12-05 ===", "12:00:00.100 start job 1", "12:00:00.144 job 1 step",
                               "--- Day changed Sun Dec 06 2026", "12:00:00.000 job 2"},
                              0);
    CHECK(r.classes[0] == LineClass::untimed);
    CHECK(r.times == std::vector<TimeNs>{k_noon + 100 * k_ms, k_noon + 144 * k_ms, k_noon + 86400 * k_ns_per_s});
    CHECK_THAT(r.format, Catch::Contains("dates from a header line"));
  }
  SECTION("no date anywhere: the file's modification day, or said to be assumed") {
    const Read dated = read_lines({"12:00:00.100 a", "12:00:00.144 b"});
    CHECK(dated.times.front() == k_noon + 100 * k_ms);
    const Read undated = read_lines({"12:00:00.100 a", "12:00:00.144 b"}, 0);
    CHECK(undated.times.back() - undated.times.front() == 44 * k_ms);
    CHECK_THAT(undated.format, Catch::Contains("assumed"));
  }
  SECTION("shell history: bash's #epoch and tcsh's #+epoch lines time the next command; zsh's extended history") {
    const Read bash = read_lines({"#1796472000", "ls -la", "#+1796472044", "cd /tmp"});
    CHECK(bash.classes == std::vector<LineClass>{LineClass::continuation, LineClass::record, LineClass::continuation,
                                                 LineClass::record});
    CHECK(bash.times == std::vector<TimeNs>{k_noon, k_noon + 44 * k_ns_per_s});
    const Read zsh = read_lines({": 1796472000:0;ls -la", ": 1796472044:2;cd /tmp"});
    CHECK(zsh.times == std::vector<TimeNs>{k_noon, k_noon + 44 * k_ns_per_s});
  }
}

TEST_CASE("The long tail of layouts", "[parse][wild]") {
  SECTION("glog and absl") {
    const Read r = read_lines(
        {"I1205 12:00:00.123456  1234 server.cc:12] Starting", "W1205 12:00:00.167890  1234 server.cc:40] slow"});
    CHECK(r.times == std::vector<TimeNs>{k_noon + 123456000, k_noon + 167890000});
  }
  SECTION("Redis, by process and role") {
    const Read r = read_lines({"1234:M 05 Dec 2026 12:00:00.123 * Background saving started by pid 5678",
                               "5678:C 05 Dec 2026 12:00:00.167 * DB saved on disk"});
    CHECK(r.times == std::vector<TimeNs>{k_noon + 123 * k_ms, k_noon + 167 * k_ms});
    CHECK(r.groups == std::vector<std::string>{"1234:M", "5678:C"});
  }
  SECTION("uWSGI request lines: the request's msecs is the duration") {
    const Read r =
        read_lines({"[pid: 28|app: 0|req: 1/1] 10.0.0.2 () {34 vars in 500 bytes} [Sat Dec  5 12:00:00 2026] GET /a => "
                    "generated 100 bytes in 44 msecs (HTTP/1.1 200) 2 headers in 80 bytes (1 switches on core 0)",
                    "[pid: 29|app: 0|req: 2/2] 10.0.0.2 () {34 vars in 500 bytes} [Sat Dec  5 12:00:01 2026] GET /b => "
                    "generated 100 bytes in 1044 micros (HTTP/1.1 200) 2 headers in 80 bytes (1 switches on core 1)"});
    CHECK(r.format == "uwsgi");
    CHECK(r.durations == std::vector<DurationNs>{44 * k_ms, 1044 * k_ns_per_us});
    CHECK(r.times == std::vector<TimeNs>{k_noon + 44 * k_ms, k_noon + k_ns_per_s + 1044 * k_ns_per_us});
  }
  SECTION("vdsm, sssd and OpenAM layouts") {
    const Read vdsm = read_lines({"2026-12-05 12:00:00,100+0000 INFO  (jsonrpc/1) [vdsm.api] START getStats()",
                                  "2026-12-05 12:00:00,144+0000 INFO  (jsonrpc/1) [vdsm.api] FINISH getStats"});
    CHECK(vdsm.times == std::vector<TimeNs>{k_noon + 100 * k_ms, k_noon + 144 * k_ms});
    const Read sssd = read_lines({"(2026-12-05 12:00:00): [sssd] [sbus_dispatch] (0x4000): dispatching",
                                  "(Sat Dec  5 12:00:01 2026) [sssd[be[LDAP]]] [be_ptask] (0x0400): Task started"});
    CHECK(sssd.times == std::vector<TimeNs>{k_noon, k_noon + k_ns_per_s});
    const Read openam = read_lines({"amAuthentication:12/05/2026 12:00:00:100 PM UTC: Thread[http-8080-1,5,main]",
                                    "amAuthentication:12/05/2026 12:00:00:144 PM UTC: Thread[http-8080-1,5,main]"});
    CHECK(openam.times == std::vector<TimeNs>{k_noon + 100 * k_ms, k_noon + 144 * k_ms});
  }
  SECTION("a date written just before a time no anchor points at") {
    const Read r = read_lines({"job=12|2026/12/05 12:00:00.100|started", "job=12|2026/12/05 12:00:00.144|done"}, 0);
    CHECK(r.times == std::vector<TimeNs>{k_noon + 100 * k_ms, k_noon + 144 * k_ms});
  }
  SECTION("day of the year") {
    const Read r =
        read_lines({"2026-339 12:00:00.100 start", "2026-340 00:00:01.000 next day", "2024-366 00:00:00 leap"});
    CHECK(r.times == std::vector<TimeNs>{k_noon + 100 * k_ms, k_noon + 43201 * k_ns_per_s, 1735603200LL * k_ns_per_s});
  }
  SECTION("epoch seconds as JSON floats and strings with a fraction") {
    const Read r = read_lines({R"({"ts": 1796472000.1234, "msg": "a", "req": "r1"})",
                               R"({"ts": "1796472000.1674", "msg": "b", "req": "r1"})"});
    CHECK(r.times == std::vector<TimeNs>{k_noon + 123400000, k_noon + 167400000});
  }
}

TEST_CASE("A format file sketched from a line gapscan cannot read reads that line", "[parse][wild]") {
  for (const std::string line : {"~~ 12/05/2026 12:00:00.100 | job started", "app|Sat Dec  5 12:00:00 2026|start",
                                 "12:00:00,250 worker 3 done"}) {
    INFO(line);
    const std::string sketch = sketch_format_file(line);
    REQUIRE_FALSE(sketch.empty());
    std::vector<Diagnostic> problems;
    const std::optional<FormatInfo> format = parse_format_file(sketch, "sketch", problems);
    REQUIRE(format);
    CHECK(problems.empty());
    Record record;
    CHECK(format->make_parser()->parse(line, record) == ParseStatus::parsed);
  }
  CHECK(sketch_format_file("no time on this line at all").empty());
}

TEST_CASE("Layouts found on real files after the first round: Erlang reports, IIS Advanced Logging, TAI64N",
          "[parse][wild]") {
  SECTION("an Erlang SASL report's lines continue its header") {
    const Read r = read_lines({"=INFO REPORT==== 5-Dec-2026::12:00:00 ===",
                               "msg_store_persistent: using rabbit_msg_store_ets_index to provide index", "",
                               "=ERROR REPORT==== 5-Dec-2026::12:00:03 ===", "Error in process <0.42.0> on node"});
    CHECK(r.times == std::vector<TimeNs>{k_noon, k_noon + 3 * k_ns_per_s});
    CHECK(r.account.continuation == 2);
    CHECK(r.account.unparsed == 0);
  }
  SECTION("IIS Advanced Logging: local date and time columns, TimeTakenMS") {
    const Read r =
        read_lines({"#Software: IIS Advanced Logging Module",
                    "#Fields: date-local time-local s-computername "
                    "cs-method cs-uri-stem sc-status TimeTakenMS",
                    "2026-12-05 12:00:00.100 WEB1 GET /a 200 44", "2026-12-05 12:00:01.200 WEB1 GET /b 200 1044"});
    CHECK(r.format == "w3c");
    CHECK(r.times == std::vector<TimeNs>{k_noon + 100 * k_ms, k_noon + 1200 * k_ms});
    CHECK(r.durations == std::vector<DurationNs>{44 * k_ms, 1044 * k_ms});
  }
  SECTION("TAI64N labels less 2^62, the nanoseconds after them") {
    const Read r = read_lines(
        {"@400000006b13fcc000000000 tcpserver: status: 5/30", "@400000006b13fcc002faf080 tcpserver: pid 26162"});
    CHECK(r.times == std::vector<TimeNs>{k_noon, k_noon + 50 * k_ms});
  }
}
