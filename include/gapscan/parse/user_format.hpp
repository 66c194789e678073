#pragma once
// User-defined formats, as data: a TOML file with a regular expression (RE2, named groups)
// and a time layout. docs/formats.md has the file format and an example.
//
//   name = "nginx-error"
//   description = "nginx error log, grouped by connection"
//   regex = '^(?P<time>\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) \[(?P<level>\w+)\] \d+#\d+: (?:\*(?P<group>\d+)
//   )?(?P<message>.*)' time_layout = "%Y/%m/%d %H:%M:%S" samples = ["2026/11/29 21:03:04 [error] 1234#0: *57 upstream
//   timed out"]
//
// Named groups: time (required), group, message, channel, level. Every sample must parse.

#include <gapscan/core/diagnostic.hpp>
#include <gapscan/parse/format.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::parse {

/// A format file is a few lines; anything larger is refused rather than parsed.
inline constexpr std::size_t k_max_format_file_bytes = 1u << 20;

/// Parses and validates one format file; problems go to `diagnostics` with file:line.
std::optional<FormatInfo> parse_format_file(std::string_view text, const std::string& name,
                                            std::vector<Diagnostic>& diagnostics);

/// Reads and parses format files; returns the formats that loaded. `diagnostics` receives
/// every problem (an error in any file means the caller should stop).
std::vector<FormatInfo> load_format_files(const std::vector<std::string>& paths, std::vector<Diagnostic>& diagnostics);

}  // namespace gapscan::parse
