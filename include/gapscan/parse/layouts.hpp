#pragma once
// The layouts the generic format reads, each with an example line: what `gapscan formats`
// lists beside the built-in formats and docs/formats.md tabulates. tests/parse/layouts_test.cpp
// reads every example and checks its instant, so the list cannot claim what gapscan does not do.

#include <gapscan/core/time.hpp>

#include <span>
#include <string_view>

namespace gapscan::parse {

struct GenericLayout {
  std::string_view name;     ///< the family or the program ("month-name (syslog)", "uptime (JVM)")
  std::string_view example;  ///< a line (the lines of one record, separated by '\n')
  TimeNs instant;            ///< when the example's record was written, as gapscan reads it
                             ///< (for a time-only stamp: on 2026-12-05, the day its file was modified)
};

/// Every layout, in the order `gapscan formats` prints them.
std::span<const GenericLayout> generic_layouts();

}  // namespace gapscan::parse
