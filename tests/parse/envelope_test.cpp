#include <gapscan/parse/envelope.hpp>
#include <gapscan/parse/record_reader.hpp>

#include <catch2/catch.hpp>

using namespace gapscan;
using namespace gapscan::parse;

namespace {

struct Read {
  std::vector<LineClass> classes;
  std::vector<Record> records;  // views may dangle: use texts, groups, lines
  std::vector<std::string> texts;
  std::vector<std::string> groups;
  std::vector<std::uint64_t> lines;  // where each record starts
  std::string format;
  LineAccount account;
};

Read read_all(const std::vector<std::string>& lines) {
  Read result;
  RecordReader reader(ReaderOptions{});
  reader.detect(lines);
  result.format = reader.detected_format();
  std::uint64_t number = 0;
  Record record;
  auto take = [&] {
    if (!reader.record_ready()) return;
    result.records.push_back(record);
    result.texts.emplace_back(reader.record_text());
    result.groups.emplace_back(record.group);
    result.lines.push_back(reader.record_location().line);
  };
  for (const std::string& line : lines) {
    result.classes.push_back(reader.read(line, LineLocation{0, 0, ++number, 0}, record));
    take();
  }
  while (reader.finish(record)) take();
  result.account = reader.account();
  return result;
}

}  // namespace

TEST_CASE("Docker json-file lines are read by what they carry", "[parse][envelope]") {
  const Read r = read_all({
      R"({"log":"2026-11-29 21:03:04.000100 [r1] web1 wiki 1.39 memcached DEBUG: get(\"k\") \u00e9\n","stream":"stdout","time":"2026-11-29T21:03:04.000200000Z"})",
      R"({"log":"no time here\n","stream":"stderr","time":"2026-11-29T21:03:05.5Z"})",
  });
  CHECK(r.format == "docker-json > mediawiki-line");
  REQUIRE(r.records.size() == 2);
  CHECK(r.groups[0] == "r1");
  CHECK(r.records[0].format == "mediawiki-line");
  CHECK(r.texts[0] == "2026-11-29 21:03:04.000100 [r1] web1 wiki 1.39 memcached DEBUG: get(\"k\") \xc3\xa9");
  CHECK(r.records[1].format == "docker-json");  // timed by the envelope
  CHECK(r.records[1].time % k_ns_per_s == 500000000);
}

TEST_CASE("CRI lines, including partial ones", "[parse][envelope]") {
  const Read r = read_all({
      "2026-11-29T21:03:04.000000001Z stdout F 2026-11-29T21:03:04.500Z reqId=a started",
      "2026-11-29T21:03:04.000000002Z stderr P a long line that was",
      "2026-11-29T21:03:04.000000003Z stdout F 1.2.3.4 - - [29/Nov/2026:21:03:04 +0000] \"GET / HTTP/1.1\" 200",
      "2026-11-29T21:03:04.000000004Z stderr F  split in two",
  });
  CHECK(r.classes ==
        std::vector<LineClass>{LineClass::record, LineClass::record, LineClass::record, LineClass::continuation});
  CHECK(r.groups[0] == "a");
  CHECK(r.records[0].time % k_ns_per_s == 500000000);       // the inner time: milliseconds or finer
  REQUIRE(r.lines == std::vector<std::uint64_t>{1, 3, 2});  // the split line comes out with its last part
  CHECK(r.records[1].format == "access-log");
  CHECK(r.records[1].time % k_ns_per_s == 3);  // whole seconds inside: the envelope's time
  CHECK(r.records[2].format == "cri");
  CHECK(r.texts[2] == "a long line that was split in two");
  CHECK(r.account.records == 3);
  CHECK(r.account.continuation == 1);
}

TEST_CASE("PHP-FPM worker output is unwrapped and grouped by child", "[parse][envelope]") {
  const Read r = read_all({
      "[29-Nov-2026 18:28:40] NOTICE: ready to handle connections",
      R"([29-Nov-2026 18:28:51] WARNING: [pool www] child 4242 said into stderr: "NOTICE: PHP message: PHP Warning:  Undefined array key "x" in /a.php on line 3")",
      R"([29-Nov-2026 18:28:52] WARNING: [pool www] child 4242 said into stdout: "{"message":"m","datetime":"2026-11-29T18:28:51.123456+00:00","extra":{"reqId":"abc"}}", pipe is closed)",
  });
  REQUIRE(r.records.size() == 3);
  CHECK(r.groups[1] == "child 4242");
  CHECK(r.records[1].format == "php-fpm");
  CHECK(r.groups[2] == "abc");
  CHECK(r.records[2].format == "monolog-json");
}

TEST_CASE("Lines split over envelopes are put back together", "[parse][envelope]") {
  const std::string json = R"({"message":"Memcached error: )" + std::string(1500, 'x') +
                           R"(","level":400,"channel":"memcached","datetime":"2026-11-29T21:03:04.123456+00:00",)"
                           R"("extra":{"reqId":"abc123def456abc123def456"}})";
  SECTION("PHP-FPM wraps worker output at log_limit (1024 by default)") {
    const std::string prefix = R"([29-Nov-2026 21:03:04] WARNING: [pool www] child 4242 said into stderr: ")";
    const std::size_t chunk = 1024 - prefix.size() - 1;
    std::vector<std::string> lines = {"[29-Nov-2026 21:03:03] NOTICE: ready to handle connections"};
    for (std::size_t at = 0; at < json.size(); at += chunk) {
      lines.push_back(prefix + json.substr(at, chunk) + '"');
      // another worker's line in between must not be glued in
      if (at == 0) lines.push_back(R"([29-Nov-2026 21:03:04] WARNING: [pool www] child 77 said into stderr: "other")");
    }
    REQUIRE(lines[1].size() == 1024);
    const Read r = read_all(lines);
    REQUIRE(r.records.size() == 3);
    CHECK(r.lines == std::vector<std::uint64_t>{1, 3, 2});
    CHECK(r.records[2].format == "monolog-json");
    CHECK(r.groups[2] == "abc123def456abc123def456");
    CHECK(r.records[2].time % k_ns_per_s == 123456000);
    CHECK(r.texts[2] == json);
    CHECK(r.account.unparsed == 0);
    CHECK(r.account.lines == r.account.records + r.account.continuation);
  }
  SECTION("Docker json-file splits at 16 KiB: a part has no final newline") {
    auto entry = [](const std::string& log) {
      std::string escaped;
      for (char c : log) escaped += c == '"' ? std::string("\\\"") : std::string(1, c);
      return R"({"log":")" + escaped + R"(","stream":"stdout","time":"2026-11-29T21:03:04.5Z"})";
    };
    const Read r = read_all({entry(json.substr(0, 700)), entry(json.substr(700) + "\\n")});
    REQUIRE(r.records.size() == 1);
    CHECK(r.records[0].format == "monolog-json");
    CHECK(r.lines[0] == 1);
    CHECK(r.classes == std::vector<LineClass>{LineClass::record, LineClass::continuation});
  }
  SECTION("A part still waiting at the end of the input is read as it is") {
    const Read r = read_all({"2026-11-29T21:03:04.000000001Z stdout P 2026-11-29T21:03:04.250Z first half"});
    REQUIRE(r.records.size() == 1);
    CHECK(r.texts[0] == "2026-11-29T21:03:04.250Z first half");
    CHECK(r.account.records == 1);
    CHECK(r.account.lines == 1);
  }
}
