// HAProxy's httplog and tcplog lines, with or without a syslog header before them:
//   [syslog header] haproxy[14389]: 10.0.1.2:33317 [06/Feb/2026:12:14:14.655] http-in static/srv1
//       10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {req-id|host} {} "GET /index.html HTTP/1.1"
//   [syslog header] haproxy[14387]: 10.0.1.2:33313 [06/Feb/2026:12:12:51.443] fnt bck/srv1 0/0/5007 212 --
//       0/0/0/0/3 0/0                                                                       (tcplog)
// The bracketed date is when the request (httplog) or the connection (tcplog) began. The
// timers, in ms, -1 for a phase that never happened:
//   httplog  TR/Tw/Tc/Tr/Ta   (1.x: Tq/Tw/Tc/Tr/Tt)  the client's request, the queue, the connect,
//                             the server's response headers, the whole request
//   tcplog   Tw/Tc/Tt                                  the queue, the connect, the whole session
// They become the phases request, queue, connect, response and transfer (the total less the
// others); the total (a `+` before it: option logasap) is the duration, and the record's time
// is the bracketed date plus it (when the line was written). The captured request headers
// `{…}` give the request key: the first of them that looks like an id (a UUID, hex or digits).
// Every line names status, method, path, backend, server, termination (the session state at
// disconnection: `sC--` a connect timeout, `sQ--` a queue timeout) and retries.

#include "formats.hpp"
#include "scan.hpp"

#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/stamp.hpp>
#include <gapscan/parse/stamp_clock.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace gapscan::parse::formats {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// "10.0.1.2:33317", "::1:40000", "[::1]:40000": an address, a colon, the port.
bool is_address_port(std::string_view token) {
  const std::size_t colon = token.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == token.size() || token.size() - colon > 6)
    return false;
  for (std::size_t i = colon + 1; i < token.size(); ++i) {
    if (!is_digit(token[i])) return false;
  }
  return true;
}

/// A timer: -1, or digits, optionally after a '+' (option logasap).
bool read_timer(std::string_view text, DurationNs& out) {
  if (text == "-1") {
    out = -1;
    return true;
  }
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty() || text.size() > 10) return false;
  DurationNs value = 0;
  for (char c : text) {
    if (!is_digit(c)) return false;
    value = value * 10 + (c - '0');
  }
  out = value * k_ns_per_ms;
  return true;
}

/// "10/0/30/69/109" into its timers; false unless it has 3 or 5 of them.
int read_timers(std::string_view token, std::array<DurationNs, 5>& timers) {
  int count = 0;
  std::size_t start = 0;
  while (start <= token.size()) {
    std::size_t end = token.find('/', start);
    if (end == std::string_view::npos) end = token.size();
    if (count == 5 || !read_timer(token.substr(start, end - start), timers[static_cast<std::size_t>(count)])) return 0;
    ++count;
    start = end + 1;
  }
  return count == 3 || count == 5 ? count : 0;
}

/// A captured header's value that names a request: 8-128 bytes without blanks, at least
/// half of them hex digits or '-' (a UUID, a hex or decimal id; not a host or an agent).
bool looks_like_request_id(std::string_view value) {
  if (value.size() < 8 || value.size() > 128) return false;
  std::size_t idlike = 0;
  for (char c : value) {
    if (c == ' ') return false;
    if (is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '-') ++idlike;
  }
  return idlike * 2 >= value.size();
}

class HaproxyLogParser final : public ClockedParser {
 public:
  bool context_free() const override { return true; }

  ParseStatus parse(std::string_view line, Record& record) override {
    std::size_t pos = 0;
    StampFields stamp;
    if (!find_start(line, pos, stamp)) return ParseStatus::not_this_format;
    const std::string_view frontend = next_token(line, pos);
    const std::string_view backend_server = next_token(line, pos);
    const std::size_t slash = backend_server.find('/');
    if (frontend.empty() || slash == std::string_view::npos) return ParseStatus::not_this_format;
    std::array<DurationNs, 5> timers{};
    const int count = read_timers(next_token(line, pos), timers);
    if (count == 0) return ParseStatus::not_this_format;
    const bool http = count == 5;
    std::string_view status;
    if (http) {
      status = next_token(line, pos);
      if (status != "-1" && (status.size() != 3 || !is_digit(status[0]))) return ParseStatus::not_this_format;
    }
    next_token(line, pos);  // bytes read
    if (http) {             // the captured request and response cookies
      next_token(line, pos);
      next_token(line, pos);
    }
    const std::string_view termination = next_token(line, pos);
    const std::string_view counters = next_token(line, pos);  // actconn/feconn/beconn/srv_conn/retries
    next_token(line, pos);                                    // srv_queue/backend_queue
    if (termination.size() != (http ? 4 : 2) || counters.find('/') == std::string_view::npos)
      return ParseStatus::not_this_format;

    record = Record{};
    set_phases(timers, http, record);
    record.time = add_saturating(m_clock.instant(stamp), std::max<DurationNs>(record.duration, 0));
    record.time_digits = stamp.digits;
    record.zoned = m_clock.last_zoned();
    record.duration_digits = 3;
    record.completion = true;

    m_fields.clear();
    std::string_view request_line;
    if (http) request_line = captures_and_request(line, pos, record);
    record.message = !request_line.empty() ? line.substr(request_line.data() - line.data() - 1)
                                           : line.substr(frontend.data() - line.data());
    append_field(m_fields, "status", status);
    request_line_fields(m_fields, request_line);
    append_field(m_fields, "backend", backend_server.substr(0, slash));
    append_field(m_fields, "server", backend_server.substr(slash + 1));
    append_field(m_fields, "termination", termination);
    const std::size_t last = counters.rfind('/');
    std::string_view retries = counters.substr(last + 1);
    if (!retries.empty() && retries.front() == '+') retries.remove_prefix(1);  // redispatched
    if (retries != "0") append_field(m_fields, "retries", retries);
    record.fields = m_fields;
    return ParseStatus::parsed;
  }

 private:
  /// Finds `ADDRESS:PORT [DATE] ` among the first tokens (after any syslog header) and leaves
  /// `pos` after it.
  bool find_start(std::string_view line, std::size_t& pos, StampFields& stamp) {
    const std::size_t limit = std::min<std::size_t>(line.size(), 256);
    for (std::size_t open = line.find(" [", 0); open != std::string_view::npos && open < limit;
         open = line.find(" [", open + 1)) {
      std::size_t token_start = open;
      while (token_start > 0 && line[token_start - 1] != ' ') --token_start;
      if (!is_address_port(line.substr(token_start, open - token_start))) continue;
      const std::size_t length = scan_stamp(StampFamily::clf, line, open + 2, stamp);
      const std::size_t close = open + 2 + length;
      if (length == 0 || stamp.year < 0 || close + 1 >= line.size() || line[close] != ']' || line[close + 1] != ' ')
        continue;
      pos = close + 2;
      return true;
    }
    return false;
  }

  /// The timers as phases: request, queue, connect, response, and the transfer (the total less
  /// them); the total is the duration.
  static void set_phases(const std::array<DurationNs, 5>& timers, bool http, Record& record) {
    record.phases.fill(-1);
    const auto set = [&](Phase phase, DurationNs value) {
      if (value >= 0) record.phases[static_cast<std::size_t>(phase)] = value;
    };
    DurationNs parts = 0;
    for (std::size_t i = 0; i + 1 < (http ? 5u : 3u); ++i) parts += std::max<DurationNs>(timers[i], 0);
    const DurationNs total = http ? timers[4] : timers[2];
    if (http) {
      set(Phase::request, timers[0]);
      set(Phase::queue, timers[1]);
      set(Phase::connect, timers[2]);
      set(Phase::response, timers[3]);
      if (total >= 0 && timers[3] >= 0 && total >= parts) set(Phase::transfer, total - parts);
    } else {
      set(Phase::queue, timers[0]);
      set(Phase::connect, timers[1]);
    }
    record.duration = total >= 0 ? total : -1;
  }

  /// The captured headers `{…} {…}` and the quoted request line after the queue counters;
  /// sets the request key from the captured request headers. Returns the request line
  /// (without quotes), or empty.
  static std::string_view captures_and_request(std::string_view line, std::size_t pos, Record& record) {
    bool first_block = true;
    while (pos < line.size() && line[pos] == '{') {
      const std::size_t close = line.find('}', pos);
      if (close == std::string_view::npos) return {};
      if (first_block && record.group.empty()) {
        std::string_view headers = line.substr(pos + 1, close - pos - 1);
        while (!headers.empty()) {
          const std::size_t bar = headers.find('|');
          const std::string_view value = headers.substr(0, bar);
          if (looks_like_request_id(value)) {
            record.group = value;
            break;
          }
          if (bar == std::string_view::npos) break;
          headers.remove_prefix(bar + 1);
        }
      }
      first_block = false;
      pos = close + 1;
      while (pos < line.size() && line[pos] == ' ') ++pos;
    }
    if (pos >= line.size() || line[pos] != '"') return {};
    const std::size_t end = line.find('"', pos + 1);
    return line.substr(pos + 1, (end == std::string_view::npos ? line.size() : end) - pos - 1);
  }

  std::string m_fields;
};

}  // namespace

FormatInfo haproxy_log() {
  return {"haproxy",
          "HAProxy httplog and tcplog lines (with or without a syslog header): the timers TR/Tw/Tc/Tr/Ta "
          "(Tw/Tc/Tt) as the phases request, queue, connect, response and transfer; the captured request "
          "header that holds an id as the request key",
          "Dec  7 12:14:14 lb1 haproxy[14389]: 10.0.1.2:33317 [07/Dec/2026:12:14:14.655] http-in static/srv1 "
          "10/0/1030/69/1109 200 2750 - - ---- 1/1/1/1/0 0/0 {6f1c2b8e-9d0a-4f6e-8c3b-2a1908d7e6f5} "
          "\"GET /index.html HTTP/1.1\"",
          [] { return std::unique_ptr<LineParser>(std::make_unique<HaproxyLogParser>()); }};
}

}  // namespace gapscan::parse::formats
