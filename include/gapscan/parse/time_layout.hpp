#pragma once
// strftime-like time layouts for user-defined formats ("%Y-%m-%d %H:%M:%S.%f %z"), compiled
// once and then matched against the text a format's regular expression captured as the time.

#include <gapscan/core/expected.hpp>
#include <gapscan/parse/stamp.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace gapscan::parse {

class TimeLayout {
 public:
  /// Compiles a layout. Directives: %Y %y %m %d %e %H %k %I %M %S %f (1-9 fraction digits)
  /// %p %b %B (month names) %a %A (weekday names, skipped) %z (Z, ±hh, ±hhmm, ±hh:mm) %Z (UTC,
  /// GMT) %s (epoch seconds, optional fraction) %T (%H:%M:%S) %F (%Y-%m-%d) %%. A space matches
  /// one or more blanks; any other character matches itself. Errors name `where`.
  static Expected<TimeLayout> compile(std::string_view layout, const std::string& where);

  /// Reads `text` (all of it, trailing blanks allowed) into `out`; false if it does not fit.
  bool read(std::string_view text, StampFields& out) const;

  const std::string& text() const { return m_text; }

 private:
  struct Token {
    char directive;  ///< 0 for a literal
    std::string literal;
  };
  std::vector<Token> m_tokens;
  std::string m_text;
};

}  // namespace gapscan::parse
