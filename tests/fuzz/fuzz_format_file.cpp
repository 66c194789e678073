// libFuzzer target for user-defined formats: a format file (TOML with a regex or an nginx/Apache
// format string), and when it loads, the lines after a "\n---\n" separator parsed with it.

#include <gapscan/parse/format.hpp>
#include <gapscan/parse/user_format.hpp>
#include <gapscan/source/line_reader.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string_view lines;
  if (const std::size_t separator = text.find("\n---\n"); separator != std::string_view::npos) {
    lines = text.substr(separator + 5);
    text = text.substr(0, separator);
  }
  std::vector<gapscan::Diagnostic> diagnostics;
  const auto format = gapscan::parse::parse_format_file(text, "fuzz.toml", diagnostics);
  if (!format) {
    if (diagnostics.empty()) __builtin_trap();  // a file that does not load says why
    return 0;
  }
  auto parser = format->make_parser();
  std::vector<std::string> sample;
  gapscan::parse::Record record;
  while (!lines.empty()) {
    const std::size_t end = lines.find('\n');
    std::string padded(lines.substr(0, end));
    const std::size_t length = padded.size();
    padded.append(gapscan::source::LineReader::k_padding, '\0');
    (void)parser->parse(std::string_view(padded.data(), length), record);
    if (end == std::string_view::npos) break;
    lines.remove_prefix(end + 1);
  }
  return 0;
}
