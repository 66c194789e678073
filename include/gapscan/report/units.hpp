#pragma once
// How every printer writes numbers, durations and log text, so that the outputs agree.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::report {

/// A duration in the unit that reads best: µs below 1 ms, ms below 1 s, else s.
std::string duration(double ms);

/// 1234567 -> "1 234 567".
std::string count(std::uint64_t n);

/// 0.123 -> "12.3 %".
std::string percent(double share);

/// "p = 0.012", "p = 1e-12", "p < 1e-300".
std::string p_value(double log10_p);

/// A picture of `counts` (quarter-octave bins of gaps from 1 µs, Analysis::gap_histogram) on a
/// log axis in at most `width` columns, as three lines: bars of Unicode blocks (height: the
/// logarithm of the count, so that a small mode shows beside a large one), a line with ^ under
/// the columns of [lo_ms, hi_ms] (no marks when lo_ms <= 0) and = under those of the catalog
/// window [window_lo_ms, window_hi_ms] that are not ^ (none when window_hi_ms <= 0), and the
/// axis's two ends. Both stay in view. Empty when there is no count.
std::vector<std::string> histogram_lines(const std::vector<std::uint64_t>& counts, double lo_ms, double hi_ms,
                                         std::size_t width, double window_lo_ms = 0, double window_hi_ms = 0);

/// Where a wall-clock window sits: "seconds 0–4 of every minute", "minute 17 of every hour",
/// "seconds 58–59 and 0–2 of every minute" (`fold`: minute or hour; bins of a second or a minute).
std::string clock_place(std::string_view fold, int start, int width);

/// An instant (ns since the Unix epoch) in UTC to the millisecond: "2026-12-07 14:02:10.123".
std::string utc_time(std::int64_t time_ns);

struct Timeline;

/// A picture of a timeline in at most `width` columns, as three lines: the lines (a column shows
/// ╷ for one line, │ for up to four, ┃ for more), the stalls (█ where they cover at least half of
/// a column's time, ▒ where less) and the axis from 0 to the span. Empty when it has no span.
std::vector<std::string> timeline_lines(const Timeline& timeline, std::size_t width);

/// Log text as a terminal or a Markdown page may show it: control bytes other than newline and
/// tab (an escape sequence would be obeyed by a terminal), DEL, C1 controls and bytes that are
/// not UTF-8 are written as \xNN; valid UTF-8 (the report's own → × µ, and the lines' text) is
/// kept.
std::string terminal_safe(std::string_view text);

/// Each non-empty line of `text` after `prefix`, each ending in a newline.
std::string indent_lines(std::string_view text, std::string_view prefix);

}  // namespace gapscan::report
