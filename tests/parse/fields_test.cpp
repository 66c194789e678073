#include <gapscan/parse/fields.hpp>

#include <catch2/catch.hpp>

using namespace gapscan;
using namespace gapscan::parse;

TEST_CASE("Request ids from key=value pairs", "[parse][fields]") {
  CHECK(find_request_id_pair("level=info reqId=abc123 msg=x") == "abc123");
  CHECK(find_request_id_pair("level=info request_id=\"r 1\" msg=x") == "r 1");
  CHECK(find_request_id_pair("msg=\"a=b\" RID=zz,other") == "zz");
  CHECK(find_request_id_pair("user=bob id=7") == "");
  CHECK(find_request_id_pair("trace_id=") == "");
  // The names everyday services use, best first: a request before its trace, a transaction,
  // a connection, a session, a span.
  CHECK(find_request_id_pair("ts=1 req=42 op=get ms=3") == "42");
  CHECK(find_request_id_pair("span_id=s1 session=u9 conn=c7 txn=t3 trace_id=tr req=r1") == "r1");
  CHECK(find_request_id_pair("span_id=s1 session=u9 conn=c7") == "c7");
  CHECK(find_request_id_pair("session_id=abc span_id=s1") == "abc");
  // A plain word's value must look like an id: a quoted request line is not one.
  CHECK(find_request_id_pair("request=\"GET /a HTTP/1.1\" status=200") == "");
  CHECK(find_request_id_pair("request=\"GET /a HTTP/1.1\" rid=z") == "z");
  CHECK(find_request_id_pair("req=- msg=x") == "");
  // An access log's line is one request: its connection does not group.
  CHECK(find_request_id_pair("conn=17 status=200", 1) == "");
  CHECK(find_request_id_pair("conn=17 trace_id=t", 1) == "t");
}

TEST_CASE("The operation a line names", "[parse][fields]") {
  CHECK(find_operation("ts=1 req=4 op=connect ms=1002") == "connect");
  CHECK(find_operation("cmd=\"GET\" key=x") == "GET");
  CHECK(find_operation("operation=cache.get,ms=3") == "cache.get");
  CHECK(find_operation("op=\"two words\"") == "");
  CHECK(find_operation("stop=1 loop=2") == "");
}

TEST_CASE("Trailing JSON objects and their string fields", "[parse][fields]") {
  const std::string_view line = R"(msg {"a":"}"} {"host":"w","reqId":"9c1f","x":"q\"}"}  )";
  const std::string_view extra = trailing_json_object(line);
  CHECK(extra == R"({"host":"w","reqId":"9c1f","x":"q\"}"})");
  CHECK(json_string_field(extra, "reqId") == "9c1f");
  CHECK(json_string_field(extra, "missing") == "");
  CHECK(trailing_json_object("no object here") == "");
  CHECK(json_string_field(R"({"notreqId":"a","reqId" : "b"})", "reqId") == "b");
}

TEST_CASE("Durations in any unit, with the digits written", "[parse][fields]") {
  DurationNs d = 0;
  std::uint8_t digits = 0;
  REQUIRE(parse_duration("0.534", k_ns_per_s, d, digits));
  CHECK(d == 534'000'000);
  CHECK(digits == 3);
  REQUIRE(parse_duration("534211", k_ns_per_us, d, digits));
  CHECK(d == 534'211'000);
  CHECK(digits == 6);
  REQUIRE(parse_duration("534.211", k_ns_per_ms, d, digits));
  CHECK(d == 534'211'000);
  CHECK(digits == 6);
  REQUIRE(parse_duration("12", k_ns_per_s, d, digits));
  CHECK(d == 12 * k_ns_per_s);
  CHECK(digits == 0);
  REQUIRE(parse_duration("1.5", 60 * k_ns_per_s, d, digits));
  CHECK(d == 90 * k_ns_per_s);
  REQUIRE(parse_duration("1762680525.657", k_ns_per_s, d, digits));
  CHECK(d == 1'762'680'525'657'000'000);
  for (const char* bad : {"", ".5", "5.", "1e3", "-1", "0.1234567890", "99999999999999"}) {
    INFO(bad);
    CHECK_FALSE(parse_duration(bad, k_ns_per_s, d, digits));
  }
}

TEST_CASE("Durations a message logs", "[parse][fields]") {
  DurationNs d = -1;
  std::uint8_t digits = 0;
  const auto found = [&](std::string_view text) {
    d = -1;
    return find_duration(text, d, digits);
  };
  REQUIRE(found("getaddrinfo api.partner.example ok addrs=2 elapsed_ms=5002.2"));
  CHECK(d == 5'002'200'000);
  REQUIRE(found("msg=\"query done\" took=12ms rows=3"));
  CHECK(d == 12'000'000);
  REQUIRE(found(R"({"level":"info","ts":1762680525.657,"msg":"handled request","duration":0.534211,"status":200})"));
  CHECK(d == 534'211'000);
  REQUIRE(found(R"({"msg":"x","latencyUs":250})"));
  CHECK(d == 250'000);
  REQUIRE(found("GET /api/x rt=0.052 status=200"));
  CHECK(d == 52'000'000);
  REQUIRE(found("Query took 1.5 s to complete"));
  CHECK(d == 1'500'000'000);
  REQUIRE(found("job finished in 250ms"));
  CHECK(d == 250'000'000);
  REQUIRE(found(R"(Wikimedia\Rdbms\DatabaseMySQL::select [0.060ms] db1: SELECT page_id FROM page)"));
  CHECK(d == 60'000);
  // The names everyday clients write: a bare ms, any *_ms / *_us key, curl's -w timers.
  REQUIRE(found("ts=1 req=4 op=get ms=3.25 status=ok"));
  CHECK(d == 3'250'000);
  REQUIRE(found("db_ms=17 rows=3"));
  CHECK(d == 17'000'000);
  REQUIRE(found("lookup wait_us=250"));
  CHECK(d == 250'000);
  // curl's timers are cumulative phases of one transfer: time_total is its duration, wherever
  // the -w format writes it; without it, the last phase written.
  REQUIRE(found("code=200 time_namelookup=0.004 time_connect=1.021 time_total=1.100"));
  CHECK(d == 1'100'000'000);
  REQUIRE(found("time_total=0.250 time_namelookup=0.004 code=200"));
  CHECK(d == 250'000'000);
  REQUIRE(found("code=200 time_namelookup=0.004 time_connect=1.021 time_starttransfer=1.050"));
  CHECK(d == 1'050'000'000);
  REQUIRE(found("code=200 time_total=1.100"));
  CHECK(d == 1'100'000'000);
  // A setting logged on every line is not a measured wait.
  for (const char* setting : {"timeout_ms=5000", "retry_delay_ms=100", "ttl_s=60", "max_wait_ms=20"}) {
    INFO(setting);
    CHECK_FALSE(found(setting));
  }
  for (const char* none : {"duration=forever", "items=12ms", "rtt=12ms", "durable=true", "took a while",
                           R"({"timeout":5})", "elapsed=12", "durations: none", "list [12] ms", "[12ms"}) {
    INFO(none);
    CHECK_FALSE(found(none));
  }
}

TEST_CASE("The key that groups a log's lines is learnt from its first lines", "[parse][fields]") {
  const auto learn = [](const std::vector<std::string>& text) {
    std::vector<std::string_view> lines(text.begin(), text.end());
    return learn_group_key(lines);
  };
  // A key of the log's own: each value on a few neighbouring lines, many values along the file.
  std::vector<std::string> jobs, statuses, known;
  for (int i = 0; i < 60; ++i) {
    const std::string job = std::to_string(1000 + i / 3);
    jobs.push_back("t=10:00:0" + std::to_string(i % 10) + " level=info job=" + job + " step=" + std::to_string(i % 3) +
                   " status=200 ms=1." + std::to_string(i % 7));
    statuses.push_back("level=info status=" + std::string(i % 2 == 0 ? "200" : "404") + " path=/x");
    known.push_back("level=info conn=" + std::to_string(i / 4) + " op=get");
  }
  const GroupKeyChoice job = learn(jobs);
  CHECK(job.key == "job");
  CHECK_FALSE(job.known);
  CHECK(job.values == 20);
  // Values that recur all over the file (a status) or never (a step counter) do not group;
  // neither does the time or the level.
  CHECK(learn(statuses).key.empty());
  // Long jobs two at a time, as a pool of two threads runs them: each job's lines span much of
  // the sample, every other line; the part counter's values come back once per job, the two
  // threads' jobs in step (each part on two lines in a row) or not.
  for (const int lag : {0, 5}) {
    INFO("lag " << lag);
    std::vector<std::string> long_jobs;
    for (int i = 0; i < 64; ++i) {
      const int slot = i % 2, at = i / 2 + slot * lag, n = at / 22, part = at % 22 + 1;
      long_jobs.push_back("2026-01-01T10:00:00.000000Z [pool-" + std::to_string(slot + 1) + "] INFO Worker - task=" +
                          std::to_string(2 * n + slot + 7) + " part=" + std::to_string(part) + "/22 ms=0.8");
    }
    const GroupKeyChoice task = learn(long_jobs);
    CHECK(task.key == "task");
    CHECK(task.values == 4);
  }
  // A known name is taken as it is, and said.
  const GroupKeyChoice conn = learn(known);
  CHECK(conn.key == "conn");
  CHECK(conn.known);
}

TEST_CASE("A field's value is found by name and read as a duration", "[parse][fields]") {
  CHECK(field_value("op=get time_connect=1.021 ms=3", "time_connect") == "1.021");
  CHECK(field_value(R"(msg="x" cache_status="MISS")", "cache_status") == "MISS");
  CHECK(field_value(R"({"timing":{"connect":0.5},"status":200})", "timing.connect") == "0.5");
  CHECK(field_value(R"(2026-01-01 app: done {"upstream_cache_status":"HIT"})", "upstream_cache_status") == "HIT");
  CHECK(field_value("op=get ms=3", "time_connect").empty());
  CHECK(duration_unit_of_key("time_connect") == k_ns_per_s);
  CHECK(duration_unit_of_key("upstream_connect_time") == k_ns_per_s);
  CHECK(duration_unit_of_key("connect_ms") == k_ns_per_ms);
  CHECK(duration_unit_of_key("waitUs") == k_ns_per_us);
  CHECK(duration_unit_of_key("connect_time") == 0);
  DurationNs d = 0;
  REQUIRE(duration_value("1.021", k_ns_per_s, d));
  CHECK(d == 1'021'000'000);
  REQUIRE(duration_value("12ms", k_ns_per_s, d));
  CHECK(d == 12'000'000);
  REQUIRE(duration_value("0.500, 0.012", k_ns_per_s, d));
  CHECK(d == 500'000'000);
  CHECK_FALSE(duration_value("12abc", k_ns_per_s, d));
  CHECK_FALSE(duration_value("-", k_ns_per_s, d));
}
