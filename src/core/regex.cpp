#include <gapscan/core/regex.hpp>

#include <fmt/format.h>
#include <re2/re2.h>

namespace gapscan {

struct Regex::Impl {
  explicit Impl(std::string_view pattern, const RE2::Options& options) : re(pattern, options) {}
  RE2 re;
};

Expected<Regex> Regex::compile(std::string_view pattern, std::string where) {
  if (pattern.size() > k_max_pattern_length) {
    return unexpected(make_error(
        std::move(where),
        fmt::format("regular expression of {} bytes: at most {} are allowed", pattern.size(), k_max_pattern_length),
        "a pattern runs on every line read: match the telling words, not the whole line"));
  }
  RE2::Options options;
  options.set_log_errors(false);
  options.set_encoding(RE2::Options::EncodingLatin1);  // logs are bytes; UTF-8 still matches literally
  auto impl = std::make_shared<const Impl>(pattern, options);
  if (!impl->re.ok()) {
    return unexpected(make_error(std::move(where),
                                 "invalid regular expression '" + std::string(pattern) + "': " + impl->re.error(),
                                 "patterns use RE2 syntax: no backreferences or lookaround"));
  }
  if (impl->re.ProgramSize() > k_max_program_size) {
    return unexpected(
        make_error(std::move(where),
                   fmt::format("regular expression '{}' is too large: {} instructions compiled, at most {}",
                               pattern.substr(0, 80), impl->re.ProgramSize(), k_max_program_size),
                   "a bounded repeat multiplies the size (.{0,1000} is 1000 copies): use a smaller bound or .*"));
  }
  Regex regex;
  regex.m_impl = std::move(impl);
  regex.m_pattern = std::string(pattern);
  return regex;
}

bool Regex::search(std::string_view text) const {
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), m_impl->re);
}

bool Regex::find(std::string_view text, std::size_t from, std::size_t& begin, std::size_t& end) const {
  if (from > text.size()) return false;
  re2::StringPiece match;
  if (!m_impl->re.Match(re2::StringPiece(text.data(), text.size()), from, text.size(), RE2::UNANCHORED, &match, 1)) {
    return false;
  }
  begin = static_cast<std::size_t>(match.data() - text.data());
  end = begin + match.size();
  return true;
}

bool Regex::extract(std::string_view text, std::string_view& capture) const {
  re2::StringPiece groups[2];
  const int wanted = m_impl->re.NumberOfCapturingGroups() >= 1 ? 2 : 1;
  if (!m_impl->re.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED, groups, wanted)) {
    return false;
  }
  const re2::StringPiece& piece = groups[wanted - 1];
  capture = std::string_view(piece.data(), piece.size());
  return true;
}

bool Regex::match(std::string_view text, std::vector<std::string_view>& groups) const {
  const auto count = static_cast<std::size_t>(m_impl->re.NumberOfCapturingGroups()) + 1;
  std::vector<re2::StringPiece> pieces(count);
  if (!m_impl->re.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED, pieces.data(),
                        static_cast<int>(count))) {
    return false;
  }
  groups.resize(count);
  for (std::size_t i = 0; i < count; ++i) groups[i] = std::string_view(pieces[i].data(), pieces[i].size());
  return true;
}

std::vector<std::string> Regex::group_names() const {
  std::vector<std::string> names(static_cast<std::size_t>(m_impl->re.NumberOfCapturingGroups()) + 1);
  for (const auto& [name, index] : m_impl->re.NamedCapturingGroups()) {
    names[static_cast<std::size_t>(index)] = name;
  }
  return names;
}

}  // namespace gapscan
