#pragma once
// What the terminal on stdout can show: colour (--color, NO_COLOR) and width (COLUMNS).

#include <cstddef>
#include <string>

namespace gapscan::cli {

/// --color: "always", "never", or "auto" (colour when stdout is a terminal and NO_COLOR is
/// unset or empty, https://no-color.org). An explicit "always" wins over NO_COLOR.
bool use_color(const std::string& mode);

/// The width of the report: COLUMNS when stdout is a terminal and COLUMNS is a number, else the
/// terminal's own width, else 80; 80 when stdout is not a terminal.
std::size_t output_width();

}  // namespace gapscan::cli
