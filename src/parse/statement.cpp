#include <gapscan/parse/statement.hpp>

#include <algorithm>
#include <array>
#include <cctype>

namespace gapscan::parse {
namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// The end of the quoted value that opens at `pos` ('…', "…"; a doubled quote or a backslash
/// escapes one).
std::size_t quoted_end(std::string_view sql, std::size_t pos) {
  const char quote = sql[pos];
  for (std::size_t i = pos + 1; i < sql.size(); ++i) {
    if (sql[i] == '\\') {
      ++i;
    } else if (sql[i] == quote) {
      if (i + 1 < sql.size() && sql[i + 1] == quote) {
        ++i;
      } else {
        return i + 1;
      }
    }
  }
  return sql.size();
}

/// The length of a number at `pos` (12, 1.5, 0x1F, 1e-3), 0 if none starts there.
std::size_t number_end(std::string_view sql, std::size_t pos) {
  std::size_t i = pos;
  if (i + 1 < sql.size() && sql[i] == '0' && (sql[i + 1] == 'x' || sql[i + 1] == 'X')) {
    i += 2;
    while (i < sql.size() && std::isxdigit(static_cast<unsigned char>(sql[i]))) ++i;
    return i;
  }
  while (i < sql.size() && (is_digit(sql[i]) || sql[i] == '.')) ++i;
  if (i < sql.size() && (sql[i] == 'e' || sql[i] == 'E') && i + 1 < sql.size() &&
      (is_digit(sql[i + 1]) || sql[i + 1] == '-' || sql[i + 1] == '+')) {
    i += 2;
    while (i < sql.size() && is_digit(sql[i])) ++i;
  }
  return i;
}

/// Collapses `?, ?, ?` into `?+` and `(?+), (?+)` into `(?+)`, in place.
void collapse_lists(std::string& out) {
  for (const std::string_view unit : {std::string_view("?"), std::string_view("(?+)")}) {
    std::string folded;
    folded.reserve(out.size());
    std::size_t i = 0;
    while (i < out.size()) {
      if (out.compare(i, unit.size(), unit) != 0) {
        folded += out[i++];
        continue;
      }
      // A run of the unit separated by commas (and blanks).
      std::size_t end = i + unit.size(), count = 1;
      while (true) {
        std::size_t j = end;
        while (j < out.size() && out[j] == ' ') ++j;
        if (j >= out.size() || out[j] != ',') break;
        ++j;
        while (j < out.size() && out[j] == ' ') ++j;
        if (out.compare(j, unit.size(), unit) != 0) break;
        end = j + unit.size();
        ++count;
      }
      folded += unit.size() == 1 ? (count > 1 ? std::string_view("?+") : unit) : unit;
      i = end;
    }
    out.swap(folded);
  }
}

}  // namespace

std::string statement_fingerprint(std::string_view sql, std::size_t max_bytes) {
  std::string out;
  out.reserve(std::min(sql.size(), max_bytes * 2));
  std::size_t i = 0;
  while (i < sql.size() && is_blank(sql[i])) ++i;
  while (i < sql.size() && out.size() < max_bytes * 2) {
    const char c = sql[i];
    if (is_blank(c)) {
      while (i < sql.size() && is_blank(sql[i])) ++i;
      if (!out.empty() && out.back() != ' ') out += ' ';
      continue;
    }
    if (c == '\'' || c == '"') {
      out += '?';
      i = quoted_end(sql, i);
      continue;
    }
    if (c == '`') {  // a quoted name: kept
      const std::size_t close = sql.find('`', i + 1);
      const std::size_t end = close == std::string_view::npos ? sql.size() : close + 1;  // unterminated: the rest
      out.append(sql.substr(i, end - i));
      i = end;
      continue;
    }
    const bool after_name = i > 0 && is_name_char(sql[i - 1]);
    if (is_digit(c) && !after_name) {
      // A sign written right before the number (after an operator or a blank) is part of it.
      if (out.size() >= 2 && out.back() == '-' && (out[out.size() - 2] == ' ' || out[out.size() - 2] == '('))
        out.pop_back();
      out += '?';
      i = number_end(sql, i);
      continue;
    }
    if (is_name_char(c)) {
      while (i < sql.size() && is_name_char(sql[i])) out += sql[i++];
      continue;
    }
    out += c;
    ++i;
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';')) out.pop_back();
  collapse_lists(out);
  if (out.size() > max_bytes) {
    std::size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // a UTF-8 boundary
    out.resize(cut);
  }
  return out;
}

std::string_view postgres_statement(std::string_view message) {
  const std::size_t duration = message.find("duration: ");
  if (duration == std::string_view::npos) return {};
  static constexpr std::array<std::string_view, 4> k_kinds = {"  statement: ", "  execute ", "  bind ", "  parse "};
  for (const std::string_view kind : k_kinds) {
    const std::size_t at = message.find(kind, duration);
    if (at == std::string_view::npos) continue;
    std::size_t start = at + kind.size();
    if (kind != k_kinds[0]) {  // "execute <unnamed>: SELECT …", "execute S_1: …"
      const std::size_t colon = message.find(": ", start);
      if (colon == std::string_view::npos) continue;
      start = colon + 2;
    }
    return message.substr(start);
  }
  return {};
}

}  // namespace gapscan::parse
