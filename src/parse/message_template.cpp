#include <gapscan/parse/message_template.hpp>

#include <algorithm>
#include <array>
#include <cstdint>

namespace gapscan::parse {
namespace {

constexpr std::size_t k_max_template = 160;

// What a byte is, by table: the templating looks at every byte of every message.
constexpr std::uint8_t k_token = 1;  // part of a word, number, key, path or address
constexpr std::uint8_t k_digit = 2;

constexpr std::array<std::uint8_t, 256> k_class = [] {
  std::array<std::uint8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    const bool token = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                       c == '.' || c == '-' || c == ':' || c == '/' || c == '@' || c >= 0x80;
    table[static_cast<std::size_t>(c)] =
        static_cast<std::uint8_t>((token ? k_token : 0) | (c >= '0' && c <= '9' ? k_digit : 0));
  }
  return table;
}();

bool is_token_char(char c) { return (k_class[static_cast<unsigned char>(c)] & k_token) != 0; }

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
  out.reserve(k_max_template + 8);
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
    std::uint8_t seen = 0;  // the classes of its bytes
    bool key = false;       // a ':' between two of its characters: a cache key, a URL, a host:port
    while (end < n) {
      const std::uint8_t cls = k_class[static_cast<unsigned char>(message[end])];
      if ((cls & k_token) == 0) break;
      seen |= cls;
      if (message[end] == ':' && end > i && end + 1 < n && is_token_char(message[end + 1])) key = true;
      ++end;
    }
    const bool digit = (seen & k_digit) != 0;
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
