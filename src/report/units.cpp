#include <gapscan/report/units.hpp>

#include <gapscan/report/model.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>

namespace gapscan::report {
namespace {

/// Columns, not bytes: "µ" is two bytes and one column.
std::size_t columns_of(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; }));
}

}  // namespace

// Log lines are copied as they were written, and a log can hold anything.
std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto escape = [&](unsigned char c) { out += fmt::format("\\x{:02x}", c); };
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
        escape(c);
      else
        out += static_cast<char>(c);
      ++i;
      continue;
    }
    // The length of a well-formed UTF-8 sequence starting here (0: not one).
    std::size_t length = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (length > 0 && i + length <= text.size()) {
      for (std::size_t k = 1; k < length; ++k) {
        if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) length = 0;
      }
    } else {
      length = 0;
    }
    const auto second = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (length == 3 && ((c == 0xe0 && second < 0xa0) || (c == 0xed && second >= 0xa0)))
      length = 0;  // overlong, surrogate
    if (length == 4 && ((c == 0xf0 && second < 0x90) || (c == 0xf4 && second >= 0x90)))
      length = 0;                                               // overlong, > U+10FFFF
    if (length == 2 && c == 0xc2 && second < 0xa0) length = 0;  // U+0080–U+009F: C1 controls
    if (length == 0) {
      escape(c);
      ++i;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

/// A duration in the unit that reads best: µs below 1 ms, ms below 1 s, else s.
std::string duration(double ms) {
  if (ms < 1) return fmt::format("{:.1f} µs", ms * 1000);
  if (ms < 10) return fmt::format("{:.2f} ms", ms);
  if (ms < 1000) return fmt::format("{:.1f} ms", ms);
  return fmt::format("{:.3f} s", ms / 1000);
}

/// 1234567 -> "1 234 567".
std::string count(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ' ';
    out += digits[i];
  }
  return out;
}

std::string percent(double share) { return fmt::format("{:.1f} %", share * 100); }

std::string p_value(double log10_p) {
  if (log10_p >= -3) return fmt::format("p = {:.3g}", std::pow(10.0, log10_p));
  if (log10_p <= -300) return "p < 1e-300";
  return fmt::format("p = 1e{:.0f}", std::floor(log10_p));
}

std::vector<std::string> histogram_lines(const std::vector<std::uint64_t>& counts, double lo_ms, double hi_ms,
                                         std::size_t width, double window_lo_ms, double window_hi_ms) {
  constexpr double k_per_octave = 4;
  const auto lower_ms = [&](std::size_t bin) { return 1e-3 * std::exp2(static_cast<double>(bin) / k_per_octave); };
  std::size_t first = counts.size(), last = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    first = std::min(first, i);
    last = i;
  }
  if (first == counts.size() || width == 0) return {};
  // The marked interval and catalog window stay in view.
  for (const auto& [from, to] : {std::pair{lo_ms, hi_ms}, std::pair{window_lo_ms, window_hi_ms}}) {
    for (std::size_t i = 0; from > 0 && to > 0 && i < counts.size(); ++i) {
      if (lower_ms(i + 1) > from && lower_ms(i) <= to) {
        first = std::min(first, i);
        last = std::max(last, i);
      }
    }
  }
  const std::size_t bins = last - first + 1;
  const std::size_t per_column = (bins + width - 1) / width;
  const std::size_t columns = (bins + per_column - 1) / per_column;
  std::vector<std::uint64_t> column_counts(columns, 0);
  for (std::size_t i = first; i <= last; ++i) column_counts[(i - first) / per_column] += counts[i];
  const std::uint64_t most = *std::max_element(column_counts.begin(), column_counts.end());
  static constexpr const char* k_blocks[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  std::string bars, marks;
  for (std::size_t c = 0; c < columns; ++c) {
    std::size_t level = 0;
    if (column_counts[c] > 0) {
      const double height = std::log1p(static_cast<double>(column_counts[c])) / std::log1p(static_cast<double>(most));
      level = std::clamp<std::size_t>(static_cast<std::size_t>(std::lround(height * 8)), 1, 8);
    }
    bars += k_blocks[level];
    const double from = lower_ms(first + c * per_column),
                 to = lower_ms(std::min(first + (c + 1) * per_column, last + 1));
    marks += lo_ms > 0 && to > lo_ms && from <= hi_ms                        ? '^'
             : window_hi_ms > 0 && to > window_lo_ms && from <= window_hi_ms ? '='
                                                                             : ' ';
  }
  while (!marks.empty() && marks.back() == ' ') marks.pop_back();
  const std::string left = duration(lower_ms(first)), right = duration(lower_ms(last + 1));
  std::string axis = left;
  axis += columns > columns_of(left) + columns_of(right)
              ? std::string(columns - columns_of(left) - columns_of(right), ' ')
              : "  ";
  axis += right;
  return {bars, marks, axis};
}

std::vector<std::string> timeline_lines(const Timeline& timeline, std::size_t width) {
  if (timeline.span_ms <= 0 || width < 8 || timeline.points.empty()) return {};
  const double per_column = timeline.span_ms / static_cast<double>(width);
  const auto column_of = [&](double ms) {
    return std::min(width - 1, static_cast<std::size_t>(std::max(0.0, ms / per_column)));
  };
  std::vector<std::uint64_t> lines(width, 0);
  std::vector<double> stalled(width, 0);  // ms of each column's time inside a stall
  for (std::size_t i = 0; i < timeline.points.size(); ++i) {
    const Timeline::Point& point = timeline.points[i];
    ++lines[column_of(point.offset_ms)];
    if (!point.stall || i == 0) continue;
    const double from = timeline.points[i - 1].offset_ms, to = point.offset_ms;
    for (std::size_t c = column_of(from); c <= column_of(to); ++c) {
      const double lo = std::max(from, static_cast<double>(c) * per_column);
      const double hi = std::min(to, static_cast<double>(c + 1) * per_column);
      if (hi > lo) stalled[c] += hi - lo;
    }
  }
  std::string line_row, stall_row;
  for (std::size_t c = 0; c < width; ++c) {
    line_row += lines[c] == 0 ? " " : lines[c] == 1 ? "╷" : lines[c] <= 4 ? "│" : "┃";
    stall_row += stalled[c] >= per_column / 2 ? "█" : stalled[c] > 0 ? "▒" : " ";
  }
  while (!stall_row.empty() && stall_row.back() == ' ') stall_row.pop_back();
  const std::string left = "0", right = duration(timeline.span_ms);
  std::string axis = left;
  axis += width > columns_of(left) + columns_of(right) ? std::string(width - columns_of(left) - columns_of(right), ' ')
                                                       : "  ";
  axis += right;
  return {line_row, stall_row, axis};
}

std::string clock_place(std::string_view fold, int start, int width) {
  const bool minute = fold == "minute";
  const std::string_view unit = minute ? "second" : "minute";
  const std::string_view every = minute ? "minute" : "hour";
  constexpr int k_bins = 60;
  const int end = start + width - 1;
  if (width <= 1) return fmt::format("{} {} of every {}", unit, start, every);
  if (end < k_bins) return fmt::format("{}s {}–{} of every {}", unit, start, end, every);
  const int wrapped = end - k_bins;
  return fmt::format("{}s {}–{} and {} of every {}", unit, start, k_bins - 1,
                     wrapped == 0 ? std::string("0") : fmt::format("0–{}", wrapped), every);
}

std::string utc_time(std::int64_t time_ns) {
  const std::int64_t ms = time_ns >= 0 ? time_ns / 1'000'000 : (time_ns - 999'999) / 1'000'000;
  const std::int64_t seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
  const auto t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:03}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec, ms - seconds * 1000);
}

std::string indent_lines(std::string_view text, std::string_view prefix) {
  std::string out;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    if (end > 0) out.append(prefix).append(text.substr(0, end)).append("\n");
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return out;
}

}  // namespace gapscan::report
