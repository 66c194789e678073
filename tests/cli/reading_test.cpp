#include <gapscan/cli/reading.hpp>
#include <gapscan/parse/zone.hpp>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace gapscan;
using namespace gapscan::cli;

namespace {

/// Everything read_records hands on, as text, with the line account.
std::string read_all(const std::string& bytes, const parse::ReaderOptions& options, ParallelParse parallel) {
  std::string out;
  const InputResult result = read_records(
      source::make_string_source(bytes), 0, options,
      [&](const parse::Record& r, std::string_view text, const LineLocation& at) {
        out += fmt::format("{}:{} t={} d={} z={} g={} p={} c={} l={} f={} dur={} m={} | {}\n", at.line, at.offset,
                           r.time, r.time_digits, r.zoned, r.group, r.process, r.channel, r.level, r.format, r.duration,
                           r.message, text);
      },
      parallel);
  const parse::LineAccount& a = result.account;
  out += fmt::format("lines={} records={} continuation={} untimed={} blank={} comment={} unparsed={} format={}\n",
                     a.lines, a.records, a.continuation, a.untimed, a.blank, a.comment, a.unparsed, result.format);
  for (const auto& [name, count] : a.by_format) out += fmt::format("{}={}\n", name, count);
  for (const auto& example : a.examples)
    out += fmt::format("{}: {} ({})\n", example.location.line, example.text, example.reason);
  return out;
}

/// A stage that notes what it saw of each record (its message and line) and on which call of its
/// own it saw it: the facts of a record must be those of its own record, whoever made them.
class NoteStage final : public RecordStage {
 public:
  void run(const parse::Record& record, std::string_view text, RecordFacts& facts) override {
    facts.template_text = fmt::format("{}|{}", record.message, text);
    facts.template_hash = ++m_calls;
    facts.marked = true;
  }

 private:
  std::uint64_t m_calls = 0;
};

/// Each record's facts, as text.
std::string read_facts(const std::string& bytes, const parse::ReaderOptions& options, ParallelParse parallel) {
  std::string out;
  parallel.stage = [] { return std::make_unique<NoteStage>(); };
  read_records(
      source::make_string_source(bytes), 0, options,
      [&](const parse::Record& r, std::string_view text, const LineLocation&, const RecordFacts& facts) {
        CHECK(facts.marked);
        CHECK(facts.template_text == fmt::format("{}|{}", r.message, text));
        out += facts.template_text + "\n";
      },
      std::move(parallel));
  return out;
}

void check_same_for_any_batch(const std::string& bytes, const parse::ReaderOptions& options = {}) {
  const std::string serial_facts = read_facts(bytes, options, ParallelParse{});
  for (unsigned threads : {1u, 3u}) {
    for (std::size_t batch : {1u, 3u, 64u}) {
      INFO("facts: threads " << threads << ", batch " << batch);
      CHECK(read_facts(bytes, options, ParallelParse{threads, batch, {}}) == serial_facts);
    }
  }
  const std::string serial = read_all(bytes, options, ParallelParse{});
  REQUIRE(serial.find(" records=0 ") == std::string::npos);
  for (unsigned threads : {1u, 3u}) {
    for (std::size_t batch : {1u, 2u, 3u, 7u, 64u, 2048u}) {
      INFO("threads " << threads << ", batch " << batch);
      CHECK(read_all(bytes, options, ParallelParse{threads, batch, {}}) == serial);
    }
  }
}

std::string mediawiki(int i, std::string_view message) {
  return fmt::format("2026-11-29 21:03:{:02}.{:06} [req{}] web1 wiki 1.39 memcached DEBUG: {}\n", i / 1000 % 60,
                     i % 1000 * 997, i % 5, message);
}

}  // namespace

TEST_CASE("Lines parsed on other threads give the records of one thread, whatever the batches", "[cli][reading]") {
  SECTION("MediaWiki lines with stack traces, blank lines, other formats and garbage between them") {
    std::string log;
    for (int i = 0; i < 300; ++i) {
      log += mediawiki(i, "get(key" + std::to_string(i) + ")");
      if (i % 17 == 3) log += "#0 /srv/mediawiki/includes/Foo.php(12): bar()\n  thrown in Foo.php\n";
      if (i % 23 == 5) log += "\n   \n";
      if (i % 29 == 7) log += "garbage that is no log line\n";
      // A line another format takes: its stamp's date comes from the lines before it.
      if (i % 31 == 9) log += "Nov 29 21:04:05 host php-fpm[42]: reqId=r9 child said something\n";
      if (i % 37 == 11) log += "21:05:06 time only, date from before\n";
      if (i % 41 == 13) log += "{\"an\": \"object\",\n  \"over\": \"lines\"\n}\n";
      // An object that never closes: the record line after it ends it (unparsed).
      if (i % 43 == 17) log += "{\"never\": \"closed\",\n" + mediawiki(i, "after the object") + "  \"tail\": 1}\n";
    }
    check_same_for_any_batch(log);
  }
  SECTION("Monolog JSON: unescaped strings, objects over several lines, a zone with a DST change") {
    std::string log;
    for (int i = 0; i < 200; ++i) {
      // Around the end of summer time in Europe/Berlin: stamps without a zone repeat an hour.
      log += fmt::format(
          "{{\"message\":\"a \\\"quoted\\\" value {}\",\"channel\":\"memcached\",\"level_name\":\"INFO\","
          "\"datetime\":\"2026-10-25T02:{:02}:{:02}.123456\",\"extra\":{{\"reqId\":\"r\\u00e9{}\"}}}}\n",
          i, (i * 7) % 60, i % 60, i % 4);
      if (i % 13 == 2) {
        log +=
            "{\"message\":\"pretty\",\"channel\":\"c\",\n  \"datetime\":\"2026-10-25T02:30:00\",\n  "
            "\"extra\":{\"reqId\":\"p1\"}\n}\n";
      }
      if (i % 19 == 4) log += "\n";
    }
    parse::ReaderOptions options;
    auto zone = parse::Zone::load("Europe/Berlin");
    REQUIRE(zone);
    options.time.zone = std::make_shared<const parse::Zone>(std::move(*zone));
    check_same_for_any_batch(log, options);
  }
  SECTION("Lines no context-free format reads are read in order on the reading thread") {
    std::string log;  // syslog: yearless stamps, a year chain over the turn of the year
    for (int i = 0; i < 100; ++i) {
      log += fmt::format("{} {:2} 23:59:{:02} host app[{}]: reqId=r{} step {}\n", i < 50 ? "Dec" : "Jan",
                         i < 50 ? 31 : 1, i % 60, 100 + i % 3, i % 3, i);
    }
    check_same_for_any_batch(log);
  }
}

TEST_CASE("A format's record keeps nothing of an earlier line's record", "[cli][reading]") {
  // A generic line names its process; the MediaWiki line after it has none.
  const std::string log = mediawiki(1, "first") + mediawiki(2, "second") + mediawiki(3, "third") +
                          "2026-11-29T21:03:05Z reqId=r2 pid=4242 a generic line in the same file\n" +
                          mediawiki(4, "fourth");
  const std::string out = read_all(log, {}, ParallelParse{});
  const auto fourth = out.find("m=fourth");
  REQUIRE(fourth != std::string::npos);
  const auto line_start = out.rfind('\n', fourth) + 1;
  CHECK(out.substr(line_start, fourth - line_start).find(" p= ") != std::string::npos);
}
