#include <gapscan/core/time.hpp>
#include <gapscan/parse/zone.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace gapscan;
using namespace gapscan::parse;

namespace {

/// Local wall-clock time as nanoseconds "as if UTC".
TimeNs local(int year, unsigned month, unsigned day, int hour, int minute) {
  return (days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60) * k_ns_per_s;
}

void put32(std::string& out, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((value >> shift) & 0xFF);
}

/// A slim TZif v2 file: no transitions, one type, and the footer rule that covers all time.
std::string slim_zone(int standard_offset, const std::string& abbreviation, const std::string& rule) {
  std::string block;
  const std::string header_counts = [&] {
    std::string counts;
    for (std::uint32_t count : {0U, 0U, 0U, 0U, 1U, static_cast<std::uint32_t>(abbreviation.size() + 1)}) {
      put32(counts, count);
    }
    return counts;
  }();
  std::string data;
  put32(data, static_cast<std::uint32_t>(standard_offset));
  data += '\0';  // not DST
  data += '\0';  // abbreviation index
  data += abbreviation;
  data += '\0';
  for (int version = 0; version < 2; ++version) {
    block += "TZif2";
    block += std::string(15, '\0');
    block += header_counts;
    block += data;
  }
  return block + "\n" + rule + "\n";
}

/// Points $TZDIR at a fresh directory for the test's lifetime.
class ZoneDir {
 public:
  ZoneDir() : m_path(std::filesystem::temp_directory_path() / ("gapscan-zone-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(m_path / "Test");
    ::setenv("TZDIR", m_path.c_str(), 1);
  }
  ~ZoneDir() {
    ::unsetenv("TZDIR");
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  ZoneDir(const ZoneDir&) = delete;
  ZoneDir& operator=(const ZoneDir&) = delete;

  void write(const std::string& name, const std::string& bytes) const {
    std::ofstream(m_path / name, std::ios::binary) << bytes;
  }

 private:
  std::filesystem::path m_path;
};

constexpr TimeNs k_hour = 3600 * k_ns_per_s;

}  // namespace

TEST_CASE("Fixed offsets and UTC", "[parse][zone]") {
  auto plus_one = Zone::load("+01:00");
  REQUIRE(plus_one);
  CHECK(plus_one->to_utc(local(2026, 11, 29, 12, 0), INT64_MIN) == local(2026, 11, 29, 11, 0));
  auto minus_seven = Zone::load("-0700");
  REQUIRE(minus_seven);
  CHECK(minus_seven->to_utc(local(2026, 11, 29, 12, 0), INT64_MIN) == local(2026, 11, 29, 19, 0));
  CHECK(minus_seven->name() == "-07:00");
  auto utc = Zone::load("UTC");
  REQUIRE(utc);
  CHECK(utc->is_utc());
  CHECK_FALSE(Zone::load("+25:00"));
  CHECK_FALSE(Zone::load("+1:2:3"));
}

TEST_CASE("Unknown and unsafe zone names are errors", "[parse][zone]") {
  auto missing = Zone::load("Mars/Olympus_Mons");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("unknown time zone 'Mars/Olympus_Mons'") != std::string::npos);
  CHECK_FALSE(Zone::load("../../etc/passwd"));
  CHECK_FALSE(Zone::load("/etc/localtime"));
}

TEST_CASE("A damaged zone file is an error, not a crash", "[parse][zone]") {
  const ZoneDir dir;
  std::string bytes = slim_zone(3600, "CET", "CET-1");
  dir.write("Test/Short", bytes.substr(0, 50));
  dir.write("Test/Garbage", std::string(100, 'x'));
  CHECK_FALSE(Zone::load("Test/Short"));
  CHECK_FALSE(Zone::load("Test/Garbage"));
}

TEST_CASE("Europe/Berlin from the system zone database", "[parse][zone]") {
  auto berlin = Zone::load("Europe/Berlin");
  REQUIRE(berlin);  // needs package tzdata (scripts/deps.sh installs it for the tests)
  CHECK(berlin->to_utc(local(2026, 1, 15, 12, 0), INT64_MIN) == local(2026, 1, 15, 11, 0));
  CHECK(berlin->to_utc(local(2026, 7, 1, 12, 0), INT64_MIN) == local(2026, 7, 1, 10, 0));
  // Spring gap (2026-03-29 02:00 -> 03:00): read with the offset before the change.
  CHECK(berlin->to_utc(local(2026, 3, 29, 2, 30), INT64_MIN) == local(2026, 3, 29, 1, 30));
  CHECK(berlin->to_utc(local(2026, 3, 29, 3, 0), INT64_MIN) == local(2026, 3, 29, 1, 0));
  // Autumn (2026-10-25 03:00 CEST -> 02:00 CET): 02:30 happens twice.
  const TimeNs first = berlin->to_utc(local(2026, 10, 25, 2, 30), INT64_MIN);
  CHECK(first == local(2026, 10, 25, 0, 30));
  const TimeNs before_change = berlin->to_utc(local(2026, 10, 25, 2, 59), first);
  CHECK(before_change == local(2026, 10, 25, 0, 59));
  // After the clocks went back, 02:05 must come after 02:59 CEST, not 54 minutes before it.
  const TimeNs second = berlin->to_utc(local(2026, 10, 25, 2, 5), before_change);
  CHECK(second == local(2026, 10, 25, 1, 5));
  CHECK(second - before_change == 6 * 60 * k_ns_per_s);
  // Far beyond the last transition in the file: the footer rule.
  CHECK(berlin->to_utc(local(2045, 7, 1, 12, 0), INT64_MIN) == local(2045, 7, 1, 10, 0));
  CHECK(berlin->to_utc(local(2045, 12, 1, 12, 0), INT64_MIN) == local(2045, 12, 1, 11, 0));
}

TEST_CASE("Slim zone files: the footer rule gives every change", "[parse][zone]") {
  const ZoneDir dir;
  dir.write("Test/Central", slim_zone(3600, "CET", "CET-1CEST,M3.5.0,M10.5.0/3"));
  dir.write("Test/Sydney", slim_zone(36000, "AEST", "AEST-10AEDT,M10.1.0,M4.1.0/3"));
  dir.write("Test/Fixed", slim_zone(19800, "IST", "IST-5:30"));

  auto central = Zone::load("Test/Central");
  REQUIRE(central);
  CHECK(central->to_utc(local(2040, 1, 15, 12, 0), INT64_MIN) == local(2040, 1, 15, 11, 0));
  CHECK(central->to_utc(local(2040, 7, 1, 12, 0), INT64_MIN) == local(2040, 7, 1, 10, 0));
  // 2040-03-25 is the last Sunday of March; 01:00 UTC is the change.
  CHECK(central->offset_at(days_from_civil(2040, 3, 25) * 86400 + 3599) == 3600);
  CHECK(central->offset_at(days_from_civil(2040, 3, 25) * 86400 + 3600) == 7200);
  CHECK(central->to_utc(local(1990, 7, 1, 12, 0), INT64_MIN) == local(1990, 7, 1, 10, 0));

  // Southern hemisphere: summer time spans the new year.
  auto sydney = Zone::load("Test/Sydney");
  REQUIRE(sydney);
  CHECK(sydney->to_utc(local(2040, 1, 15, 12, 0), INT64_MIN) == local(2040, 1, 15, 1, 0));
  CHECK(sydney->to_utc(local(2040, 7, 1, 12, 0), INT64_MIN) == local(2040, 7, 1, 2, 0));

  auto fixed = Zone::load("Test/Fixed");
  REQUIRE(fixed);
  CHECK(fixed->to_utc(local(2040, 7, 1, 12, 0), INT64_MIN) == local(2040, 7, 1, 6, 30));
  CHECK(fixed->to_utc(local(2040, 7, 1, 12, 0), INT64_MIN) - local(2040, 7, 1, 12, 0) ==
        -5 * k_hour - 30 * 60 * k_ns_per_s);
}

TEST_CASE("Offset spellings", "[parse][zone]") {
  for (const auto& [text, seconds] : std::initializer_list<std::pair<const char*, int>>{
           {"+5", 18000}, {"+05", 18000}, {"+0530", 19800}, {"+5:30", 19800}, {"-03:30", -12600}, {"Z", 0}}) {
    auto zone = Zone::load(text);
    REQUIRE(zone);
    CHECK(zone->offset_at(0) == seconds);
  }
  for (const char* bad : {"+", "+123", "+12345", "+1:2", "+01:60", "+ab", "-1:2:3"}) {
    INFO(bad);
    CHECK_FALSE(Zone::load(bad));
  }
}
