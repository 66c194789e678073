#pragma once
// Reads one input line by line through the parse stage: detects the format on the first
// lines, then classifies every line. Shared by `scan` and `events`.

#include <gapscan/core/expected.hpp>
#include <gapscan/core/location.hpp>
#include <gapscan/parse/record_reader.hpp>
#include <gapscan/source/byte_source.hpp>
#include <gapscan/source/line_reader.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::cli {

using RecordCallback = std::function<void(const parse::Record&, std::string_view text, const LineLocation&)>;

/// What is made of a record from the record alone, where it is parsed: on a parsing thread when
/// an input's lines are parsed in batches (ParallelParse), else on the reading thread. For a
/// scan: the line's marks (detect::LineMarker) and its message template.
struct RecordFacts {
  bool marked = false;                  ///< stream::LineMarks::known
  bool screened = false;                ///< stream::LineMarks::screened
  std::vector<std::uint32_t> triggers;  ///< stream::LineMarks::triggers
  std::uint64_t template_hash = 0;      ///< 0: no template
  std::string template_text;
};

/// Makes RecordFacts; each thread that parses has its own.
class RecordStage {
 public:
  virtual ~RecordStage() = default;
  /// `text`: the record's physical line.
  virtual void run(const parse::Record& record, std::string_view text, RecordFacts& facts) = 0;
};
using RecordStageFactory = std::function<std::unique_ptr<RecordStage>()>;
using FactsCallback =
    std::function<void(const parse::Record&, std::string_view text, const LineLocation&, const RecordFacts&)>;

struct InputResult {
  parse::LineAccount account;
  std::string format;                 ///< detected format name and layout
  std::uint64_t bytes = 0;            ///< decoded bytes read
  std::optional<Diagnostic> error;    ///< why reading stopped early
  std::uint64_t first_truncated = 0;  ///< line number of the first line over 16 MiB, or 0
};

/// A warning for an input whose lines have no stamp gapscan can read (none of them, or at least
/// 5 % of those not blank or comments): it names the first such line, and `sketch` receives a
/// format file built from it that reads it (empty when none could be built).
std::optional<Diagnostic> unread_warning(const InputResult& result, const std::string& name, std::string& sketch);

/// The catalog an installed gapscan reads when no --patterns is given:
/// <prefix>/share/gapscan/patterns beside <prefix>/bin/gapscan, when it holds *.toml files;
/// empty otherwise (the catalog embedded in the binary is used).
std::string installed_patterns_dir();

/// The built-in format presets (patterns/presets/NAME.toml): name and file text, by name.
std::vector<std::pair<std::string, std::string>> format_presets();

/// Loads the user-defined formats: `files` (a name that is not a file is a preset: from
/// `patterns_dir`/presets/NAME.toml, else built in), then `patterns_dir`/formats/*.toml if that
/// folder exists. Every problem goes to `diagnostics`; any error makes the result an error.
Expected<std::shared_ptr<const std::vector<parse::FormatInfo>>> load_user_formats(const std::vector<std::string>& files,
                                                                                  const std::string& patterns_dir,
                                                                                  std::vector<Diagnostic>& diagnostics);

/// Parsing one input's lines on other threads (docs/performance.md). The records and the line
/// account are the same for any number of threads and any batch size.
struct ParallelParse {
  unsigned threads = 0;            ///< threads parsing batches of lines beside the reading one; 0: none
  std::size_t batch_lines = 2048;  ///< lines per batch (at most)
  RecordStageFactory stage;        ///< what else each record is made into where it is parsed; null: nothing
  static constexpr std::size_t k_batch_bytes = 256u << 10;  ///< and at most this much text
};

/// Reads `bytes` to the end; calls `on_record` for every record, in input order. The records'
/// locations carry `id` and the salt of the input's first line (LineLocation::salt).
InputResult read_records(std::unique_ptr<source::ByteSource> bytes, SourceId id, parse::ReaderOptions options,
                         const RecordCallback& on_record, ParallelParse parallel = {});
/// The same, handing each record on with its facts (made by `parallel.stage`; empty without one).
InputResult read_records(std::unique_ptr<source::ByteSource> bytes, SourceId id, parse::ReaderOptions options,
                         const FactsCallback& on_record, ParallelParse parallel);

}  // namespace gapscan::cli
