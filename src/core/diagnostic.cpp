#include <gapscan/core/diagnostic.hpp>

#include <fmt/format.h>

namespace gapscan {

std::string to_string(const Diagnostic& diagnostic) {
  const char* label = "error";
  if (diagnostic.severity == Severity::warning) label = "warning";
  if (diagnostic.severity == Severity::note) label = "note";
  std::string text = diagnostic.where.empty() ? fmt::format("{}: {}", label, diagnostic.message)
                                              : fmt::format("{}: {}: {}", diagnostic.where, label, diagnostic.message);
  if (!diagnostic.hint.empty()) text += fmt::format(" ({})", diagnostic.hint);
  return text;
}

Diagnostic make_error(std::string where, std::string message, std::string hint) {
  return Diagnostic{Severity::error, std::move(where), std::move(message), std::move(hint)};
}

}  // namespace gapscan
