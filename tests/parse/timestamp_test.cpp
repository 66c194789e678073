#include <gapscan/parse/timestamp.hpp>

#include <catch2/catch.hpp>

using namespace gapscan;
using namespace gapscan::parse;

TEST_CASE("ISO-8601 timestamps in common shapes", "[parse][timestamp]") {
  const TimeNs base = days_from_civil(2026, 11, 29) * 86400 * k_ns_per_s + (21 * 3600 + 3 * 60 + 4) * k_ns_per_s;
  auto t = parse_iso8601("2026-11-29 21:03:04.123456 [x]");
  REQUIRE(t);
  CHECK(t->time == base + 123456000);
  CHECK(t->digits == 6);
  CHECK(t->length == 26);
  CHECK_FALSE(t->has_offset);
  CHECK_FALSE(t->date_time_t);

  t = parse_iso8601("2026-11-29T21:03:04Z");
  REQUIRE(t);
  CHECK(t->time == base);
  CHECK(t->has_offset);
  CHECK(t->length == 20);

  t = parse_iso8601("2026-11-30T06:03:04.5+09:00 rest");
  REQUIRE(t);
  CHECK(t->time == base + 500000000);
  CHECK(t->digits == 1);

  t = parse_iso8601("2026-11-29T20:33:04,123456789123-0030");
  REQUIRE(t);
  CHECK(t->time == base + 123456789);
  CHECK(t->digits == 9);
}

TEST_CASE("Invalid fields are rejected", "[parse][timestamp]") {
  CHECK_FALSE(parse_iso8601("2026-13-29 21:03:04"));
  CHECK_FALSE(parse_iso8601("2026-11-29 24:03:04"));
  CHECK_FALSE(parse_iso8601("2026-11-29"));
  CHECK_FALSE(parse_iso8601("29/Nov/2026:21:03:04 +0000"));
  CHECK_FALSE(parse_iso8601(""));
}

TEST_CASE("A year outside 1900-2200 is not a time (found by fuzzing: the instant overflowed)", "[parse][timestamp]") {
  CHECK_FALSE(parse_iso8601("9999-11-29 21:03:04"));
  CHECK_FALSE(parse_iso8601("2263-01-01T00:00:00Z"));
  CHECK_FALSE(parse_iso8601("0001-01-01 00:00:00"));
  CHECK(parse_iso8601("1900-01-01 00:00:00"));
  CHECK(parse_iso8601("2200-12-31T23:59:59Z"));
}
