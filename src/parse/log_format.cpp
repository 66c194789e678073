// nginx and Apache / varnishncsa format strings to user formats; see log_format.hpp.

#include <gapscan/parse/log_format.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <vector>

namespace gapscan::parse {
namespace {

constexpr std::string_view k_clf_time = R"(\d{2}/\w{3}/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4})";
constexpr std::string_view k_clf_layout = "%d/%b/%Y:%H:%M:%S %z";

/// Builds the regular expression field by field.
class Builder {
 public:
  void literal(char c) {
    if (std::string_view(R"(\.^$|?*+()[]{})").find(c) != std::string_view::npos) m_regex += '\\';
    m_regex += c;
    m_quoted = c == '"' ? !m_quoted : m_quoted;
  }
  /// A field gapscan does not read itself: a token, or anything up to the closing quote. With
  /// a name (the variable's, e.g. upstream_cache_status), a named group: the value becomes a
  /// field the catalog's evidence can test (Record::fields). A name already used is not
  /// named twice.
  void other(std::string_view name = {}) {
    const std::string body = m_quoted ? R"([^"]*)" : R"(\S+)";
    if (!usable_name(name)) {
      m_regex += body;
      return;
    }
    m_names.emplace_back(name);
    m_regex += "(?P<" + std::string(name) + ">" + body + ")";
  }
  void time(std::string_view pattern, std::string_view layout) {
    if (!m_format.time_layout.empty()) return other();
    m_regex += "(?P<time>" + std::string(pattern) + ")";
    m_format.time_layout = layout;
  }
  /// `exact`: the preferred duration (request time); another one only fills an empty place.
  void duration(std::string_view pattern, std::string_view unit, bool exact, std::string_view tail = {}) {
    if (!m_format.duration_unit.empty() && !(exact && !m_exact_duration)) {
      m_regex += "(?:" + std::string(pattern) + ")" + std::string(tail);  // read as a plain field
      return;
    }
    if (!m_format.duration_unit.empty()) {
      // A less preferred duration came first: it becomes a plain field.
      const std::size_t at = m_regex.find("(?P<duration>");
      m_regex.replace(at, 13, "(?:");
    }
    m_regex += "(?P<duration>" + std::string(pattern) + ")" + std::string(tail);
    m_format.duration_unit = unit;
    m_exact_duration = exact;
  }
  void group() {
    if (m_group) return other();
    m_regex += m_quoted ? R"((?P<group>[^"\s]*))" : R"((?P<group>\S+))";
    m_group = true;
  }
  bool usable_name(std::string_view name) const {
    if (name.empty() || name.size() > 64 || std::isdigit(static_cast<unsigned char>(name.front())) != 0) return false;
    for (char c : name) {
      if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
    }
    static constexpr std::array<std::string_view, 6> k_reserved = {"time",    "group", "message",
                                                                   "channel", "level", "duration"};
    if (std::find(k_reserved.begin(), k_reserved.end(), name) != k_reserved.end()) return false;
    return std::find(m_names.begin(), m_names.end(), name) == m_names.end();
  }

  Expected<TranslatedFormat> finish(std::string_view dialect, std::string_view time_fields) {
    if (m_format.time_layout.empty()) {
      return unexpected(make_error(std::string(dialect) + " log format", "the format has no time field",
                                   "it needs one of " + std::string(time_fields)));
    }
    m_format.regex = "^" + m_regex;
    return m_format;
  }

 private:
  std::string m_regex;
  TranslatedFormat m_format;
  std::vector<std::string> m_names;  // named groups of other fields
  bool m_quoted = false, m_group = false, m_exact_duration = false;
};

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

void nginx_variable(Builder& out, std::string_view name) {
  if (name == "time_local") return out.time(k_clf_time, k_clf_layout);
  if (name == "time_iso8601")
    return out.time(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:\d\d))", "%Y-%m-%dT%H:%M:%S%z");
  if (name == "msec") return out.time(R"(\d+\.\d+)", "%s");
  if (name == "request_time") return out.duration(R"(\d+(?:\.\d+)?|-)", "s", true);
  // "0.012", "-", or one time per upstream tried ("0.500, 0.012"): the first is kept.
  if (name == "upstream_response_time")
    return out.duration(R"(\d+(?:\.\d+)?|-)", "s", false, R"((?:[,:] ?(?:\d+(?:\.\d+)?|-))*)");
  if (name == "request_id" || name == "http_x_request_id") return out.group();
  out.other(name);
}

/// A header's name as a field name: lower case, '-' as '_' ("Set-Cookie" -> set_cookie).
std::string header_name(std::string_view header) {
  std::string name;
  for (char c : header) {
    name += c == '-' || c == ':' || c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return name;
}

/// The name an Apache or varnishncsa directive's field gets: the name nginx gives the same
/// variable where there is one (status, request_method, http_referer, sent_http_set_cookie),
/// so that one catalog field test reads both servers' logs.
std::string apache_field_name(char code, std::string_view argument) {
  switch (code) {
    case 's':
      return "status";
    case 'm':
      return "request_method";
    case 'r':
      return "request";
    case 'U':
      return "uri";
    case 'q':
      return "query_string";
    case 'H':
      return "server_protocol";
    case 'h':
      return "remote_addr";
    case 'u':
      return "remote_user";
    case 'b':
      return "body_bytes_sent";
    case 'B':
      return "bytes_sent";
    case 'I':
      return "request_length";
    case 'O':
      return "bytes_sent";
    case 'i':
      return "http_" + header_name(argument);
    case 'o':
      return "sent_http_" + header_name(argument);
    case 'x':
      return header_name(argument);  // varnishncsa: Varnish:handling -> varnish_handling
    case 'e':
      return header_name(argument);
    default:
      return {};
  }
}

void apache_directive(Builder& out, char code, std::string_view argument) {
  if (code == 't' && argument.empty()) {
    // %t writes the brackets itself: [02/Dec/2026:20:41:00 +0900].
    out.literal('[');
    out.time(k_clf_time, k_clf_layout);
    return out.literal(']');
  }
  if (code == 'D') return out.duration(R"(\d+)", "us", true);
  if (code == 'T' && (argument.empty() || argument == "s")) return out.duration(R"(\d+)", "s", false);
  if (code == 'T' && argument == "ms") return out.duration(R"(\d+)", "ms", true);  // %{ms}T
  if (code == 'T' && argument == "us") return out.duration(R"(\d+)", "us", true);  // %{us}T, as %D
  if ((code == 'e' && argument == "UNIQUE_ID") ||
      (code == 'i' && (argument == "X-Request-ID" || argument == "x-request-id")))
    return out.group();
  if (code == '%') return out.literal('%');
  out.other(apache_field_name(code, argument));
}

}  // namespace

Expected<TranslatedFormat> translate_nginx_log_format(std::string_view spec) {
  Builder out;
  for (std::size_t i = 0; i < spec.size(); ++i) {
    if (spec[i] != '$') {
      out.literal(spec[i]);
      continue;
    }
    std::string_view name;
    if (i + 1 < spec.size() && spec[i + 1] == '{') {
      const std::size_t close = spec.find('}', i + 2);
      if (close == std::string_view::npos) return unexpected(make_error("nginx log format", "an unclosed ${"));
      name = spec.substr(i + 2, close - i - 2);
      i = close;
    } else {
      std::size_t end = i + 1;
      while (end < spec.size() && is_name_char(spec[end])) ++end;
      name = spec.substr(i + 1, end - i - 1);
      i = end - 1;
    }
    if (name.empty()) return unexpected(make_error("nginx log format", "a '$' without a variable name"));
    nginx_variable(out, name);
  }
  return out.finish("nginx", "$time_local, $time_iso8601 or $msec");
}

Expected<TranslatedFormat> translate_apache_log_format(std::string_view spec) {
  Builder out;
  for (std::size_t i = 0; i < spec.size(); ++i) {
    if (spec[i] != '%') {
      out.literal(spec[i]);
      continue;
    }
    std::size_t j = i + 1;
    while (j < spec.size() && (spec[j] == '<' || spec[j] == '>' || spec[j] == '!' || spec[j] == ',' ||
                               std::isdigit(static_cast<unsigned char>(spec[j])) != 0)) {
      ++j;
    }
    std::string_view argument;
    if (j < spec.size() && spec[j] == '{') {
      const std::size_t close = spec.find('}', j + 1);
      if (close == std::string_view::npos) return unexpected(make_error("Apache log format", "an unclosed %{"));
      argument = spec.substr(j + 1, close - j - 1);
      j = close + 1;
    }
    if (j >= spec.size()) return unexpected(make_error("Apache log format", "a '%' at the end without a directive"));
    if (spec[j] == 't' && !argument.empty()) {
      return unexpected(make_error("Apache log format", "%{…}t (a time in a format of its own) is not read",
                                   "use %t, or describe the line with regex and time_layout"));
    }
    apache_directive(out, spec[j], argument);
    i = j;
  }
  return out.finish("Apache", "%t");
}

}  // namespace gapscan::parse
