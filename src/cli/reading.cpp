#include <gapscan/cli/reading.hpp>

#include <gapscan/catalog/embedded.hpp>
#include <gapscan/core/interrupt.hpp>
#include <gapscan/parse/user_format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace gapscan::cli {
namespace {

constexpr std::size_t k_detection_lines = 64;

/// A preset's name: letters, digits, '-' and '_', no path and no extension.
bool preset_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

}  // namespace

std::string installed_patterns_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return {};
  const fs::path dir = exe.parent_path().parent_path() / "share" / "gapscan" / "patterns";
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (it->path().extension() == ".toml") return dir.string();
  }
  return {};
}

std::vector<std::pair<std::string, std::string>> format_presets() {
  std::vector<std::pair<std::string, std::string>> presets;
  constexpr std::string_view k_folder = "patterns/presets/";
  for (const catalog::EmbeddedFile& file : catalog::embedded_files()) {
    if (file.name.rfind(k_folder, 0) != 0 || file.name.size() <= k_folder.size() + 5) continue;
    std::string name(file.name.substr(k_folder.size()));
    name.resize(name.size() - 5);  // ".toml"
    presets.emplace_back(std::move(name), std::string(file.text));
  }
  return presets;
}

Expected<std::shared_ptr<const std::vector<parse::FormatInfo>>> load_user_formats(
    const std::vector<std::string>& files, const std::string& patterns_dir, std::vector<Diagnostic>& diagnostics) {
  namespace fs = std::filesystem;
  std::vector<std::string> paths;
  std::vector<parse::FormatInfo> presets;
  for (const std::string& file : files) {
    std::error_code ec;
    if (!preset_name(file) || fs::exists(file, ec)) {
      paths.push_back(file);
      continue;
    }
    // A name, not a file: a preset (from --patterns DIR/presets/ first, else the built-in ones).
    if (!patterns_dir.empty() && fs::exists(fs::path(patterns_dir) / "presets" / (file + ".toml"), ec)) {
      paths.push_back((fs::path(patterns_dir) / "presets" / (file + ".toml")).string());
      continue;
    }
    const auto known = format_presets();
    const auto it = std::find_if(known.begin(), known.end(), [&](const auto& p) { return p.first == file; });
    if (it == known.end()) {
      std::string names;
      for (const auto& preset : known) names += (names.empty() ? "" : ", ") + preset.first;
      return unexpected(make_error(file, "no such format file, and no format preset of that name",
                                   "presets: " + names + " (gapscan formats lists them)"));
    }
    if (auto format = parse::parse_format_file(it->second, "preset " + file, diagnostics))
      presets.push_back(std::move(*format));
  }
  if (!patterns_dir.empty()) {
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
  auto formats = std::make_shared<std::vector<parse::FormatInfo>>(std::move(presets));
  for (parse::FormatInfo& format : parse::load_format_files(paths, diagnostics)) formats->push_back(std::move(format));
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
  InputResult result;
  std::uint32_t salt = 0;
  auto consume = [&](std::string_view text, std::uint64_t number, std::uint64_t offset, bool truncated) {
    if (truncated) {
      records.note_truncated();
      if (result.first_truncated == 0) result.first_truncated = number;
    }
    const LineLocation location{id, salt, number, offset};
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
  // Line hashes mix in the input's first line: the same lines are sampled from an input whatever
  // its name or its place among the inputs (partial scans merge into one scan's report).
  salt = sample.empty() ? 0 : source_salt(sample.front());
  for (std::size_t i = 0; i < sample.size(); ++i) {
    consume(sample[i], sample_lines[i].number, sample_lines[i].offset, sample_lines[i].truncated);
  }
  while (!interrupted()) {
    auto line = reader.next();
    if (!line) break;
    consume(line->text, line->number, line->offset, line->truncated);
  }
  while (records.finish(record)) {
    if (records.record_ready()) on_record(record, records.record_text(), records.record_location());
  }

  result.account = records.account();
  result.format = records.detected_format();
  result.bytes = reader.bytes_read();
  result.error = reader.error();
  return result;
}

}  // namespace gapscan::cli
