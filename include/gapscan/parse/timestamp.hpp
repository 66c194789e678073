#pragma once
// Hand-written timestamp scanners (no regex, no allocation).

#include <gapscan/core/time.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gapscan::parse {

struct ParsedTime {
  TimeNs time = 0;           ///< UTC; a time without an offset is read as UTC
  std::size_t length = 0;    ///< characters consumed from the start of the text
  std::uint8_t digits = 0;   ///< fraction digits written (0-9; further digits are ignored)
  bool has_offset = false;   ///< 'Z' or a numeric offset was present
  bool date_time_t = false;  ///< the date and time were separated by 'T' (else a space)
};

/// Reads an ISO-8601 / RFC 3339 date-time at the start of `text`:
/// YYYY-MM-DD(T| )HH:MM:SS[(.|,)fraction][Z|±HH:MM|±HHMM|±HH].
/// Returns nullopt if the text does not start with one or a field is out of range.
std::optional<ParsedTime> parse_iso8601(std::string_view text);

}  // namespace gapscan::parse
