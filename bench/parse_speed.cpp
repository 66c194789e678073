// parse_speed — parsing throughput per format family, on generated lines.
//
// For every built-in format (and every stamp family of the generic format, and one
// user-defined format), generates the same number of realistic lines in memory, then times
// in this one process: splitting them into lines (LineReader alone: the floor) and
// splitting plus parsing them (LineReader + RecordReader, as `gapscan events` does, format
// detection included). Prints lines/s, MB/s and the parse time as a multiple of the floor
// measured on the same bytes, with the detected format and the share of lines read as
// records (a generator that misses its family shows up there, not as a fast number).
//
//   build/release/bench/parse_speed [--lines N] [--runs R] [--only NAME]
//
// Compare the "x floor" column across commits and machines, not the absolute rates.

#include <gapscan/parse/record_reader.hpp>
#include <gapscan/parse/user_format.hpp>
#include <gapscan/source/byte_source.hpp>
#include <gapscan/source/line_reader.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace gapscan;

struct Clock {
  std::int64_t ns = 1'764'450'184'000'000'000;  // 2025-11-29 21:03:04 UTC
  std::mt19937_64 rng{1};
  /// Advances by a log-normal gap around 1 ms and returns the new time.
  std::int64_t next() {
    std::lognormal_distribution<double> gap(std::log(1e6), 1.4);
    ns += std::max<std::int64_t>(2'000, static_cast<std::int64_t>(gap(rng)));
    return ns;
  }
};

struct Civil {
  int year, month, day, hour, minute, second;
  std::int64_t nanos;
};

Civil civil(std::int64_t ns) {
  std::int64_t seconds = ns / 1'000'000'000;
  const std::int64_t nanos = ns % 1'000'000'000;
  std::int64_t days = seconds / 86400;
  const std::int64_t sod = seconds % 86400;
  // Howard Hinnant's civil_from_days.
  days += 719468;
  const std::int64_t era = days / 146097;
  const std::int64_t doe = days - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const int day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  const int year = static_cast<int>(yoe + era * 400 + (month <= 2 ? 1 : 0));
  return {year, month, day, static_cast<int>(sod / 3600), static_cast<int>(sod / 60 % 60), static_cast<int>(sod % 60),
          nanos};
}

constexpr const char* k_months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

std::string request_id(std::mt19937_64& rng, int hex_digits) {
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string id;
  for (int i = 0; i < hex_digits; ++i) id += k_hex[rng() % 16];
  return id;
}

const char* message(std::mt19937_64& rng) {
  static constexpr const char* k_messages[] = {
      "MemcachedPeclBagOStuff debug: get(enwiki:page-restrictions:4711)",
      "MemcachedPeclBagOStuff debug: set(WANCache:enwiki:messages:en|#|v) noreply",
      "Lowered set() TTL for enwiki:page-props:4711 due to replication lag.",
      "MediaWiki\\Revision\\RevisionStore::fetchRevisionRowFromConds [0.002s] db1: SELECT rev_id FROM revision",
      "ParserCache::save: Saved in parser cache with key enwiki:pcache:idhash:4711-0!canonical",
  };
  return k_messages[rng() % 5];
}

using Generator = std::function<std::string(Clock&)>;

struct Family {
  std::string name;
  Generator line;
};

std::vector<Family> families() {
  std::vector<Family> out;
  out.push_back({"mediawiki-line", [](Clock& c) {
                   const Civil t = civil(c.next());
                   return fmt::format(
                       "{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:06} [{}] mw1411 enwiki 1.39.10 memcached "
                       "DEBUG: {} {{\"class\":\"MemcachedPeclBagOStuff\"}}",
                       t.year, t.month, t.day, t.hour, t.minute, t.second, t.nanos / 1000, request_id(c.rng, 24),
                       message(c.rng));
                 }});
  out.push_back({"monolog-line", [](Clock& c) {
                   const Civil t = civil(c.next());
                   return fmt::format(
                       "[{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}+00:00] memcached.WARNING: {} {{}} "
                       "{{\"host\":\"web1\",\"wiki\":\"enwiki\",\"reqId\":\"{}\"}}",
                       t.year, t.month, t.day, t.hour, t.minute, t.second, t.nanos / 1000, message(c.rng),
                       request_id(c.rng, 24));
                 }});
  out.push_back({"monolog-json", [](Clock& c) {
                   const Civil t = civil(c.next());
                   return fmt::format(
                       "{{\"message\":\"{}\",\"context\":{{}},\"level\":200,\"level_name\":\"INFO\",\"channel\":"
                       "\"memcached\",\"datetime\":\"{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}+00:00\",\"extra\":{{"
                       "\"host\":\"web1\",\"wiki\":\"enwiki\",\"reqId\":\"{}\"}}}}",
                       "MemcachedPeclBagOStuff debug: get(enwiki:page-restrictions:4711)", t.year, t.month, t.day,
                       t.hour, t.minute, t.second, t.nanos / 1000, request_id(c.rng, 24));
                 }});
  out.push_back({"access-log", [](Clock& c) {
                   const std::int64_t ns = c.next();
                   const Civil t = civil(ns);
                   return fmt::format(
                       "203.0.113.{} - - [{:02}/{}/{:04}:{:02}:{:02}:{:02} +0000] \"GET /wiki/Page_{} "
                       "HTTP/2.0\" 200 {} \"-\" \"Mozilla/5.0 (X11; Linux x86_64)\" 0.{:03} {} {}.{:03}",
                       c.rng() % 250, t.day, k_months[t.month - 1], t.year, t.hour, t.minute, t.second,
                       c.rng() % 100000, c.rng() % 90000, c.rng() % 1000, request_id(c.rng, 32), ns / 1'000'000'000,
                       ns / 1'000'000 % 1000);
                 }});
  out.push_back({"mediawiki-debug", [](Clock& c) {
                   const std::int64_t elapsed = (c.next() - 1'764'450'184'000'000'000) / 100'000;  // 100 µs
                   return fmt::format("web1 {}.{:04}  {:4}.{}M  {}", elapsed / 10000, elapsed % 10000, 6 + c.rng() % 60,
                                      c.rng() % 10, message(c.rng));
                 }});
  out.push_back({"strace-relative", [](Clock& c) {
                   const std::int64_t before = c.ns;
                   const std::int64_t delta = (c.next() - before) / 1000;  // µs
                   return fmt::format(
                       "[pid {:5}] {:6}.{:06} sendto(3, \"set k{} 0 0 1 noreply\\r\\n\", 21, "
                       "MSG_NOSIGNAL, NULL, 0) = 21",
                       4000 + c.rng() % 8, delta / 1'000'000, delta % 1'000'000, c.rng() % 1000);
                 }});
  out.push_back({"generic ymd (logfmt)", [](Clock& c) {
                   const Civil t = civil(c.next());
                   return fmt::format("time={:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z level=info reqId={} msg=\"{}\"",
                                      t.year, t.month, t.day, t.hour, t.minute, t.second, t.nanos / 1000,
                                      request_id(c.rng, 16), message(c.rng));
                 }});
  out.push_back({"generic ymd (Java)", [](Clock& c) {
                   const Civil t = civil(c.next());
                   return fmt::format(
                       "{:04}-{:02}-{:02} {:02}:{:02}:{:02},{:03} INFO  [http-nio-8080-exec-{}] "
                       "o.a.c.c.C.[Tomcat].[localhost] - {}",
                       t.year, t.month, t.day, t.hour, t.minute, t.second, t.nanos / 1'000'000, c.rng() % 20,
                       message(c.rng));
                 }});
  out.push_back({"generic month-name (syslog)", [](Clock& c) {
                   const Civil t = civil(c.next());
                   return fmt::format("{} {:2} {:02}:{:02}:{:02} web1 php-fpm[{}]: [WARNING] {}", k_months[t.month - 1],
                                      t.day, t.hour, t.minute, t.second, 4000 + c.rng() % 64, message(c.rng));
                 }});
  out.push_back({"generic epoch (JSON)", [](Clock& c) {
                   const std::int64_t ns = c.next();
                   return fmt::format(
                       "{{\"level\":\"info\",\"ts\":{}.{:06},\"logger\":\"http.log.access\",\"msg\":"
                       "\"handled request\",\"duration\":0.{:06},\"status\":200}}",
                       ns / 1'000'000'000, ns / 1000 % 1'000'000, c.rng() % 1'000'000);
                 }});
  out.push_back({"generic clf (PHP error_log)", [](Clock& c) {
                   const Civil t = civil(c.next());
                   return fmt::format(
                       "[{:02}-{}-{:04} {:02}:{:02}:{:02} UTC] PHP Warning:  Undefined variable $x{} in "
                       "/srv/mediawiki/includes/Foo.php on line {}",
                       t.day, k_months[t.month - 1], t.year, t.hour, t.minute, t.second, c.rng() % 100, c.rng() % 2000);
                 }});
  out.push_back({"generic month-day (logcat)", [](Clock& c) {
                   const Civil t = civil(c.next());
                   return fmt::format("{:02}-{:02} {:02}:{:02}:{:02}.{:03}  {}  {} I ActivityManager: {}", t.month,
                                      t.day, t.hour, t.minute, t.second, t.nanos / 1'000'000, 1000 + c.rng() % 100,
                                      2000 + c.rng() % 100, message(c.rng));
                 }});
  out.push_back({"generic time-only (strace)", [](Clock& c) {
                   const Civil t = civil(c.next());
                   return fmt::format(
                       "{:02}:{:02}:{:02}.{:06} sendto(7, \"set WANCache:k 0 86400 {}\\r\\n\", 40, "
                       "MSG_NOSIGNAL, NULL, 0) = 40",
                       t.hour, t.minute, t.second, t.nanos / 1000, c.rng() % 1000);
                 }});
  out.push_back({"generic compact (HDFS)", [](Clock& c) {
                   const Civil t = civil(c.next());
                   return fmt::format("{:02}{:02}{:02} {:02}{:02}{:02} {} INFO dfs.DataNode$PacketResponder: {}",
                                      t.year % 100, t.month, t.day, t.hour, t.minute, t.second, c.rng() % 1000,
                                      message(c.rng));
                 }});
  out.push_back({"generic uptime (dmesg)", [](Clock& c) {
                   const std::int64_t ns = c.next() - 1'764'450'184'000'000'000 + 12'000'000'000;
                   return fmt::format("[{:5}.{:06}] EXT4-fs (vda1): {}", ns / 1'000'000'000, ns / 1000 % 1'000'000,
                                      message(c.rng));
                 }});
  return out;
}

const char* k_user_format = R"(name = "bench-app"
regex = '^(?P<time>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) \[(?P<group>[0-9a-f]+)\] (?P<level>\w+) (?P<message>.*)$'
time_layout = "%Y-%m-%d %H:%M:%S.%f"
samples = ["2026-11-29 21:03:04.123456 [9c1f0d3e] INFO hello"]
)";

struct Timing {
  double seconds = 0;
  std::uint64_t lines = 0, records = 0;
  std::string format;
};

Timing run(const std::string& data, bool parse, const parse::ReaderOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  source::LineReader reader(source::make_string_source(data));
  Timing timing;
  if (parse) {
    parse::RecordReader records(options);
    parse::Record record;
    std::vector<std::string> sample;
    std::vector<source::Line> held;
    while (sample.size() < 64) {
      auto line = reader.next();
      if (!line) break;
      sample.emplace_back(line->text);
      held.push_back(*line);
    }
    records.detect(sample);
    for (std::size_t i = 0; i < sample.size(); ++i) {
      records.read(sample[i], LineLocation{0, 0, held[i].number, held[i].offset}, record);
    }
    while (auto line = reader.next()) records.read(line->text, LineLocation{0, 0, line->number, line->offset}, record);
    const parse::LineAccount account = records.account();
    timing.lines = account.lines;
    timing.records = account.records;
    timing.format = records.detected_format();
  } else {
    while (auto line = reader.next()) ++timing.lines;
  }
  timing.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return timing;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t lines = 200'000;
  int runs = 3;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--lines" || arg == "--runs" || arg == "--only") && i + 1 < argc) {
      const std::string value = argv[++i];
      if (arg == "--lines") lines = std::strtoull(value.c_str(), nullptr, 10);
      if (arg == "--runs") runs = std::max(1, std::atoi(value.c_str()));
      if (arg == "--only") only = value;
    } else {
      fmt::print(stderr, "usage: parse_speed [--lines N] [--runs R] [--only NAME]\n");
      return arg == "-h" || arg == "--help" ? 0 : 2;
    }
  }

  std::vector<Diagnostic> diagnostics;
  auto user = parse::parse_format_file(k_user_format, "bench-app.toml", diagnostics);
  if (!user) {
    for (const Diagnostic& d : diagnostics) fmt::print(stderr, "{}\n", to_string(d));
    return 1;
  }
  auto user_formats = std::make_shared<const std::vector<parse::FormatInfo>>(std::vector<parse::FormatInfo>{*user});

  std::vector<Family> all = families();
  all.push_back({"user format (RE2 regex)", [](Clock& c) {
                   const Civil t = civil(c.next());
                   return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:06} [{}] INFO {}", t.year, t.month, t.day,
                                      t.hour, t.minute, t.second, t.nanos / 1000, request_id(c.rng, 8), message(c.rng));
                 }});

  fmt::print("{} lines per family, median of {} runs; floor = splitting the same bytes into lines\n\n", lines, runs);
  fmt::print("{:<30} {:>8} {:>12} {:>9} {:>8} {:>9}  {}\n", "family", "MB", "lines/s", "MB/s", "x floor", "records",
             "detected as");
  int failures = 0;
  for (const Family& family : all) {
    if (!only.empty() && family.name.find(only) == std::string::npos) continue;
    Clock clock;
    std::string data;
    for (std::size_t i = 0; i < lines; ++i) {
      data += family.line(clock);
      data += '\n';
    }
    parse::ReaderOptions options;
    options.time.default_year = 2025;
    if (family.name.starts_with("user")) options.user_formats = user_formats;
    std::vector<double> floor, parse;
    Timing last;
    for (int r = 0; r < runs; ++r) {  // interleaved, so that drift hits both alike
      floor.push_back(run(data, false, options).seconds);
      last = run(data, true, options);
      parse.push_back(last.seconds);
    }
    const double seconds = median(parse);
    const double share = last.lines == 0 ? 0 : static_cast<double>(last.records) / static_cast<double>(last.lines);
    if (share < 0.999) ++failures;
    fmt::print("{:<30} {:>8.1f} {:>12.0f} {:>9.1f} {:>8.1f} {:>8.1f}%  {}\n", family.name,
               static_cast<double>(data.size()) / 1e6, static_cast<double>(lines) / seconds,
               static_cast<double>(data.size()) / 1e6 / seconds, seconds / median(floor), 100 * share, last.format);
  }
  if (failures > 0) {
    fmt::print(stderr, "\nparse_speed: {} families read fewer than 99.9 % of their lines as records\n", failures);
    return 1;
  }
  return 0;
}
