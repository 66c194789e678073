#include <gapscan/parse/record_reader.hpp>

#include <catch2/catch.hpp>

#include <sstream>

using namespace gapscan;
using namespace gapscan::parse;

namespace {

std::vector<LineClass> classify(RecordReader& reader, const std::vector<std::string>& lines) {
  std::vector<LineClass> classes;
  Record record;
  std::uint64_t number = 0;
  for (const std::string& line : lines) classes.push_back(reader.read(line, LineLocation{0, 0, ++number, 0}, record));
  return classes;
}

}  // namespace

TEST_CASE("Format detection prefers the specific layout and every line is accounted for", "[parse][reader]") {
  const std::vector<std::string> lines = {
      "2026-11-29 21:03:04.000001 [r1] web1 wiki 1.39 memcached DEBUG: get(a)",
      "2026-11-29 21:03:04.000002 [r1] web1 wiki 1.39 exception ERROR: boom",
      "#0 /srv/mediawiki/includes/Foo.php(12): bar()",
      "  thrown in Foo.php",
      "",
      "garbage that is no log line",
      "2026-11-29T21:03:05Z reqId=r2 a generic line in the same file",
      "# a comment",
  };
  RecordReader reader(ReaderOptions{});
  reader.detect(lines);
  CHECK(reader.detected_format() == "mediawiki-line");
  const auto classes = classify(reader, lines);
  CHECK(classes == std::vector<LineClass>{LineClass::record, LineClass::record, LineClass::continuation,
                                          LineClass::continuation, LineClass::blank, LineClass::unparsed,
                                          LineClass::record, LineClass::comment});
  const LineAccount account = reader.account();
  CHECK(account.lines == 8);
  CHECK(account.lines == account.records + account.continuation + account.blank + account.comment + account.unparsed);
  CHECK(account.by_format.at("mediawiki-line") == 2);
  CHECK(account.by_format.at("generic") == 1);
  REQUIRE(account.examples.size() == 1);
  CHECK(account.examples[0].location.line == 6);
  CHECK(account.examples[0].reason == "matches no known format");
}

TEST_CASE("Stack traces and exception lines continue their record", "[parse][reader]") {
  RecordReader reader(ReaderOptions{});
  const std::vector<std::string> lines = {
      "2026-11-29 21:03:04,123 ERROR worker failed",
      "Traceback (most recent call last):",
      "  File \"a.py\", line 3, in <module>",
      "ValueError: bad value",
      "java.lang.IllegalStateException: broken",
      "\tat com.example.Main.run(Main.java:12)",
      "[0x00007f3a2c813e10] curl_exec() /srv/a.php:42",
      "SELECT SLEEP(2);",
      "a line that is not a continuation",
  };
  reader.detect(lines);
  const auto classes = classify(reader, lines);
  CHECK(classes == std::vector<LineClass>{LineClass::record, LineClass::continuation, LineClass::continuation,
                                          LineClass::continuation, LineClass::continuation, LineClass::continuation,
                                          LineClass::continuation, LineClass::continuation, LineClass::unparsed});
}

TEST_CASE("A malformed JSON record is unparsed with its reason", "[parse][reader]") {
  RecordReader reader(ReaderOptions{});
  const auto classes = classify(reader, {R"({"datetime":"yesterday","message":"x"})", R"({"message":"cut)"});
  CHECK(classes == std::vector<LineClass>{LineClass::unparsed, LineClass::unparsed});
  CHECK(reader.account().examples.at(0).reason == "datetime is not an ISO-8601 time");
  CHECK(reader.account().examples.at(1).reason.rfind("not valid JSON", 0) == 0);
}

TEST_CASE("Grouping 'none' drops request ids", "[parse][reader]") {
  ReaderOptions options;
  options.group_by.mode = GroupBy::Mode::none;
  RecordReader reader(options);
  Record record;
  REQUIRE(reader.read("2026-11-29T21:03:05Z reqId=r2 x", LineLocation{}, record) == LineClass::record);
  CHECK(record.group.empty());
}

TEST_CASE("Grouping by a field, a JSON key path or a regular expression", "[parse][reader]") {
  Record record;
  ReaderOptions by_field;
  by_field.group_by.mode = GroupBy::Mode::field;
  by_field.group_by.field = "conn";
  RecordReader fields(by_field);
  REQUIRE(fields.read("2026-11-29T21:03:05Z reqId=r2 conn=\"c 7\" x", LineLocation{}, record) == LineClass::record);
  CHECK(record.group == "c 7");
  by_field.group_by.field = "extra.process_id";
  RecordReader json(by_field);
  REQUIRE(json.read(R"({"datetime":"2026-11-29T21:03:05Z","extra":{"reqId":"r","process_id":4242},"x":[1,{"a":2}]})",
                    LineLocation{}, record) == LineClass::record);
  CHECK(record.group == "4242");
  by_field.group_by.field = "channel";
  RecordReader channel(by_field);
  REQUIRE(channel.read("2026-11-29 21:03:04.000001 [r1] web1 wiki 1.39 memcached DEBUG: get(a)", LineLocation{},
                       record) == LineClass::record);
  CHECK(record.group == "memcached");
  ReaderOptions by_regex;
  by_regex.group_by.mode = GroupBy::Mode::regex;
  by_regex.group_by.regex = std::make_shared<const Regex>(*Regex::compile(R"(\*(\d+) )", "test"));
  RecordReader regex(by_regex);
  REQUIRE(regex.read("2026/11/29 21:03:04 [error] 1234#0: *57 upstream timed out", LineLocation{}, record) ==
          LineClass::record);
  CHECK(record.group == "57");
}

TEST_CASE("MediaWiki's debug log: requests from Start lines, times from $wgDebugTimestamps", "[parse][reader]") {
  const std::vector<std::string> lines = {
      "",
      "Start request GET /w/index.php?title=Main_Page",
      "IP: 203.0.113.7",
      "web1 0.0412   6.0M  Article::view using parser cache: yes",
      "[memcached] MemcachedPeclBagOStuff debug: get(mywiki:pcache:idhash:4711-0!canonical)",
      "web1 0.0935   8.0M  OutputPage::sendCacheControl: private caching;  **",
      "Request ended normally",
      "Start request POST /w/api.php",
      "web1 0.0100  12.5M  ApiMain::execute",
      "2026-11-29T21:03:05Z reqId=r2 a timestamped line is never taken as untimed",
  };
  RecordReader reader(ReaderOptions{});
  reader.detect(lines);
  CHECK(reader.detected_format().starts_with("mediawiki-debug ("));
  std::vector<Record> records;
  std::vector<std::string> groups;
  std::vector<LineClass> classes;
  std::uint64_t number = 0;
  for (const std::string& line : lines) {
    Record record;
    classes.push_back(reader.read(line, LineLocation{0, 0, ++number, 0}, record));
    if (classes.back() == LineClass::record) {
      records.push_back(record);
      groups.emplace_back(record.group);
    }
  }
  CHECK(classes == std::vector<LineClass>{LineClass::blank, LineClass::record, LineClass::untimed, LineClass::record,
                                          LineClass::untimed, LineClass::record, LineClass::untimed, LineClass::record,
                                          LineClass::record, LineClass::record});
  REQUIRE(records.size() == 6);
  CHECK(groups[0] == "#1 GET /w/index.php?title=Main_Page");
  CHECK(groups[1] == groups[0]);
  CHECK(records[2].time - records[1].time == 52'300'000);  // 0.0935 - 0.0412 s, exact to 100 µs
  CHECK(records[1].time_digits == 4);
  CHECK(groups[3] == "#2 POST /w/api.php");
  CHECK(records[3].time == records[2].time);  // the next request starts where the last one ended
  CHECK(records[4].time - records[3].time == 10'000'000);
  CHECK(records[5].format == "generic");
  const LineAccount account = reader.account();
  CHECK(account.untimed == 3);
  CHECK(account.lines ==
        account.records + account.continuation + account.untimed + account.blank + account.comment + account.unparsed);
}

TEST_CASE("Without Start lines or elapsed stamps the debug-log format claims nothing", "[parse][reader]") {
  const std::vector<std::string> lines = {"[memcached] get(a)", "IP: 1.2.3.4", "just text"};
  RecordReader reader(ReaderOptions{});
  reader.detect(lines);
  CHECK(reader.detected_format() == "none");
  const auto classes = classify(reader, lines);
  CHECK(classes == std::vector<LineClass>{LineClass::unparsed, LineClass::unparsed, LineClass::unparsed});
}

namespace {

struct Gathered {
  std::vector<LineClass> classes;
  std::vector<std::uint64_t> lines;  // where each record starts
  std::vector<TimeNs> times;
  std::vector<std::string> formats;
  LineAccount account;
};

Gathered read_lines(const std::vector<std::string>& lines) {
  Gathered out;
  RecordReader reader(ReaderOptions{});
  reader.detect(lines);
  Record record;
  auto take = [&] {
    if (!reader.record_ready()) return;
    out.lines.push_back(reader.record_location().line);
    out.times.push_back(record.time);
    out.formats.emplace_back(record.format);
  };
  std::uint64_t number = 0;
  for (const std::string& line : lines) {
    out.classes.push_back(reader.read(line, LineLocation{0, 0, ++number, 0}, record));
    take();
  }
  while (reader.finish(record)) take();
  out.account = reader.account();
  return out;
}

}  // namespace

TEST_CASE("A JSON object over several lines is one record", "[parse][reader]") {
  SECTION("pretty-printed") {
    const Gathered g = read_lines({
        "{",
        R"(  "datetime": "2026-11-29T21:03:04.123456+00:00",)",
        R"(  "message": "first",)",
        R"(  "extra": {"reqId": "abc"})",
        "}",
        "{",
        R"(  "datetime": "2026-11-29T21:03:04.167456+00:00", "message": "second")",
        "}",
    });
    CHECK(g.lines == std::vector<std::uint64_t>{1, 6});
    REQUIRE(g.times.size() == 2);
    CHECK(g.times[1] - g.times[0] == 44'000'000);
    CHECK(g.account.records == 2);
    CHECK(g.account.continuation == 6);
    CHECK(g.account.unparsed == 0);
  }
  SECTION("wrapped inside a string by a writer with a line limit (PHP-FPM, decorate_workers_output = no)") {
    const std::string json = R"({"message":"Memcached error: )" + std::string(900, 'x') +
                             R"(","level":400,"channel":"memcached","datetime":"2026-11-29T21:03:04.123456+00:00",)"
                             R"("extra":{"reqId":"abc123def456abc123def456"}})";
    const Gathered g = read_lines({json.substr(0, 512), json.substr(512, 512), json.substr(1024)});
    CHECK(g.lines == std::vector<std::uint64_t>{1});
    CHECK(g.formats == std::vector<std::string>{"monolog-json"});
    CHECK(g.account.continuation == 2);
  }
  SECTION("a brace that never closes does not swallow the lines after it") {
    const Gathered g = read_lines({
        "2026-11-29T21:03:04.000Z reqId=a start",
        "{\"partial\": \"never closed",  // short: not a wrap
        "{\"open\": [1,",                // pretty-printed start, but the next line is no part of it
        "2026-11-29T21:03:05.000Z reqId=a next",
    });
    CHECK(g.lines == std::vector<std::uint64_t>{1, 4});
    CHECK(g.account.unparsed == 2);
    REQUIRE(g.account.examples.size() == 2);
    CHECK(g.account.examples[0].reason.rfind("not valid JSON", 0) == 0);
    CHECK(g.account.examples[1].reason == "a JSON object that does not close (over 1 lines)");
    CHECK(g.account.lines == g.account.records + g.account.continuation + g.account.unparsed);
  }
}

TEST_CASE("PHP-FPM's undecorated worker output is untimed, not unparsed", "[parse][reader]") {
  const Gathered g = read_lines({
      R"({"message":"m","datetime":"2026-11-29T21:03:04.123456+00:00","extra":{"reqId":"abc"}})",
      R"(NOTICE: PHP message: PHP Warning:  Undefined array key "title" in /srv/w/Hooks.php on line 88)",
      "NOTICE: something else without a time",
  });
  CHECK(g.classes == std::vector<LineClass>{LineClass::record, LineClass::untimed, LineClass::unparsed});
}
