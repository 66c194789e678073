#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/time_layout.hpp>
#include <gapscan/parse/user_format.hpp>

#include <catch2/catch.hpp>

using namespace gapscan;
using namespace gapscan::parse;

TEST_CASE("Time layouts read what they describe", "[parse][layout]") {
  auto layout = TimeLayout::compile("%d/%b/%Y:%T %z", "test");
  REQUIRE(layout);
  StampFields fields;
  REQUIRE(layout->read("29/Nov/2026:21:03:04 +0100", fields));
  CHECK(fields.year == 2026);
  CHECK(fields.month == 11);
  CHECK(fields.second == 4);
  CHECK(fields.offset_seconds == 3600);
  CHECK_FALSE(layout->read("29/Nov/2026:21:03:04", fields));
  auto named = TimeLayout::compile("%d-%b-%Y %T %Z", "test");
  REQUIRE(named);
  REQUIRE(named->read("29-Nov-2026 21:03:04 Europe/Berlin", fields));
  CHECK(fields.zone_name == "Europe/Berlin");
  CHECK_FALSE(named->read("29-Nov-2026 21:03:04 Berlin", fields));

  // Found by fuzzing: a year or an epoch too large for an instant.
  auto iso = TimeLayout::compile("%Y-%m-%d %T", "test");
  REQUIRE(iso);
  CHECK_FALSE(iso->read("9999-11-29 21:03:04", fields));
  auto huge_epoch = TimeLayout::compile("%s", "test");
  REQUIRE(huge_epoch);
  REQUIRE(huge_epoch->read("999999999999", fields));
  CHECK(fields.instant == INT64_MAX);

  auto twelve = TimeLayout::compile("%b %e %I:%M:%S.%f %p", "test");
  REQUIRE(twelve);
  REQUIRE(twelve->read("Nov  9 09:03:04.5 PM", fields));
  CHECK(fields.hour == 21);
  CHECK(fields.nanos == 500000000);
  CHECK(fields.year == -1);

  auto epoch = TimeLayout::compile("%s", "test");
  REQUIRE(epoch);
  REQUIRE(epoch->read("1764450184.25", fields));
  CHECK(fields.instant == 1764450184250000000);

  auto bad = TimeLayout::compile("%Y-%Q", "formats/x.toml:4");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().where == "formats/x.toml:4");
  CHECK(bad.error().message == "unknown directive %Q in time layout '%Y-%Q'");
  CHECK_FALSE(TimeLayout::compile("%Y-%m-%d", "test"));  // no time of day
}

TEST_CASE("The documented example format loads and parses its samples", "[parse][user-format]") {
  std::vector<Diagnostic> diagnostics;
  const auto formats = load_format_files({GAPSCAN_SOURCE_DIR "/docs/examples/nginx-error-format.toml"}, diagnostics);
  REQUIRE(diagnostics.empty());
  REQUIRE(formats.size() == 1);
  CHECK(formats[0].name == "nginx-error");
  auto parser = formats[0].make_parser();
  parser->learn({}, TimeSettings{});
  Record record;
  REQUIRE(parser->parse("2026/11/29 21:03:04 [error] 1234#0: *57 upstream timed out", record) == ParseStatus::parsed);
  CHECK(record.group == "57");
  CHECK(record.level == "error");
  CHECK(record.message == "upstream timed out");
  CHECK(record.zoned);
  CHECK(parser->parse("not an nginx line", record) == ParseStatus::not_this_format);
}

TEST_CASE("Broken format files give file:line errors", "[parse][user-format]") {
  std::vector<Diagnostic> diagnostics;
  CHECK_FALSE(
      parse_format_file("name = \"app\"\nregex = '^(?P<when>\\S+) (?P<message>.*)'\ntime_layout = \"%s\"\n"
                        "samples = [\"1764450184 hello\"]\n",
                        "formats/app.toml", diagnostics));
  REQUIRE(diagnostics.size() == 1);
  CHECK(to_string(diagnostics[0]) ==
        "formats/app.toml:2: error: the regex needs a named group 'time': (?P<time>...) "
        "(other groups it may name: group, message, channel, level, duration)");
  diagnostics.clear();
  CHECK_FALSE(
      parse_format_file("name = \"app\"\nregex = '^(?P<time>\\S+) (?P<message>.*)'\ntime_layout = \"%s\"\n"
                        "samples = [\"1764450184 hello\"]\nlevels = 1\n",
                        "formats/app.toml", diagnostics));
  REQUIRE(diagnostics.size() == 1);
  CHECK(to_string(diagnostics[0]) ==
        "formats/app.toml:5: error: unknown key 'levels' in a format file "
        "(known keys: name, description, regex, time_layout, zone, duration_unit, samples, nginx_log_format, "
        "apache_log_format)");
  diagnostics.clear();
  CHECK_FALSE(
      parse_format_file("name = \"app\"\nregex = '^(?P<time>\\S+) (?P<message>.*)'\ntime_layout = \"%s\"\n"
                        "samples = [\"yesterday hello\"]\n",
                        "formats/app.toml", diagnostics));
  REQUIRE(diagnostics.size() == 1);
  CHECK(to_string(diagnostics[0]) ==
        "formats/app.toml:4: error: sample does not parse: yesterday hello (the time does not fit the layout %s)");
  // An empty regex (found by fuzz_format_file: the samples were then parsed with no regex at all).
  diagnostics.clear();
  CHECK_FALSE(parse_format_file("name = \"app\"\nregex = ''\ntime_layout = \"%s\"\nsamples = [\"1764450184 hello\"]\n",
                                "formats/app.toml", diagnostics));
  REQUIRE(diagnostics.size() == 1);
  CHECK(to_string(diagnostics[0]) ==
        "formats/app.toml:2: error: the regex is empty (give one with a named group 'time': (?P<time>...))");
}

TEST_CASE("A user format's zone may be a name, read through the autumn change", "[parse][user-format]") {
  std::vector<Diagnostic> diagnostics;
  auto format = parse_format_file(
      "name = \"app\"\nregex = '^(?P<time>\\S+ \\S+) (?P<message>.*)'\ntime_layout = \"%F %T\"\n"
      "zone = \"Europe/Berlin\"\nsamples = [\"2026-10-25 02:59:00 hello\"]\n",
      "formats/app.toml", diagnostics);
  REQUIRE(diagnostics.empty());
  REQUIRE(format);
  auto parser = format->make_parser();
  parser->learn({}, TimeSettings{});
  Record first, second;
  REQUIRE(parser->parse("2026-10-25 02:59:00 before", first) == ParseStatus::parsed);
  REQUIRE(parser->parse("2026-10-25 02:05:00 after", second) == ParseStatus::parsed);
  CHECK(first.zoned);
  CHECK(second.time - first.time == 6 * 60 * k_ns_per_s);

  CHECK_FALSE(
      parse_format_file("name = \"app\"\nregex = '^(?P<time>\\S+) (?P<message>.*)'\ntime_layout = \"%s\"\n"
                        "zone = \"Mars/Olympus_Mons\"\nsamples = [\"1764450184 hello\"]\n",
                        "formats/app.toml", diagnostics));
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].where == "formats/app.toml:4");
  CHECK(diagnostics[0].message.find("unknown time zone 'Mars/Olympus_Mons'") == 0);
}

TEST_CASE("A user format reads a duration group in the unit it names", "[parse][user-format]") {
  std::vector<Diagnostic> diagnostics;
  auto format = parse_format_file(
      "name = \"fpm-access\"\n"
      "regex = '^\\S+ - \\S* (?P<time>\\S+ \\S+) \"(?P<message>[^\"]*)\" \\d+ (?P<duration>[\\d.]+) "
      "pid=(?P<group>\\d+)'\n"
      "time_layout = \"%d/%b/%Y:%T %z\"\nduration_unit = \"ms\"\n"
      "samples = ['10.0.0.7 - - 09/Nov/2025:18:28:44 +0900 \"GET /index.php\" 200 534.211 pid=4242']\n",
      "formats/fpm.toml", diagnostics);
  REQUIRE(diagnostics.empty());
  REQUIRE(format);
  auto parser = format->make_parser();
  parser->learn({}, TimeSettings{});
  Record record;
  REQUIRE(parser->parse("10.0.0.7 - - 09/Nov/2025:18:28:44 +0900 \"GET /index.php\" 200 534.211 pid=4242", record) ==
          ParseStatus::parsed);
  CHECK(record.duration == 534'211'000);
  CHECK(record.group == "4242");

  CHECK_FALSE(
      parse_format_file("name = \"app\"\nregex = '^(?P<time>\\S+) (?P<duration>\\S+)'\ntime_layout = \"%s\"\n"
                        "duration_unit = \"fortnights\"\nsamples = [\"1764450184 5\"]\n",
                        "formats/app.toml", diagnostics));
  REQUIRE(diagnostics.size() == 1);
  CHECK(to_string(diagnostics[0]) ==
        "formats/app.toml:4: error: unknown duration_unit 'fortnights' (use s, ms, us, ns or min)");
}

TEST_CASE("A web server's own format string stands for the regex and the time layout", "[parse][userformat]") {
  std::vector<Diagnostic> diagnostics;
  // nginx: the caching proxy's log_format with request time, upstream time, cache status and
  // the Set-Cookie it sent.
  const auto nginx = parse_format_file(R"toml(
name = "bbs-cache"
nginx_log_format = '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_time $upstream_response_time $upstream_cache_status "$sent_http_set_cookie"'
samples = ['110.93.150.124 - - [02/Dec/2026:20:44:18 +0900] "GET /freeboard/3179993 HTTP/1.1" 200 9182 "-" "Mozilla/5.0 (compatible; Yeti/1.1)" 0.230 0.229 MISS "PHPSESSID=83vlr605edpf; path=/"']
)toml",
                                       "bbs.toml", diagnostics);
  INFO((diagnostics.empty() ? std::string() : diagnostics.front().message));
  REQUIRE(nginx);
  auto parser = nginx->make_parser();
  Record record;
  REQUIRE(
      parser->parse(
          R"(1.2.3.4 - - [02/Dec/2026:20:44:19 +0900] "GET /a.css HTTP/2.0" 200 31840 "https://x/" "Mozilla/5.0" 0.000 - HIT "-")",
          record) == ParseStatus::parsed);
  CHECK(record.duration == 0);
  REQUIRE(parser->parse(
              R"(1.2.3.4 - - [02/Dec/2026:20:44:19 +0900] "GET /p HTTP/2.0" 200 9 "-" "M" 0.512 0.500, 0.011 MISS "-")",
              record) == ParseStatus::parsed);
  CHECK(record.duration == 512'000'000);  // $request_time, not the upstream's
  CHECK(key_value(record.fields, "upstream_cache_status") == "MISS");
  CHECK(key_value(record.fields, "cache_status") == "MISS");
  CHECK(key_value(record.fields, "request_method").empty());  // not in this format: from $request
  CHECK(key_value(record.fields, "method") == "GET");
  CHECK(key_value(record.fields, "path") == "/p");
  CHECK(key_value(record.fields, "set_cookie").empty());  // "-"
  // Apache / varnishncsa -F: %t with its brackets, %D in microseconds, a request-id header.
  const auto varnish = parse_format_file(R"toml(
name = "varnish"
apache_log_format = '%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-agent}i" %D %{Varnish:handling}x "%{X-Request-ID}i"'
samples = ['203.0.113.9 - - [02/Dec/2026:20:41:00 +0000] "GET http://bbs.example.com/n/3 HTTP/1.1" 200 14620 "-" "Mozilla/5.0" 212345 miss "r-77"']
)toml",
                                         "varnish.toml", diagnostics);
  REQUIRE(varnish);
  parser = varnish->make_parser();
  REQUIRE(
      parser->parse(
          R"(203.0.113.9 - - [02/Dec/2026:20:41:00 +0000] "GET http://b/n/3 HTTP/1.1" 200 14620 "-" "Mozilla/5.0" 212345 miss "r-77")",
          record) == ParseStatus::parsed);
  CHECK(record.duration == 212'345'000);
  CHECK(record.group == "r-77");
  // Every other field is named for the catalog's field tests: by nginx's name for the same
  // variable, and by its canonical name (method, cache_status, set_cookie).
  CHECK(record.completion);
  CHECK(key_value(record.fields, "status") == "200");
  CHECK(key_value(record.fields, "varnish_handling") == "miss");
  CHECK(key_value(record.fields, "cache_status") == "miss");
  CHECK(key_value(record.fields, "method") == "GET");
  CHECK(key_value(record.fields, "http_user_agent") == "Mozilla/5.0");
  // Apache's %{ms}T: the time taken in milliseconds.
  const auto millis = parse_format_file(R"toml(
name = "apache-ms"
apache_log_format = '%h %l %u %t "%r" %>s %b %{ms}T'
samples = ['203.0.113.9 - - [02/Dec/2026:20:41:00 +0000] "GET /x HTTP/1.1" 200 14620 1003']
)toml",
                                        "apache-ms.toml", diagnostics);
  REQUIRE(millis);
  parser = millis->make_parser();
  REQUIRE(parser->parse(R"(203.0.113.9 - - [02/Dec/2026:20:41:00 +0000] "GET /x HTTP/1.1" 200 14620 1003)", record) ==
          ParseStatus::parsed);
  CHECK(record.duration == 1'003'000'000);
  // A preset's fields that name phases (nginx's upstream timers) are the request's phases.
  const auto upstream = parse_format_file(R"toml(
name = "nginx-upstream"
nginx_log_format = '$remote_addr [$time_local] "$request" $status $request_time $upstream_connect_time $upstream_header_time'
samples = ['10.0.0.1 [02/Dec/2026:20:41:00 +0000] "GET /x HTTP/1.1" 200 1.052 1.001 1.050']
)toml",
                                          "nginx-upstream.toml", diagnostics);
  REQUIRE(upstream);
  parser = upstream->make_parser();
  REQUIRE(parser->parse(R"(10.0.0.1 [02/Dec/2026:20:41:00 +0000] "GET /x HTTP/1.1" 200 1.052 1.001 1.050)", record) ==
          ParseStatus::parsed);
  CHECK(record.duration == 1'052'000'000);
  CHECK(record.phases[static_cast<std::size_t>(Phase::connect)] == 1'001'000'000);
  CHECK(record.phases[static_cast<std::size_t>(Phase::response)] == 49'000'000);  // less the connect
  // A format string without a time, or with both a format string and a regex, is an error.
  diagnostics.clear();
  CHECK_FALSE(parse_format_file("name = \"x\"\nnginx_log_format = '$remote_addr $status'\nsamples = ['1.2.3.4 200']\n",
                                "x.toml", diagnostics));
  REQUIRE_FALSE(diagnostics.empty());
  CHECK(diagnostics.front().message == "the format has no time field");
}
