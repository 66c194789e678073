// W3C extended log files (IIS, and servers that write its layout): "#Fields:" names the
// columns of the lines after it, "#Date:" dates them when the lines have only a `time`.
//   #Software: Microsoft Internet Information Services 10.0
//   #Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip
//            cs(User-Agent) sc-status sc-substatus sc-win32-status time-taken
//   2026-12-05 12:00:01 10.0.0.1 GET /index.html - 80 - 10.0.0.2 Mozilla/5.0 200 0 0 44
// Columns are blank-separated, `-` is an empty value. `date` and `time` (UTC, as the W3C draft
// and IIS write them; IIS Advanced Logging's `date-local` and `time-local` in the input's zone)
// are when the line was written: the response's end; its `TimeTakenMS` is in milliseconds. `time-taken` is the
// duration: milliseconds as IIS writes it (an integer), seconds when it has a fraction (the W3C draft). Each line is
// one finished request. Named fields: method (cs-method), path (cs-uri-stem, cs-uri), status (sc-status) and every
// other column by its name with
// '-', '(' and ')' as '_' (c_ip, cs_user_agent_, sc_win32_status …). The header lines stay
// comments in the line accounting.

#include "formats.hpp"
#include "scan.hpp"

#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/stamp.hpp>

#include <string>
#include <vector>

namespace gapscan::parse::formats {
namespace {

constexpr std::size_t k_max_columns = 64;

class W3cLogParser final : public ClockedParser {
 public:
  void restart() override {
    ClockedParser::restart();
    restart_columns();
    m_have_date = false;
  }

  ParseStatus parse(std::string_view line, Record& record) override {
    if (line.starts_with('#')) {
      if (line.starts_with("#Fields:")) read_fields(line.substr(8));
      if (line.starts_with("#Date:")) read_header_date(line.substr(6));
      return ParseStatus::not_this_format;  // a comment in the accounting
    }
    if (m_time_column < 0) return ParseStatus::not_this_format;
    m_values.clear();
    std::size_t pos = 0;
    while (pos < line.size() && m_values.size() < k_max_columns) {
      while (pos < line.size() && line[pos] == ' ') ++pos;
      if (pos >= line.size()) break;
      m_values.push_back(next_token(line, pos));
    }
    if (m_values.size() != m_columns.size()) return ParseStatus::not_this_format;
    StampFields stamp;
    const std::string_view time = m_values[static_cast<std::size_t>(m_time_column)];
    if (scan_stamp(StampFamily::time_only, time, 0, stamp) != time.size()) return ParseStatus::not_this_format;
    if (m_date_column >= 0) {
      StampFields date;
      const std::string joined =
          std::string(m_values[static_cast<std::size_t>(m_date_column)]) + " " + std::string(time);
      if (scan_stamp(StampFamily::ymd, joined, 0, date) != joined.size()) return ParseStatus::not_this_format;
      stamp = date;
    } else if (m_have_date) {
      stamp.year = m_year, stamp.month = m_month, stamp.day = m_day;
    }
    stamp.has_zone = !m_local;  // UTC, as the format says, unless the columns are local times
    record.time = m_clock.instant(stamp);
    record.time_digits = stamp.digits;
    record.zoned = !m_local;
    record.duration = -1;
    if (m_taken_column >= 0) {
      const std::string_view value = m_values[static_cast<std::size_t>(m_taken_column)];
      record.duration = m_taken_ms && value.find('.') != std::string_view::npos ? taken_ms(value) : taken(value);
    }
    record.duration_digits = 3;
    record.group = {};
    record.message = line;
    record.completion = true;
    m_fields.clear();
    for (std::size_t c = 0; c < m_columns.size(); ++c) {
      if (static_cast<int>(c) == m_date_column || static_cast<int>(c) == m_time_column) continue;
      if (m_values[c] != "-") append_field(m_fields, m_names[c], m_values[c]);
    }
    record.fields = m_fields;
    return ParseStatus::parsed;
  }

 private:
  void read_fields(std::string_view text) {
    restart_columns();
    std::size_t pos = 0;
    while (pos < text.size() && m_columns.size() < k_max_columns) {
      while (pos < text.size() && text[pos] == ' ') ++pos;
      if (pos >= text.size()) break;
      const std::string_view column = next_token(text, pos);
      const int index = static_cast<int>(m_columns.size());
      // IIS Advanced Logging: date-local and time-local (the server's zone), TimeTakenMS.
      if (column == "date" || column == "date-local" || column == "date-UTC") m_date_column = index;
      if (column == "time" || column == "time-local" || column == "time-UTC") m_time_column = index;
      if (column == "time-local") m_local = true;
      if (column == "time-taken") m_taken_column = index;
      if (column == "TimeTakenMS") m_taken_column = index, m_taken_ms = true;
      m_columns.emplace_back(column);
      m_names.push_back(field_name(column));
    }
  }

  void restart_columns() {
    m_columns.clear();
    m_names.clear();
    m_date_column = m_time_column = m_taken_column = -1;
    m_local = m_taken_ms = false;
  }

  static std::string field_name(std::string_view column) {
    if (column == "cs-method") return "method";
    if (column == "cs-uri-stem" || column == "cs-uri") return "path";
    if (column == "sc-status") return "status";
    std::string name(column);
    for (char& c : name) {
      if (c == '-' || c == '(' || c == ')') c = '_';
    }
    return name;
  }

  void read_header_date(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    StampFields date;
    if (scan_stamp(StampFamily::ymd, text, 0, date) == 0 && scan_stamp(StampFamily::clf, text, 0, date) == 0) return;
    m_year = date.year, m_month = date.month, m_day = date.day;
    m_have_date = true;
  }

  /// time-taken: an integer is milliseconds (IIS), a number with a fraction seconds.
  static DurationNs taken(std::string_view value) {
    DurationNs whole = 0, fraction = 0, scale = 1;
    bool dot = false;
    if (value.empty() || value == "-") return -1;
    for (char c : value) {
      if (c == '.' && !dot) {
        dot = true;
        continue;
      }
      if (c < '0' || c > '9' || scale > 1'000'000'000) return -1;
      if (dot) {
        fraction = fraction * 10 + (c - '0');
        scale *= 10;
      } else {
        whole = whole * 10 + (c - '0');
      }
      if (whole > 1'000'000'000) return -1;
    }
    if (!dot) return whole * k_ns_per_ms;
    return whole * k_ns_per_s + fraction * (k_ns_per_s / scale);
  }

  /// TimeTakenMS with a fraction ("44.5"): milliseconds still.
  static DurationNs taken_ms(std::string_view value) {
    const DurationNs seconds = taken(value);  // read as seconds because of the fraction
    return seconds < 0 ? -1 : seconds / 1000;
  }

  std::vector<std::string> m_columns, m_names;
  bool m_local = false, m_taken_ms = false;
  std::vector<std::string_view> m_values;
  int m_date_column = -1, m_time_column = -1, m_taken_column = -1;
  bool m_have_date = false;
  int m_year = 0, m_month = 0, m_day = 0;
  std::string m_fields;
};

}  // namespace

FormatInfo w3c_log() {
  return {"w3c",
          "W3C extended log (IIS): the columns \"#Fields:\" names, time-taken as the duration (ms; seconds with a "
          "fraction)",
          "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) "
          "sc-status sc-substatus sc-win32-status time-taken\n"
          "2026-12-05 12:00:01 10.0.0.1 GET /index.html - 80 - 10.0.0.2 Mozilla/5.0 200 0 0 44",
          [] { return std::unique_ptr<LineParser>(std::make_unique<W3cLogParser>()); }};
}

}  // namespace gapscan::parse::formats
