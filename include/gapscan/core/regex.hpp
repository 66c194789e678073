#pragma once
// A thin wrapper around RE2 so that its headers stay out of the stages that match text.
// RE2 runs in linear time, so patterns from user files cannot hang a scan.

#include <gapscan/core/expected.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan {

class Regex {
 public:
  /// Limits for patterns from files and options: a pattern runs on every line read, so its
  /// length and the size of its compiled program (which bounds RE2's work per byte when its
  /// DFA cache gives up) are capped; a bounded repeat such as .{0,1000} multiplies the size.
  static constexpr std::size_t k_max_pattern_length = 4096;
  static constexpr int k_max_program_size = 2500;

  /// Compiles `pattern` (RE2 syntax). On failure the diagnostic names `where` and quotes
  /// RE2's reason, or the limit exceeded. RE2's own logging to stderr is turned off.
  static Expected<Regex> compile(std::string_view pattern, std::string where);

  /// True if the pattern matches anywhere in `text` (unanchored search).
  bool search(std::string_view text) const;

  /// Finds the leftmost match in text[from, end): stores its bounds (offsets into `text`)
  /// and returns true. One call over a buffer of many lines is much cheaper than one per line.
  bool find(std::string_view text, std::size_t from, std::size_t& begin, std::size_t& end) const;

  /// If the pattern matches, stores its first capture group (or the whole match when
  /// the pattern has no group) in `capture` and returns true.
  bool extract(std::string_view text, std::string_view& capture) const;

  /// If the pattern matches, stores the whole match in groups[0] and capture group i in
  /// groups[i] (empty when it did not take part) and returns true.
  bool match(std::string_view text, std::vector<std::string_view>& groups) const;

  /// Names of the named capture groups, indexed by group number (index 0 unused).
  std::vector<std::string> group_names() const;

  const std::string& pattern() const { return m_pattern; }

 private:
  struct Impl;
  std::shared_ptr<const Impl> m_impl;  // shared: RE2 objects are immutable and thread-safe
  std::string m_pattern;
};

}  // namespace gapscan
