#include <gapscan/cli/reading.hpp>

#include <gapscan/catalog/embedded.hpp>
#include <gapscan/core/interrupt.hpp>
#include <gapscan/parse/format_sketch.hpp>
#include <gapscan/parse/user_format.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gapscan::cli {
namespace {

constexpr std::size_t k_detection_lines = 64;

/// A run of consecutive lines, prepared on a parsing thread (RecordReader::prepare), then
/// taken in order by the reading thread.
struct LineBatch {
  std::vector<std::shared_ptr<const void>> pins;  // the reader's buffers the lines lie in
  std::vector<source::Line> lines;
  std::vector<parse::RecordReader::Prepared> kinds;
  std::vector<parse::Record> records;
  std::vector<RecordFacts> facts;  // of the records, when there is a stage
  std::string arena;               // record strings that lie outside their line (a JSON format's unescaped values)
  std::size_t bytes = 0;
  bool ready = false;  // guarded by the preparers' mutex

  void clear() {
    pins.clear();
    lines.clear();
    bytes = 0;
    ready = false;
  }

  void prepare(parse::RecordReader& reader, RecordStage* stage) {
    const std::size_t n = lines.size();
    kinds.resize(n);
    records.resize(n);
    if (stage != nullptr) facts.resize(n);
    arena.clear();
    // A view outside its line points into the reader's scratch, which the next line
    // overwrites: it is copied into the arena, and pointed there once the arena stops growing.
    struct Moved {
      std::string_view* view;
      std::size_t offset;
    };
    std::vector<Moved> moved;
    for (std::size_t i = 0; i < n; ++i) {
      const std::string_view text = lines[i].text;
      parse::Record& record = records[i];
      kinds[i] = reader.prepare(text, record);
      if (kinds[i] != parse::RecordReader::Prepared::record) continue;
      if (stage != nullptr) stage->run(record, text, facts[i]);  // while its views are valid
      for (std::string_view* view :
           {&record.group, &record.process, &record.channel, &record.level, &record.message, &record.fields}) {
        if (view->empty() || (view->data() >= text.data() && view->data() + view->size() <= text.data() + text.size()))
          continue;
        moved.push_back({view, arena.size()});
        arena.append(*view);
      }
    }
    for (const Moved& m : moved) *m.view = std::string_view(arena.data() + m.offset, m.view->size());
  }
};

/// Threads that prepare batches of lines, each with its own reader (one that detected the
/// same sample, so it parses as the reading thread's does).
class LinePreparers {
 public:
  LinePreparers(unsigned threads, const parse::ReaderOptions& options, const std::vector<std::string>& sample,
                const RecordStageFactory& stage) {
    for (unsigned i = 0; i < threads; ++i) {
      m_threads.emplace_back([this, options, &sample, stage] {
        parse::RecordReader reader(options);
        reader.detect(sample);
        const std::unique_ptr<RecordStage> own = stage ? stage() : nullptr;
        work(reader, own.get());
      });
    }
  }
  ~LinePreparers() {
    {
      const std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_work.notify_all();
    for (std::thread& thread : m_threads) thread.join();
  }
  LinePreparers(const LinePreparers&) = delete;
  LinePreparers& operator=(const LinePreparers&) = delete;

  void submit(LineBatch* batch) {
    {
      const std::lock_guard lock(m_mutex);
      m_queue.push_back(batch);
    }
    m_work.notify_one();
  }
  void wait(const LineBatch& batch) {
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [&] { return batch.ready; });
  }

 private:
  void work(parse::RecordReader& reader, RecordStage* stage) {
    for (;;) {
      LineBatch* batch = nullptr;
      {
        std::unique_lock lock(m_mutex);
        m_work.wait(lock, [&] { return m_stop || !m_queue.empty(); });
        if (m_queue.empty()) return;
        batch = m_queue.front();
        m_queue.pop_front();
      }
      batch->prepare(reader, stage);
      {
        const std::lock_guard lock(m_mutex);
        batch->ready = true;
      }
      m_done.notify_all();
    }
  }

  std::mutex m_mutex;
  std::condition_variable m_work, m_done;
  std::deque<LineBatch*> m_queue;
  bool m_stop = false;
  std::vector<std::thread> m_threads;  // last: started once the rest is built
};

/// Reads the rest of the input in batches of lines that `parallel.threads` threads prepare,
/// and hands each line back in input order with what its batch's thread made of it.
void read_in_batches(source::LineReader& reader, const parse::ReaderOptions& options,
                     const std::vector<std::string>& sample, const ParallelParse& parallel,
                     const std::function<void(const source::Line&, parse::Record&, parse::RecordReader::Prepared,
                                              const RecordFacts*)>& take) {
  std::deque<std::unique_ptr<LineBatch>> in_flight;
  std::vector<std::unique_ptr<LineBatch>> spare;
  // After the batches: its threads stop first.
  LinePreparers preparers(parallel.threads, options, sample, parallel.stage);
  const std::size_t depth = 2 * static_cast<std::size_t>(parallel.threads) + 1;
  const std::size_t batch_lines = std::max<std::size_t>(1, parallel.batch_lines);
  bool more = true;
  for (;;) {
    while (more && in_flight.size() < depth) {
      std::unique_ptr<LineBatch> batch;
      if (spare.empty()) {
        batch = std::make_unique<LineBatch>();
      } else {
        batch = std::move(spare.back());
        spare.pop_back();
      }
      while (batch->lines.size() < batch_lines && batch->bytes < ParallelParse::k_batch_bytes) {
        const auto line = interrupted() ? std::nullopt : reader.next();
        if (!line) {
          more = false;
          break;
        }
        batch->lines.push_back(*line);
        batch->bytes += line->text.size();
        // Pinned before the next read can move the reader to another buffer.
        if (batch->pins.empty() || batch->pins.back().get() != reader.buffer()) batch->pins.push_back(reader.pin());
      }
      if (batch->lines.empty()) {
        spare.push_back(std::move(batch));
        break;
      }
      preparers.submit(batch.get());
      in_flight.push_back(std::move(batch));
    }
    if (in_flight.empty()) return;
    LineBatch& batch = *in_flight.front();
    preparers.wait(batch);
    for (std::size_t i = 0; i < batch.lines.size(); ++i) {
      const bool made = parallel.stage && batch.kinds[i] == parse::RecordReader::Prepared::record;
      take(batch.lines[i], batch.records[i], batch.kinds[i], made ? &batch.facts[i] : nullptr);
    }
    batch.clear();  // unpins its buffers, on this thread (the reader reuses them)
    spare.push_back(std::move(in_flight.front()));
    in_flight.pop_front();
  }
}

/// A preset's name: letters, digits, '-' and '_', no path and no extension.
bool preset_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

}  // namespace

std::optional<Diagnostic> unread_warning(const InputResult& result, const std::string& name, std::string& sketch) {
  const parse::LineAccount& a = result.account;
  sketch.clear();
  const std::uint64_t written = a.lines - a.blank - a.comment;
  if (a.unparsed == 0 || a.examples.empty() || (a.records > 0 && a.unparsed * 20 < written)) return std::nullopt;
  // Beside records, only lines that look as if they carry a time (digits around a ':', as a
  // time of day has) are worth a warning: untimed text at column 0 (a message body, a stack
  // frame) is no stamp gapscan misses.
  const auto looks_timed = [](const parse::UnparsedExample& example) {
    const std::string_view text = example.text;
    for (std::size_t i = 1; i + 2 < text.size(); ++i) {
      if (text[i] == ':' && std::isdigit(static_cast<unsigned char>(text[i - 1])) != 0 &&
          std::isdigit(static_cast<unsigned char>(text[i + 1])) != 0 &&
          std::isdigit(static_cast<unsigned char>(text[i + 2])) != 0)
        return true;
    }
    return false;
  };
  const auto timed = std::find_if(a.examples.begin(), a.examples.end(), looks_timed);
  if (a.records > 0 && timed == a.examples.end()) return std::nullopt;
  const parse::UnparsedExample& first = timed != a.examples.end() ? *timed : a.examples.front();
  sketch = parse::sketch_format_file(first.text);
  const std::string message =
      a.records == 0
          ? fmt::format("no timestamp gapscan can read on any of its {} lines, so no gap is measured", written)
          : fmt::format("{} of its {} lines have no timestamp gapscan can read: they are left out", a.unparsed,
                        written);
  std::string hint = fmt::format(
      "the first is line {}; describe the layout in a format file and run "
      "gapscan --format-file my-format.toml {} (docs/formats.md, \"User-defined formats\")",
      first.location.line, name);
  if (!sketch.empty()) hint += "; the report shows one built from that line";
  return Diagnostic{Severity::warning, fmt::format("{}:{}", name, first.location.line), message, std::move(hint)};
}

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
                         const RecordCallback& on_record, ParallelParse parallel) {
  parallel.stage = nullptr;
  return read_records(
      std::move(bytes), id, std::move(options),
      [&](const parse::Record& record, std::string_view text, const LineLocation& location, const RecordFacts&) {
        on_record(record, text, location);
      },
      std::move(parallel));
}

InputResult read_records(std::unique_ptr<source::ByteSource> bytes, SourceId id, parse::ReaderOptions options,
                         const FactsCallback& hand_on, ParallelParse parallel) {
  // Reads no larger than a parse batch (ParallelParse::k_batch_bytes): batches in flight keep buffers.
  static_assert(source::LineReader::k_default_chunk <= ParallelParse::k_batch_bytes);
  source::LineReader reader(std::move(bytes));
  parse::RecordReader records(options);
  parse::Record record;
  InputResult result;
  std::uint32_t salt = 0;
  // The reading thread's own stage, for the records it parses itself.
  const std::unique_ptr<RecordStage> stage = parallel.stage ? parallel.stage() : nullptr;
  RecordFacts facts;
  const auto on_record = [&](const parse::Record& ready, std::string_view text, const LineLocation& location) {
    if (stage) stage->run(ready, text, facts);
    hand_on(ready, text, location, facts);
  };
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
  if (parallel.threads > 0 && records.can_prepare()) {
    // Lines are parsed in batches on other threads; this one takes them in order, reading
    // itself the lines whose record may have started on an earlier line (RecordReader::take).
    read_in_batches(reader, options, sample, parallel,
                    [&](const source::Line& line, parse::Record& prepared, parse::RecordReader::Prepared kind,
                        const RecordFacts* made) {
                      if (line.truncated) {
                        records.note_truncated();
                        if (result.first_truncated == 0) result.first_truncated = line.number;
                      }
                      const LineLocation location{id, salt, line.number, line.offset};
                      if (records.take(kind, line.text, location, prepared)) {
                        if (!records.record_ready()) return;
                        if (made != nullptr)
                          hand_on(prepared, line.text, location, *made);
                        else
                          on_record(prepared, line.text, location);
                        return;
                      }
                      records.read(line.text, location, record);
                      if (records.record_ready()) on_record(record, records.record_text(), records.record_location());
                    });
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
