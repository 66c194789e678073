#pragma once
// A message about the input or the configuration, tied to a place when there is one.
// Stages return diagnostics as values; the CLI decides how and whether to print them.

#include <string>

namespace gapscan {

enum class Severity { note, warning, error };

struct Diagnostic {
  Severity severity = Severity::error;
  std::string where;    ///< "file:line", "file:line:column", "file" or empty
  std::string message;  ///< what is wrong, in one sentence
  std::string hint;     ///< what to do about it, or empty
};

/// "file:line: error: message (hint)" in the style of compilers, one line.
std::string to_string(const Diagnostic& diagnostic);

/// Shorthand for building an error diagnostic.
Diagnostic make_error(std::string where, std::string message, std::string hint = {});

}  // namespace gapscan
