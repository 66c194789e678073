#include <gapscan/parse/envelope.hpp>
#include <gapscan/parse/record_reader.hpp>

#include <catch2/catch.hpp>

using namespace gapscan;
using namespace gapscan::parse;

namespace {

struct Read {
  std::vector<LineClass> classes;
  std::vector<Record> records;
  std::vector<std::string> texts;
  std::string format;
};

Read read_all(const std::vector<std::string>& lines) {
  Read result;
  RecordReader reader(ReaderOptions{});
  reader.detect(lines);
  result.format = reader.detected_format();
  std::uint64_t number = 0;
  for (const std::string& line : lines) {
    Record record;
    result.classes.push_back(reader.read(line, LineLocation{0, ++number, 0}, record));
    if (result.classes.back() == LineClass::record) {
      result.records.push_back(record);
      result.texts.emplace_back(reader.record_text());
    }
  }
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
  CHECK(r.records[0].group == "r1");
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
  CHECK(r.records[0].group == "a");
  CHECK(r.records[0].time % k_ns_per_s == 500000000);  // the inner time: milliseconds or finer
  CHECK(r.records[1].format == "cri");
  CHECK(r.records[2].format == "access-log");
  CHECK(r.records[2].time % k_ns_per_s == 3);  // whole seconds inside: the envelope's time
}

TEST_CASE("PHP-FPM worker output is unwrapped and grouped by child", "[parse][envelope]") {
  const Read r = read_all({
      "[29-Nov-2026 18:28:40] NOTICE: ready to handle connections",
      R"([29-Nov-2026 18:28:51] WARNING: [pool www] child 4242 said into stderr: "NOTICE: PHP message: PHP Warning:  Undefined array key "x" in /a.php on line 3")",
      R"([29-Nov-2026 18:28:52] WARNING: [pool www] child 4242 said into stdout: "{"message":"m","datetime":"2026-11-29T18:28:51.123456+00:00","extra":{"reqId":"abc"}}", pipe is closed)",
  });
  REQUIRE(r.records.size() == 3);
  CHECK(r.records[1].group == "child 4242");
  CHECK(r.records[1].format == "php-fpm");
  CHECK(r.records[2].group == "abc");
  CHECK(r.records[2].format == "monolog-json");
}
