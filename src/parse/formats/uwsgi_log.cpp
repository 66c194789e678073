// uWSGI's request log in its default layout (the `logformat` uWSGI uses when none is set):
//   [pid: <pid>|app: <app>|req: <n>/<total>] <addr> (<user>) {<n> vars in <n> bytes} [<ctime>]
//   <method> <uri> => generated <n> bytes in <n> msecs (<protocol> <status>) <n> headers in <n>
//   bytes (<n> switches on core <n>)
// e.g. [pid: 28|app: 0|req: 1/1] 172.17.0.1 () {40 vars in 686 bytes} [Sat Dec  5 12:00:00 2026]
//      GET /a => generated 12 bytes in 44 msecs (HTTP/1.1 200) 2 headers in 79 bytes (1 switches on core 0)
// The ctime is when the request started (whole seconds); "in N msecs" (or "micros" with
// --log-micros) is the duration, and the start plus it the record's time. Each line is one
// finished request; the worker ("pid: 28") is the process. Named fields: method, path, status.

#include "formats.hpp"
#include "scan.hpp"

#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/stamp.hpp>

#include <string>

namespace gapscan::parse::formats {
namespace {

bool read_count(std::string_view text, std::size_t& pos, std::int64_t& value) {
  const std::size_t start = pos;
  value = 0;
  while (pos < text.size() && pos - start < 15 && text[pos] >= '0' && text[pos] <= '9')
    value = value * 10 + (text[pos++] - '0');
  return pos > start;
}

class UwsgiLogParser final : public ClockedParser {
 public:
  bool context_free() const override { return true; }

  ParseStatus parse(std::string_view line, Record& record) override {
    if (!line.starts_with("[pid: ")) return ParseStatus::not_this_format;
    const std::size_t header_end = line.find("] ");
    const std::size_t vars = line.find(" bytes} [", header_end);
    if (header_end == std::string_view::npos || vars == std::string_view::npos) return ParseStatus::not_this_format;
    const std::size_t stamp_at = vars + 9;
    StampFields stamp;
    const std::size_t length = scan_stamp(StampFamily::month_name, line, stamp_at, stamp);
    if (length == 0 || stamp_at + length + 2 > line.size() || line[stamp_at + length] != ']')
      return ParseStatus::not_this_format;
    const std::size_t request_at = stamp_at + length + 2;
    const std::size_t arrow = line.find(" => generated ", request_at);
    if (arrow == std::string_view::npos) return ParseStatus::not_this_format;
    std::size_t pos = line.find(" bytes in ", arrow + 14);
    if (pos == std::string_view::npos) return ParseStatus::not_this_format;
    pos += 10;
    std::int64_t amount = 0;
    if (!read_count(line, pos, amount)) return ParseStatus::not_this_format;
    const std::string_view unit = line.substr(pos, 8);
    DurationNs duration = 0;
    std::uint8_t digits = 3;
    if (unit.starts_with(" msecs")) {
      duration = amount * k_ns_per_ms;
    } else if (unit.starts_with(" micros")) {
      duration = amount * k_ns_per_us;
      digits = 6;
    } else {
      return ParseStatus::not_this_format;
    }
    std::string_view status;
    if (const std::size_t open = line.find(" (", pos); open != std::string_view::npos) {
      const std::size_t close = line.find(')', open);
      const std::size_t space = line.rfind(' ', close);
      if (close != std::string_view::npos && space > open + 1) status = line.substr(space + 1, close - space - 1);
    }
    record.time = add_saturating(m_clock.instant(stamp), duration);
    record.time_digits = 0;
    record.zoned = m_clock.last_zoned();
    record.duration = duration;
    record.duration_digits = digits;
    record.group = {};
    record.process = line.substr(1, line.find('|') - 1);  // "pid: 28"
    record.message = line.substr(request_at);
    record.completion = true;
    m_fields.clear();
    request_line_fields(m_fields, line.substr(request_at, arrow - request_at));
    append_field(m_fields, "status", status);
    record.fields = m_fields;
    return ParseStatus::parsed;
  }

 private:
  std::string m_fields;
};

}  // namespace

FormatInfo uwsgi_log() {
  return {"uwsgi",
          "uWSGI's request log (its default logformat): the request's \"in N msecs\" as the duration, the worker as "
          "the process",
          "[pid: 28|app: 0|req: 1/1] 172.17.0.1 () {40 vars in 686 bytes} [Sat Dec  5 12:00:00 2026] GET /a => "
          "generated 12 bytes in 44 msecs (HTTP/1.1 200) 2 headers in 79 bytes (1 switches on core 0)",
          [] { return std::unique_ptr<LineParser>(std::make_unique<UwsgiLogParser>()); }};
}

}  // namespace gapscan::parse::formats
