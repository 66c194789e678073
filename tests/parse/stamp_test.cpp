#include <gapscan/parse/anchor.hpp>
#include <gapscan/parse/stamp.hpp>
#include <gapscan/parse/stamp_clock.hpp>
#include <gapscan/parse/zone.hpp>

#include <catch2/catch.hpp>

#include <string>

using namespace gapscan;
using namespace gapscan::parse;

namespace {

struct Example {
  StampFamily family;
  std::string text;
  int year, month, day, hour, minute, second;
  std::int64_t nanos;
  int offset_seconds;
};

TimeNs utc(int year, unsigned month, unsigned day, int hour, int minute, int second) {
  return (days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second) * k_ns_per_s;
}

}  // namespace

TEST_CASE("Every family reads its shapes, with fractions and zones", "[parse][stamp]") {
  const std::vector<Example> examples = {
      {StampFamily::ymd, "2015-10-18 18:01:47,978 INFO", 2015, 10, 18, 18, 1, 47, 978000000, 0},
      {StampFamily::ymd, "2024-04-06T18:58:23.435979+09:00", 2024, 4, 6, 18, 58, 23, 435979000, 9 * 3600},
      {StampFamily::ymd, "2022-07-12T06:22:33.415742+0000 x", 2022, 7, 12, 6, 22, 33, 415742000, 0},
      {StampFamily::ymd, "2019-11-26 01:04:49.008 +08:00 [INF]", 2019, 11, 26, 1, 4, 49, 8000000, 8 * 3600},
      {StampFamily::ymd, "2024/11/12 - 15:19:06 | 200", 2024, 11, 12, 15, 19, 6, 0, 0},
      {StampFamily::ymd, "2014:07:02-00:17:45 host", 2014, 7, 2, 0, 17, 45, 0, 0},
      {StampFamily::ymd, "2021-11-09  5:13:11 0 [Warning]", 2021, 11, 9, 5, 13, 11, 0, 0},
      {StampFamily::month_name, "Jul  1 00:21:28 combo", -1, 7, 1, 0, 21, 28, 0, 0},
      {StampFamily::month_name, "Sun Dec 04 04:47:44 2005] [notice]", 2005, 12, 4, 4, 47, 44, 0, 0},
      {StampFamily::month_name, "Sat Jul 20 21:34:49.453232 2013] x", 2013, 7, 20, 21, 34, 49, 453232000, 0},
      {StampFamily::month_name, "Apr-07-13 07:08:36 [SMTP]", 2013, 4, 7, 7, 8, 36, 0, 0},
      {StampFamily::month_name, "apr 15, 2013 8:34:08 PM org", 2013, 4, 15, 20, 34, 8, 0, 0},
      {StampFamily::month_name, "Thu, 14 Oct 2021 15:24:12.023984 UTC x", 2021, 10, 14, 15, 24, 12, 23984000, 0},
      {StampFamily::month_name,
       "D\xe9"
       "c 31 11:59:59 x",
       -1, 12, 31, 11, 59, 59, 0, 0},
      {StampFamily::month_name,
       "Ao\xc3\xbc"
       "t 14 11:59:59 x",
       -1, 8, 14, 11, 59, 59, 0, 0},
      {StampFamily::clf, "17/May/2015:10:05:03 +0000] \"GET", 2015, 5, 17, 10, 5, 3, 0, 0},
      {StampFamily::clf, "19-Oct-2022 05:34:02.425 client", 2022, 10, 19, 5, 34, 2, 425000000, 0},
      {StampFamily::clf, "02/sept./2015:00:11:31 +0200]", 2015, 9, 2, 0, 11, 31, 0, 2 * 3600},
      {StampFamily::month_day, "03-17 16:13:38.811  1702", -1, 3, 17, 16, 13, 38, 811000000, 0},
      {StampFamily::month_day, "1115 21:24:58.438419 12 main.go", -1, 11, 15, 21, 24, 58, 438419000, 0},
      {StampFamily::time_only, "18:43:32.782 [main] INFO", -1, -1, -1, 18, 43, 32, 782000000, 0},
      {StampFamily::time_only, "2:28PM INF msg", -1, -1, -1, 14, 28, 0, 0, 0},
      {StampFamily::compact, "081109 203615 148 INFO", 2008, 11, 9, 20, 36, 15, 0, 0},
      {StampFamily::compact, "20171223-22:15:35:11|Step", 2017, 12, 23, 22, 15, 35, 11000000, 0},
      {StampFamily::compact, "130324  0:04:00 [Warning]", 2013, 3, 24, 0, 4, 0, 0, 0},
  };
  for (const Example& e : examples) {
    INFO(to_string(e.family) << ": " << e.text);
    StampFields fields;
    REQUIRE(scan_stamp(e.family, e.text, 0, fields) > 0);
    CHECK(fields.year == e.year);
    CHECK(fields.month == e.month);
    CHECK(fields.day == e.day);
    CHECK(fields.hour == e.hour);
    CHECK(fields.minute == e.minute);
    CHECK(fields.second == e.second);
    CHECK(fields.nanos == e.nanos);
    CHECK(fields.offset_seconds == e.offset_seconds);
  }
}

TEST_CASE("Numeric dates follow the order chosen for the file", "[parse][stamp]") {
  StampFields fields;
  REQUIRE(scan_stamp(StampFamily::numeric, "06/10/2021:11:19:31 -0000]", 0, fields, NumericOrder::day_month_year));
  CHECK(fields.month == 10);
  CHECK(fields.day == 6);
  REQUIRE(scan_stamp(StampFamily::numeric, "01/25/22 16:08:02.393003 x", 0, fields, NumericOrder::month_day_year));
  CHECK(fields.year == 2022);
  CHECK(fields.day == 25);
  REQUIRE(scan_stamp(StampFamily::numeric, "17/06/09 20:10:40 INFO", 0, fields, NumericOrder::year_month_day));
  CHECK(fields.year == 2017);
  CHECK(fields.month == 6);
  CHECK(fields.day == 9);
  CHECK(scan_stamp(StampFamily::numeric, "01/25/22 16:08:02", 0, fields, NumericOrder::day_month_year) == 0);
}

TEST_CASE("Epochs are read by digit count and only as whole numbers", "[parse][stamp]") {
  StampFields fields;
  REQUIRE(scan_stamp(StampFamily::epoch, "1711741827.9626286 x", 0, fields) == 18);
  CHECK(fields.instant == 1711741827962628600);
  REQUIRE(scan_stamp(StampFamily::epoch, "1731391316698,", 0, fields) == 13);
  CHECK(fields.instant == 1731391316698000000);
  CHECK(scan_stamp(StampFamily::epoch, "123456789 x", 0, fields) == 0);
  CHECK(scan_stamp(StampFamily::epoch, "12345678901234567", 0, fields) == 0);
  REQUIRE(scan_stamp(StampFamily::tai64n, "@400000004c91b044077a9e94 x", 0, fields) == 25);
  CHECK(fields.instant == 0x4c91b044LL * k_ns_per_s + 0x077a9e94);
}

TEST_CASE("Things that are not stamps", "[parse][stamp]") {
  StampFields fields;
  CHECK(scan_stamp(StampFamily::ymd, "2017-05-16_13:53:08 x", 0, fields) == 0);  // a file name
  CHECK(scan_stamp(StampFamily::ymd, "2026-13-01 00:00:00", 0, fields) == 0);
  CHECK(scan_stamp(StampFamily::time_only, "12:34 nothing", 0, fields) == 0);
  CHECK(scan_stamp(StampFamily::month_name, "Ju 14 11:59:59", 0, fields) == 0);  // June or July?
  std::size_t length = 0;
  CHECK(read_month_name("de  31", length) == 12);
  CHECK(read_month_name("Mayday", length) == 0);
}

TEST_CASE("The clock fills in years, dates and zones", "[parse][stamp]") {
  StampClock clock(0, 2020);
  clock.set_base_year(2012);
  StampFields dec;
  REQUIRE(scan_stamp(StampFamily::month_name, "Dec 31 23:59:59 x", 0, dec));
  StampFields jan;
  REQUIRE(scan_stamp(StampFamily::month_name, "Jan  1 00:00:01 x", 0, jan));
  CHECK(clock.instant(dec) == utc(2012, 12, 31, 23, 59, 59));
  CHECK(clock.instant(jan) == utc(2013, 1, 1, 0, 0, 1));  // New Year: the month went back
  StampFields late;
  REQUIRE(scan_stamp(StampFamily::time_only, "23:00:00 x", 0, late));
  StampFields early;
  REQUIRE(scan_stamp(StampFamily::time_only, "01:00:00 x", 0, early));
  CHECK(clock.instant(late) == utc(2013, 1, 1, 23, 0, 0));
  CHECK(clock.instant(early) == utc(2013, 1, 2, 1, 0, 0));  // midnight passed
  StampFields zoned;
  REQUIRE(scan_stamp(StampFamily::ymd, "2026-11-29T10:49:83+01:00", 0, zoned));
  CHECK(clock.instant(zoned) == utc(2026, 11, 29, 9, 50, 23));  // seconds carried over
}

TEST_CASE("Anchors find where stamps can start", "[parse][anchor]") {
  std::vector<std::size_t> positions;
  locate(Anchor{AnchorKind::bracket_field, 3, {}}, "1.2.3.4 - - [17/May/2015:10:05:03 +0000] x", positions);
  CHECK(positions == std::vector<std::size_t>{13});
  locate(Anchor{AnchorKind::json_key, 0, "t.$date"}, R"({"t":{"$date":"2020-01-01T00:00:00Z"},"s":"I"})", positions);
  CHECK(positions == std::vector<std::size_t>{15});
  locate(Anchor{AnchorKind::key_value, 0, "time"}, "a time=123456789 b time=\"1649352122\"", positions);
  CHECK(positions == std::vector<std::size_t>{7, 25});
  locate(Anchor{AnchorKind::glued_tag, 0, {}}, "I1115 21:24:58.438419 12 x", positions);
  CHECK(positions == std::vector<std::size_t>{1});
  locate(Anchor{AnchorKind::rfc5424, 0, {}}, "<13>1 2026-11-29T10:00:00Z host", positions);
  CHECK(positions == std::vector<std::size_t>{6});
  CHECK(time_key_rank("timestamp") < time_key_rank("load_timestamp"));
  CHECK(time_key_rank("load_timestamp") < time_key_rank("ID"));
}

TEST_CASE("A zone name after the time is honoured, an unknown one left to --tz", "[parse][stamp][zone]") {
  StampClock clock;
  StampFields seoul;
  const std::string line = "[29-Nov-2026 18:28:46 Asia/Seoul] PHP Warning:  x";
  REQUIRE(scan_stamp(StampFamily::clf, line, 1, seoul) == std::string("29-Nov-2026 18:28:46 Asia/Seoul").size());
  CHECK(seoul.zone_name == "Asia/Seoul");
  CHECK(clock.instant(seoul) == utc(2026, 11, 29, 9, 28, 46));
  CHECK(clock.last_zoned());

  StampFields utc_stamp;
  REQUIRE(scan_stamp(StampFamily::clf, "[29-Nov-2026 09:28:45 UTC] x", 1, utc_stamp) > 0);
  CHECK(clock.instant(utc_stamp) == utc(2026, 11, 29, 9, 28, 45));
  CHECK(clock.last_zoned());

  StampFields unknown;
  REQUIRE(scan_stamp(StampFamily::clf, "[29-Nov-2026 18:28:46 Europe/Atlantis] x", 1, unknown) > 0);
  CHECK(unknown.zone_name == "Europe/Atlantis");
  CHECK(clock.instant(unknown) == utc(2026, 11, 29, 18, 28, 46));
  CHECK_FALSE(clock.last_zoned());

  StampFields plain;  // "Asia" without a slash is not a zone
  REQUIRE(scan_stamp(StampFamily::clf, "[29-Nov-2026 18:28:46] Asia trip", 1, plain) > 0);
  CHECK(plain.zone_name.empty());
  CHECK(Zone::name_length("America/Argentina/Buenos_Aires] x") == 30);
  CHECK(Zone::name_length("Europe/") == 0);
  CHECK(Zone::name_length("Mars/Olympus") == 0);
}

TEST_CASE("date(1) stamps: the year after the zone abbreviation", "[parse][stamp]") {
  StampFields utc_fields;
  const std::string db_error = "Sun Nov 9 9:28:45 UTC 2025\tweb1\tmywiki\tError connecting to 10.0.0.5";
  REQUIRE(scan_stamp(StampFamily::month_name, db_error, 0, utc_fields) ==
          std::string("Sun Nov 9 9:28:45 UTC 2025").size());
  CHECK(utc_fields.year == 2025);
  CHECK(utc_fields.has_zone);
  StampFields cet;
  REQUIRE(scan_stamp(StampFamily::month_name, "Sun Nov 29 21:03:04 CET 2026 restart", 0, cet) > 0);
  CHECK(cet.year == 2026);
  CHECK(cet.zone_abbreviation == "CET");
  CHECK(cet.has_zone);  // CET names one offset wherever it is used
  CHECK(cet.offset_seconds == 3600);
  StampFields cst;
  REQUIRE(scan_stamp(StampFamily::month_name, "Sun Nov 29 21:03:04 CST 2026 restart", 0, cst) > 0);
  CHECK(cst.year == 2026);
  CHECK(cst.zone_abbreviation == "CST");
  CHECK_FALSE(cst.has_zone);  // US Central or China: only the input's zone can tell
  StampFields words;
  REQUIRE(scan_stamp(StampFamily::month_name, "Nov 29 21:03:04 web1 sshd 2026 x", 0, words) > 0);
  CHECK(words.year == -1);
}

TEST_CASE("Stamps beyond the range of an instant are refused or saturate (found by fuzzing)", "[parse][stamp]") {
  StampFields fields;
  CHECK(scan_stamp(StampFamily::ymd, "9999-01-01 00:00:00 x", 0, fields) == 0);
  CHECK(scan_stamp(StampFamily::clf, "29/Nov/4000:21:03:04 +0000", 0, fields) == 0);
  const std::size_t read = scan_stamp(StampFamily::month_name, "Sun Nov 29 21:03:04 9999 x", 0, fields);
  CHECK((read == 0 || fields.year == -1));  // the year is not taken; the stamp may still be read yearless
  // Twenty digits where a long epoch may stand: not a stamp (the 20th digit overflowed int64).
  CHECK(scan_stamp(StampFamily::epoch_long, "44444444444444444444 x", 0, fields) == 0);
  CHECK(scan_stamp(StampFamily::epoch_long, "17959740904527959740 x", 0, fields) == 0);
  // Seconds since boot and TAI64N labels too large for nanoseconds: a defined, saturated instant.
  REQUIRE(scan_stamp(StampFamily::uptime, "[9999999999.5] x", 1, fields) > 0);
  CHECK(fields.instant == INT64_MAX);
  REQUIRE(scan_stamp(StampFamily::tai64n, "@7fffffffffffffff00000000 x", 0, fields) == 25);
  CHECK(fields.instant == INT64_MAX);
  // A yearless chain that counts New Years past 2262 stays defined (saturates).
  StampClock clock(0, 2200);
  clock.set_base_year(2200);
  StampFields dec, jan;
  REQUIRE(scan_stamp(StampFamily::month_name, "Dec 31 23:59:59 x", 0, dec));
  REQUIRE(scan_stamp(StampFamily::month_name, "Jan  1 00:00:01 x", 0, jan));
  TimeNs last = 0;
  for (int year = 0; year < 120; ++year) {
    clock.instant(dec);
    last = clock.instant(jan);
  }
  CHECK(last == INT64_MAX);
}

TEST_CASE("Daylight-saving changes written as zone abbreviations (PDT to PST, CET to CEST)", "[parse][stamp][zone]") {
  auto instant = [](StampClock& clock, StampFamily family, const std::string& text) {
    StampFields fields;
    REQUIRE(scan_stamp(family, text, 0, fields) > 0);
    return clock.instant(fields);
  };
  // Autumn in California: 01:30 happens twice, once as PDT and once as PST, an hour apart.
  StampClock la;
  const TimeNs first = instant(la, StampFamily::month_name, "Sun Nov  1 01:30:00 PDT 2026 x");
  CHECK(la.last_zoned());
  const TimeNs second = instant(la, StampFamily::month_name, "Sun Nov  1 01:30:00 PST 2026 x");
  CHECK(first == utc(2026, 11, 1, 8, 30, 0));
  CHECK(second - first == 3600 * k_ns_per_s);
  // Spring in Berlin: 01:59:59 CET is followed one second later by 03:00:00 CEST.
  StampClock berlin;
  const TimeNs before = instant(berlin, StampFamily::ymd, "2026-03-29 01:59:59 CET [info] x");
  const TimeNs after = instant(berlin, StampFamily::ymd, "2026-03-29 03:00:00 CEST [info] x");
  CHECK(after - before == k_ns_per_s);
  // A level word after the time is not a zone.
  StampFields level;
  REQUIRE(scan_stamp(StampFamily::ymd, "2026-03-29 01:59:59 INFO x", 0, level) > 0);
  CHECK(level.zone_abbreviation.empty());
  CHECK_FALSE(level.has_zone);

  // An ambiguous abbreviation is resolved by the input's zone when that zone uses it.
  const auto chicago = Zone::find("America/Chicago");
  const auto shanghai = Zone::find("Asia/Shanghai");
  REQUIRE(chicago);
  REQUIRE(shanghai);
  CHECK(chicago->abbreviation_offset("CST") == -6 * 3600);
  CHECK(chicago->abbreviation_offset("CDT") == -5 * 3600);
  CHECK(shanghai->abbreviation_offset("CST") == 8 * 3600);
  CHECK_FALSE(chicago->abbreviation_offset("JST"));
  StampClock us;
  us.set_zone(chicago);
  CHECK(instant(us, StampFamily::ymd, "2026-11-29 12:00:00 CST x") == utc(2026, 11, 29, 18, 0, 0));
  CHECK(us.last_zoned());
  StampClock china;
  china.set_zone(shanghai);
  CHECK(instant(china, StampFamily::ymd, "2026-11-29 12:00:00 CST x") == utc(2026, 11, 29, 4, 0, 0));
  StampClock unknown;  // no --tz zone: read as if no zone were written (the input's zone applies later)
  CHECK(instant(unknown, StampFamily::ymd, "2026-11-29 12:00:00 CST x") == utc(2026, 11, 29, 12, 0, 0));
  CHECK_FALSE(unknown.last_zoned());
}
