#include <gapscan/parse/anchor.hpp>

#include <algorithm>
#include <array>
#include <cctype>

namespace gapscan::parse {
namespace {

constexpr std::size_t k_max_field = 8;

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }
inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }
inline bool is_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '@' || c == '.' ||
         c == '$' || c == '-';
}
inline bool is_tag_char(char c) { return (c >= 'A' && c <= 'Z') || c == '<' || c == '>' || c == '[' || c == ']'; }

/// Start offsets of the blank-separated fields (field 0 is byte 0 even if it is blank).
std::size_t field_starts(std::string_view line, std::array<std::size_t, k_max_field + 1>& starts) {
  std::size_t count = 0;
  std::size_t i = 0;
  starts[count++] = 0;
  while (count <= k_max_field) {
    while (i < line.size() && !is_blank(line[i])) ++i;
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i >= line.size()) break;
    starts[count++] = i;
  }
  return count;
}

/// Length of a glued tag at `pos`: 1-12 bytes of A-Z < > [ ] followed by a digit.
std::size_t glued_tag_length(std::string_view line, std::size_t pos) {
  std::size_t n = 0;
  while (pos + n < line.size() && n < 12 && is_tag_char(line[pos + n])) ++n;
  if (n == 0 || pos + n >= line.size() || !is_digit(line[pos + n])) return 0;
  return n;
}

/// Length of a label glued to a stamp at the line start, colon included: 2-40 bytes of
/// letters, digits, '_', '.' or '-' starting with a letter, then ':' and a digit (OpenAM's
/// "amAuthentication:10/05/2026 02:10:36:580 PM UTC: …"). 0 when there is none.
std::size_t label_length(std::string_view line) {
  if (line.empty() || !((line[0] >= 'a' && line[0] <= 'z') || (line[0] >= 'A' && line[0] <= 'Z'))) return 0;
  std::size_t n = 1;
  while (n < line.size() && n <= 40 && is_key_char(line[n]) && line[n] != '$' && line[n] != '@') ++n;
  if (n < 2 || n > 40 || n + 1 >= line.size() || line[n] != ':' || !is_digit(line[n + 1])) return 0;
  return n + 1;
}

/// Value starts of every key=value pair.
template <typename Visit>
void visit_key_values(std::string_view line, Visit&& visit) {
  std::size_t pos = 0;
  while ((pos = line.find('=', pos)) != std::string_view::npos) {
    std::size_t start = pos;
    while (start > 0 && is_key_char(line[start - 1])) --start;
    std::size_t value = pos + 1;
    if (value < line.size() && (line[value] == '"' || line[value] == '\'')) ++value;
    if (start < pos && value < line.size()) visit(line.substr(start, pos - start), value);
    ++pos;
  }
}

/// Value starts of every JSON key, with nested keys as "outer.inner" (one level).
template <typename Visit>
void visit_json_keys(std::string_view line, Visit&& visit) {
  const std::size_t open = line.find('{');
  if (open == std::string_view::npos) return;
  std::string outer;  // key of the object we are in, when nested once
  int depth = 0;
  std::string pending_object_key;
  for (std::size_t i = open; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '{') {
      ++depth;
      outer = depth == 2 ? pending_object_key : std::string();
      continue;
    }
    if (c == '}') {
      --depth;
      if (depth <= 1) outer.clear();
      continue;
    }
    if (c != '"') continue;
    // A string: a key if a ':' follows.
    std::size_t end = i + 1;
    while (end < line.size() && line[end] != '"') end += line[end] == '\\' ? 2 : 1;
    if (end >= line.size()) return;
    const std::string_view text = line.substr(i + 1, end - i - 1);
    std::size_t after = end + 1;
    while (after < line.size() && is_blank(line[after])) ++after;
    if (after < line.size() && line[after] == ':') {
      std::size_t value = after + 1;
      while (value < line.size() && is_blank(line[value])) ++value;
      if (value >= line.size()) return;
      const std::string key = outer.empty() ? std::string(text) : outer + "." + std::string(text);
      if (line[value] == '{') {
        pending_object_key = std::string(text);
      } else {
        visit(std::string_view(key), line[value] == '"' ? value + 1 : value);
      }
      i = value - 1;
      continue;
    }
    i = end;  // a string value: skip it
  }
}

}  // namespace

void enumerate_anchors(std::string_view line, std::vector<AnchorHit>& out) {
  out.clear();
  if (line.empty()) return;
  out.push_back({Anchor{AnchorKind::line_start, 0, {}}, 0});
  if (line[0] == '[') out.push_back({Anchor{AnchorKind::after_bracket, 0, {}}, 1});
  if (line[0] == '(') out.push_back({Anchor{AnchorKind::after_paren, 0, {}}, 1});
  if (const std::size_t label = label_length(line); label > 0) {
    out.push_back({Anchor{AnchorKind::after_label, 0, {}}, label});
  }
  std::array<std::size_t, k_max_field + 1> starts{};
  const std::size_t fields = field_starts(line, starts);
  for (std::size_t f = 0; f < fields; ++f) {
    const std::size_t start = starts[f];
    if (f > 0) out.push_back({Anchor{AnchorKind::field, static_cast<std::uint8_t>(f), {}}, start});
    if (f > 0 && line[start] == '[') {
      out.push_back({Anchor{AnchorKind::bracket_field, static_cast<std::uint8_t>(f), {}}, start + 1});
    }
    if (const std::size_t tag = glued_tag_length(line, start); tag > 0) {
      out.push_back({Anchor{AnchorKind::glued_tag, static_cast<std::uint8_t>(f), {}}, start + tag});
    }
  }
  if (line[0] == '<') {
    std::size_t i = 1;
    while (i < line.size() && is_digit(line[i])) ++i;
    if (i > 1 && i + 2 < line.size() && line[i] == '>' && line[i + 1] == '1' && line[i + 2] == ' ') {
      out.push_back({Anchor{AnchorKind::rfc5424, 0, {}}, i + 3});
    }
  }
  visit_json_keys(line, [&](std::string_view key, std::size_t value) {
    out.push_back({Anchor{AnchorKind::json_key, 0, std::string(key)}, value});
  });
  visit_key_values(line, [&](std::string_view key, std::size_t value) {
    out.push_back({Anchor{AnchorKind::key_value, 0, std::string(key)}, value});
  });
  if (const std::size_t audit = line.find("audit("); audit != std::string_view::npos) {
    out.push_back({Anchor{AnchorKind::audit, 0, {}}, audit + 6});
  }
}

void locate(const Anchor& anchor, std::string_view line, std::vector<std::size_t>& out) {
  out.clear();
  if (line.empty()) return;
  switch (anchor.kind) {
    case AnchorKind::line_start:
      out.push_back(0);
      return;
    case AnchorKind::after_bracket:
      if (line[0] == '[') out.push_back(1);
      return;
    case AnchorKind::after_paren:
      if (line[0] == '(') out.push_back(1);
      return;
    case AnchorKind::after_label:
      if (const std::size_t label = label_length(line); label > 0) out.push_back(label);
      return;
    case AnchorKind::field:
    case AnchorKind::bracket_field:
    case AnchorKind::glued_tag: {
      std::array<std::size_t, k_max_field + 1> starts{};
      if (field_starts(line, starts) <= anchor.field) return;
      const std::size_t start = starts[anchor.field];
      if (anchor.kind == AnchorKind::field) {
        out.push_back(start);
      } else if (anchor.kind == AnchorKind::bracket_field) {
        if (line[start] == '[') out.push_back(start + 1);
      } else if (const std::size_t tag = glued_tag_length(line, start); tag > 0) {
        out.push_back(start + tag);
      }
      return;
    }
    case AnchorKind::rfc5424: {
      if (line[0] != '<') return;
      std::size_t i = 1;
      while (i < line.size() && is_digit(line[i])) ++i;
      if (i > 1 && i + 2 < line.size() && line[i] == '>' && line[i + 1] == '1' && line[i + 2] == ' ')
        out.push_back(i + 3);
      return;
    }
    case AnchorKind::json_key:
      visit_json_keys(line, [&](std::string_view key, std::size_t value) {
        if (key == anchor.key) out.push_back(value);
      });
      return;
    case AnchorKind::key_value:
      visit_key_values(line, [&](std::string_view key, std::size_t value) {
        if (key == anchor.key) out.push_back(value);
      });
      return;
    case AnchorKind::audit:
      if (const std::size_t audit = line.find("audit("); audit != std::string_view::npos) out.push_back(audit + 6);
      return;
  }
}

std::string describe(const Anchor& anchor) {
  switch (anchor.kind) {
    case AnchorKind::line_start:
      return "line start";
    case AnchorKind::after_bracket:
      return "after [";
    case AnchorKind::after_paren:
      return "after (";
    case AnchorKind::after_label:
      return "after a label";
    case AnchorKind::glued_tag:
      return "after a tag in field " + std::to_string(anchor.field);
    case AnchorKind::field:
      return "field " + std::to_string(anchor.field);
    case AnchorKind::bracket_field:
      return "[ of field " + std::to_string(anchor.field);
    case AnchorKind::rfc5424:
      return "RFC 5424 header";
    case AnchorKind::json_key:
      return "JSON " + anchor.key;
    case AnchorKind::key_value:
      return anchor.key + "=";
    case AnchorKind::audit:
      return "audit(";
  }
  return "?";
}

int time_key_rank(std::string_view key) {
  static constexpr std::array<std::string_view, 14> k_order = {"time",
                                                               "timestamp",
                                                               "ts",
                                                               "@timestamp",
                                                               "t",
                                                               "@t",
                                                               "Time",
                                                               "Timestamp",
                                                               "datetime",
                                                               "date",
                                                               "t.$date",
                                                               "eventTime",
                                                               "requestReceivedTimestamp",
                                                               "asctime"};
  for (std::size_t i = 0; i < k_order.size(); ++i) {
    if (key == k_order[i]) return static_cast<int>(i);
  }
  std::string lower(key);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower.find("time") != std::string::npos || lower.find("date") != std::string::npos) return 50;
  return 100;
}

}  // namespace gapscan::parse
