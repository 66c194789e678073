#include <gapscan/cli/reading.hpp>

#include <gapscan/parse/user_format.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace gapscan::cli {
namespace {

constexpr std::size_t k_detection_lines = 64;

}  // namespace

Expected<std::shared_ptr<const std::vector<parse::FormatInfo>>> load_user_formats(
    const std::vector<std::string>& files, const std::string& patterns_dir, std::vector<Diagnostic>& diagnostics) {
  std::vector<std::string> paths = files;
  if (!patterns_dir.empty()) {
    namespace fs = std::filesystem;
    std::error_code ec;
    std::vector<std::string> found;
    for (auto it = fs::directory_iterator(fs::path(patterns_dir) / "formats", ec);
         !ec && it != fs::directory_iterator(); it.increment(ec)) {
      if (it->path().extension() == ".toml") found.push_back(it->path().string());
    }
    std::sort(found.begin(), found.end());
    paths.insert(paths.end(), found.begin(), found.end());
  }
  const std::size_t before = diagnostics.size();
  auto formats = std::make_shared<std::vector<parse::FormatInfo>>(parse::load_format_files(paths, diagnostics));
  for (std::size_t i = before; i < diagnostics.size(); ++i) {
    if (diagnostics[i].severity == Severity::error) return unexpected(diagnostics[i]);
  }
  return std::shared_ptr<const std::vector<parse::FormatInfo>>(std::move(formats));
}

InputResult read_records(std::unique_ptr<source::ByteSource> bytes, SourceId id, parse::ReaderOptions options,
                         const RecordCallback& on_record) {
  source::LineReader reader(std::move(bytes));
  parse::RecordReader records(options);
  parse::Record record;
  auto consume = [&](std::string_view text, std::uint64_t number, std::uint64_t offset, bool truncated) {
    if (truncated) records.note_truncated();
    const LineLocation location{id, number, offset};
    records.read(text, location, record);
    if (records.record_ready()) on_record(record, records.record_text(), records.record_location());
  };

  // The first lines are kept to detect the format, then replayed.
  std::vector<std::string> sample;
  std::vector<source::Line> sample_lines;
  while (sample.size() < k_detection_lines) {
    auto line = reader.next();
    if (!line) break;
    sample.emplace_back(line->text);
    sample_lines.push_back(*line);
  }
  records.detect(sample);
  for (std::size_t i = 0; i < sample.size(); ++i) {
    consume(sample[i], sample_lines[i].number, sample_lines[i].offset, sample_lines[i].truncated);
  }
  while (auto line = reader.next()) consume(line->text, line->number, line->offset, line->truncated);
  while (records.finish(record)) {
    if (records.record_ready()) on_record(record, records.record_text(), records.record_location());
  }

  InputResult result;
  result.account = records.account();
  result.format = records.detected_format();
  result.bytes = reader.bytes_read();
  result.error = reader.error();
  return result;
}

}  // namespace gapscan::cli
