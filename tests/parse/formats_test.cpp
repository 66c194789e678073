#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/format.hpp>
#include <gapscan/parse/statement.hpp>

#include <catch2/catch.hpp>

#include <string>

using namespace gapscan;
using namespace gapscan::parse;

namespace {

const FormatInfo& format_named(std::string_view name) {
  for (const FormatInfo& info : builtin_formats()) {
    if (info.name == name) return info;
  }
  FAIL("no format " << name);
  throw;
}

/// Parses with a parser that stays alive until the next call, since a record's views may
/// point into the parser's buffers.
ParseStatus parse_with(std::string_view name, std::string_view line, Record& record) {
  static std::unique_ptr<LineParser> parser;
  parser = format_named(name).make_parser();
  return parser->parse(line, record);
}

}  // namespace

TEST_CASE("Every built-in format parses its own sample line", "[parse][formats]") {
  for (const FormatInfo& info : builtin_formats()) {
    INFO(info.name);
    Record record;
    const auto parser = info.make_parser();
    std::string_view lines = info.sample;
    for (std::size_t end = lines.find('\n'); end != std::string_view::npos; end = lines.find('\n')) {
      // an entry's first lines, or a header that names the columns (W3C's "#Fields:": a comment)
      const ParseStatus status = parser->parse(lines.substr(0, end), record);
      CHECK((status == ParseStatus::part || (lines.front() == '#' && status == ParseStatus::not_this_format)));
      lines.remove_prefix(end + 1);
    }
    CHECK(parser->parse(lines, record) == ParseStatus::parsed);
    CHECK(record.time > 0);
  }
}

TEST_CASE("MediaWiki line format: the bracketed field is the request id", "[parse][formats]") {
  Record record;
  REQUIRE(parse_with("mediawiki-line",
                     "2026-11-29 21:03:04.123456 [9c1f0d3e8a2b47c5a6d7e8f9] appserver1 mywiki 1.39.10 memcached "
                     "DEBUG: MemcachedPeclBagOStuff debug: get(k) {\"class\":\"X\"}",
                     record) == ParseStatus::parsed);
  CHECK(record.group == "9c1f0d3e8a2b47c5a6d7e8f9");
  CHECK(record.channel == "memcached");
  CHECK(record.level == "DEBUG");
  CHECK(record.message == "MemcachedPeclBagOStuff debug: get(k) {\"class\":\"X\"}");
  CHECK(record.time_digits == 6);
  CHECK(parse_with("mediawiki-line", "2026-11-29T21:03:04Z [x] a b c d E: m", record) == ParseStatus::not_this_format);
  CHECK(parse_with("mediawiki-line", "2026-11-29 21:03:04 [x] a b c d lower: m", record) ==
        ParseStatus::not_this_format);
}

TEST_CASE("Monolog line format: request id from extra", "[parse][formats]") {
  Record record;
  REQUIRE(
      parse_with(
          "monolog-line",
          R"([2026-11-29T18:28:45.123456+09:00] memcached.WARNING: Lowered set() TTL {"cachekey":"k"} {"host":"web1","reqId":"3f9a"})",
          record) == ParseStatus::parsed);
  CHECK(record.group == "3f9a");
  CHECK(record.channel == "memcached");
  CHECK(record.level == "WARNING");
  REQUIRE(parse_with("monolog-line", "[2026-11-29 09:28:45] app.INFO: started [] []", record) == ParseStatus::parsed);
  CHECK(record.group.empty());
  CHECK(record.time_digits == 0);
}

TEST_CASE("Monolog JSON and Logstash JSON", "[parse][formats]") {
  Record record;
  REQUIRE(
      parse_with(
          "monolog-json",
          R"({"message":"m","context":{},"level":300,"level_name":"WARNING","channel":"memcached","datetime":"2026-11-29T18:28:45.123456+09:00","extra":{"reqId":"abc"}})",
          record) == ParseStatus::parsed);
  CHECK(record.group == "abc");
  CHECK(record.message == "m");
  CHECK(record.level == "WARNING");
  REQUIRE(
      parse_with(
          "monolog-json",
          R"({"@timestamp":"2026-11-29T09:28:45.123456+00:00","@version":1,"message":"x","channel":"c","level":"INFO","reqId":"def"})",
          record) == ParseStatus::parsed);
  CHECK(record.group == "def");
  // logstash-logback-encoder (a Spring service): the request id, else the trace id, of its MDC.
  REQUIRE(
      parse_with(
          "monolog-json",
          R"({"@timestamp":"2026-11-29T09:28:45.123+00:00","@version":"1","message":"fetched","logger_name":"c.e.Svc","thread_name":"http-nio-8080-exec-3","level":"INFO","traceId":"64f1c2","spanId":"a1"})",
          record) == ParseStatus::parsed);
  CHECK(record.group == "64f1c2");
  REQUIRE(parse_with("monolog-json",
                     R"({"@timestamp":"2026-11-29T09:28:45.123+00:00","message":"x","trace_id":"t1","requestId":"r9"})",
                     record) == ParseStatus::parsed);
  CHECK(record.group == "r9");
  CHECK(parse_with("monolog-json", R"({"message":"no time"})", record) == ParseStatus::not_this_format);
  auto parser = format_named("monolog-json").make_parser();
  CHECK(parser->parse(R"({"datetime":"2026-11-29T09:28:45Z", "message": )", record) == ParseStatus::malformed);
  CHECK(parser->reason().rfind("not valid JSON", 0) == 0);
  CHECK(parser->parse(R"({"datetime":"yesterday"})", record) == ParseStatus::malformed);
  CHECK(parser->reason() == "datetime is not an ISO-8601 time");
}

TEST_CASE("Monolog JSON: a malformed key inside extra or a date object is refused, not thrown (found by fuzzing)",
          "[parse][formats]") {
  Record record;
  const auto extra = parse_with(
      "monolog-json",
      R"({"message":"m","datetime":"2026-11-29T21:03:04+09:00","extra":{"host":"web1","wik:"miyiw"ki"}})", record);
  CHECK((extra == ParseStatus::malformed || extra == ParseStatus::parsed));
  const auto date =
      parse_with("monolog-json", R"({"datetime":{"date":"2026-11-29 21:03:04","ti:"x"y"},"message":"m"})", record);
  CHECK((date == ParseStatus::malformed || date == ParseStatus::parsed || date == ParseStatus::not_this_format));
  const auto value = parse_with("monolog-json", R"({"datetime":"2026-11-29T21:03:04Z","message":)", record);
  CHECK(value == ParseStatus::malformed);
}

TEST_CASE("Generic lines: the layout is learnt, the request id or syslog tag groups", "[parse][formats]") {
  auto parser = format_named("generic").make_parser();
  parser->learn({"Nov 29 21:03:04 web1 php-fpm[4242]: child exited", "Nov 29 21:03:05 web1 sshd[77]: accepted"},
                TimeSettings::of_input(2026, 0, nullptr));
  CHECK(parser->layout() == "month-name at line start");
  Record record;
  REQUIRE(parser->parse("Nov 29 21:03:06 web1 php-fpm[4242]: child started", record) == ParseStatus::parsed);
  CHECK(record.time == (days_from_civil(2026, 11, 29) * 86400 + 21 * 3600 + 3 * 60 + 6) * k_ns_per_s);
  CHECK(record.group == "php-fpm[4242]");
  CHECK_FALSE(record.zoned);
  REQUIRE(parser->parse("2026-11-29T21:03:04.5Z level=info request_id=r-1 msg=\"x\"", record) == ParseStatus::parsed);
  CHECK(record.group == "r-1");
  CHECK(record.zoned);
  CHECK(parser->parse("# Nov 29 21:03:06 a comment", record) == ParseStatus::not_this_format);
  CHECK(parser->parse("no time on this line", record) == ParseStatus::not_this_format);
}

TEST_CASE("Generic lines: a tagged logger's bracketed request id groups, a thread's name does not",
          "[parse][formats]") {
  auto parser = format_named("generic").make_parser();
  parser->learn({"2026-11-29T14:00:07.009Z INFO [612e7696-a6ce-4c1b-98e5-10617311d8a3] Started GET \"/x\"",
                 "2026-11-29T14:00:07.011Z INFO [612e7696-a6ce-4c1b-98e5-10617311d8a3] Processing by X#show"},
                TimeSettings::of_input(2026, 0, nullptr));
  Record record;
  // Rails' log_tags = [:request_id]: a UUID.
  REQUIRE(parser->parse("2026-11-29T14:00:07.016Z INFO [612e7696-a6ce-4c1b-98e5-10617311d8a3] Completed 200 OK in 7ms",
                        record) == ParseStatus::parsed);
  CHECK(record.group == "612e7696-a6ce-4c1b-98e5-10617311d8a3");
  // An X-Request-ID of 32 hex digits after the level and a thread.
  REQUIRE(parser->parse("2026-11-29 14:00:07,016 INFO [main] [0af7651916cd43dd8448eb211c80319c] order placed",
                        record) == ParseStatus::parsed);
  CHECK(record.group == "0af7651916cd43dd8448eb211c80319c");
  // A thread's name, a short hex word, a hex run that ends in '-': no request id.
  for (const auto& [line, token] :
       {std::pair{"2026-11-29 14:00:07,016 INFO [http-nio-8080-exec-29] c.e.Web - GET /orders",
                  "http-nio-8080-exec-29"},
        std::pair{"2026-11-29 14:00:07,016 INFO [deadbeef] cache warm", "deadbeef"},
        std::pair{"2026-11-29 14:00:07,016 INFO [0af7651916cd43dd-] odd", "0af7651916cd43dd-"}}) {
    INFO(line);
    REQUIRE(parser->parse(line, record) == ParseStatus::parsed);
    CHECK(record.group != token);
    CHECK(record.group.find("0af76519") == std::string_view::npos);
  }
}

TEST_CASE("Generic lines: process keys, boot-relative and long epoch stamps, slow-log headers", "[parse][formats]") {
  auto read = [](std::vector<std::string> lines) {
    auto parser = format_named("generic").make_parser();
    parser->learn(lines, TimeSettings::of_input(2026, 0, nullptr));
    std::vector<std::pair<TimeNs, std::string>> out;
    Record record;
    for (const std::string& line : lines) {
      if (parser->parse(line, record) == ParseStatus::parsed) out.emplace_back(record.time, std::string(record.group));
    }
    return out;
  };
  const auto strace = read({"12345 21:03:04.123456 read(3, \"x\", 1) = 1", "[pid 77] 21:03:04.323456 close(3) = 0"});
  REQUIRE(strace.size() == 2);
  CHECK(strace[0].second == "12345");
  CHECK(strace[1].second == "pid 77");
  const auto mixed = read({"1234:M 29 Nov 2026 21:03:04.123 * Background saving started by pid 99",
                           "2026-11-29 21:03:04.123 UTC [4321] LOG:  checkpoint starting: time",
                           "2026/11/29 21:03:04 [error] 1234#0: *57 upstream timed out"});
  REQUIRE(mixed.size() == 3);
  CHECK(mixed[0].second == "1234:M");
  CHECK(mixed[1].second == "[4321]");
  CHECK(mixed[2].second == "*57");
  const auto dmesg = read({"[    0.000000] Linux version 6.1.0", "[   12.345678] EXT4-fs (vda1): mounted"});
  REQUIRE(dmesg.size() == 2);
  CHECK(dmesg[1].first - dmesg[0].first == 12345678000);
  const auto journal = read({R"({"__REALTIME_TIMESTAMP":"1764450184123456","_PID":"4242","MESSAGE":"a"})",
                             R"({"__REALTIME_TIMESTAMP":"1764450184223456","_PID":"4242","MESSAGE":"b"})"});
  REQUIRE(journal.size() == 2);
  CHECK(journal[0].first == 1764450184123456000);
  CHECK(journal[0].second == "4242");
  // PHP-FPM: the master's slow warning, the slow log's record header: one key per worker
  const auto fpm =
      read({"[09-Nov-2025 18:28:50] WARNING: [pool www] child 4242, script '/srv/w/index.php' "
            "(request: \"GET /index.php\") executing too slow (5.012345 sec), logging",
            "[09-Nov-2025 18:28:50]  [pool www] pid 4242"});
  REQUIRE(fpm.size() == 2);
  CHECK(fpm[0].second == "child 4242");
  CHECK(fpm[1].second == "child 4242");
  const auto apache =
      read({"[Sun Nov 09 18:28:45.123456 2025] [proxy_fcgi:error] [pid 1234:tid 1402] [client "
            "203.0.113.7:51234] AH01071: Got error 'PHP message: x'"});
  REQUIRE(apache.size() == 1);
  CHECK(apache[0].second == "pid 1234:tid 1402");
  // LegacyLogger group file: the request id MediaWiki puts in front of exception messages
  const auto group_file = read({"2025-11-09 09:28:45 web1 mywiki: Lowered set() TTL for k due to snapshot lag",
                                "2025-11-09 09:28:46 web1 mywiki: [9c1f0d3e8a2b47c5a6d7e8f9] /w/index.php   "
                                "Wikimedia\\Rdbms\\DBQueryError: Error 1205"});
  REQUIRE(group_file.size() == 2);
  CHECK(group_file[0].second.empty());
  CHECK(group_file[1].second == "9c1f0d3e8a2b47c5a6d7e8f9");
  const auto micros = read({"1764450184123456 get k", "1764450184167579 set k"});
  REQUIRE(micros.size() == 2);
  CHECK(micros[1].first - micros[0].first == 44'123'000);
  const auto nanos = read({"1764450184123456789 get k", "1764450184167579000 set k"});
  REQUIRE(nanos.size() == 2);
  CHECK(nanos[0].first == 1764450184123456789);
  const auto slow = read({"# Time: 2026-11-29T21:03:04.123456Z", "# Query_time: 2.000123  Lock_time: 0.000000"});
  REQUIRE(slow.size() == 1);
  CHECK(slow[0].first % k_ns_per_s == 123456000);
}

TEST_CASE("Access logs: combined, with msec, request time, request ids, and PHP-FPM's", "[parse][formats]") {
  Record r;
  // nginx combined + $request_time $upstream_response_time $request_id $msec
  REQUIRE(parse_with("access-log",
                     "203.0.113.7 - - [09/Nov/2025:18:28:45 +0900] \"GET /wiki/Foo HTTP/2.0\" 200 48213 \"-\" "
                     "\"Mozilla/5.0 (X11; Linux)\" 0.534 0.531 4f1c2b8e9d0a7f6e5c3b2a1908d7e6f5 1762680525.657",
                     r) == ParseStatus::parsed);
  CHECK(r.time == 1762680525657000000);  // $msec, not the whole second of $time_local
  CHECK(r.time_digits == 3);
  CHECK(r.duration == 534000000);
  CHECK(r.duration_digits == 3);
  CHECK(r.group == "4f1c2b8e9d0a7f6e5c3b2a1908d7e6f5");

  // Apache combined + %D %{UNIQUE_ID}e, an escaped quote in the request
  REQUIRE(parse_with("access-log",
                     "203.0.113.7 - alice [09/Nov/2025:18:28:45 +0900] \"GET /w?q=\\\"x\\\" HTTP/1.1\" 200 - \"-\" "
                     "\"curl/8.5.0\" 534211 ZRDxrX8AAQEAAC1gVfcAAAAB",
                     r) == ParseStatus::parsed);
  CHECK(r.time == 1762680525000000000);
  CHECK(r.time_digits == 0);
  CHECK(r.duration == 534211000);
  CHECK(r.duration_digits == 6);
  CHECK(r.group == "ZRDxrX8AAQEAAC1gVfcAAAAB");

  // Common log format, nothing appended: no duration, no group
  REQUIRE(parse_with("access-log", "10.0.0.1 - - [29/Nov/2026:21:03:04 +0000] \"POST /api.php HTTP/1.1\" 502 157", r) ==
          ParseStatus::parsed);
  CHECK(r.duration == -1);
  CHECK(r.group.empty());

  // PHP-FPM: no brackets, empty %u, free-form tail: only pairs are read
  REQUIRE(parse_with("access-log", "127.0.0.1 -  09/Nov/2025:18:28:44 +0900 \"GET /index.php\" 200", r) ==
          ParseStatus::parsed);
  CHECK(r.time == 1762680524000000000);
  REQUIRE(parse_with("access-log",
                     "10.0.0.7 - - 09/Nov/2025:18:28:44 +0900 \"POST /api.php?action=edit\" 200 /srv/w/api.php "
                     "534.211 26624 87.11% pid=4242 rid=3f9a6c1d2b7e8f0a4c5d6e7f",
                     r) == ParseStatus::parsed);
  CHECK(r.group == "3f9a6c1d2b7e8f0a4c5d6e7f");
  CHECK(r.duration == -1);  // %d's unit (s or ms) cannot be told from the line
  REQUIRE(parse_with("access-log", "10.0.0.7 - - 09/Nov/2025:18:28:44 +0900 \"GET /index.php\" 200 rt=0.052", r) ==
          ParseStatus::parsed);
  CHECK(r.duration == 52000000);

  for (const char* other : {"2026-11-29 21:03:04 [error] 12#0: *5 upstream timed out",
                            "[Sun Nov 09 18:28:45.123456 2025] [mpm_event:notice] [pid 1:tid 1] AH00489: ready",
                            "203.0.113.7 - - [09/Nov/2025:18:28:45 +0900] GET / 200"}) {
    INFO(other);
    CHECK(parse_with("access-log", other, r) == ParseStatus::not_this_format);
  }
}

TEST_CASE("strace -r: deltas summed into a time from the start of the trace", "[parse][formats]") {
  auto parser = format_named("strace-relative").make_parser();
  Record r;
  REQUIRE(parser->parse("     0.000000 execve(\"/usr/bin/php\", [\"php\"], 0x7ffd /* 20 vars */) = 0", r) ==
          ParseStatus::parsed);
  CHECK(r.time == 0);
  REQUIRE(parser->parse("[pid  4242]      0.044123 sendto(3, \"set k\", 5, MSG_NOSIGNAL, NULL, 0) = 5", r) ==
          ParseStatus::parsed);
  CHECK(r.time == 44'123'000);
  CHECK(r.group == "pid  4242");
  REQUIRE(parser->parse("4243       0.000051 <... recvfrom resumed>\"END\\r\\n\", 8192, 0, NULL, NULL) = 5", r) ==
          ParseStatus::parsed);
  CHECK(r.time == 44'174'000);
  CHECK(r.group == "4243");
  CHECK(r.time_digits == 6);
  for (const char* other : {"     0.044123 seconds elapsed", "21:03:04.123456 read(3, \"x\", 1) = 1",
                            "1764450184.123456 read(3, \"x\", 1) = 1", "0.5 read(3)"}) {
    INFO(other);
    CHECK(parser->parse(other, r) == ParseStatus::not_this_format);
  }
}

TEST_CASE("Access logs name their fields: method, path, status, cache status and Set-Cookie", "[parse][formats]") {
  Record r;
  // varnishncsa -F with %D, %{Varnish:handling}x and %{Set-Cookie}o, read by shape.
  REQUIRE(parse_with("access-log",
                     R"(66.249.66.4 - - [02/Dec/2026:09:14:00 +0000] "GET /news/48192 HTTP/1.1" 200 59390 "-" )"
                     R"x("Mozilla/5.0 (compatible; Googlebot/2.1)" 142890 miss "PHPSESSID=9944ljnvqes; path=/")x",
                     r) == ParseStatus::parsed);
  CHECK(r.completion);
  CHECK(key_value(r.fields, "method") == "GET");
  CHECK(key_value(r.fields, "path") == "/news/48192");
  CHECK(key_value(r.fields, "status") == "200");
  CHECK(key_value(r.fields, "cache_status") == "miss");
  CHECK(key_value(r.fields, "set_cookie") == "PHPSESSID=9944ljnvqes; path=/");
  // nginx with "$upstream_cache_status" quoted; a request's Cookie header is no Set-Cookie.
  REQUIRE(parse_with("access-log",
                     R"(10.0.0.1 - - [02/Dec/2026:09:14:00 +0000] "POST /login HTTP/2.0" 302 0 "-" "curl/8.5.0" )"
                     R"(0.140 "BYPASS" "sid=abc; theme=dark")",
                     r) == ParseStatus::parsed);
  CHECK(key_value(r.fields, "method") == "POST");
  CHECK(key_value(r.fields, "cache_status") == "BYPASS");
  CHECK(key_value(r.fields, "set_cookie").empty());
  // A common-format line: the fields it has.
  REQUIRE(parse_with("access-log", "10.0.0.1 - - [29/Nov/2026:21:03:04 +0000] \"GET /x HTTP/1.1\" 404 157", r) ==
          ParseStatus::parsed);
  CHECK(r.fields == "method=GET path=/x status=404");
}

TEST_CASE("Named fields are written so that key_value reads them back", "[parse][fields]") {
  std::string block;
  append_field(block, "status", "200");
  append_field(block, "referer", "-");  // nothing logged: not written
  append_field(block, "set_cookie", "a=\"1\"; path=/");
  append_field(block, "agent", "Mozilla/5.0 (X11, Linux)");
  CHECK(block == R"x(status=200 set_cookie="a='1'; path=/" agent="Mozilla/5.0 (X11, Linux)")x");
  CHECK(key_value(block, "set_cookie") == "a='1'; path=/");
  CHECK(key_value(block, "agent") == "Mozilla/5.0 (X11, Linux)");
  CHECK(canonical_field_name("upstream_cache_status") == "cache_status");
  CHECK(canonical_field_name("sent_http_set_cookie") == "set_cookie");
  CHECK(canonical_field_name("varnish_handling") == "cache_status");
  CHECK(canonical_field_name("body_bytes_sent").empty());
}

TEST_CASE("Phase timers: curl's cumulative timers as phases, nginx's upstream timers, a queue wait",
          "[parse][phases]") {
  const auto phase = [](const Record& r, Phase p) { return r.phases[static_cast<std::size_t>(p)]; };
  auto parser = format_named("generic").make_parser();
  parser->learn({"2026-12-01T22:41:19.440810Z INFO client req=1 op=start url=http://a/"},
                TimeSettings::of_input(2026, 0, nullptr));
  Record record;
  // curl's -w timers, cumulative from the start: connect less namelookup, starttransfer less connect.
  REQUIRE(parser->parse("2026-12-01T22:41:19.688825Z INFO client req=1 op=response namelookup_ms=1.5 "
                        "connect_ms=202.5 starttransfer_ms=205.0 ms=206.0 ok",
                        record) == ParseStatus::parsed);
  CHECK(phase(record, Phase::lookup) == 1'500'000);
  CHECK(phase(record, Phase::connect) == 201'000'000);
  CHECK(phase(record, Phase::response) == 2'500'000);
  CHECK(record.duration == 206'000'000);  // the line's own total, not its first timer
  // Timers of phases that do not add up (a pool's queue, a lock wait): as written.
  REQUIRE(parser->parse("2026-12-01T22:41:20Z INFO api req=2 queue_ms=35 lock_wait_ms=12 duration_ms=80", record) ==
          ParseStatus::parsed);
  CHECK(phase(record, Phase::queue) == 35'000'000);
  CHECK(phase(record, Phase::lock) == 12'000'000);
  CHECK(record.duration == 80'000'000);
  // A count is not a time: no unit, no phase.
  record = Record{};  // as the reader hands each line a fresh one
  REQUIRE(parser->parse("2026-12-01T22:41:21Z INFO api req=3 queue=3 took 5 ms", record) == ParseStatus::parsed);
  CHECK(phase(record, Phase::queue) == -1);

  // nginx's log_format with rt=$request_time uct="$upstream_connect_time" uht=… urt=…
  Record access;
  REQUIRE(parse_with("access-log",
                     "10.0.0.1 - - [29/Nov/2026:21:03:04 +0000] \"GET /a HTTP/1.1\" 200 512 \"-\" \"curl/8\" "
                     "rt=1.052 uct=\"1.001\" uht=\"1.050\" urt=\"1.051\"",
                     access) == ParseStatus::parsed);
  CHECK(access.duration == 1'052'000'000);
  CHECK(phase(access, Phase::connect) == 1'001'000'000);
  CHECK(phase(access, Phase::response) == 49'000'000);
  CHECK(phase(access, Phase::transfer) == 1'000'000);
  // $upstream_response_time alone is the upstream's response, not a transfer.
  access = Record{};
  REQUIRE(parse_with("access-log",
                     "10.0.0.1 - - [29/Nov/2026:21:03:04 +0000] \"GET /a HTTP/1.1\" 200 512 \"-\" \"curl/8\" "
                     "upstream_response_time=0.040",
                     access) == ParseStatus::parsed);
  CHECK(phase(access, Phase::response) == 40'000'000);
  CHECK(phase(access, Phase::transfer) == -1);
}

TEST_CASE("Phase timers: nginx's lists after an upstream retry are summed", "[parse][phases]") {
  Record access;
  REQUIRE(parse_with("access-log",
                     "10.0.0.1 - - [29/Nov/2026:21:03:04 +0000] \"GET /a HTTP/1.1\" 200 512 \"-\" \"curl/8\" "
                     "rt=2.060 uct=\"1.001, 1.004\" uht=\"-, 2.050\" urt=\"1.002 : 1.055\"",
                     access) == ParseStatus::parsed);
  const auto phase = [&](Phase p) { return access.phases[static_cast<std::size_t>(p)]; };
  CHECK(phase(Phase::connect) == 2'005'000'000);  // both attempts' connects
  CHECK(access.duration == 2'060'000'000);
}

TEST_CASE("HAProxy httplog and tcplog: the timers as phases, the captured id as the request key",
          "[parse][phases][haproxy]") {
  const auto phase = [](const Record& r, Phase p) { return r.phases[static_cast<std::size_t>(p)]; };
  Record record;
  // The default httplog after an RFC 3164 syslog header.
  REQUIRE(parse_with(
              "haproxy",
              "<134>Dec  7 09:26:11 lb1 haproxy[23534]: 10.0.1.2:46774 [07/Dec/2026:09:26:10.238] fe~ be/srv1 "
              "0/3/1014/1/1019 200 117 - - ---- 3/3/2/1/0 0/1 {6f1c2b8e-9d0a-4f6e-8c3b-2a1908d7e6f5|www.example.org} "
              "{} \"GET /cart?id=7 HTTP/1.1\"",
              record) == ParseStatus::parsed);
  CHECK(phase(record, Phase::request) == 0);
  CHECK(phase(record, Phase::queue) == 3'000'000);
  CHECK(phase(record, Phase::connect) == 1'014'000'000);
  CHECK(phase(record, Phase::response) == 1'000'000);
  CHECK(phase(record, Phase::transfer) == 1'000'000);  // the total less the others
  CHECK(record.duration == 1'019'000'000);
  CHECK(record.group == "6f1c2b8e-9d0a-4f6e-8c3b-2a1908d7e6f5");
  CHECK(record.completion);
  // The line is written at the end: the accept date plus the total.
  CHECK(record.time % 1'000'000'000 == 257'000'000);
  CHECK(record.time_digits == 3);
  CHECK(key_value(record.fields, "status") == "200");
  CHECK(key_value(record.fields, "path") == "/cart?id=7");
  CHECK(key_value(record.fields, "backend") == "be");
  CHECK(key_value(record.fields, "termination") == "----");
  CHECK(key_value(record.fields, "retries").empty());

  // Raw (`log stdout format raw`), a phase that never happened (-1), a host as the only capture.
  REQUIRE(parse_with("haproxy",
                     "10.0.1.2:46775 [07/Dec/2026:09:26:11.000] fe be/<NOSRV> 0/5001/-1/-1/5001 503 217 - - sQ-- "
                     "9/9/8/0/+2 0/7 {www.example.org} \"GET / HTTP/1.1\"",
                     record) == ParseStatus::parsed);
  CHECK(phase(record, Phase::queue) == 5'001'000'000);
  CHECK(phase(record, Phase::connect) == -1);
  CHECK(phase(record, Phase::response) == -1);
  CHECK(record.group.empty());  // a host is no request id
  CHECK(key_value(record.fields, "termination") == "sQ--");
  CHECK(key_value(record.fields, "retries") == "2");

  // tcplog: Tw/Tc/Tt.
  REQUIRE(parse_with("haproxy",
                     "Dec  7 12:12:51 lb1 haproxy[14387]: 10.0.1.2:33313 [07/Dec/2026:12:12:51.443] fnt bck/srv1 "
                     "0/1002/5007 212 -- 0/0/0/0/3 0/0",
                     record) == ParseStatus::parsed);
  CHECK(phase(record, Phase::queue) == 0);
  CHECK(phase(record, Phase::connect) == 1'002'000'000);
  CHECK(record.duration == 5'007'000'000);

  // Not HAProxy: an access log, a line with an address but no timers.
  CHECK(parse_with("haproxy", "10.0.0.1 - - [29/Nov/2026:21:03:04 +0000] \"GET /a HTTP/1.1\" 200 512", record) ==
        ParseStatus::not_this_format);
  CHECK(parse_with("haproxy", "2026-12-07 10.0.0.1:80 [07/Dec/2026:09:26:10.238] connected", record) ==
        ParseStatus::not_this_format);
}

TEST_CASE("MySQL and MariaDB slow query logs: one record per entry, at its statement", "[parse][phases][slow_log]") {
  auto parser = format_named("mysql-slow").make_parser();
  parser->learn({}, TimeSettings::of_input(2026, 0, nullptr));
  Record record;
  const auto part = [&](std::string_view line) { return parser->parse(line, record) == ParseStatus::part; };
  // MySQL 8.0: an ISO # Time with microseconds and a zone, the statement over two lines.
  CHECK(part("/usr/sbin/mysqld, Version: 8.0.35 (MySQL Community Server - GPL). started with:"));
  CHECK(part("Tcp port: 3306  Unix socket: /var/run/mysqld/mysqld.sock"));
  CHECK(part("Time                 Id Command    Argument"));
  CHECK(part("# Time: 2026-12-07T10:00:01.250000Z"));
  CHECK(part("# User@Host: app[app] @ localhost []  Id:    12"));
  CHECK(part("# Query_time: 2.000123  Lock_time: 0.000002 Rows_sent: 0  Rows_examined: 0"));
  CHECK(part("use shop;"));
  CHECK(part("SET timestamp=1796637601;"));
  REQUIRE(parser->parse("UPDATE stock SET n = n + 1", record) == ParseStatus::parsed);
  CHECK(record.duration == 2'000'123'000);
  CHECK(record.duration_digits == 6);
  CHECK(record.time == 1'796'637'601'250'000'000 + 2'000'123'000);  // the start, refined by # Time, plus the query
  CHECK(record.statement == "UPDATE stock SET n = n + 1");
  CHECK(record.phases[static_cast<std::size_t>(Phase::lock)] == 2'000);
  CHECK(key_value(record.fields, "database") == "mysql");
  CHECK(key_value(record.fields, "rows_examined") == "0");
  CHECK(part("WHERE id = 3;"));  // the statement's next line
  // MariaDB: # Time only when the second changes; the next entry in the same second has none.
  CHECK(part("# User@Host: jobsvc[jobsvc] @ localhost [127.0.0.1]"));
  CHECK(part("# Thread_id: 10  Schema: payments  QC_hit: No"));
  CHECK(part("# Query_time: 2.281724  Lock_time: 0.002381  Rows_sent: 0  Rows_examined: 1"));
  CHECK(part("# Rows_affected: 1  Bytes_sent: 52"));
  CHECK(part("SET timestamp=1796166980;"));
  REQUIRE(parser->parse("UPDATE accounts SET balance = balance + 45259 WHERE id = 2;", record) == ParseStatus::parsed);
  CHECK(record.time == 1'796'166'980'000'000'000 + 2'281'724'000);
  CHECK(record.time_digits == 0);
  CHECK(key_value(record.fields, "schema") == "payments");
  // Outside an entry: not this format.
  auto fresh = format_named("mysql-slow").make_parser();
  CHECK(fresh->parse("UPDATE t SET a = 1;", record) == ParseStatus::not_this_format);
  CHECK(fresh->parse("# a comment", record) == ParseStatus::not_this_format);
}

TEST_CASE("Statement fingerprints: values masked, lists folded, names kept", "[parse][slow_log]") {
  CHECK(statement_fingerprint("UPDATE accounts SET balance = balance + 30714, updated_at = CURRENT_TIMESTAMP "
                              "WHERE id = 3;") ==
        "UPDATE accounts SET balance = balance + ?, updated_at = CURRENT_TIMESTAMP WHERE id = ?");
  CHECK(statement_fingerprint("SELECT * FROM `t2` WHERE name = 'O''Brien' AND id IN (1, 2,3)") ==
        "SELECT * FROM `t2` WHERE name = ? AND id IN (?+)");
  CHECK(statement_fingerprint("INSERT INTO log (a, b) VALUES (1, 'x'), (2, 'y'), (3, 'z')") ==
        "INSERT INTO log (a, b) VALUES (?+)");
  CHECK(statement_fingerprint("select  x1\n  from t where y = -5.5e3") == "select x1 from t where y = ?");
  CHECK(statement_fingerprint(std::string(300, 'a')).size() == 120);
  CHECK(statement_fingerprint("SELECT `a FROM t WHERE x = 1") == "SELECT `a FROM t WHERE x = 1");  // unterminated: kept
  CHECK(add_saturating(INT64_MAX - 5, 10) == INT64_MAX);
  CHECK(add_saturating(INT64_MIN + 5, -10) == INT64_MIN);
  CHECK(add_saturating(100, -10) == 90);
  CHECK(postgres_statement("duration: 989.732 ms  statement: UPDATE accounts SET balance = 1 WHERE id = 2") ==
        "UPDATE accounts SET balance = 1 WHERE id = 2");
  CHECK(postgres_statement("duration: 0.512 ms  execute S_1: SELECT 1") == "SELECT 1");
  CHECK(postgres_statement("duration: 0.512 ms") == "");
}

TEST_CASE("PostgreSQL lines: a statement's duration, a lock wait when it ends", "[parse][phases]") {
  auto parser = format_named("generic").make_parser();
  parser->learn({"2026-12-01 23:13:38.498 UTC [17544] LOG:  statement: BEGIN"},
                TimeSettings::of_input(2026, 0, nullptr));
  Record record;
  REQUIRE(parser->parse("2026-12-01 23:13:38.914 UTC [17543] 6b0f54a1.4487 5/7 jobsvc@payments app=w3 LOG:  "
                        "duration: 989.732 ms  statement: UPDATE accounts SET balance = balance + 1 WHERE id = 2",
                        record) == ParseStatus::parsed);
  CHECK(record.duration == 989'732'000);
  CHECK(record.statement == "UPDATE accounts SET balance = balance + 1 WHERE id = 2");
  record = Record{};
  REQUIRE(parser->parse("2026-12-01 23:14:35.449 UTC [17544] LOG:  process 17544 acquired ShareLock on transaction "
                        "1478 after 2064.992 ms",
                        record) == ParseStatus::parsed);
  CHECK(record.duration == 2'064'992'000);
  CHECK(record.phases[static_cast<std::size_t>(Phase::lock)] == 2'064'992'000);
  record = Record{};
  REQUIRE(parser->parse("2026-12-01 23:13:38.498 UTC [17544] LOG:  process 17544 still waiting for ShareLock on "
                        "transaction 928 after 1000.358 ms",
                        record) == ParseStatus::parsed);
  CHECK(record.duration == -1);  // the deadlock check's report, not a wait's end
}

TEST_CASE("Envoy's default access log, Traefik's JSON and Apache's %{ms}T: durations and the upstream's phase",
          "[parse][phases]") {
  Record record;
  REQUIRE(parse_with("envoy",
                     "[2026-12-07T10:00:00.310Z] \"POST /api/v1/locations HTTP/2\" 503 UF 154 91 1006 - \"10.0.35.28\" "
                     "\"nsq2http\" \"cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2\" \"locations\" \"10.0.2.1:80\"",
                     record) == ParseStatus::parsed);
  CHECK(record.duration == 1'006'000'000);
  CHECK(record.phases[static_cast<std::size_t>(Phase::response)] == -1);  // "-": the upstream never answered
  CHECK(record.group == "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2");
  CHECK(key_value(record.fields, "response_flags") == "UF");
  CHECK(key_value(record.fields, "status") == "503");
  CHECK(record.time % 1'000'000'000 == 316'000'000);  // the start plus the duration
  REQUIRE(
      parse_with("envoy",
                 "[2026-12-07T10:00:01.000Z] \"GET / HTTP/1.1\" 200 - 0 12 48 45 \"-\" \"curl/8\" \"-\" \"a\" \"b\"",
                 record) == ParseStatus::parsed);
  CHECK(record.phases[static_cast<std::size_t>(Phase::response)] == 45'000'000);
  CHECK(record.group.empty());

  // Traefik's JSON: Duration and OriginDuration in nanoseconds, the origin's time the response phase.
  auto generic = format_named("generic").make_parser();
  const std::string traefik =
      "{\"ClientHost\":\"10.0.0.5\",\"DownstreamStatus\":200,\"Duration\":1052345678,\"OriginDuration\":1050123456,"
      "\"OriginStatus\":200,\"Overhead\":2222222,\"RequestMethod\":\"GET\",\"RequestPath\":\"/api/cart/1\","
      "\"StartUTC\":\"2026-12-07T10:00:00.123456789Z\",\"level\":\"info\",\"msg\":\"\",\"time\":\"2026-12-07T10:00:"
      "01Z\"}";
  generic->learn({traefik}, TimeSettings::of_input(2026, 0, nullptr));
  Record json;
  REQUIRE(generic->parse(traefik, json) == ParseStatus::parsed);
  CHECK(json.duration == 1'052'345'678);
  CHECK(json.phases[static_cast<std::size_t>(Phase::response)] == 1'050'123'456);
}
