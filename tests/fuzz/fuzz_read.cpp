// libFuzzer target for reading one input as `scan` does: line splitting, envelopes (Docker,
// CRI, PHP-FPM wrapping), format detection on the first lines, the parse of every line with
// fallbacks, multi-line JSON, and the line accounting. The first byte picks the grouping.

#include <gapscan/cli/reading.hpp>
#include <gapscan/core/regex.hpp>
#include <gapscan/source/byte_source.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  using gapscan::parse::GroupBy;
  gapscan::parse::ReaderOptions options;
  switch (data[0] % 4) {
    case 0:
      break;
    case 1:
      options.group_by.mode = GroupBy::Mode::none;
      break;
    case 2:
      options.group_by.mode = GroupBy::Mode::field;
      options.group_by.field = (data[0] & 4) ? "extra.reqId" : "req";
      break;
    default: {
      static const auto regex =
          std::make_shared<const gapscan::Regex>(*gapscan::Regex::compile(R"(\[(\w+)\])", "fuzz"));
      options.group_by.mode = GroupBy::Mode::regex;
      options.group_by.regex = regex;
    }
  }
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::uint64_t records = 0;
  const auto result = gapscan::cli::read_records(
      gapscan::source::make_string_source(std::move(bytes)), 0, options,
      [&](const gapscan::parse::Record&, std::string_view, const gapscan::LineLocation&) { ++records; });
  const auto& a = result.account;
  // The accounting identity holds for any input.
  if (a.lines != a.records + a.continuation + a.untimed + a.comment + a.blank + a.unparsed) __builtin_trap();
  if (records > a.records) __builtin_trap();
  return 0;
}
