// Generic lines that start with an ISO-8601 / RFC 3339 timestamp (optionally in brackets),
// with the request id taken from a key=value field such as reqId=, request_id= or rid=.

#include "formats.hpp"

#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/timestamp.hpp>

namespace gapscan::parse::formats {
namespace {

class Iso8601LineParser final : public LineParser {
 public:
  ParseStatus parse(std::string_view line, Record& record) override {
    std::size_t start = 0;
    if (!line.empty() && line[0] == '[') start = 1;
    const auto time = parse_iso8601(line.substr(start));
    if (!time) return ParseStatus::not_this_format;
    std::size_t pos = start + time->length;
    if (start == 1) {
      if (pos >= line.size() || line[pos] != ']') return ParseStatus::not_this_format;
      ++pos;
    }
    if (pos < line.size() && line[pos] != ' ' && line[pos] != '\t' && line[pos] != '|' && line[pos] != ';' &&
        line[pos] != ',') {
      return ParseStatus::not_this_format;
    }
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
    record.time = time->time;
    record.time_digits = time->digits;
    record.message = line.substr(pos);
    record.channel = {};
    record.level = {};
    record.group = find_request_id_pair(record.message);
    return ParseStatus::parsed;
  }
};

}  // namespace

FormatInfo iso8601_line() {
  return {"iso8601", "Any line starting with an ISO-8601 timestamp; request id from reqId=, request_id=, rid=",
          "2026-11-29T21:03:04.123456Z level=info reqId=9c1f0d3e8a2b msg=\"cache write\" key=mywiki:k1",
          [] { return std::unique_ptr<LineParser>(std::make_unique<Iso8601LineParser>()); }, true};
}

}  // namespace gapscan::parse::formats
