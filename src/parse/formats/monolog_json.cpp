// JSON lines written by Monolog's JsonFormatter (MediaWiki: `datetime`, `extra.reqId`) and by
// MediaWiki's LogstashFormatter (`@timestamp`, top-level `reqId`), and the other Logstash JSON
// writers (logstash-logback-encoder: `@timestamp` with `requestId`, `traceId` or `trace_id` in
// its MDC fields). Parsed with simdjson's
// On-Demand API in one pass over the top-level keys.

#include "formats.hpp"

#include <gapscan/parse/timestamp.hpp>

#include <simdjson.h>

#include <cstring>
#include <string>
#include <vector>

namespace gapscan::parse::formats {
namespace {

namespace od = simdjson::ondemand;

/// Stores the value as a string view if it is a string; false otherwise.
template <typename Value>
bool read_string(Value&& value, std::string_view& out) {
  return std::forward<Value>(value).get_string().get(out) == simdjson::SUCCESS;
}

/// Reads a string-valued group key from an object such as `extra` or `context`. Every simdjson
/// result is taken with get(): a conversion would throw on a malformed document.
std::string_view find_group_in(od::object object) {
  std::string_view found;
  for (auto field : object) {
    od::raw_json_string key;
    if (field.key().get(key) != simdjson::SUCCESS) break;
    if (key == "reqId" || key == "uid" || key == "unique_id" || key == "request_id") {
      std::string_view value;
      if (field.value().get_string().get(value) == simdjson::SUCCESS && !value.empty()) {
        if (key == "reqId") return value;
        if (found.empty()) found = value;
      }
    }
  }
  return found;
}

class MonologJsonParser final : public LineParser {
 public:
  bool context_free() const override { return true; }
  ParseStatus parse(std::string_view line, Record& record) override {
    if (line.empty() || line[0] != '{') return ParseStatus::not_this_format;
    if (m_buffer.size() < line.size() + simdjson::SIMDJSON_PADDING) {
      m_buffer.resize(line.size() + simdjson::SIMDJSON_PADDING);
    }
    std::memcpy(m_buffer.data(), line.data(), line.size());
    std::memset(m_buffer.data() + line.size(), 0, simdjson::SIMDJSON_PADDING);
    od::document document;
    if (auto error = m_parser.iterate(m_buffer.data(), line.size(), m_buffer.size()).get(document)) return fail(error);
    od::object object;
    if (auto error = document.get_object().get(object)) return fail(error);

    std::string_view time_text, group, request_group, trace_group, extra_group, context_group, message, channel, level;
    bool saw_time_key = false;
    for (auto field : object) {
      od::raw_json_string key;
      if (auto error = field.key().get(key)) return fail(error);
      od::value value;
      if (auto error = field.value().get(value)) return fail(error);
      if (key == "datetime" || key == "@timestamp") {
        saw_time_key = true;
        od::json_type type;
        if (auto error = value.type().get(type)) return fail(error);
        if (type == od::json_type::string) {
          read_string(value, time_text);
        } else if (type == od::json_type::object) {  // Monolog 1: {"date": "...", "timezone": ...}
          od::object date_object;
          if (value.get_object().get(date_object) == simdjson::SUCCESS) {
            for (auto inner : date_object) {
              od::raw_json_string inner_key;
              if (inner.key().get(inner_key) != simdjson::SUCCESS) break;
              if (inner_key == "date") read_string(inner.value(), time_text);
            }
          }
        }
      } else if (key == "reqId") {
        read_string(value, group);
      } else if (key == "requestId" || key == "request_id" || key == "X-Request-ID" || key == "correlationId") {
        if (request_group.empty()) read_string(value, request_group);
      } else if (key == "traceId" || key == "trace_id" || key == "X-B3-TraceId") {
        // logstash-logback-encoder's MDC fields (Spring Sleuth / Micrometer tracing).
        if (trace_group.empty()) read_string(value, trace_group);
      } else if (key == "extra") {
        od::object extra;
        if (value.get_object().get(extra) == simdjson::SUCCESS) extra_group = find_group_in(extra);
      } else if (key == "context") {
        od::object context;
        if (value.get_object().get(context) == simdjson::SUCCESS) context_group = find_group_in(context);
      } else if (key == "message" || key == "@message") {
        read_string(value, message);
      } else if (key == "channel") {
        read_string(value, channel);
      } else if (key == "level_name" || (key == "level" && level.empty())) {
        read_string(value, level);
      }
    }
    if (!saw_time_key) return ParseStatus::not_this_format;
    const auto time = parse_iso8601(time_text);
    if (!time) {
      m_reason = "datetime is not an ISO-8601 time";
      return ParseStatus::malformed;
    }
    record.time = time->time;
    record.time_digits = time->digits;
    record.zoned = time->has_offset;
    if (group.empty()) group = !request_group.empty() ? request_group : trace_group;
    record.group = !group.empty() ? group : !extra_group.empty() ? extra_group : context_group;
    record.message = message;
    record.channel = channel;
    record.level = level;
    return ParseStatus::parsed;
  }

  std::string_view reason() const override { return m_reason; }

 private:
  ParseStatus fail(simdjson::error_code error) {
    m_reason = "not valid JSON: ";
    m_reason += simdjson::error_message(error);
    return ParseStatus::malformed;
  }

  od::parser m_parser;
  std::vector<char> m_buffer;
  std::string m_reason;
};

}  // namespace

FormatInfo monolog_json() {
  return {"monolog-json", "Monolog JsonFormatter or MediaWiki LogstashFormatter, one JSON object per line",
          R"({"message":"Memcached error: timeout reading line from 127.0.0.1:11211","context":{},)"
          R"("level":400,"level_name":"ERROR","channel":"memcached","datetime":"2026-11-29T21:03:04.123456+09:00",)"
          R"("extra":{"host":"web1","wiki":"mywiki","mwversion":"1.39.10","reqId":"3f9a6c1d2b7e8f0a4c5d6e7f"}})",
          [] { return std::unique_ptr<LineParser>(std::make_unique<MonologJsonParser>()); }};
}

}  // namespace gapscan::parse::formats
