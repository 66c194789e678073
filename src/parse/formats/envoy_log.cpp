// Envoy's default access-log format:
//   [%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE%
//   %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)%
//   "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"
// e.g. [2026-12-07T10:00:00.310Z] "POST /api/v1/locations HTTP/2" 204 - 154 0 226 100 "10.0.35.28"
//      "nsq2http" "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2" "locations" "tcp://10.0.2.1:80"
// %DURATION% (ms, from the request's start to its last byte) is the line's duration and the
// start plus it the record's time; the upstream's own time (X-Envoy-Upstream-Service-Time, ms)
// is the response phase; the request id is the group key. Named fields: method, path, status,
// response_flags (UF an upstream connection failure, UT an upstream timeout, UO an overflow of
// the circuit breaker, URX retries exhausted …), upstream_host.

#include "formats.hpp"
#include "scan.hpp"

#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/stamp.hpp>
#include <gapscan/parse/stamp_clock.hpp>

#include <string>

namespace gapscan::parse::formats {
namespace {

/// A non-negative integer in ms, or -1 for "-".
bool read_millis(std::string_view token, DurationNs& out) {
  if (token == "-") {
    out = -1;
    return true;
  }
  if (token.empty() || token.size() > 12) return false;
  DurationNs value = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  out = value * k_ns_per_ms;
  return true;
}

/// The quoted field at `pos` (its opening quote), without its quotes; `pos` moves past it and
/// the blank after it. Empty, with `pos` unchanged, when none starts there.
std::string_view quoted(std::string_view line, std::size_t& pos) {
  if (pos >= line.size() || line[pos] != '"') return {};
  const std::size_t close = line.find('"', pos + 1);
  if (close == std::string_view::npos) return {};
  const std::string_view value = line.substr(pos + 1, close - pos - 1);
  pos = close + 1;
  if (pos < line.size() && line[pos] == ' ') ++pos;
  return value;
}

class EnvoyLogParser final : public ClockedParser {
 public:
  bool context_free() const override { return true; }

  ParseStatus parse(std::string_view line, Record& record) override {
    if (line.size() < 30 || line[0] != '[') return ParseStatus::not_this_format;
    StampFields stamp;
    const std::size_t length = scan_stamp(StampFamily::ymd, line, 1, stamp);
    if (length == 0 || stamp.year < 0 || line.size() < length + 4 || line[1 + length] != ']' ||
        line[2 + length] != ' ' || line[3 + length] != '"')
      return ParseStatus::not_this_format;
    std::size_t pos = 3 + length;
    const std::string_view request = quoted(line, pos);
    if (request.empty()) return ParseStatus::not_this_format;
    const std::string_view status = next_token(line, pos);
    const std::string_view flags = next_token(line, pos);
    next_token(line, pos);  // bytes received
    next_token(line, pos);  // bytes sent
    DurationNs total = 0, upstream = 0;
    if (status.empty() || flags.empty() || !read_millis(next_token(line, pos), total) ||
        !read_millis(next_token(line, pos), upstream) || pos >= line.size() || line[pos] != '"')
      return ParseStatus::not_this_format;
    quoted(line, pos);  // X-Forwarded-For
    quoted(line, pos);  // User-Agent
    const std::string_view request_id = quoted(line, pos);
    quoted(line, pos);  // :authority
    const std::string_view upstream_host = quoted(line, pos);

    record.time = add_saturating(m_clock.instant(stamp), std::max<DurationNs>(total, 0));
    record.time_digits = stamp.digits;
    record.zoned = m_clock.last_zoned();
    record.duration = total;
    record.duration_digits = 3;
    record.phases.fill(-1);
    if (upstream >= 0) record.phases[static_cast<std::size_t>(Phase::response)] = upstream;
    record.group = request_id == "-" ? std::string_view() : request_id;
    record.message = line.substr(2 + length + 1);
    record.completion = true;
    m_fields.clear();
    request_line_fields(m_fields, request);
    append_field(m_fields, "status", status);
    append_field(m_fields, "response_flags", flags);
    append_field(m_fields, "upstream_host", upstream_host);
    record.fields = m_fields;
    return ParseStatus::parsed;
  }

 private:
  std::string m_fields;
};

}  // namespace

FormatInfo envoy_log() {
  return {"envoy",
          "Envoy's default access log: %DURATION% as the duration, X-Envoy-Upstream-Service-Time as the response "
          "phase, X-Request-Id as the request key",
          "[2026-12-07T10:00:00.310Z] \"POST /api/v1/locations HTTP/2\" 204 - 154 0 1226 1100 \"10.0.35.28\" "
          "\"nsq2http\" \"cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2\" \"locations\" \"10.0.2.1:80\"",
          [] { return std::unique_ptr<LineParser>(std::make_unique<EnvoyLogParser>()); }};
}

}  // namespace gapscan::parse::formats
