// gapscan's own TZif reader (parse::Zone) against two references, for every zone of the
// system's database (/usr/share/zoneinfo without posix/ and right/):
//
//  - up to 2037, Howard Hinnant's date/tz (libhowardhinnant-date-dev, the library that became
//    C++20's tzdb, built with USE_OS_TZDB=1 so that it reads the same files): offset_at just
//    before, at and just after every change, once a week, and at random instants; to_utc around
//    every change (both sides of the spring gap and of the autumn overlap, with each choice of
//    the previous line) and at random local times;
//  - from 2038 to 2200 (the last year a stamp may name), where Debian's files stop listing changes and the footer's
//  POSIX TZ
//    rule takes over, the C library's localtime_r (what zdump prints): date/tz 3.0.1 does not
//    read that rule (github.com/HowardHinnant/date issue 794) and keeps the last listed offset.
//
// Every disagreement is printed (zone, instant, both values, the C library's) and fails the
// test.

#include <gapscan/core/time.hpp>
#include <gapscan/parse/zone.hpp>

#include <date/tz.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace gapscan;
using namespace gapscan::parse;

namespace {

constexpr std::int64_t k_day = 86400;

std::int64_t start_of_year(int year) { return days_from_civil(year, 1, 1) * k_day; }

std::int64_t floor_seconds(TimeNs ns) { return ns >= 0 ? ns / k_ns_per_s : (ns - k_ns_per_s + 1) / k_ns_per_s; }

/// "2037-10-25T01:00:00" for UTC seconds.
std::string iso(std::int64_t seconds) {
  return date::format("%FT%T", date::sys_seconds{std::chrono::seconds{seconds}});
}

std::string iso_ns(TimeNs ns) {
  const std::int64_t s = floor_seconds(ns);
  const TimeNs rest = ns - s * k_ns_per_s;
  return rest == 0 ? iso(s) : iso(s) + "+" + std::to_string(rest) + "ns";
}

/// Zone names of every TZif file under `root`, posix/ and right/ left out.
std::vector<std::string> zone_names(const std::filesystem::path& root) {
  std::vector<std::string> names;
  std::error_code error;
  for (auto it = std::filesystem::recursive_directory_iterator(root, error);
       !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    const std::string name = it->path().lexically_relative(root).generic_string();
    if (it->is_directory()) {
      if (name == "posix" || name == "right") it.disable_recursion_pending();
      continue;
    }
    if (name == "localtime" || !it->is_regular_file()) continue;  // follows links
    std::ifstream in(it->path(), std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    if (in && std::string(magic, 4) == "TZif") names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// The UTC instants a local time may stand for: one (`late == early`), two around an autumn
/// change, or, in the spring gap, the one read with the offset before the change.
struct Resolution {
  TimeNs early, late;
};

/// gapscan's rule: of two candidates the one at or after the previous line's instant (the
/// earlier one without a previous line).
TimeNs choose(const Resolution& r, TimeNs previous) {
  return previous == INT64_MIN || r.early >= previous ? r.early : r.late;
}

Resolution tz_resolve(const date::time_zone& zone, TimeNs local) {
  const auto info = zone.get_info(date::local_seconds{std::chrono::seconds{floor_seconds(local)}});
  const TimeNs first = local - static_cast<TimeNs>(info.first.offset.count()) * k_ns_per_s;
  if (info.result != date::local_info::ambiguous) return {first, first};  // unique, or the gap
  const TimeNs second = local - static_cast<TimeNs>(info.second.offset.count()) * k_ns_per_s;
  return {std::min(first, second), std::max(first, second)};
}

int tz_offset(const date::time_zone& zone, std::int64_t utc) {
  return static_cast<int>(zone.get_info(date::sys_seconds{std::chrono::seconds{utc}}).offset.count());
}

/// The C library's view of one zone (TZ=":/usr/share/zoneinfo/NAME"); restores TZ after.
class LibcZone {
 public:
  explicit LibcZone(const std::string& path) {
    if (const char* old = std::getenv("TZ")) m_old = old;
    ::setenv("TZ", (":" + path).c_str(), 1);
    ::tzset();
  }
  ~LibcZone() {
    if (m_old) {
      ::setenv("TZ", m_old->c_str(), 1);
    } else {
      ::unsetenv("TZ");
    }
    ::tzset();
  }
  LibcZone(const LibcZone&) = delete;
  LibcZone& operator=(const LibcZone&) = delete;

  int offset(std::int64_t utc) const {
    const std::time_t t = static_cast<std::time_t>(utc);
    std::tm tm{};
    if (::localtime_r(&t, &tm) == nullptr) return INT_MIN;
    return static_cast<int>(tm.tm_gmtoff);
  }

  /// From the offsets a little either side (the footer rules change at most a few times a year).
  Resolution resolve(TimeNs local) const {
    const std::int64_t seconds = floor_seconds(local);
    const std::set<int> candidates = {offset(seconds - 2 * k_day), offset(seconds), offset(seconds + 2 * k_day)};
    std::vector<TimeNs> valid;
    for (const int o : candidates) {
      if (offset(seconds - o) == o) valid.push_back(local - static_cast<TimeNs>(o) * k_ns_per_s);
    }
    if (valid.empty()) {
      const TimeNs before = local - static_cast<TimeNs>(offset(seconds - 2 * k_day)) * k_ns_per_s;
      return {before, before};
    }
    std::sort(valid.begin(), valid.end());
    return {valid.front(), valid.back()};
  }

 private:
  std::optional<std::string> m_old;
};

struct Findings {
  std::size_t checks = 0;
  std::size_t count = 0;
  std::set<std::string> zones;

  void add(const std::string& zone, const std::string& what) {
    ++count;
    zones.insert(zone);
    if (count <= 300) std::cerr << "zone_tzdb: " << zone << ": " << what << "\n";
  }
};

/// The changes of offset date/tz lists in [from, to): (UTC seconds, offset before, offset after).
struct Change {
  std::int64_t at;
  int before, after;
};

std::vector<Change> tz_changes(const date::time_zone& zone, std::int64_t from, std::int64_t to) {
  std::vector<Change> out;
  std::int64_t at = from;
  while (at < to) {
    const auto info = zone.get_info(date::sys_seconds{std::chrono::seconds{at}});
    const std::int64_t end = info.end.time_since_epoch().count();
    if (end >= to || end <= at) break;
    const int after = tz_offset(zone, end);
    if (after != info.offset.count()) out.push_back({end, static_cast<int>(info.offset.count()), after});
    at = end;
  }
  return out;
}

/// Changes of the C library's offset in [from, to), found every `step` seconds and then to the
/// second (an offset that lasts less than `step` may be missed).
std::vector<Change> libc_changes(const LibcZone& zone, std::int64_t from, std::int64_t to, std::int64_t step) {
  std::vector<Change> out;
  int last = zone.offset(from);
  for (std::int64_t at = from + step; at < to; at += step) {
    const int now = zone.offset(at);
    if (now == last) continue;
    std::int64_t low = at - step, high = at;  // offset(low) == last, offset(high) == now
    while (high - low > 1) {
      const std::int64_t mid = low + (high - low) / 2;
      (zone.offset(mid) == last ? low : high) = mid;
    }
    out.push_back({high, last, now});
    last = now;
  }
  return out;
}

/// A local time near a single change, from the change alone.
Resolution change_resolve(const Change& change, TimeNs local) {
  const std::int64_t seconds = floor_seconds(local);
  const bool before = seconds - change.before < change.at, after = seconds - change.after >= change.at;
  const TimeNs with_before = local - static_cast<TimeNs>(change.before) * k_ns_per_s;
  const TimeNs with_after = local - static_cast<TimeNs>(change.after) * k_ns_per_s;
  if (before && after) return {std::min(with_before, with_after), std::max(with_before, with_after)};
  if (after) return {with_after, with_after};
  return {with_before, with_before};  // before the change, or in the gap
}

/// Local times around a change, with previous instants that pick each candidate.
template <class Reference>
void check_to_utc_around(const std::string& name, const Zone& ours, const Change& change, Reference reference,
                         Findings& findings) {
  const std::int64_t lo = change.at + std::min(change.before, change.after);
  const std::int64_t hi = change.at + std::max(change.before, change.after);
  const std::int64_t seconds[] = {lo - 3600, lo - 1, lo, lo + 1, (lo + hi) / 2, hi - 1, hi, hi + 1, hi + 3600};
  for (const std::int64_t s : seconds) {
    for (const TimeNs fraction : {TimeNs{0}, TimeNs{999'999'999}}) {
      const TimeNs local = s * k_ns_per_s + fraction;
      const Resolution r = reference(local);
      for (const TimeNs previous : {INT64_MIN, r.early - 3600 * k_ns_per_s, r.early, r.early + 1, r.late + 1}) {
        ++findings.checks;
        const TimeNs want = choose(r, previous);
        const TimeNs got = ours.to_utc(local, previous);
        if (got != want) {
          findings.add(name, "to_utc(local " + iso_ns(local) + ", previous " +
                                 (previous == INT64_MIN ? std::string("none") : iso_ns(previous)) + ") = " +
                                 iso_ns(got) + ", reference " + iso_ns(want) + " (change at " + iso(change.at) + "Z, " +
                                 std::to_string(change.before) + " -> " + std::to_string(change.after) + ")");
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("Every zone of the system database agrees with date/tz and the C library", "[parse][zone]") {
  const char* tzdir = std::getenv("TZDIR");
  if (tzdir != nullptr && *tzdir != '\0' && std::filesystem::path(tzdir) != "/usr/share/zoneinfo") {
    WARN("TZDIR is set to " << tzdir << "; date/tz reads /usr/share/zoneinfo: not compared");
    return;
  }
  const std::filesystem::path root = "/usr/share/zoneinfo";
  const std::vector<std::string> names = zone_names(root);
  if (names.empty()) {
    WARN("no zone files under " << root << " (package tzdata): not compared");
    return;
  }
  REQUIRE(names.size() > 300);

  const std::int64_t from = start_of_year(1800), tz_to = start_of_year(2038), to = start_of_year(k_max_stamp_year + 1);
  std::mt19937_64 random(1234567);
  Findings findings;
  std::size_t compared_with_tz = 0, unknown_to_tz = 0, tz_wrong_after_2037 = 0;
  for (const std::string& name : names) {
    const auto loaded = Zone::load(name);
    if (!loaded) {
      findings.add(name, "gapscan cannot load it: " + loaded.error().message);
      continue;
    }
    const Zone& ours = *loaded;
    const LibcZone libc((root / name).string());
    auto libc_at = [&](std::int64_t utc) { return std::to_string(libc.offset(utc)); };

    // Up to 2037: date/tz.
    const date::time_zone* theirs = nullptr;
    try {
      theirs = date::locate_zone(name);
    } catch (const std::exception&) {
      ++unknown_to_tz;
    }
    if (theirs != nullptr) {
      ++compared_with_tz;
      auto compare_offset = [&](std::int64_t utc) {
        ++findings.checks;
        const int got = ours.offset_at(utc), want = tz_offset(*theirs, utc);
        if (got != want) {
          findings.add(name, "offset_at(" + iso(utc) + "Z) = " + std::to_string(got) + ", date/tz " +
                                 std::to_string(want) + ", C library " + libc_at(utc));
        }
      };
      const auto changes = tz_changes(*theirs, from, tz_to);
      for (const Change& change : changes) {
        for (const std::int64_t d : {-1, 0, 1}) compare_offset(change.at + d);
        check_to_utc_around(
            name, ours, change, [&](TimeNs local) { return tz_resolve(*theirs, local); }, findings);
      }
      // Once a week, at a different time of day in each zone, for a change only gapscan has (one
      // that lasts until the next change date/tz lists is caught at that change already).
      for (std::int64_t at = from + static_cast<std::int64_t>(random() % (7 * k_day)); at < tz_to; at += 7 * k_day) {
        compare_offset(at);
      }
      std::uniform_int_distribution<std::int64_t> instant(from, tz_to - 1);
      for (int i = 0; i < 1000; ++i) {
        compare_offset(instant(random));
        const TimeNs local = instant(random) * k_ns_per_s + static_cast<TimeNs>(random() % k_ns_per_s);
        ++findings.checks;
        const TimeNs got = ours.to_utc(local, INT64_MIN), want = tz_resolve(*theirs, local).early;
        if (got != want) {
          findings.add(name, "to_utc(local " + iso_ns(local) + ") = " + iso_ns(got) + ", date/tz " + iso_ns(want));
        }
      }
    }

    // 2038 to 2200, where the footer rule applies (and all of it for the zones date/tz does not
    // list, such as posixrules and Factory): against the C library. The footer rules change
    // at most a few times a year, and Morocco's listed changes are a month apart.
    auto compare_libc = [&](std::int64_t utc) {
      ++findings.checks;
      const int got = ours.offset_at(utc), want = libc.offset(utc);
      if (got != want) {
        findings.add(name, "offset_at(" + iso(utc) + "Z) = " + std::to_string(got) + ", C library " +
                               std::to_string(want) +
                               (theirs != nullptr ? ", date/tz " + std::to_string(tz_offset(*theirs, utc)) : ""));
      }
    };
    bool tz_wrong = false;
    const std::int64_t libc_from = theirs != nullptr ? tz_to - 2 * k_day : from;
    for (const Change& change : libc_changes(libc, libc_from, to, theirs != nullptr ? 14 * k_day : k_day)) {
      for (const std::int64_t d : {-1, 0, 1}) compare_libc(change.at + d);
      check_to_utc_around(
          name, ours, change, [&](TimeNs local) { return change_resolve(change, local); }, findings);
      if (theirs != nullptr && tz_offset(*theirs, change.at) != change.after) tz_wrong = true;
    }
    tz_wrong_after_2037 += tz_wrong ? 1 : 0;
    std::uniform_int_distribution<std::int64_t> future(libc_from, to - 1);
    for (int i = 0; i < 200; ++i) {
      compare_libc(future(random));
      const TimeNs local = future(random) * k_ns_per_s;
      ++findings.checks;
      const TimeNs got = ours.to_utc(local, INT64_MIN), want = libc.resolve(local).early;
      if (got != want) {
        findings.add(name, "to_utc(local " + iso_ns(local) + ") = " + iso_ns(got) + ", C library " + iso_ns(want));
      }
    }
  }
  std::ostringstream summary;
  summary << names.size() << " zones (" << compared_with_tz << " also in date/tz, " << unknown_to_tz << " not), "
          << findings.checks << " checks, " << findings.count << " disagreements in " << findings.zones.size()
          << " zones; date/tz keeps the last listed offset after 2037 in " << tz_wrong_after_2037 << " zones";
  std::cerr << "zone_tzdb: " << summary.str() << "\n";
  INFO(summary.str());
  CHECK(findings.count == 0);
}
