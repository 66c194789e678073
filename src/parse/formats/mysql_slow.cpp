// The MySQL and MariaDB slow query log, read as entries: a few header lines, then the
// statement, one record per entry at the statement's first line.
//   /usr/sbin/mysqld, Version: 8.0.35 (…). started with:      the file's header (after each start)
//   Tcp port: 3306  Unix socket: /run/mysqld/mysqld.sock
//   Time                 Id Command    Argument
//   # Time: 2026-12-01T23:16:20.123456Z                        MySQL >= 5.7 (log_timestamps)
//   # Time: 261201 23:16:20                                    MariaDB, MySQL <= 5.6: written only
//                                                              when the second changes
//   # User@Host: app[app] @ localhost [127.0.0.1]  Id:    12
//   # Thread_id: 9  Schema: payments  QC_hit: No               MariaDB
//   # Query_time: 2.771036  Lock_time: 0.002849  Rows_sent: 0  Rows_examined: 1
//   # Rows_affected: 1  Bytes_sent: 52                         (any other `# ` line of the entry)
//   use `payments`;
//   SET timestamp=1796166980;                                  the statement's start (epoch seconds)
//   UPDATE accounts SET … WHERE id = 3;                        the statement (may span lines)
// The record: the statement's end (its start plus Query_time) as the time, Query_time as the
// duration, Lock_time as the lock phase, the statement (grouped by its fingerprint) and the
// fields schema, rows_examined and rows_sent. Every other line of the entry is a part of it.

#include "formats.hpp"
#include "scan.hpp"

#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/stamp.hpp>
#include <gapscan/parse/stamp_clock.hpp>

#include <cstdint>
#include <string>

namespace gapscan::parse::formats {
namespace {

/// The value after `name` in a header line ("Query_time: 2.771036  Lock_time: …"), up to the
/// next blank.
std::string_view header_value(std::string_view line, std::string_view name) {
  const std::size_t at = line.find(name);
  if (at == std::string_view::npos) return {};
  std::size_t start = at + name.size();
  while (start < line.size() && line[start] == ' ') ++start;
  std::size_t end = start;
  while (end < line.size() && line[end] != ' ') ++end;
  return line.substr(start, end - start);
}

bool seconds_value(std::string_view line, std::string_view name, DurationNs& out, std::uint8_t& digits) {
  const std::string_view value = header_value(line, name);
  return !value.empty() && parse_duration(value, k_ns_per_s, out, digits);
}

class MysqlSlowParser final : public ClockedParser {
 public:
  void restart() override {
    ClockedParser::restart();
    m_entry = Entry{};
    m_in_statement = false;
  }

  ParseStatus parse(std::string_view line, Record& record) override {
    if (line.starts_with("# ")) return header(line.substr(2));
    if (is_file_header(line)) {
      m_in_statement = false;
      return ParseStatus::part;
    }
    if (m_in_statement) return ParseStatus::part;  // the statement's next lines
    if (!m_entry.timed) return ParseStatus::not_this_format;
    if (line.starts_with("SET timestamp=")) {
      std::uint8_t digits = 0;
      if (!parse_duration(line.substr(14, line.find(';') - 14), k_ns_per_s, m_entry.start, digits))
        return ParseStatus::not_this_format;
      m_entry.has_start = true;
      return ParseStatus::part;
    }
    if (line.starts_with("use ") && line.ends_with(";")) return ParseStatus::part;
    statement(line, line, record);
    return ParseStatus::parsed;
  }

 private:
  struct Entry {
    bool timed = false;  ///< Query_time read: the statement comes next
    DurationNs query = 0, lock = 0;
    std::uint8_t query_digits = 0;
    bool has_start = false;
    TimeNs start = 0;  ///< SET timestamp=
    std::string_view rows_examined, rows_sent;
    std::string fields_schema;  ///< the schema, kept over the entry's lines
  };

  static bool is_file_header(std::string_view line) {
    return (line.ends_with("started with:") && line.find(", Version: ") != std::string_view::npos) ||
           line.starts_with("Tcp port: ") ||
           (line.starts_with("Time") && line.find("Command") != std::string_view::npos &&
            line.find("Argument") != std::string_view::npos);
  }

  ParseStatus header(std::string_view text) {
    if (text.starts_with("Time: ")) {
      // A new second: the entries after it started in it (MariaDB writes it only then).
      StampFields stamp;
      std::size_t pos = 6;
      while (pos < text.size() && text[pos] == ' ') ++pos;
      const bool iso =
          scan_stamp(StampFamily::ymd, text, pos, stamp) > 0 || scan_stamp(StampFamily::compact, text, pos, stamp) > 0;
      if (!iso) return ParseStatus::not_this_format;
      m_time = m_clock.instant(stamp);
      m_time_digits = stamp.digits;
      m_time_zoned = m_clock.last_zoned();
      m_have_time = true;
      m_in_statement = false;
      return ParseStatus::part;
    }
    if (text.starts_with("User@Host: ")) {
      m_in_statement = false;
      m_entry = Entry{};
      m_entry.fields_schema = m_schema;
      return ParseStatus::part;
    }
    if (text.starts_with("Query_time: ")) {
      m_in_statement = false;
      std::uint8_t lock_digits = 0;
      if (!seconds_value(text, "Query_time:", m_entry.query, m_entry.query_digits)) return ParseStatus::not_this_format;
      if (!seconds_value(text, "Lock_time:", m_entry.lock, lock_digits)) m_entry.lock = 0;
      m_rows_line = std::string(text);  // the views above outlive this line
      m_entry.rows_sent = header_value(m_rows_line, "Rows_sent:");
      m_entry.rows_examined = header_value(m_rows_line, "Rows_examined:");
      m_entry.timed = true;
      return ParseStatus::part;
    }
    if (text.starts_with("Thread_id: ") || text.find("Schema: ") != std::string_view::npos) {
      const std::string_view schema = header_value(text, "Schema:");
      if (!schema.empty()) m_schema = schema;
      m_entry.fields_schema = m_schema;
      return ParseStatus::part;
    }
    if (text.starts_with("administrator command: ") && m_entry.timed) return ParseStatus::part;
    // Any other `# ` line inside an entry (Rows_affected, Full_scan, explain: …) is a part.
    return m_entry.timed || m_in_statement ? ParseStatus::part : ParseStatus::not_this_format;
  }

  /// The entry's record, at the statement's first line.
  void statement(std::string_view line, std::string_view sql, Record& record) {
    const Entry& entry = m_entry;
    // The start: SET timestamp (whole seconds), refined by a # Time line of that second with a
    // fraction (MySQL >= 5.7); without SET timestamp, the # Time line.
    TimeNs start = entry.has_start ? entry.start : m_time;
    std::uint8_t digits = 0;
    bool zoned = entry.has_start || m_time_zoned;
    if (m_have_time && m_time_digits > 0 && m_time_zoned &&
        (!entry.has_start || m_time / k_ns_per_s == entry.start / k_ns_per_s)) {
      start = m_time;
      digits = m_time_digits;
      zoned = true;
    }
    record.time = add_saturating(start, entry.query);
    record.time_digits = digits;
    record.zoned = zoned;
    record.duration = entry.query;
    record.duration_digits = entry.query_digits;
    record.phases.fill(-1);
    if (entry.lock > 0) record.phases[static_cast<std::size_t>(Phase::lock)] = entry.lock;
    record.message = line;
    record.statement = sql;
    record.completion = true;
    m_fields.clear();
    append_field(m_fields, "database", "mysql");  // MySQL or MariaDB: the catalog's evidence tests it
    append_field(m_fields, "schema", entry.fields_schema);
    append_field(m_fields, "rows_examined", entry.rows_examined);
    append_field(m_fields, "rows_sent", entry.rows_sent);
    record.fields = m_fields;
    m_entry.timed = false;
    m_entry.has_start = false;
    m_in_statement = true;
  }

  Entry m_entry;
  bool m_in_statement = false;  ///< after an entry's record, until the next header
  std::string m_schema;         ///< the last Schema: (MariaDB writes it per entry)
  std::string m_rows_line;
  std::string m_fields;
  TimeNs m_time = 0;  ///< the last # Time: line's instant
  std::uint8_t m_time_digits = 0;
  bool m_time_zoned = false;
  bool m_have_time = false;
};

}  // namespace

FormatInfo mysql_slow() {
  return {"mysql-slow",
          "MySQL and MariaDB slow query logs: one record per entry (# Time, # Query_time … Lock_time, "
          "SET timestamp, the statement), its Query_time a duration grouped by the statement's fingerprint",
          "# Time: 261201 23:16:24\n# User@Host: app[app] @ localhost [127.0.0.1]\n"
          "# Query_time: 3.000589  Lock_time: 0.003084  Rows_sent: 0  Rows_examined: 0\n"
          "SET timestamp=1796166984;\nUPDATE accounts SET balance = balance + 718 WHERE id = 3;",
          [] { return std::unique_ptr<LineParser>(std::make_unique<MysqlSlowParser>()); }};
}

}  // namespace gapscan::parse::formats
