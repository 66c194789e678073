#pragma once
// A format file sketched from one line gapscan could not read: where its stamp seems to be,
// the time layout its digits suggest, and a regular expression that reads the line. Shown
// with the warning about an input whose lines have no stamp gapscan knows, so that the user
// starts from a file that already reads their line (docs/formats.md, "User-defined formats").

#include <string>
#include <string_view>

namespace gapscan::parse {

/// The TOML text of a format file that reads `line` (checked: its sample parses), or empty
/// when no stamp-like text is found in the line's first 80 bytes or the sketch does not read it.
std::string sketch_format_file(std::string_view line);

}  // namespace gapscan::parse
