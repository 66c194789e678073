#include <gapscan/cli/terminal.hpp>

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace gapscan::cli {

bool use_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  return ::isatty(STDOUT_FILENO) == 1;
}

std::size_t output_width() {
  constexpr std::size_t k_piped = 80;
  if (::isatty(STDOUT_FILENO) != 1) return k_piped;
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr) {
    const std::string_view text(columns);
    std::size_t width = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), width);
    if (error == std::errc() && end == text.data() + text.size() && width >= 20) return width;
  }
  winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 20) return size.ws_col;
  return k_piped;
}

}  // namespace gapscan::cli
