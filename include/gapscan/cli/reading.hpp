#pragma once
// Reads one input line by line through the parse stage: detects the format on the first
// lines, then classifies every line. Shared by `scan` and `events`.

#include <gapscan/core/location.hpp>
#include <gapscan/parse/record_reader.hpp>
#include <gapscan/source/byte_source.hpp>
#include <gapscan/source/line_reader.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string_view>

namespace gapscan::cli {

using RecordCallback = std::function<void(const parse::Record&, std::string_view text, const LineLocation&)>;

struct InputResult {
  parse::LineAccount account;
  std::string format;               ///< detected format name and layout
  std::uint64_t bytes = 0;          ///< decoded bytes read
  std::optional<Diagnostic> error;  ///< why reading stopped early
};

/// Reads `bytes` to the end; calls `on_record` for every record, in input order.
InputResult read_records(std::unique_ptr<source::ByteSource> bytes, SourceId id, parse::ReaderOptions options,
                         const RecordCallback& on_record);

}  // namespace gapscan::cli
