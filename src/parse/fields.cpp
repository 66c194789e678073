#include <gapscan/parse/fields.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
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

/// Keys that name what a line belongs to, by rank: a request before its trace, a transaction, a
/// connection, a session (many requests) and a span (part of a request) last.
struct GroupKey {
  std::string_view name;  // lower case
  int rank;
  bool word = false;  // a plain word (request, trace, session …): its value must look like an id
};
constexpr std::array<GroupKey, 34> k_group_keys = {{
    {"reqid", 0},        {"request_id", 0},       {"requestid", 0},     {"req_id", 0},
    {"req", 0},          {"request", 0, true},    {"rid", 0},           {"x-request-id", 0},
    {"x_request_id", 0}, {"correlation_id", 0},   {"correlationid", 0}, {"trace_id", 1},
    {"traceid", 1},      {"trace", 1, true},      {"txn", 2},           {"txn_id", 2},
    {"txnid", 2},        {"transaction_id", 2},   {"job_id", 2},        {"jobid", 2},
    {"task_id", 2},      {"taskid", 2},           {"conn", 3},          {"conn_id", 3},
    {"connid", 3},       {"connection", 3, true}, {"connection_id", 3}, {"session", 4, true},
    {"session_id", 4},   {"sessionid", 4},        {"sid", 4},           {"span_id", 5},
    {"spanid", 5},       {"span", 5, true},
}};

const GroupKey* group_key(std::string_view key) {
  for (const GroupKey& candidate : k_group_keys) {
    if (equals_lower(key, candidate.name)) return &candidate;
  }
  return nullptr;
}

/// An identifier: no blanks (a `request="GET / HTTP/1.1"` field is a request line, not an id),
/// not "-", at most 128 bytes.
bool looks_like_id(std::string_view value) {
  if (value.empty() || value.size() > 128 || value == "-") return false;
  return value.find_first_of(" \t") == std::string_view::npos;
}

}  // namespace

std::string_view find_request_id_pair(std::string_view text, int max_rank) {
  std::string_view best;
  int best_rank = max_rank + 1;
  std::size_t pos = 0;
  while ((pos = text.find('=', pos)) != std::string_view::npos) {
    std::size_t key_start = pos;
    while (key_start > 0 && is_key_char(text[key_start - 1])) --key_start;
    const std::string_view key = text.substr(key_start, pos - key_start);
    ++pos;
    const GroupKey* found = group_key(key);
    if (found == nullptr || found->rank >= best_rank || pos >= text.size()) continue;
    const int rank = found->rank;
    std::string_view value;
    if (text[pos] == '"' || text[pos] == '\'') {
      const char quote = text[pos];
      const std::size_t end = text.find(quote, pos + 1);
      if (end == std::string_view::npos) continue;
      value = text.substr(pos + 1, end - pos - 1);
    } else {
      std::size_t end = pos;
      while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != ',' && text[end] != ';' &&
             text[end] != ']' && text[end] != ')') {
        ++end;
      }
      value = text.substr(pos, end - pos);
    }
    if (value.empty() || value == "-" || (found->word && !looks_like_id(value))) continue;
    best = value;
    best_rank = rank;
    if (rank == 0) break;
  }
  return best;
}

std::string_view find_request_id_json(std::string_view json, int max_rank) {
  std::string_view best;
  int best_rank = max_rank + 1;
  std::size_t pos = 0;
  while ((pos = json.find('"', pos)) != std::string_view::npos) {
    const std::size_t key_end = json.find('"', pos + 1);
    if (key_end == std::string_view::npos) break;
    const std::string_view key = json.substr(pos + 1, key_end - pos - 1);
    std::size_t at = key_end + 1;
    while (at < json.size() && json[at] == ' ') ++at;
    if (at >= json.size() || json[at] != ':') {
      pos = key_end + 1;  // a value, not a key
      continue;
    }
    ++at;
    while (at < json.size() && json[at] == ' ') ++at;
    std::string_view value;
    std::size_t next = at;
    if (at < json.size() && json[at] == '"') {
      std::size_t end = at + 1;
      while (end < json.size() && json[end] != '"') end += json[end] == '\\' ? 2 : 1;
      if (end >= json.size()) break;
      value = json.substr(at + 1, end - at - 1);
      next = end + 1;
    } else {
      std::size_t end = at;
      while (end < json.size() && json[end] != ',' && json[end] != '}' && json[end] != ']' && json[end] != ' ') ++end;
      value = json.substr(at, end - at);
      next = end;
    }
    pos = next;
    const GroupKey* found = group_key(key);
    if (found == nullptr || found->rank >= best_rank) continue;
    if (value.empty() || value == "-" || value == "null" || value.find(' ') != std::string_view::npos ||
        (found->word && !looks_like_id(value)))
      continue;
    best = value;
    best_rank = found->rank;
    if (best_rank == 0) break;
  }
  return best;
}

namespace {

/// The key=value pairs of a line (unquoted values up to a blank; quoted ones whole).
template <typename Visit>
void for_each_pair(std::string_view text, Visit visit) {
  std::size_t pos = 0;
  while ((pos = text.find('=', pos)) != std::string_view::npos) {
    std::size_t key_start = pos;
    while (key_start > 0 && is_key_char(text[key_start - 1])) --key_start;
    const std::string_view key = text.substr(key_start, pos - key_start);
    std::size_t begin = ++pos, end = pos;
    if (begin < text.size() && (text[begin] == '"' || text[begin] == '\'')) {
      const char quote = text[begin++];
      end = text.find(quote, begin);
      if (end == std::string_view::npos) return;
    } else {
      while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != ',' && text[end] != ';') ++end;
    }
    if (!key.empty() && key.size() <= 32) visit(key, text.substr(begin, end - begin));
    pos = end;
  }
}

/// Keys that hold the time, the level or the message of a line: never its group.
bool is_stamp_or_level_key(std::string_view key) {
  static constexpr std::array<std::string_view, 14> k_keys = {"t",        "ts",     "time",   "timestamp", "date",
                                                              "datetime", "level",  "lvl",    "severity",  "msg",
                                                              "message",  "caller", "logger", "source"};
  return std::any_of(k_keys.begin(), k_keys.end(), [&](std::string_view k) { return equals_lower(key, k); });
}

}  // namespace

GroupKeyChoice learn_group_key(const std::vector<std::string_view>& lines) {
  GroupKeyChoice choice;
  if (lines.size() < 8) return choice;
  struct Seen {
    std::size_t count = 0, first = 0, last = 0;
    std::size_t hole = 0;  // the most lines between two of its lines in a row
  };
  struct Tally {
    std::size_t lines = 0;
    bool usable = true;
    std::map<std::string, Seen, std::less<>> values;
  };
  std::map<std::string, Tally, std::less<>> keys;
  std::map<std::string, std::size_t, std::less<>> known;
  for (std::size_t index = 0; index < lines.size(); ++index) {
    for_each_pair(lines[index], [&](std::string_view key, std::string_view value) {
      if (const GroupKey* named = group_key(key); named != nullptr) {
        if (!value.empty() && value != "-") ++known[std::string(key)];
        return;
      }
      if (is_stamp_or_level_key(key)) return;
      Tally& tally = keys[std::string(key)];
      ++tally.lines;
      // Ids, not measurements or times: no blanks, no ':' (a clock time), not a decimal number
      // (a duration, a ratio).
      if (!looks_like_id(value) || value.find(':') != std::string_view::npos ||
          (value.find('.') != std::string_view::npos &&
           value.find_first_not_of("0123456789.") == std::string_view::npos)) {
        tally.usable = false;
        return;
      }
      auto [it, fresh] = tally.values.try_emplace(std::string(value));
      if (fresh) it->second.first = index;
      if (!fresh) it->second.hole = std::max(it->second.hole, index - it->second.last);
      ++it->second.count;
      it->second.last = index;
    });
  }
  for (const auto& [key, lines_with_it] : known) {
    if (lines_with_it * 2 >= lines.size() && (choice.key.empty() || lines_with_it > choice.lines)) {
      choice.key = key;
      choice.lines = lines_with_it;
      choice.known = true;
    }
  }
  if (!choice.key.empty()) return choice;
  // A key of its own: on most lines, its values recur on nearby lines (each value's lines span
  // a small part of the sample) and change along the file (many values, most seen twice or more).
  double best = 0;
  for (const auto& [key, tally] : keys) {
    if (!tally.usable || tally.lines * 10 < lines.size() * 6 || tally.values.size() < 3) continue;
    std::size_t repeated = 0, holed = 0;
    double span = 0, hole = 0;
    for (const auto& [value, seen] : tally.values) {
      if (seen.count < 2) continue;
      ++repeated;
      span += static_cast<double>(seen.last - seen.first) / static_cast<double>(lines.size());
      if (seen.count >= 3) {
        ++holed;
        hole += static_cast<double>(seen.hole) / static_cast<double>(seen.last - seen.first);
      }
    }
    if (repeated * 2 < tally.values.size() || repeated == 0) continue;
    span /= static_cast<double>(repeated);
    const double per_value = static_cast<double>(tally.lines) / static_cast<double>(tally.values.size());
    // Long requests, a few at a time, span more of a short sample; their lines follow one
    // another all along each value's stretch (two in flight: every other line), where a
    // counter's or a step's value comes back once per request, after a hole as long as its stretch.
    const bool dense = span <= 0.75 && holed * 2 >= repeated && hole <= 0.25 * static_cast<double>(holed);
    if ((span > 0.25 && !dense) || per_value < 1.5) continue;
    const double score = static_cast<double>(tally.lines) * (1 - span);
    if (score > best) {
      best = score;
      choice.key = key;
      choice.lines = tally.lines;
      choice.values = tally.values.size();
      choice.span = span;
    }
  }
  return choice;
}

std::string_view find_operation(std::string_view text) {
  static constexpr std::array<std::string_view, 5> k_keys = {"op", "operation", "cmd", "command", "action"};
  std::size_t pos = 0;
  while ((pos = text.find('=', pos)) != std::string_view::npos) {
    std::size_t key_start = pos;
    while (key_start > 0 && is_key_char(text[key_start - 1])) --key_start;
    const std::string_view key = text.substr(key_start, pos - key_start);
    ++pos;
    if (std::none_of(k_keys.begin(), k_keys.end(), [&](std::string_view k) { return equals_lower(key, k); })) continue;
    std::size_t begin = pos, end = pos;
    if (begin < text.size() && (text[begin] == '"' || text[begin] == '\'')) {
      const char quote = text[begin++];
      end = text.find(quote, begin);
      if (end == std::string_view::npos) continue;
    } else {
      while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != ',' && text[end] != ';') ++end;
    }
    const std::string_view value = text.substr(begin, end - begin);
    if (looks_like_id(value) && value.size() <= 64) return value;
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

namespace {

/// Case-insensitive prefix test against a lowercase word.
bool starts_with_lower(std::string_view text, std::string_view word) {
  if (text.size() < word.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (lower(text[i]) != word[i]) return false;
  }
  return true;
}

/// The unit a duration key's suffix names ("elapsed_ms", "latencyUs"), or 0.
DurationNs unit_of_key_suffix(std::string_view key) {
  static constexpr std::array<std::pair<std::string_view, DurationNs>, 10> k_suffixes = {{
      {"_ms", k_ns_per_ms},
      {"_us", k_ns_per_us},
      {"_ns", 1},
      {"_s", k_ns_per_s},
      {"_sec", k_ns_per_s},
      {"_seconds", k_ns_per_s},
      {"_millis", k_ns_per_ms},
      {"ms", k_ns_per_ms},
      {"us", k_ns_per_us},
      {"_usec", k_ns_per_us},
  }};
  // Every suffix ends in 's' or 'c': most keys are ruled out by their last byte (this runs on
  // every key of every line).
  if (key.empty() || (lower(key.back()) != 's' && lower(key.back()) != 'c')) return 0;
  for (const auto& [suffix, unit] : k_suffixes) {
    if (key.size() > suffix.size() && starts_with_lower(key.substr(key.size() - suffix.size()), suffix)) return unit;
  }
  return 0;
}

/// A number with an optional unit right after it ("12ms", "1.5 s", "250µs"): the unit, or 0.
DurationNs unit_after_number(std::string_view rest) {
  if (rest.starts_with(' ')) rest.remove_prefix(1);
  static constexpr std::array<std::pair<std::string_view, DurationNs>, 8> k_units = {{
      {"ms", k_ns_per_ms},
      {"µs", k_ns_per_us},
      {"us", k_ns_per_us},
      {"ns", 1},
      {"s", k_ns_per_s},
      {"sec", k_ns_per_s},
      {"msec", k_ns_per_ms},
      {"usec", k_ns_per_us},
  }};
  DurationNs best = 0;
  std::size_t best_length = 0;
  for (const auto& [unit, ns] : k_units) {
    if (rest.starts_with(unit) && unit.size() > best_length &&
        (rest.size() == unit.size() || !std::isalpha(static_cast<unsigned char>(rest[unit.size()])))) {
      best = ns;
      best_length = unit.size();
    }
  }
  return best;
}

std::size_t number_length(std::string_view text) {
  std::size_t i = 0;
  bool dot = false;
  while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || (text[i] == '.' && !dot))) {
    if (text[i] == '.') dot = true;
    ++i;
  }
  if (i > 0 && text[i - 1] == '.') --i;
  return i;
}

/// A key whose value is a setting, not something measured: `timeout_ms=5000` on every line is
/// the configured timeout, not a wait.
bool is_setting_key(std::string_view key) {
  static constexpr std::array<std::string_view, 12> k_settings = {
      "timeout", "ttl", "interval", "deadline", "limit", "max", "min", "period", "expire", "backoff", "delay", "age"};
  std::string lowered;
  for (char c : key) lowered += lower(c);
  return std::any_of(k_settings.begin(), k_settings.end(),
                     [&](std::string_view word) { return lowered.find(word) != std::string::npos; });
}

/// curl's -w timers (seconds): time_total, time_connect, time_namelookup, time_appconnect,
/// time_pretransfer, time_starttransfer, time_redirect.
bool is_curl_timer(std::string_view key) {
  static constexpr std::array<std::string_view, 7> k_timers = {
      "time_total",       "time_connect",       "time_namelookup", "time_appconnect",
      "time_pretransfer", "time_starttransfer", "time_redirect"};
  return std::any_of(k_timers.begin(), k_timers.end(),
                     [&](std::string_view timer) { return equals_lower(key, timer); });
}

/// A key that says duration: one of the words alone, or with a suffix after '_' or a capital
/// letter ("duration_ms", "elapsedMs", "latencyUs"); a bare unit (`ms=12`); curl's timers; or
/// any key with a unit suffix (`db_ms=3`, `wait_us=250`) that does not name a setting.
/// Words are looked up by their first letter.
bool is_duration_word(std::string_view key) {
  if (key.size() < 2 || key.size() > 32) return false;
  if (equals_lower(key, "ms") || equals_lower(key, "us") || equals_lower(key, "ns") || is_curl_timer(key)) return true;
  if (key.size() > 3 && unit_of_key_suffix(key) != 0 && (key.find('_') != std::string_view::npos) &&
      !is_setting_key(key)) {
    return true;
  }
  static constexpr std::array<std::string_view, 3> k_d = {"duration", "dur", ""};
  static constexpr std::array<std::string_view, 3> k_e = {"elapsed", "", ""};
  static constexpr std::array<std::string_view, 3> k_t = {"took", "time_taken", "timetaken"};
  static constexpr std::array<std::string_view, 3> k_l = {"latency", "", ""};
  static constexpr std::array<std::string_view, 3> k_r = {"request_time", "response_time", "runtime"};
  static constexpr std::array<std::string_view, 3> k_r2 = {"rt", "", ""};
  static constexpr std::array<std::string_view, 3> k_u = {"upstream_response_time", "", ""};
  const auto any = [&](const std::array<std::string_view, 3>& words) {
    for (std::string_view word : words) {
      if (word.empty() || !starts_with_lower(key, word)) continue;
      if (key.size() == word.size()) return true;
      const char next = key[word.size()];
      if (next == '_' || (next >= 'A' && next <= 'Z')) return true;
    }
    return false;
  };
  switch (lower(key[0])) {
    case 'd':
      return any(k_d);
    case 'e':
      return any(k_e);
    case 't':
      return any(k_t);
    case 'l':
      return any(k_l);
    case 'r':
      return any(k_r) || any(k_r2);
    case 'u':
      return any(k_u);
    default:
      return false;
  }
}

}  // namespace

namespace {

/// "took 12ms", "completed in 250ms", "[0.060ms]": a duration written as a phrase, not a field.
bool find_duration_phrase(std::string_view text, DurationNs& out, std::uint8_t& digits) {
  const char* data = text.data();
  const std::size_t size = text.size();
  const auto find_from = [&](char c, std::size_t from) {
    if (from >= size) return size;
    const void* hit = std::memchr(data + from, c, size - from);
    return hit == nullptr ? size : static_cast<std::size_t>(static_cast<const char*>(hit) - data);
  };
  // "took 12ms", "took 1.5 s", "completed in 250ms", "[0.060ms]": found from their rarer letters ('k' of
  // took, 'n' of in) with memchr, then checked around.
  const auto number_at = [&](std::size_t value) {
    const std::size_t length = number_length(text.substr(value));
    if (length == 0) return false;
    const DurationNs unit = unit_after_number(text.substr(value + length));
    return unit != 0 && parse_duration(text.substr(value, length), unit, out, digits);
  };
  for (std::size_t k = find_from('k', 3); k < size; k = find_from('k', k + 1)) {
    if (k + 1 < size && text[k + 1] == ' ' && (text.substr(k - 3, 4) == "took" || text.substr(k - 3, 4) == "Took") &&
        number_at(k + 2)) {
      return true;
    }
  }
  for (std::size_t n = find_from('n', 2); n < size; n = find_from('n', n + 1)) {
    if (n + 1 >= size || text[n + 1] != ' ' || text[n - 1] != 'i' || text[n - 2] != ' ') continue;
    const std::string_view before = text.substr(0, n - 2);
    if ((before.ends_with("ed") || before.ends_with("done")) && number_at(n + 2)) return true;
  }
  // MediaWiki's query log: "… select [0.060ms] db1: SELECT …", a number and a unit in brackets.
  for (std::size_t open = find_from('[', 0); open < size; open = find_from('[', open + 1)) {
    const std::size_t length = number_length(text.substr(open + 1));
    if (length == 0) continue;
    const std::string_view rest = text.substr(open + 1 + length);
    const bool closed =
        rest.starts_with("ms]") || rest.starts_with("s]") || rest.starts_with("us]") || rest.starts_with("\xc2\xb5s]");
    if (closed && number_at(open + 1)) return true;
  }
  return false;
}

/// The timers nginx lists after the first when a request tried several upstreams
/// (`uct="0.001, 1.002"`; ` : ` between upstream groups after an internal redirect): their sum,
/// since the request spent each of them in that phase. `rest` is the text after the first
/// value; "-" (an attempt that never got there) counts 0.
DurationNs listed_after(std::string_view rest, DurationNs unit) {
  DurationNs sum = 0;
  std::size_t i = 0;
  while (true) {
    std::size_t j = i;
    while (j < rest.size() && rest[j] == ' ') ++j;
    if (j >= rest.size() || (rest[j] != ',' && rest[j] != ':')) return sum;
    ++j;
    while (j < rest.size() && rest[j] == ' ') ++j;
    if (j < rest.size() && rest[j] == '-' &&
        (j + 1 == rest.size() || !std::isdigit(static_cast<unsigned char>(rest[j + 1])))) {
      i = j + 1;
      continue;
    }
    const std::size_t length = number_length(rest.substr(j));
    DurationNs value = 0;
    std::uint8_t digits = 0;
    if (length == 0 || !parse_duration(rest.substr(j, length), unit, value, digits)) return sum;
    sum += value;
    i = j + length;
  }
}

/// PostgreSQL's log_lock_waits line when the wait ends: "process 17544 acquired ShareLock on
/// transaction 1478 after 2064.992 ms" (the wait's length; "still waiting for … after" is the
/// deadlock check's report at deadlock_timeout, not a wait's end).
bool find_lock_wait_phrase(std::string_view text, DurationNs& out, std::uint8_t& digits) {
  const std::size_t acquired = text.find(" acquired ");
  if (acquired == std::string_view::npos) return false;
  const std::size_t lock = text.find("Lock on ", acquired);
  const std::size_t after = lock == std::string_view::npos ? lock : text.find(" after ", lock);
  if (after == std::string_view::npos) return false;
  const std::string_view rest = text.substr(after + 7);
  const std::size_t length = number_length(rest);
  const DurationNs unit = length == 0 ? 0 : unit_after_number(rest.substr(length));
  return unit != 0 && parse_duration(rest.substr(0, length), unit, out, digits);
}

}  // namespace

std::string_view to_string(Phase phase) {
  static constexpr std::array<std::string_view, k_phase_count> k_names = {"lookup",  "queue",    "connect",  "tls",
                                                                          "request", "response", "transfer", "lock"};
  return k_names[static_cast<std::size_t>(phase)];
}

int phase_of_key(std::string_view key, bool& cumulative) {
  cumulative = false;
  if (key.size() < 3 || key.size() > 40) return -1;
  // The key without its unit suffix, lower case, without separators: "tls_handshake_ms" and
  // "tlsHandshakeMs" are both "tlshandshake".
  static constexpr std::array<std::string_view, 10> k_units = {"_seconds", "_millis", "_usec", "_sec", "_ms",
                                                               "_us",      "_ns",     "_s",    "ms",   "us"};
  for (std::string_view unit : k_units) {
    if (key.size() > unit.size() + 2 && starts_with_lower(key.substr(key.size() - unit.size()), unit)) {
      key.remove_suffix(unit.size());
      break;
    }
  }
  char name[40];
  std::size_t n = 0;
  for (const char c : key) {
    if (c == '_' || c == '-' || c == '.') continue;
    name[n++] = lower(c);
  }
  const std::string_view word(name, n);
  struct Name {
    std::string_view word;
    Phase phase;
    bool cumulative;
  };
  static constexpr std::array<Name, 39> k_names = {{
      {"namelookup", Phase::lookup, true},
      {"timenamelookup", Phase::lookup, true},
      {"dns", Phase::lookup, false},
      {"dnstime", Phase::lookup, false},
      {"dnslookup", Phase::lookup, false},
      {"lookup", Phase::lookup, false},
      {"resolve", Phase::lookup, false},
      {"resolvetime", Phase::lookup, false},
      {"connect", Phase::connect, true},
      {"timeconnect", Phase::connect, true},
      {"connecttime", Phase::connect, true},
      {"tcpconnect", Phase::connect, false},
      {"upstreamconnecttime", Phase::connect, true},
      {"uct", Phase::connect, true},
      {"appconnect", Phase::tls, true},
      {"timeappconnect", Phase::tls, true},
      {"tls", Phase::tls, false},
      {"tlshandshake", Phase::tls, false},
      {"sslhandshake", Phase::tls, false},
      {"queue", Phase::queue, false},
      {"queuetime", Phase::queue, false},
      {"queued", Phase::queue, false},
      {"queuewait", Phase::queue, false},
      {"poolwait", Phase::queue, false},
      {"starttransfer", Phase::response, true},
      {"timestarttransfer", Phase::response, true},
      {"ttfb", Phase::response, false},
      {"timetofirstbyte", Phase::response, false},
      {"firstbyte", Phase::response, false},
      {"upstreamheadertime", Phase::response, true},
      {"originduration", Phase::response, false},
      {"uht", Phase::response, true},
      {"upstreamresponsetime", Phase::transfer, true},
      {"urt", Phase::transfer, true},
      {"timetotal", Phase::transfer, true},
      {"locktime", Phase::lock, false},
      {"lockwait", Phase::lock, false},
      {"lockwaittime", Phase::lock, false},
      {"lock", Phase::lock, false},
  }};
  for (const Name& entry : k_names) {
    if (entry.word == word) {
      cumulative = entry.cumulative;
      return static_cast<int>(entry.phase);
    }
  }
  return -1;
}

namespace {

/// Keys whose value is seconds when no unit is written: curl's and nginx's timers, MySQL's
/// Lock_time.
bool phase_in_seconds(std::string_view key) {
  for (std::string_view word : {"uct", "uht", "urt", "lock_time"})
    if (equals_lower(key, word)) return true;
  return false;
}

/// Cumulative timers (each counted from the start of the request) as the time of each phase:
/// in the order lookup, connect, tls, response, transfer, each less the one before it. A last
/// timer alone (nginx's $upstream_response_time without the others) is the response's.
void settle_phases(std::array<DurationNs, k_phase_count>& phases, const std::array<bool, k_phase_count>& cumulative) {
  static constexpr std::array<Phase, 5> k_chain = {Phase::lookup, Phase::connect, Phase::tls, Phase::response,
                                                   Phase::transfer};
  DurationNs before = 0;
  int present = 0;
  for (const Phase phase : k_chain) {
    const auto i = static_cast<std::size_t>(phase);
    if (phases[i] < 0 || !cumulative[i]) continue;
    ++present;
    const DurationNs at = phases[i];
    if (at >= before) phases[i] = at - before;
    before = std::max(before, at);
  }
  const auto transfer = static_cast<std::size_t>(Phase::transfer), response = static_cast<std::size_t>(Phase::response);
  if (present == 1 && phases[transfer] >= 0 && cumulative[transfer] && phases[response] < 0)
    std::swap(phases[transfer], phases[response]);
}

}  // namespace

bool find_duration(std::string_view text, DurationNs& out, std::uint8_t& digits,
                   std::array<DurationNs, k_phase_count>* phases) {
  // key=value and "key": value, where the key says duration and the unit comes from the key's
  // suffix, from the value's suffix, or (request_time, rt, a JSON "duration") is seconds.
  // The separators are found with memchr: most lines hold only a few.
  const char* data = text.data();
  const std::size_t size = text.size();
  std::size_t next_equals = 0, next_colon = 0;
  const auto find_from = [&](char c, std::size_t from) {
    if (from >= size) return size;
    const void* hit = std::memchr(data + from, c, size - from);
    return hit == nullptr ? size : static_cast<std::size_t>(static_cast<const char*>(hit) - data);
  };
  next_equals = find_from('=', 0);
  next_colon = find_from(':', 0);
  bool curl_phase = false;
  DurationNs curl_out = 0;
  std::uint8_t curl_digits = 0;
  // With phases: what was read of them, and the first other duration.
  std::array<bool, k_phase_count> read{}, cumulative_phase{};
  DurationNs largest = -1, phase_out = 0, other_out = 0;
  std::uint8_t phase_digits = 0, other_digits = 0;
  bool other = false;
  while (true) {
    const std::size_t pos = std::min(next_equals, next_colon);
    if (pos >= size) break;
    const char c = text[pos];
    if (c == '=') {
      next_equals = find_from('=', pos + 1);
    } else {
      next_colon = find_from(':', pos + 1);
    }
    std::size_t key_end = pos;
    if (c == ':' && key_end > 0 && text[key_end - 1] == '"') --key_end;
    std::size_t key_start = key_end;
    while (key_start > 0 && is_key_char(text[key_start - 1])) --key_start;
    const std::string_view key = text.substr(key_start, key_end - key_start);
    // No key that says duration starts with a digit: the colons of a time of day are passed by.
    if (key.empty() || (key[0] >= '0' && key[0] <= '9')) continue;
    bool cumulative = false;
    const int phase = phases != nullptr ? phase_of_key(key, cumulative) : -1;
    if (phase < 0 && !is_duration_word(key)) continue;
    const bool json = c == ':' && key_end < pos;
    std::size_t value = pos + 1;
    while (value < text.size() && (text[value] == ' ' || (text[value] == '"' && !json))) ++value;
    if (json && value < text.size() && text[value] == '"') ++value;  // "duration": "12ms"
    const std::size_t length = number_length(text.substr(value));
    if (length == 0) continue;
    const std::string_view number = text.substr(value, length);
    DurationNs unit = unit_after_number(text.substr(value + length));
    if (unit == 0) unit = unit_of_key_suffix(key);
    // Traefik's JSON access log writes Duration, OriginDuration and Overhead in nanoseconds.
    if (unit == 0 && json && (equals_lower(key, "duration") || equals_lower(key, "originduration")) &&
        text.find("\"OriginDuration\"") != std::string_view::npos)
      unit = 1;
    if (unit == 0 && equals_lower(key, "ms")) unit = k_ns_per_ms;
    if (unit == 0 && equals_lower(key, "us")) unit = k_ns_per_us;
    if (unit == 0 && equals_lower(key, "ns")) unit = 1;
    if (unit == 0) {
      const auto is = [&](std::string_view word) { return key.size() == word.size() && starts_with_lower(key, word); };
      if (is("request_time") || is("rt") || is("upstream_response_time") || (json && is("duration")) ||
          is_curl_timer(key) || (phase >= 0 && (duration_unit_of_key(key) == k_ns_per_s || phase_in_seconds(key)))) {
        unit = k_ns_per_s;
      }
    }
    if (phases != nullptr) {
      // Every timer is read: the phases, and the first other duration as the line's.
      DurationNs timer = 0;
      std::uint8_t timer_digits = 0;
      if (unit == 0 || !parse_duration(number, unit, timer, timer_digits)) continue;
      if (phase >= 0) timer += listed_after(text.substr(value + length), unit);
      if (phase >= 0) {
        const auto i = static_cast<std::size_t>(phase);
        if (read[i]) continue;
        read[i] = true;
        (*phases)[i] = timer;
        cumulative_phase[i] = cumulative;
        if (equals_lower(key, "time_total") || timer > largest) {
          largest = equals_lower(key, "time_total") ? INT64_MAX : timer;
          phase_out = timer;
          phase_digits = timer_digits;
        }
        continue;
      }
      if (!other) {
        other = true;
        other_out = timer;
        other_digits = timer_digits;
      }
      continue;
    }
    if (unit == 0 || !parse_duration(number, unit, out, digits)) continue;
    // curl's timers are cumulative phases of one transfer (namelookup ≤ connect ≤ … ≤ total):
    // the transfer's duration is time_total wherever the -w format puts it; without it, the
    // last (largest) phase written.
    if (!is_curl_timer(key) || equals_lower(key, "time_total")) return true;
    curl_phase = true;
    curl_out = out;
    curl_digits = digits;
  }
  if (phases != nullptr) {
    settle_phases(*phases, cumulative_phase);
    if (other) {
      out = other_out;
      digits = other_digits;
      return true;
    }
    if (largest >= 0) {
      out = phase_out;
      digits = phase_digits;
      return true;
    }
  }
  if (curl_phase) {
    out = curl_out;
    digits = curl_digits;
    return true;
  }
  if (find_lock_wait_phrase(text, out, digits)) {
    if (phases != nullptr) (*phases)[static_cast<std::size_t>(Phase::lock)] = out;
    return true;
  }
  return find_duration_phrase(text, out, digits);
}

DurationNs duration_unit_of_key(std::string_view key) {
  if (const DurationNs unit = unit_of_key_suffix(key); unit != 0) return unit;
  static constexpr std::array<std::string_view, 5> k_seconds = {"request_time", "upstream_response_time",
                                                                "upstream_connect_time", "upstream_header_time", "rt"};
  const bool seconds =
      is_curl_timer(key) ||
      std::any_of(k_seconds.begin(), k_seconds.end(), [&](std::string_view word) { return equals_lower(key, word); });
  return seconds ? k_ns_per_s : 0;
}

bool duration_value(std::string_view value, DurationNs default_unit, DurationNs& out) {
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  const std::size_t length = number_length(value);
  if (length == 0) return false;
  const std::string_view rest = value.substr(length);
  DurationNs unit = unit_after_number(rest);
  if (unit == 0) {
    // "12abc" is not a duration; "0.500, 0.012" (one time per upstream tried) is its first
    if (!rest.empty() && std::isalpha(static_cast<unsigned char>(rest.front()))) return false;
    unit = default_unit;
  }
  std::uint8_t digits = 0;
  return parse_duration(value.substr(0, length), unit, out, digits);
}

void append_field(std::string& out, std::string_view name, std::string_view value) {
  if (value.empty() || value == "-" || name.empty()) return;
  if (!out.empty()) out += ' ';
  out.append(name);
  out += '=';
  if (value.find_first_of(" \t,\"'") == std::string_view::npos) {
    out.append(value);
    return;
  }
  out += '"';
  for (char c : value) out += c == '"' ? '\'' : c;
  out += '"';
}

std::string_view canonical_field_name(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 17> k_names = {{
      {"request_method", "method"},
      {"m", "method"},
      {"uri", "path"},
      {"request_uri", "path"},
      {"upstream_cache_status", "cache_status"},
      {"handling", "cache_status"},
      {"varnish_handling", "cache_status"},
      {"varnish_hitmiss", "cache_status"},
      {"x_cache", "cache_status"},
      {"x_cache_status", "cache_status"},
      {"sent_http_x_cache", "cache_status"},
      {"sent_http_x_cache_status", "cache_status"},
      {"cache", "cache_status"},
      {"sent_http_set_cookie", "set_cookie"},
      {"resp_set_cookie", "set_cookie"},
      {"s", "status"},
      {"final_status", "status"},
  }};
  for (const auto& [from, to] : k_names) {
    if (name == from) return to;
  }
  return {};
}

bool is_cache_status(std::string_view token) {
  static constexpr std::array<std::string_view, 19> k_words = {
      "HIT",  "MISS", "BYPASS", "EXPIRED", "STALE",   "UPDATING", "REVALIDATED", "PASS",    "hit",   "miss",
      "pass", "pipe", "synth",  "hitmiss", "hitpass", "HITMISS",  "HITPASS",     "expired", "bypass"};
  return std::find(k_words.begin(), k_words.end(), token) != k_words.end();
}

std::string_view field_value(std::string_view text, std::string_view name) {
  if (const std::string_view value = key_value(text, name); !value.empty()) return value;
  const std::string_view json = !text.empty() && text.front() == '{' ? text : trailing_json_object(text);
  return json.empty() ? std::string_view() : json_path_value(json, name);
}

}  // namespace gapscan::parse
