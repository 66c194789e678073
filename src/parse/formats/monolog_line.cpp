// Monolog's default LineFormatter (Monolog 1, 2 and 3):
//   [<datetime>] <channel>.<LEVEL>: <message> <context json> <extra json>
// The request id is extra.reqId (MediaWiki's WikiProcessor), else extra.uid / unique_id, else a
// request, trace or transaction id in the extra or the context (`{"req":"…"}`, `request_id`).

#include "formats.hpp"
#include "scan.hpp"

#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/timestamp.hpp>

namespace gapscan::parse::formats {
namespace {

class MonologLineParser final : public LineParser {
 public:
  bool context_free() const override { return true; }
  ParseStatus parse(std::string_view line, Record& record) override {
    if (line.size() < 22 || line[0] != '[') return ParseStatus::not_this_format;
    const auto time = parse_iso8601(line.substr(1));
    if (!time || 1 + time->length >= line.size() || line[1 + time->length] != ']') {
      return ParseStatus::not_this_format;
    }
    std::size_t pos = time->length + 2;
    if (pos >= line.size() || line[pos] != ' ') return ParseStatus::not_this_format;
    ++pos;
    const std::size_t colon = line.find(": ", pos);
    if (colon == std::string_view::npos) return ParseStatus::not_this_format;
    const std::string_view head = line.substr(pos, colon - pos);  // channel.LEVEL
    const std::size_t dot = head.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || !is_upper_word(head.substr(dot + 1)) ||
        head.find(' ') != std::string_view::npos) {
      return ParseStatus::not_this_format;
    }
    record.time = time->time;
    record.time_digits = time->digits;
    record.zoned = time->has_offset;
    record.channel = head.substr(0, dot);
    record.level = head.substr(dot + 1);
    record.message = line.substr(colon + 2);
    record.group = {};
    // The extra object (or Monolog's empty `[]`), and the context object before it.
    std::string_view rest = record.message;
    while (!rest.empty() && rest.back() == ' ') rest.remove_suffix(1);
    std::string_view extra, context;
    if (rest.ends_with("[]")) {
      rest.remove_suffix(2);
      while (!rest.empty() && rest.back() == ' ') rest.remove_suffix(1);
    } else {
      extra = trailing_json_object(rest);
      rest.remove_suffix(extra.size());
      while (!rest.empty() && rest.back() == ' ') rest.remove_suffix(1);
    }
    if (rest.ends_with("[]")) {
      rest.remove_suffix(2);  // an empty context before the extra
    } else {
      context = trailing_json_object(rest);
    }
    if (!extra.empty()) {
      for (std::string_view key : {"reqId", "uid", "unique_id"}) {
        record.group = json_string_field(extra, key);
        if (!record.group.empty()) break;
      }
    }
    // Else a request (or trace, transaction) id the application put in the extra or the context.
    constexpr int k_max_rank = 2;
    if (record.group.empty() && !extra.empty()) record.group = find_request_id_json(extra, k_max_rank);
    if (record.group.empty() && !context.empty()) record.group = find_request_id_json(context, k_max_rank);
    return ParseStatus::parsed;
  }
};

}  // namespace

FormatInfo monolog_line() {
  return {"monolog-line", "Monolog LineFormatter default: [datetime] channel.LEVEL: message context extra",
          "[2026-11-29T21:03:04.123456+00:00] memcached.WARNING: Lowered set() TTL for "
          "mywiki:page-restrictions:4711 due to replication lag. {\"cachekey\":\"mywiki:page-restrictions:4711\"} "
          "{\"host\":\"web1\",\"wiki\":\"mywiki\",\"mwversion\":\"1.39.10\",\"reqId\":\"9c1f0d3e8a2b47c5a6d7e8f9\"}",
          [] { return std::unique_ptr<LineParser>(std::make_unique<MonologLineParser>()); }};
}

}  // namespace gapscan::parse::formats
