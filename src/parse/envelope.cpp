#include <gapscan/parse/envelope.hpp>
#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/stamp.hpp>
#include <gapscan/parse/timestamp.hpp>

namespace gapscan::parse {
namespace {

/// Unescapes a JSON string's content into `out` (UTF-8 for \u escapes; surrogate pairs joined).
void unescape_json(std::string_view raw, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (c != '\\' || i + 1 >= raw.size()) {
      out += c;
      continue;
    }
    const char e = raw[++i];
    switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'u': {
        if (i + 4 >= raw.size()) return;
        unsigned code = 0;
        for (int k = 1; k <= 4; ++k) {
          const char h = raw[i + static_cast<std::size_t>(k)];
          code = code * 16 + static_cast<unsigned>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
        }
        i += 4;
        if (code >= 0xD800 && code <= 0xDBFF && i + 6 < raw.size() && raw[i + 1] == '\\' && raw[i + 2] == 'u') {
          unsigned low = 0;
          for (int k = 3; k <= 6; ++k) {
            const char h = raw[i + static_cast<std::size_t>(k)];
            low = low * 16 + static_cast<unsigned>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
          }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          i += 6;
        }
        if (code < 0x80) {
          out += static_cast<char>(code);
        } else if (code < 0x800) {
          out += static_cast<char>(0xC0 | (code >> 6));
          out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
          out += static_cast<char>(0xE0 | (code >> 12));
          out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
          out += static_cast<char>(0xF0 | (code >> 18));
          out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
          out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (code & 0x3F));
        }
        break;
      }
      default:
        out += e;  // \" \\ \/
    }
  }
}

bool unwrap_docker(std::string_view line, std::string& buffer, Unwrapped& out) {
  if (line.size() < 10 || line[0] != '{' || line.find("\"log\"") == std::string_view::npos) return false;
  const std::string_view log = json_string_field(line, "log");
  const std::string_view time = json_string_field(line, "time");
  if (time.empty()) return false;
  out.partial = !log.ends_with("\\n");  // a 16 KiB part: the line goes on in the next entry
  out.stream = json_string_field(line, "stream") == "stderr" ? 1 : 0;
  unescape_json(log, buffer);
  while (!buffer.empty() && (buffer.back() == '\n' || buffer.back() == '\r')) buffer.pop_back();
  out.inner = buffer;
  if (const auto parsed = parse_iso8601(time)) {
    out.has_time = true;
    out.time = parsed->time;
    out.time_digits = parsed->digits;
  }
  return true;
}

bool unwrap_cri(std::string_view line, Unwrapped& out) {
  const auto parsed = parse_iso8601(line);
  if (!parsed || parsed->length + 10 > line.size() || line[parsed->length] != ' ') return false;
  std::size_t pos = parsed->length + 1;
  const std::string_view rest = line.substr(pos);
  if (rest.starts_with("stdout ")) {
    out.stream = 0;
  } else if (rest.starts_with("stderr ")) {
    out.stream = 1;
  } else {
    return false;
  }
  pos += 7;
  if (pos + 1 >= line.size() || (line[pos] != 'F' && line[pos] != 'P') || line[pos + 1] != ' ') return false;
  out.partial = line[pos] == 'P';
  out.inner = line.substr(pos + 2);
  out.has_time = true;
  out.time = parsed->time;
  out.time_digits = parsed->digits;
  return true;
}

bool unwrap_php_fpm(std::string_view line, Unwrapped& out) {
  const std::size_t said = line.find(" said into std");
  if (line.empty() || line[0] != '[' || said == std::string_view::npos) return false;
  const std::size_t quote = line.find(": \"", said);
  if (quote == std::string_view::npos) return false;
  std::string_view inner = line.substr(quote + 3);
  out.stream = line.substr(said + 14, 3) == "err" ? 1 : 0;
  if (inner.ends_with("\", pipe is closed"))
    inner.remove_suffix(17);
  else if (inner.ends_with("\""))
    inner.remove_suffix(1);
  out.inner = inner;
  // [29-Nov-2026 21:03:04] or with microseconds at log_level = debug
  StampFields fields;
  if (const std::size_t length = scan_stamp(StampFamily::clf, line, 1, fields); length > 0) {
    out.has_time = true;
    out.time =
        (days_from_civil(fields.year, static_cast<unsigned>(fields.month), static_cast<unsigned>(fields.day)) * 86400 +
         fields.hour * 3600 + fields.minute * 60 + fields.second - fields.offset_seconds) *
            k_ns_per_s +
        fields.nanos;
    out.time_digits = fields.digits;
    out.zoned = fields.has_zone;
  }
  const std::size_t child = line.rfind("child ", said);
  if (child != std::string_view::npos) out.group = line.substr(child, said - child);
  return true;
}

}  // namespace

std::string_view to_string(EnvelopeKind kind) {
  switch (kind) {
    case EnvelopeKind::none:
      return "";
    case EnvelopeKind::docker_json:
      return "docker-json";
    case EnvelopeKind::cri:
      return "cri";
    case EnvelopeKind::php_fpm:
      return "php-fpm";
  }
  return "";
}

EnvelopeKind Envelope::detect(const std::vector<std::string>& sample) {
  std::size_t lines = 0, docker = 0, cri = 0, fpm = 0;
  std::string buffer;
  Unwrapped out;
  for (const std::string& line : sample) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    ++lines;
    if (unwrap_docker(line, buffer, out)) ++docker;
    if (unwrap_cri(line, out)) ++cri;
    if (unwrap_php_fpm(line, out)) ++fpm;
  }
  if (lines == 0) return EnvelopeKind::none;
  if (docker * 2 > lines) return EnvelopeKind::docker_json;
  if (cri * 2 > lines) return EnvelopeKind::cri;
  if (fpm > 0) return EnvelopeKind::php_fpm;  // FPM logs mix worker output with the master's own lines
  return EnvelopeKind::none;
}

bool Envelope::unwrap(std::string_view line, Unwrapped& out) {
  out = Unwrapped{};
  switch (m_kind) {
    case EnvelopeKind::none:
      return false;
    case EnvelopeKind::docker_json:
      return unwrap_docker(line, m_buffer, out);
    case EnvelopeKind::cri:
      return unwrap_cri(line, out);
    case EnvelopeKind::php_fpm:
      if (!unwrap_php_fpm(line, out)) return false;
      out.partial = !line.ends_with("pipe is closed") && fpm_part(line.size());
      return true;
  }
  return false;
}

bool Envelope::fpm_part(std::size_t length) {
  // PHP-FPM wraps worker output longer than log_limit (at least 512 bytes; 1024 by default)
  // into lines of exactly log_limit bytes. A line of a round length (a power of two) is taken
  // for a part; so is one whose length has been seen twice before (another log_limit).
  if (length < 512) return false;
  if ((length & (length - 1)) == 0) return true;
  for (auto& [seen, count] : m_fpm_lengths) {
    if (seen == length) return ++count >= 3;
  }
  if (m_fpm_lengths.size() < 64) m_fpm_lengths.emplace_back(length, 1);
  return false;
}

}  // namespace gapscan::parse
