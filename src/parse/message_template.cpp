#include <gapscan/parse/message_template.hpp>

#include <algorithm>

namespace gapscan::parse {
namespace {

constexpr std::size_t k_max_template = 160;

bool is_token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '-' || c == ':' || c == '/' || c == '@' || static_cast<unsigned char>(c) >= 0x80;
}

/// Whether `out` ends with the key of a logfmt message (`msg=`, `message=`), whose quoted value
/// is the line's words, not a variable part.
bool message_key(std::string_view out) {
  for (const std::string_view key : {"msg=", "message="}) {
    if (out.size() < key.size() || out.substr(out.size() - key.size()) != key) continue;
    return out.size() == key.size() || !is_token_char(out[out.size() - key.size() - 1]);
  }
  return false;
}

}  // namespace

void message_template(std::string_view message, std::string& out, std::string_view also_mask) {
  out.clear();
  std::size_t i = 0;
  const std::size_t n = message.size();
  while (i < n && out.size() < k_max_template) {
    const char c = message[i];
    if (c == '"' || c == '\'') {  // a quoted string, escapes skipped
      std::size_t end = i + 1;
      while (end < n && message[end] != c) end += message[end] == '\\' ? 2 : 1;
      if (message_key(out)) {  // logfmt's msg="…": the message itself, templated in place
        std::string inner;
        message_template(message.substr(i + 1, std::min(end, n) - i - 1), inner, also_mask);
        out += c;
        out.append(inner, 0, std::min(inner.size(), k_max_template - std::min(k_max_template, out.size())));
        out += c;
      } else {
        out += "<*>";
      }
      i = end + 1;
      continue;
    }
    if (c == ' ' || c == '\t') {
      if (!out.empty() && out.back() != ' ') out += ' ';
      while (i < n && (message[i] == ' ' || message[i] == '\t')) ++i;
      continue;
    }
    if (!is_token_char(c)) {
      out += c;
      ++i;
      continue;
    }
    std::size_t end = i;
    bool digit = false;
    bool key = false;  // a ':' between two of its characters: a cache key, a URL, a host:port
    while (end < n && is_token_char(message[end])) {
      digit = digit || (message[end] >= '0' && message[end] <= '9');
      key = key || (message[end] == ':' && end > i && end + 1 < n && is_token_char(message[end + 1]));
      ++end;
    }
    if (digit || key || (!also_mask.empty() && message.substr(i, end - i) == also_mask)) {
      // Keep a key of key=value or key:value: only what follows the last '=' is the value.
      out += "<*>";
    } else {
      out.append(message.substr(i, std::min(end - i, k_max_template - out.size())));
    }
    i = end;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
}

std::uint64_t template_hash(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

}  // namespace gapscan::parse
