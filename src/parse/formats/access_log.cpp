// Web-server and PHP-FPM access logs: the common/combined layout and what is appended to it.
//   nginx, Apache:  host ident user [29/Nov/2026:21:03:04 +0900] "GET /x HTTP/1.1" 200 512 "ref" "agent" …
//   PHP-FPM:        ip - user 29/Nov/2026:21:03:04 +0900 "GET /index.php" 200 …   (no brackets)
// After the fixed part, unquoted tokens are recognised by their shape (web servers only; a
// PHP-FPM line is too free-form: only its key=value pairs are read):
//   1764450184.123     $msec: the time the line was written, in ms; used as the record's time
//   0.534              $request_time (s, ms digits): the logged duration (the first such token)
//   534211             Apache %D (µs): the logged duration, when no decimal one came first
//   4f1c…(32 hex)      nginx $request_id: the group key
//   ZRDxrX8AAQEAAC1g…  Apache %{UNIQUE_ID}e (mod_unique_id): the group key
//   rid=…, reqId=…     a request id pair: the group key (any line)
//   rt=0.534, request_time=0.534   a duration in seconds (any line)
//   MISS, "HIT", miss, pass          a cache status word (nginx $upstream_cache_status, Varnish
//                                    %{Varnish:handling}x): the named field cache_status
//   "PHPSESSID=…; path=/"            a cookie with its attributes: the named field set_cookie
// Every line also names method, path and status (Record::fields), and is a finished request.

#include "formats.hpp"
#include "scan.hpp"

#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/stamp.hpp>
#include <gapscan/parse/stamp_clock.hpp>

#include <array>
#include <cctype>
#include <cstdint>
#include <string>

namespace gapscan::parse::formats {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool all_digits(std::string_view token) {
  if (token.empty()) return false;
  for (char c : token) {
    if (!is_digit(c)) return false;
  }
  return true;
}

/// "534.211": digits, a dot, exactly three digits (nginx prints times with ms).
bool is_millis_decimal(std::string_view token, std::size_t max_integer_digits) {
  const std::size_t dot = token.find('.');
  return dot != std::string_view::npos && dot > 0 && dot <= max_integer_digits && token.size() == dot + 4 &&
         all_digits(token.substr(0, dot)) && all_digits(token.substr(dot + 1));
}

bool is_hex_id(std::string_view token) {
  if (token.size() != 32) return false;
  for (char c : token) {
    if (!is_digit(c) && (c < 'a' || c > 'f')) return false;
  }
  return true;
}

/// mod_unique_id's id: 19-32 characters of its base64 alphabet (A-Z a-z 0-9 @ - or + /),
/// with upper- and lower-case letters (so that words and numbers are not taken for one).
bool is_unique_id(std::string_view token) {
  if (token.size() < 19 || token.size() > 32) return false;
  bool upper = false, lower = false;
  for (char c : token) {
    if (c >= 'A' && c <= 'Z') {
      upper = true;
    } else if (c >= 'a' && c <= 'z') {
      lower = true;
    } else if (!is_digit(c) && c != '@' && c != '-' && c != '_' && c != '+' && c != '/') {
      return false;
    }
  }
  return upper && lower;
}

/// The end of a quoted field starting at `pos` (the opening quote), past the closing quote;
/// backslash escapes (Apache's \", nginx's \x22) are skipped. npos when unterminated.
std::size_t skip_quoted(std::string_view line, std::size_t pos) {
  for (std::size_t i = pos + 1; i < line.size(); ++i) {
    if (line[i] == '\\') {
      ++i;
    } else if (line[i] == '"') {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

class AccessLogParser final : public ClockedParser {
 public:
  ParseStatus parse(std::string_view line, Record& record) override {
    // host, ident and user (PHP-FPM's %u may be empty: "ip -  time").
    std::size_t pos = 0;
    const std::string_view host = next_token(line, pos);
    if (host.empty() || pos >= line.size()) return ParseStatus::not_this_format;
    if (next_token(line, pos).empty() || pos >= line.size()) return ParseStatus::not_this_format;
    next_token(line, pos);  // the user; empty is allowed
    if (pos >= line.size()) return ParseStatus::not_this_format;

    const bool bracketed = line[pos] == '[';
    StampFields stamp;
    const std::size_t stamp_length = scan_stamp(StampFamily::clf, line, pos + (bracketed ? 1 : 0), stamp);
    if (stamp_length == 0 || stamp.year < 0) return ParseStatus::not_this_format;
    pos += stamp_length + (bracketed ? 1 : 0);
    if (bracketed && (pos >= line.size() || line[pos] != ']')) return ParseStatus::not_this_format;
    if (bracketed) ++pos;
    if (pos + 1 >= line.size() || line[pos] != ' ' || line[pos + 1] != '"') return ParseStatus::not_this_format;
    const std::size_t request = pos + 1;
    pos = skip_quoted(line, request);
    if (pos == std::string_view::npos || pos + 4 > line.size() || line[pos] != ' ') return ParseStatus::not_this_format;
    ++pos;
    const std::string_view status = next_token(line, pos);
    if (status.size() != 3 || !all_digits(status)) return ParseStatus::not_this_format;
    const std::string_view request_text = line.substr(request + 1, pos - request);
    const bool web_server = bracketed || request_text.find(" HTTP/") != std::string_view::npos;
    request_fields(line, request, status);
    record.completion = true;

    record.time = m_clock.instant(stamp);
    record.time_digits = stamp.digits;
    record.zoned = m_clock.last_zoned();
    record.message = line.substr(request);
    record.channel = {};
    record.level = {};
    record.group = find_request_id_pair(line.substr(pos), 1);
    record.duration = -1;
    record.duration_digits = 0;
    for (std::string_view key : {"rt", "request_time"}) {
      if (record.duration < 0) {
        const std::string_view value = key_value(line.substr(pos), key);
        if (!value.empty()) parse_duration(value, k_ns_per_s, record.duration, record.duration_digits);
      }
    }
    // Phase timers appended as pairs: nginx's upstream timers (`uct="0.001" uht="0.050"
    // urt="0.051"`, `upstream_connect_time=…`), a queue or lock wait.
    record.phases.fill(-1);
    if (line.find('=', pos) != std::string_view::npos) {
      DurationNs total = 0;
      std::uint8_t total_digits = 0;
      find_duration(line.substr(pos), total, total_digits, &record.phases);
    }
    record.fields = m_fields;
    if (!web_server) return ParseStatus::parsed;

    appended_fields(line, pos, record);
    record.fields = m_fields;
    return ParseStatus::parsed;
  }

 private:
  /// The named fields the catalog's evidence can test: method and path (from the request line
  /// that starts at `request`, its opening quote) and status; appended_fields() adds the cache
  /// status and Set-Cookie that a web server's appended fields show by their shape.
  void request_fields(std::string_view line, std::size_t request, std::string_view status) {
    m_fields.clear();
    m_cache_status = false;
    const std::size_t request_end = line.find('"', request + 1);
    const std::string_view request_line = line.substr(request + 1, request_end - request - 1);
    request_line_fields(m_fields, request_line);
    append_field(m_fields, "status", status);
  }

  /// A web server's fields after the status, read by their shape (see the top of the file).
  void appended_fields(std::string_view line, std::size_t pos, Record& record) {
    // The token right after the status is the size (%b, $body_bytes_sent).
    if (pos < line.size() && line[pos] != '"') next_token(line, pos);
    while (pos < line.size()) {
      if (line[pos] == '"') {
        const std::size_t open = pos;
        pos = skip_quoted(line, pos);
        if (pos == std::string_view::npos) break;
        quoted_field(line.substr(open + 1, pos - open - 2));
        if (pos < line.size() && line[pos] == ' ') ++pos;
        continue;
      }
      const std::string_view token = next_token(line, pos);
      if (token.empty() || token == "-") continue;
      if (is_cache_status(token)) {
        cache_status(token);
      } else if (token.size() == 14 && is_millis_decimal(token, 10)) {  // $msec
        DurationNs instant = 0;
        std::uint8_t digits = 0;
        if (parse_duration(token, k_ns_per_s, instant, digits)) {
          record.time = instant;
          record.time_digits = 3;
          record.zoned = true;
        }
      } else if (is_millis_decimal(token, 6)) {
        if (record.duration < 0) parse_duration(token, k_ns_per_s, record.duration, record.duration_digits);
      } else if (all_digits(token) && token.size() <= 12) {
        if (record.duration < 0) parse_duration(token, k_ns_per_us, record.duration, record.duration_digits);
      } else if (record.group.empty() && (is_hex_id(token) || is_unique_id(token))) {
        record.group = token;
      }
    }
  }

  void cache_status(std::string_view token) {
    if (!m_cache_status) append_field(m_fields, "cache_status", token);
    m_cache_status = true;
  }
  /// A quoted field after the status: a cache status ("MISS"), or a Set-Cookie value (a
  /// cookie with its attributes: a request's Cookie header has none); referer and agent are
  /// left in the line.
  void quoted_field(std::string_view value) {
    if (is_cache_status(value)) return cache_status(value);
    if (value.find('=') == std::string_view::npos || value.find(';') == std::string_view::npos) return;
    static constexpr std::array<std::string_view, 6> k_attributes = {
        "path=", "expires=", "max-age=", "domain=", "httponly", "samesite="};
    std::string lower(value.substr(0, 512));
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::string_view attribute : k_attributes) {
      if (lower.find(attribute) != std::string::npos) {
        append_field(m_fields, "set_cookie", value);
        return;
      }
    }
  }

  std::string m_fields;
  bool m_cache_status = false;
};

}  // namespace

FormatInfo access_log() {
  return {"access-log",
          "nginx, Apache and PHP-FPM access logs (common, combined, and with $msec, $request_time, %D, "
          "$request_id or UNIQUE_ID appended)",
          "203.0.113.7 - - [29/Nov/2026:21:03:04 +0900] \"GET /wiki/Foo HTTP/2.0\" 200 48213 \"-\" \"Mozilla/5.0\" "
          "0.534 0.531 4f1c2b8e9d0a7f6e5c3b2a1908d7e6f5 1764417784.657",
          [] { return std::unique_ptr<LineParser>(std::make_unique<AccessLogParser>()); }};
}

}  // namespace gapscan::parse::formats
