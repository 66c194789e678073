// Local time to UTC on the hot path: gapscan's own TZif reader (parse::Zone::to_utc) against
// Howard Hinnant's date/tz (libhowardhinnant-date-dev, the library that became C++20's tzdb,
// built by Debian with USE_OS_TZDB=1 so that it reads /usr/share/zoneinfo).
//
// For each zone the same sequence of local wall-clock times is converted by both, in one run:
// segments of increasing times (random 0-200 ms steps) that each start some hours before a
// change of offset in 2022-2026, so that the sequence crosses spring and autumn changes. Both
// sides follow gapscan's rule (of two candidates the one at or after the previous line's
// instant; a time in the spring gap read with the offset before the change), and the results
// are compared line by line.
//
//   zone_bench [--lines N] [--runs R] [--zone NAME]...
//
// Prints ns per conversion for each side (best of R runs, the two sides alternating), the
// ratio date/tz : gapscan, and the number of lines on which the two disagree.

#include <gapscan/core/time.hpp>
#include <gapscan/parse/zone.hpp>

#include <date/tz.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using gapscan::k_ns_per_ms;
using gapscan::k_ns_per_s;
using gapscan::TimeNs;

namespace {

std::int64_t floor_seconds(TimeNs ns) { return ns >= 0 ? ns / k_ns_per_s : (ns - k_ns_per_s + 1) / k_ns_per_s; }

/// gapscan's rule on top of date/tz's local_info.
TimeNs tz_to_utc(const date::time_zone& zone, TimeNs local, TimeNs previous) {
  const auto info = zone.get_info(date::local_seconds{std::chrono::seconds{floor_seconds(local)}});
  const TimeNs first = local - static_cast<TimeNs>(info.first.offset.count()) * k_ns_per_s;
  if (info.result != date::local_info::ambiguous) return first;  // unique, or the gap: the offset before
  const TimeNs second = local - static_cast<TimeNs>(info.second.offset.count()) * k_ns_per_s;
  const TimeNs early = std::min(first, second), late = std::max(first, second);
  if (previous == INT64_MIN || early >= previous) return early;
  return late;
}

/// Local times (ns, as if UTC) at which `zone` changes its offset in [from_year, to_year).
std::vector<std::int64_t> local_changes(const date::time_zone& zone, int from_year, int to_year) {
  std::vector<std::int64_t> out;
  const date::sys_seconds end{date::sys_days{date::year{to_year} / 1 / 1}};
  date::sys_seconds at{date::sys_days{date::year{from_year} / 1 / 1}};
  while (at < end) {
    const auto info = zone.get_info(at);
    if (info.end >= end) break;
    const auto next = zone.get_info(info.end);
    if (next.offset != info.offset) out.push_back(info.end.time_since_epoch().count() + info.offset.count());
    at = info.end;
  }
  return out;
}

struct Timing {
  double ns_per_line = 0;
  std::int64_t checksum = 0;
};

template <class Convert>
Timing run(const std::vector<TimeNs>& local, std::vector<TimeNs>& out, Convert convert) {
  const auto start = std::chrono::steady_clock::now();
  TimeNs previous = INT64_MIN;
  for (std::size_t i = 0; i < local.size(); ++i) {
    previous = convert(local[i], previous);
    out[i] = previous;
  }
  const auto stop = std::chrono::steady_clock::now();
  Timing timing;
  timing.ns_per_line = static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count()) /
                       static_cast<double>(local.size());
  for (const TimeNs t : out) timing.checksum ^= t;
  return timing;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t lines = 5'000'000;
  int runs = 3;
  std::vector<std::string> zones;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--lines" && i + 1 < argc) {
      lines = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--zone" && i + 1 < argc) {
      zones.emplace_back(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: zone_bench [--lines N] [--runs R] [--zone NAME]...\n");
      return 2;
    }
  }
  if (zones.empty()) zones = {"Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "UTC"};

  std::printf("%zu conversions per zone, best of %d runs; date/tz %s (tzdb version '%s')\n", lines, runs,
              "USE_OS_TZDB=1", date::get_tzdb().version.c_str());
  std::printf("%-22s %8s %12s %12s %8s %10s\n", "zone", "changes", "gapscan ns", "date/tz ns", "ratio", "disagree");
  int status = 0;
  for (const std::string& name : zones) {
    const auto loaded = gapscan::parse::Zone::load(name);
    if (!loaded) {
      std::fprintf(stderr, "%s: gapscan cannot load it\n", name.c_str());
      return 1;
    }
    const gapscan::parse::Zone& ours = *loaded;
    const date::time_zone* theirs = date::locate_zone(name);

    // The segments: 8 around changes of offset in 2022-2026 (Europe/Berlin's for zones without).
    std::vector<std::int64_t> changes = local_changes(*theirs, 2022, 2027);
    const std::size_t zone_changes = changes.size();
    if (changes.size() < 8) changes = local_changes(*date::locate_zone("Europe/Berlin"), 2022, 2027);
    changes.resize(std::min<std::size_t>(changes.size(), 8));
    std::mt19937_64 random(20260101);
    std::uniform_int_distribution<TimeNs> step(0, 200 * k_ns_per_ms);
    std::vector<TimeNs> local;
    local.reserve(lines);
    const std::size_t per_segment = (lines + changes.size() - 1) / changes.size();
    for (std::size_t s = 0; s < changes.size() && local.size() < lines; ++s) {
      // About half a segment (per_segment * 100 ms on average) before the change.
      TimeNs at = changes[s] * k_ns_per_s - static_cast<TimeNs>(per_segment / 2) * 100 * k_ns_per_ms;
      if (!local.empty()) at = std::max(at, local.back());
      for (std::size_t i = 0; i < per_segment && local.size() < lines; ++i) {
        at += step(random);
        local.push_back(at);
      }
    }

    std::vector<TimeNs> out_ours(local.size()), out_theirs(local.size());
    auto convert_ours = [&](TimeNs t, TimeNs previous) { return ours.to_utc(t, previous); };
    auto convert_theirs = [&](TimeNs t, TimeNs previous) { return tz_to_utc(*theirs, t, previous); };
    run(local, out_ours, convert_ours);  // warm up both (caches, lazy zone loading in date/tz)
    run(local, out_theirs, convert_theirs);
    Timing best_ours, best_theirs;
    best_ours.ns_per_line = best_theirs.ns_per_line = 1e300;
    for (int r = 0; r < runs; ++r) {
      const bool ours_first = r % 2 == 0;
      const Timing a = ours_first ? run(local, out_ours, convert_ours) : run(local, out_theirs, convert_theirs);
      const Timing b = ours_first ? run(local, out_theirs, convert_theirs) : run(local, out_ours, convert_ours);
      const Timing& o = ours_first ? a : b;
      const Timing& t = ours_first ? b : a;
      if (o.ns_per_line < best_ours.ns_per_line) best_ours = o;
      if (t.ns_per_line < best_theirs.ns_per_line) best_theirs = t;
    }
    std::size_t disagree = 0;
    for (std::size_t i = 0; i < local.size(); ++i) disagree += out_ours[i] != out_theirs[i] ? 1 : 0;
    if (disagree != 0) status = 1;
    std::printf("%-22s %8zu %12.1f %12.1f %7.2fx %10zu\n", name.c_str(), zone_changes, best_ours.ns_per_line,
                best_theirs.ns_per_line, best_theirs.ns_per_line / best_ours.ns_per_line, disagree);
  }
  std::printf("ratio = date/tz ns / gapscan ns (above 1: date/tz is slower)\n");
  return status;
}
