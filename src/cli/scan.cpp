// The scan pipeline: a list of stage calls, nothing more.
//   inputs -> lines -> records -> streams -> gaps and modes -> suspects -> report

#include <gapscan/catalog/loader.hpp>
#include <gapscan/catalog/matcher.hpp>
#include <gapscan/cli/cli.hpp>
#include <gapscan/detect/analyzer.hpp>
#include <gapscan/parse/record_reader.hpp>
#include <gapscan/report/build.hpp>
#include <gapscan/source/input.hpp>
#include <gapscan/source/line_reader.hpp>
#include <gapscan/stream/stream_table.hpp>
#include <gapscan/stream/window_queue.hpp>

namespace gapscan::cli {
namespace {

constexpr std::size_t k_detection_lines = 64;

struct Pipeline {
  parse::LineAccount lines;
  stream::StreamTable* streams = nullptr;
};

/// Reads one input to the end: detects its format on the first lines, then classifies every
/// line and hands records to the stream table.
report::Input read_input(std::unique_ptr<source::ByteSource> bytes, const std::string& name, SourceId id,
                         const ScanConfig& config, Pipeline& pipeline, std::vector<Diagnostic>& diagnostics) {
  source::LineReader reader(std::move(bytes));
  parse::RecordReader records(parse::ReaderOptions{config.group_none});
  parse::Record record;
  auto consume = [&](std::string_view text, std::uint64_t number, std::uint64_t offset, bool truncated) {
    if (truncated) records.note_truncated();
    const LineLocation location{id, number, offset};
    if (records.read(text, location, record) == parse::LineClass::record) {
      pipeline.streams->add(record, text, location);
    }
  };

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

  report::Input input;
  input.name = name;
  input.format = std::string(records.detected_format());
  const parse::LineAccount account = records.account();
  input.lines = account.lines;
  input.bytes = reader.bytes_read();
  if (reader.error()) {
    input.error = reader.error()->message;
    diagnostics.push_back(*reader.error());
  }
  pipeline.lines.merge(account);
  return input;
}

}  // namespace

Expected<report::Report> run_scan(const ScanConfig& config, int& exit_code) {
  exit_code = k_exit_ok;
  std::vector<Diagnostic> diagnostics;

  std::vector<Diagnostic> catalog_diagnostics;
  auto catalog = config.patterns_dir.empty() ? catalog::load_builtin(catalog_diagnostics)
                                             : catalog::load_directory(config.patterns_dir, catalog_diagnostics);
  if (!catalog) {
    Diagnostic error = catalog.error();
    if (!catalog_diagnostics.empty()) error = catalog_diagnostics.front();
    return unexpected(std::move(error));
  }

  detect::Analyzer analyzer;
  stream::GroupingOptions grouping;
  grouping.idle_timeout = static_cast<DurationNs>(config.idle_timeout_s * 1e9);
  // With more than one job, windows are analysed on a second thread while parsing goes on;
  // they are consumed in order, so the report is the same for any number of jobs.
  std::unique_ptr<stream::WindowQueue> queue;
  if (config.jobs > 1) {
    queue = std::make_unique<stream::WindowQueue>([&](const stream::StreamWindow& window) { analyzer.add(window); });
  }
  stream::StreamTable streams(grouping, [&](stream::OwnedWindow&& window) {
    if (queue) {
      queue->push(std::move(window));
    } else {
      analyzer.add(window.view());
    }
  });
  Pipeline pipeline;
  pipeline.streams = &streams;
  source::SourceTable sources;
  std::vector<report::Input> inputs;

  if (!config.texts.empty()) {
    for (const NamedText& text : config.texts) {
      const SourceId id = sources.add(text.name);
      inputs.push_back(read_input(source::make_string_source(text.text), text.name, id, config, pipeline, diagnostics));
    }
  } else {
    for (const source::InputSpec& spec : source::expand_inputs(config.paths, diagnostics)) {
      const SourceId id = sources.add(spec.is_stdin ? "<stdin>" : spec.name);
      auto bytes = source::open_input(spec);
      if (!bytes) {
        diagnostics.push_back(bytes.error());
        inputs.push_back(report::Input{sources.name(id), "none", 0, 0, bytes.error().message});
        continue;
      }
      inputs.push_back(read_input(std::move(*bytes), sources.name(id), id, config, pipeline, diagnostics));
    }
  }
  streams.finish();
  if (queue) queue->finish();
  const detect::DetectionResult detection = analyzer.finish();
  const std::vector<catalog::Suspect> suspects = catalog::rank_suspects(detection.findings, *catalog);

  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity == Severity::error) exit_code = k_exit_input_error;
  }
  report::RunResults results;
  results.suspects = &suspects;
  results.detection = &detection.summary;
  results.grouping = &streams.stats();
  results.lines = &pipeline.lines;
  results.sources = &sources;
  results.catalog = &*catalog;
  results.inputs = std::move(inputs);
  results.diagnostics = std::move(diagnostics);
  return report::build_report(results);
}

}  // namespace gapscan::cli
