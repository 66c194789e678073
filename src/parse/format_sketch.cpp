#include <gapscan/parse/format_sketch.hpp>
#include <gapscan/parse/stamp.hpp>
#include <gapscan/parse/user_format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace gapscan::parse {
namespace {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool is_weekday(std::string_view word) {
  for (std::string_view day : {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}) {
    if (word == day) return true;
  }
  return false;
}

/// One piece of the stamp: a run of digits, a word, or one separator byte.
struct Piece {
  enum Kind { digits, word, separator } kind;
  std::string_view text;
  std::string directive;  ///< %Y, %b, ... for digits and words; the byte itself for a separator
};

/// Where the stamp seems to be: from the first digit that starts a token, over digits, month
/// names, AM/PM, zone words and the separators stamps use, to the last digit or word.
/// The search begins at `from`; `digit` receives where the first digit was found.
std::vector<Piece> stamp_pieces(std::string_view line, std::size_t from, std::size_t& start, std::size_t& digit) {
  const std::string_view head = line.substr(0, 80);
  for (start = from; start < head.size(); ++start) {
    if (is_digit(head[start]) && (start == 0 || !is_letter(head[start - 1]))) break;
  }
  digit = start;
  // A month name, and a weekday before it, just before the digits ("Sat Dec  5 12:00:00").
  for (int words = 0; words < 2 && start < head.size(); ++words) {
    std::size_t word_end = start;
    while (word_end > 0 && head[word_end - 1] == ' ') --word_end;
    std::size_t word_start = word_end;
    while (word_start > 0 && is_letter(head[word_start - 1])) --word_start;
    if (word_start == word_end || word_end == start ||
        (word_start > 0 && head[word_start - 1] != ' ' && head[word_start - 1] != '[' && head[word_start - 1] != '('))
      break;
    const std::string_view word = head.substr(word_start, word_end - word_start);
    std::size_t length = 0;
    if (words == 0 && (read_month_name(word, length) == 0 || length != word.size())) break;
    if (words == 1 && !is_weekday(word)) break;
    start = word_start;
  }
  std::vector<Piece> pieces;
  std::size_t i = start;
  while (i < head.size()) {
    const char c = head[i];
    std::size_t j = i;
    if (is_digit(c)) {
      while (j < head.size() && is_digit(head[j])) ++j;
      pieces.push_back({Piece::digits, head.substr(i, j - i), {}});
    } else if (is_letter(c)) {
      while (j < head.size() && is_letter(head[j])) ++j;
      const std::string_view word = head.substr(i, j - i);
      std::size_t length = 0;
      std::string directive;
      if (is_weekday(word)) {
        directive = "%a";
      } else if (read_month_name(word, length) != 0 && length == word.size()) {
        directive = "%b";
      } else if (word == "AM" || word == "PM" || word == "am" || word == "pm") {
        directive = "%p";
      } else if (word == "T") {
        directive = "T";
      } else if (word == "Z" || word == "UTC" || word == "GMT") {
        directive = "%Z";
      } else {
        int offset = 0;
        bool ambiguous = false;
        if (read_zone_abbreviation(word, offset, ambiguous) != word.size()) break;
        directive = "%Z";
      }
      pieces.push_back({Piece::word, word, directive});
    } else if (c == ':' || c == '.' || c == ',' || c == '-' || c == '/' || c == ' ' || c == '+') {
      j = i + 1;
      if (c == ' ' && !pieces.empty() && pieces.back().text == " ") {  // a run of blanks: one separator
        i = j;
        continue;
      }
      pieces.push_back({Piece::separator, head.substr(i, 1), std::string(1, c)});
    } else {
      break;
    }
    i = j;
  }
  while (!pieces.empty() && pieces.back().kind == Piece::separator) pieces.pop_back();
  return pieces;
}

/// Gives each run of digits its directive. False when the runs do not make a date and time.
bool assign_directives(std::vector<Piece>& pieces) {
  std::vector<std::size_t> runs;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i].kind == Piece::digits) runs.push_back(i);
  }
  if (runs.empty()) return false;
  if (runs.size() == 1 && pieces[runs[0]].text.size() == 10) {
    pieces[runs[0]].directive = "%s";
    return true;
  }
  // The time: the first run followed by ':' and another run.
  std::size_t hour = runs.size();
  for (std::size_t r = 0; r + 1 < runs.size(); ++r) {
    const std::size_t at = runs[r];
    if (at + 2 < pieces.size() && pieces[at + 1].text == ":" && pieces[at + 2].kind == Piece::digits &&
        pieces[at].text.size() <= 2) {
      hour = r;
      break;
    }
  }
  if (hour == runs.size()) return false;
  const char* k_time[] = {"%H", "%M", "%S"};
  std::size_t r = hour;
  for (int k = 0; k < 3 && r < runs.size(); ++k, ++r) {
    if (k > 0 && pieces[runs[r] - 1].text != ":") break;
    pieces[runs[r]].directive = k_time[k];
  }
  if (r < runs.size() && pieces[runs[r - 1]].directive == "%S") {
    const std::string_view before = pieces[runs[r] - 1].text;
    if (before == "." || before == "," || (before == ":" && pieces[runs[r]].text.size() == 3)) {
      pieces[runs[r]].directive = "%f";
      ++r;
    }
  }
  for (; r < runs.size(); ++r) {  // after the time: a year ("Sat Dec  5 12:00:00 2026") or an offset
    const Piece& piece = pieces[runs[r]];
    const std::string_view before = pieces[runs[r] - 1].text;
    if (piece.text.size() == 4 && (before == "+" || before == "-")) {
      pieces[runs[r]].directive = "%z";
      pieces[runs[r] - 1].directive.clear();  // part of %z
    } else if (piece.text.size() == 4) {
      pieces[runs[r]].directive = "%Y";
    } else {
      return false;
    }
  }
  // The date before the time.
  std::vector<std::size_t> date(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(hour));
  const bool named_month =
      std::any_of(pieces.begin(), pieces.end(), [](const Piece& p) { return p.directive == "%b"; });
  if (named_month) {
    for (std::size_t at : date) pieces[at].directive = pieces[at].text.size() == 4 ? "%Y" : "%d";
    return true;
  }
  if (date.empty()) return true;  // a time of day only
  if (date.size() != 3) return false;
  Piece& a = pieces[date[0]];
  Piece& b = pieces[date[1]];
  Piece& c = pieces[date[2]];
  const bool slash = pieces[date[0] + 1].text == "/";
  if (a.text.size() == 4) {
    a.directive = "%Y", b.directive = "%m", c.directive = "%d";
  } else if (c.text.size() == 4) {
    (slash ? a : b).directive = "%m";
    (slash ? b : a).directive = "%d";
    c.directive = "%Y";
  } else {
    (slash ? a : b).directive = "%m";
    (slash ? b : a).directive = "%d";
    c.directive = "%y";
  }
  return true;
}

std::string regex_literal(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (is_digit(c)) {
      if (out.ends_with("\\d+")) continue;
      out += "\\d+";
    } else if (c == ' ' || c == '\t') {
      if (out.ends_with("\\s+")) continue;
      out += "\\s+";
    } else if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

/// A TOML string: a literal '…' when it can be one, else a basic "…" with escapes.
std::string toml_string(std::string_view text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return c != '\'' && (static_cast<unsigned char>(c) >= 0x20 || c == '\t') && c != 0x7f;
  });
  if (plain) return fmt::format("'{}'", text);
  std::string out = "\"";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      out += fmt::format("\\u{:04X}", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

std::string sketch_format_file(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  // The first run of digits that starts a date and time (an id or a count before it is passed).
  std::size_t start = 0, digit = 0, from = 0;
  std::vector<Piece> pieces;
  const std::size_t head = std::min<std::size_t>(line.size(), 80);
  for (;;) {
    pieces = stamp_pieces(line, from, start, digit);
    if (digit >= head) return {};
    if (!pieces.empty() && assign_directives(pieces)) break;
    from = digit + 1;
    while (from < head && is_digit(line[from])) ++from;
  }
  std::string layout, pattern;
  for (const Piece& piece : pieces) {
    switch (piece.kind) {
      case Piece::digits:
        layout.append(piece.directive);
        if (piece.directive == "%f") {
          pattern.append("\\d+");
        } else {
          fmt::format_to(std::back_inserter(pattern), "\\d{{1,{}}}", std::max<std::size_t>(2, piece.text.size()));
        }
        break;
      case Piece::word:
        layout.append(piece.directive);
        pattern.append(piece.directive == "T" ? std::string_view("T") : std::string_view("[A-Za-z]+"));
        break;
      case Piece::separator:
        layout.append(piece.directive);
        if (piece.text == " ") {
          pattern.append(" +");
        } else {
          pattern.append(regex_literal(piece.text));
        }
        break;
    }
  }
  const std::string regex =
      fmt::format("^{}(?P<time>{})\\s*(?P<message>.*)$", regex_literal(line.substr(0, start)), pattern);
  std::string file = fmt::format(
      "name = \"my-format\"\n"
      "regex = {}\n"
      "time_layout = \"{}\"\n"
      "samples = [{}]\n",
      toml_string(regex), layout, toml_string(line.substr(0, 400)));
  std::vector<Diagnostic> problems;
  if (!parse_format_file(file, "sketch", problems) || !problems.empty()) return {};
  return file;
}

}  // namespace gapscan::parse
