#include <gapscan/parse/fields.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace gapscan::parse {
namespace {

inline char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

inline bool is_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

bool equals_lower(std::string_view text, std::string_view lowercase_key) {
  if (text.size() != lowercase_key.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (lower(text[i]) != lowercase_key[i]) return false;
  }
  return true;
}

constexpr std::array<std::string_view, 9> k_request_id_keys = {
    "reqid", "request_id", "requestid", "req_id", "rid", "x-request-id", "x_request_id", "trace_id", "traceid"};

}  // namespace

std::string_view find_request_id_pair(std::string_view text) {
  std::size_t pos = 0;
  while ((pos = text.find('=', pos)) != std::string_view::npos) {
    std::size_t key_start = pos;
    while (key_start > 0 && is_key_char(text[key_start - 1])) --key_start;
    const std::string_view key = text.substr(key_start, pos - key_start);
    ++pos;
    bool match = false;
    for (std::string_view candidate : k_request_id_keys) {
      if (equals_lower(key, candidate)) {
        match = true;
        break;
      }
    }
    if (!match || pos >= text.size()) continue;
    if (text[pos] == '"' || text[pos] == '\'') {
      const char quote = text[pos];
      const std::size_t end = text.find(quote, pos + 1);
      if (end == std::string_view::npos) continue;
      return text.substr(pos + 1, end - pos - 1);
    }
    std::size_t end = pos;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != ',' && text[end] != ';' &&
           text[end] != ']' && text[end] != ')') {
      ++end;
    }
    if (end > pos) return text.substr(pos, end - pos);
  }
  return {};
}

std::string_view trailing_json_object(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (text.empty() || text.back() != '}') return {};
  // Walk backwards, tracking strings: a quote is real unless preceded by an odd number of
  // backslashes.
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = text.size(); i-- > 0;) {
    const char c = text[i];
    if (c == '"') {
      std::size_t backslashes = 0;
      while (i >= backslashes + 1 && text[i - backslashes - 1] == '\\') ++backslashes;
      if (backslashes % 2 == 0) in_string = !in_string;
      continue;
    }
    if (in_string) continue;
    if (c == '}') ++depth;
    if (c == '{' && --depth == 0) return text.substr(i);
  }
  return {};
}

std::string_view json_string_field(std::string_view json, std::string_view key) {
  std::size_t pos = 0;
  while ((pos = json.find(key, pos)) != std::string_view::npos) {
    const std::size_t key_end = pos + key.size();
    if (pos == 0 || json[pos - 1] != '"' || key_end >= json.size() || json[key_end] != '"') {
      pos = key_end;
      continue;
    }
    std::size_t p = key_end + 1;
    while (p < json.size() && json[p] == ' ') ++p;
    if (p >= json.size() || json[p] != ':') {
      pos = key_end;
      continue;
    }
    ++p;
    while (p < json.size() && json[p] == ' ') ++p;
    if (p >= json.size() || json[p] != '"') return {};
    const std::size_t start = ++p;
    while (p < json.size() && json[p] != '"') {
      if (json[p] == '\\') ++p;
      ++p;
    }
    if (p >= json.size()) return {};
    return json.substr(start, p - start);
  }
  return {};
}

std::string_view json_path_value(std::string_view json, std::string_view path) {
  // One pass over the text, tracking the path of keys to the current object.
  std::vector<std::string_view> stack;  // keys of the enclosing objects
  std::string_view pending;             // the last key read, whose value comes next
  std::size_t i = json.find('{');
  if (i == std::string_view::npos) return {};
  auto current_path_is = [&](std::string_view key) {
    std::size_t length = key.size();
    for (std::string_view part : stack) length += part.size() + 1;
    if (length != path.size()) return false;
    std::size_t at = 0;
    for (std::string_view part : stack) {
      if (path.substr(at, part.size()) != part || path[at + part.size()] != '.') return false;
      at += part.size() + 1;
    }
    return path.substr(at) == key;
  };
  int depth = 0;
  for (; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '{') {
      if (depth > 0) stack.push_back(pending);
      ++depth;
      pending = {};
    } else if (c == '}') {
      --depth;
      if (!stack.empty()) stack.pop_back();
      if (depth <= 0) return {};
    } else if (c == '[') {
      int nested = 1;  // skip arrays: paths do not index them
      while (++i < json.size() && nested > 0) {
        if (json[i] == '[') ++nested;
        if (json[i] == ']') --nested;
        if (json[i] == '"') {
          while (++i < json.size() && json[i] != '"') i += json[i] == '\\' ? 1 : 0;
        }
      }
      --i;
    } else if (c == '"') {
      std::size_t end = i + 1;
      while (end < json.size() && json[end] != '"') end += json[end] == '\\' ? 2 : 1;
      if (end >= json.size()) return {};
      const std::string_view text = json.substr(i + 1, end - i - 1);
      std::size_t after = end + 1;
      while (after < json.size() && json[after] == ' ') ++after;
      if (after < json.size() && json[after] == ':') {
        pending = text;
        std::size_t value = after + 1;
        while (value < json.size() && json[value] == ' ') ++value;
        if (value < json.size() && json[value] != '{' && json[value] != '[' && current_path_is(text)) {
          if (json[value] == '"') {
            std::size_t close = value + 1;
            while (close < json.size() && json[close] != '"') close += json[close] == '\\' ? 2 : 1;
            return close < json.size() ? json.substr(value + 1, close - value - 1) : std::string_view();
          }
          std::size_t close = value;
          while (close < json.size() && json[close] != ',' && json[close] != '}' && json[close] != ' ') ++close;
          return json.substr(value, close - value);
        }
        i = after;
      } else {
        i = end;
      }
    }
  }
  return {};
}

std::string_view key_value(std::string_view text, std::string_view key) {
  std::size_t pos = 0;
  while ((pos = text.find(key, pos)) != std::string_view::npos) {
    const std::size_t equals = pos + key.size();
    const bool starts = pos == 0 || !is_key_char(text[pos - 1]);
    if (!starts || equals >= text.size() || text[equals] != '=') {
      pos = equals;
      continue;
    }
    std::size_t value = equals + 1;
    if (value < text.size() && (text[value] == '"' || text[value] == '\'')) {
      const char quote = text[value];
      const std::size_t close = text.find(quote, value + 1);
      return close == std::string_view::npos ? std::string_view() : text.substr(value + 1, close - value - 1);
    }
    std::size_t end = value;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != ',') ++end;
    return text.substr(value, end - value);
  }
  return {};
}

bool parse_duration(std::string_view text, DurationNs unit, DurationNs& out, std::uint8_t& digits) {
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if (unit <= 0 || whole.empty() || whole.size() > 12 || fraction.size() > 9 ||
      (dot != std::string_view::npos && fraction.empty())) {
    return false;
  }
  // whole * unit + fraction * unit / 10^f, split so that no product overflows.
  std::int64_t whole_value = 0, fraction_value = 0, ten_f = 1;
  for (char c : whole) {
    if (c < '0' || c > '9') return false;
    whole_value = whole_value * 10 + (c - '0');
  }
  for (char c : fraction) {
    if (c < '0' || c > '9') return false;
    fraction_value = fraction_value * 10 + (c - '0');
    ten_f *= 10;
  }
  std::int64_t value = 0;
  if (__builtin_mul_overflow(whole_value, unit, &value)) return false;
  const std::int64_t fraction_ns = fraction_value * (unit / ten_f) + fraction_value * (unit % ten_f) / ten_f;
  if (__builtin_add_overflow(value, fraction_ns, &value)) return false;
  out = value;
  // The resolution written: one unit over 10^f; its sub-second digits.
  int d = 9;
  for (std::int64_t r = std::max<std::int64_t>(unit / ten_f, 1); r >= 10 && d > 0; r /= 10) --d;
  digits = static_cast<std::uint8_t>(d);
  return true;
}

}  // namespace gapscan::parse
