// The scan pipeline: a list of stage calls, nothing more.
//   inputs -> lines -> records -> streams -> gaps and modes -> suspects -> report

#include <gapscan/catalog/embedded.hpp>
#include <gapscan/catalog/loader.hpp>
#include <gapscan/catalog/matcher.hpp>
#include <gapscan/cli/cli.hpp>
#include <gapscan/cli/partial.hpp>
#include <gapscan/cli/progress.hpp>
#include <gapscan/cli/reading.hpp>
#include <gapscan/core/interrupt.hpp>
#include <gapscan/detect/analyzer.hpp>
#include <gapscan/detect/durations.hpp>
#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/message_template.hpp>
#include <gapscan/parse/record_reader.hpp>
#include <gapscan/parse/statement.hpp>
#include <gapscan/report/build.hpp>
#include <gapscan/source/follow.hpp>
#include <gapscan/source/input.hpp>
#include <gapscan/source/line_reader.hpp>
#include <gapscan/stream/stream_table.hpp>
#include <gapscan/stream/window_queue.hpp>

#include <fmt/format.h>

#include <array>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <utility>

namespace gapscan::cli {
namespace {

/// The record's message template (into `out`) and its hash, 0 when it has none.
std::uint64_t template_of(const parse::Record& record, std::string& out) {
  // A JSON line read by the generic reader keeps its fields as the message: the template is
  // that of its message field (pino's msg, Bunyan's msg, structlog's event …), not of the
  // object, whose quoted values would all mask alike.
  std::string_view message = record.message;
  const std::size_t first = message.find_first_not_of(' ');
  if (first != std::string_view::npos && (message[first] == '{' || message[first] == ',')) {
    for (const std::string_view key : {"msg", "message", "event"}) {
      const std::string_view value = parse::json_string_field(message, key);
      if (!value.empty()) {
        message = value;
        break;
      }
    }
  }
  parse::message_template(message, out, record.group);
  return out.empty() ? 0 : parse::template_hash(out);
}

/// What a scan makes of each record where it is parsed (cli::RecordStage): the line's marks
/// (what the analysis would look for in its text) and its message template.
class ScanStage final : public RecordStage {
 public:
  ScanStage(std::shared_ptr<const detect::LineMarker::Patterns> patterns, const stream::GroupingOptions& grouping)
      : m_marker(std::move(patterns), grouping) {}
  void run(const parse::Record& record, std::string_view text, RecordFacts& facts) override {
    const stream::LineMarks marks = m_marker.mark(text, record.fields);
    facts.marked = marks.known;
    facts.screened = marks.screened;
    facts.triggers.assign(marks.triggers.begin(), marks.triggers.end());
    facts.template_hash = template_of(record, facts.template_text);
  }

 private:
  detect::LineMarker m_marker;
};

/// Derived streams: every record also joins the stream of its message template and, when
/// it belongs to a request, the stream of its whole input. Their keys start with
/// detect::k_derived_key (see finding.hpp); the templates' texts name them in the report.
/// Streams belong to one input: the caps count per input (end_input()).
struct DerivedStreams {
  std::string scratch;
  std::map<std::uint64_t, std::string> templates;  // the input's templates: hash -> text (bounded)
  std::set<std::uint64_t> opened;                  // of which have a derived stream (--derived-streams)
  bool input_log = false;                          // whether the input has its whole-input derived stream
  std::uint64_t streams = 0;                       // derived streams opened, over all inputs
  static constexpr std::size_t k_max_templates = ScanState::k_max_templates;
  static constexpr std::array<char, 2> k_log_key{detect::k_derived_key, 'L'};

  /// The record's message template (its facts', else made into `scratch`) and its hash; its text
  /// is kept (the input's first k_max_templates) for the report, which names wait points and
  /// template streams by it.
  std::uint64_t name(const parse::Record& record, const RecordFacts& facts, bool made) {
    const std::uint64_t hash = made ? facts.template_hash : template_of(record, scratch);
    if (hash == 0) return 0;
    if (templates.size() < k_max_templates && templates.find(hash) == templates.end())
      templates.emplace(hash, made ? facts.template_text : scratch);
    return hash;
  }
  /// The record's derived streams (--derived-streams); `hash`: name()'s for it.
  void add(stream::StreamTable& streams_table, const parse::Record& record, std::uint64_t hash, std::string_view text,
           const LineLocation& location, const stream::LineMarks& marks) {
    parse::Record derived = record;
    std::array<char, 24> key{};
    if (!record.group.empty()) {
      derived.group = std::string_view(k_log_key.data(), k_log_key.size());
      streams_table.add(derived, text, location, marks);
      if (!input_log) ++streams;
      input_log = true;
    }
    if (hash == 0) return;
    if (templates.find(hash) != templates.end()) {
      if (opened.insert(hash).second) ++streams;
      const int length = std::snprintf(key.data(), key.size(), "%cT%016llx", detect::k_derived_key,
                                       static_cast<unsigned long long>(hash));
      derived.group = std::string_view(key.data(), static_cast<std::size_t>(length));
      streams_table.add(derived, text, location, marks);
    }
  }
  /// The input's templates, for the report; the next input starts with none.
  std::map<std::uint64_t, std::string> end_input() {
    input_log = false;
    opened.clear();
    return std::exchange(templates, {});
  }
};

/// Process streams: a record whose group is a request id and whose line names the process or
/// thread that wrote it also joins that process's stream (always on: only such lines cost).
struct ProcessStreams {
  std::set<std::string, std::less<>> processes;  // the input's
  std::uint64_t streams = 0;                     // process streams opened, over all inputs
  std::string key;
  static constexpr std::size_t k_max_processes = 4096;

  void add(stream::StreamTable& streams_table, const parse::Record& record, std::string_view text,
           const LineLocation& location, const stream::LineMarks& marks) {
    if (record.process.empty() || record.group.empty() || record.process == record.group) return;
    // Per line: look the process up first, so that a known one costs no allocation.
    if (processes.find(record.process) == processes.end()) {
      if (processes.size() >= k_max_processes) return;
      processes.emplace(record.process);
      ++streams;
    }
    key.assign(1, detect::k_derived_key).append("P").append(record.process);
    parse::Record derived = record;
    derived.group = key;
    streams_table.add(derived, text, location, marks);
  }
  void end_input() { processes.clear(); }
};

struct Pipeline {
  parse::LineAccount lines;
  DerivedStreams* derived = nullptr;    ///< null: no derived streams
  DerivedStreams* templates = nullptr;  ///< names every record's template (the same object as `derived`, if set)
  ProcessStreams* processes = nullptr;
  stream::StreamTable* streams = nullptr;
  /// What the lines are marked with where they are parsed (ScanStage); null: they are not, and
  /// windows keep their text.
  std::shared_ptr<const detect::LineMarker::Patterns> line_patterns;
  stream::GroupingOptions grouping;  ///< the stream table's (what of a line it keeps)
  detect::DurationAnalyzer* durations = nullptr;
  std::shared_ptr<const std::vector<parse::FormatInfo>> user_formats;
  std::uint64_t records = 0;        ///< read so far, over all inputs (--follow's messages)
  detect::ArrivalTracker arrivals;  ///< the input's stamps in file order: do they come in bursts?
  /// Called when an input has been read: its streams are closed and its analysis joins the run's.
  std::function<void(SourceId)> end_input;
};

/// The record's logged duration and phase timers, to the duration analysis.
void add_durations(Pipeline& pipeline, const ScanConfig& config, const parse::Record& record, std::string_view text,
                   const LineLocation& location) {
  if (record.duration >= 0) {
    // Durations are grouped by an explicit --group-by (a field or regex): a
    // request id would make a group of one; else by the operation the line
    // names (op=connect and op=get are different evidence), else one group.
    const bool explicit_group =
        config.group_by.mode == parse::GroupBy::Mode::field || config.group_by.mode == parse::GroupBy::Mode::regex;
    std::string_view group = explicit_group ? record.group : std::string_view();
    std::string operation;
    if (!explicit_group && !record.statement.empty()) {  // a database's statement: by its fingerprint
      group = operation.assign("query=").append(parse::statement_fingerprint(record.statement));
    } else if (!explicit_group) {
      const std::string_view op = parse::find_operation(text);
      if (!op.empty()) group = operation.assign("op=").append(op);
    }
    pipeline.durations->add(group, record.duration, record.duration_digits, location, text, record.fields, record.time);
  }
  // Each phase its line times is a duration of that phase (docs/formats.md, "Phase timers").
  if (std::any_of(record.phases.begin(), record.phases.end(), [](DurationNs v) { return v >= 0; }))
    pipeline.durations->add_phases(record.phases, record.duration);
  for (std::size_t p = 0; p < record.phases.size(); ++p) {
    if (record.phases[p] <= 0) continue;
    std::string group = "phase=";
    group += parse::to_string(static_cast<parse::Phase>(p));
    pipeline.durations->add(group, record.phases[p], record.duration_digits, location, text, record.fields,
                            record.time);
  }
}

/// How one input's lines are parsed: from four jobs on also on other threads (one per four
/// jobs, up to four), but for --follow: a batch would wait for lines to come. Below four, the
/// reading thread's other work keeps both processors busy (docs/performance.md). Each record's
/// marks and template are made where it is parsed (ScanStage).
ParallelParse parallel_parse_of(const ScanConfig& config, const Pipeline& pipeline) {
  ParallelParse parallel;
  if (!config.follow) parallel.threads = std::min(4u, config.jobs / 4);
  if (!config.follow && config.parse_threads >= 0) parallel.threads = std::min(4u, unsigned(config.parse_threads));
  parallel.batch_lines = config.parse_batch;
  if (pipeline.line_patterns) {
    parallel.stage = [patterns = pipeline.line_patterns, grouping = pipeline.grouping] {
      return std::make_unique<ScanStage>(patterns, grouping);
    };
  }
  return parallel;
}

/// Reads one input to the end, handing its records to the stream table.
report::Input read_input(std::unique_ptr<source::ByteSource> bytes, source::Encoding encoding, const std::string& name,
                         SourceId id, TimeNs modified, const ScanConfig& config, Pipeline& pipeline,
                         std::vector<Diagnostic>& diagnostics,
                         std::shared_ptr<const source::LineText> text_file = nullptr) {
  // A plain file's lines keep no text in the streams when they are marked: it is read back.
  if (text_file && pipeline.line_patterns) pipeline.streams->set_text_file(id, std::move(text_file));
  parse::ReaderOptions options;
  options.group_by = config.group_by;
  options.user_formats = pipeline.user_formats;
  options.time = parse::TimeSettings::of_input(config.year, modified, config.zone);
  const ParallelParse parallel = parallel_parse_of(config, pipeline);
  const bool made = static_cast<bool>(parallel.stage);
  InputResult result = read_records(
      std::move(bytes), id, options,
      [&](const parse::Record& record, std::string_view text, const LineLocation& location, const RecordFacts& facts) {
        ++pipeline.records;
        pipeline.arrivals.add(record.time, location, text);
        // Every line's template: the wait points are kept per template of the line before a gap.
        parse::Record named = record;
        const std::uint64_t hash = pipeline.templates->name(record, facts, made);
        named.template_id = static_cast<std::uint32_t>(hash);
        // What the analysis would search the line's text for, found where it was parsed, for
        // every stream it joins: its windows then need no text.
        stream::LineMarks marks;
        if (made) {
          marks.known = facts.marked;
          marks.screened = facts.screened;
          marks.triggers = facts.triggers;
        }
        pipeline.streams->add(named, text, location, marks);
        if (pipeline.derived != nullptr) pipeline.derived->add(*pipeline.streams, named, hash, text, location, marks);
        pipeline.processes->add(*pipeline.streams, record, text, location, marks);
        add_durations(pipeline, config, record, text, location);
      },
      parallel);
  report::Input input;
  input.name = name;
  input.format = std::string(result.format);
  input.encoding = std::string(source::to_string(encoding));
  input.lines = result.account.lines;
  input.bytes = result.bytes;
  if (result.error) {
    input.error = result.error->message;
    diagnostics.push_back(*result.error);
  }
  if (result.first_truncated > 0) {
    diagnostics.push_back({Severity::warning, fmt::format("{}:{}", name, result.first_truncated),
                           fmt::format("{} line{} longer than {} MiB: each read up to there, the rest of it skipped",
                                       result.account.truncated, result.account.truncated == 1 ? "" : "s",
                                       source::LineReader::k_max_line >> 20),
                           result.account.truncated > 1 ? "this is the first of them" : ""});
  }
  if (std::optional<Diagnostic> unread = unread_warning(result, name, input.sketch)) {
    input.unread = fmt::format("{}: {}", unread->where, unread->message);
    diagnostics.push_back(std::move(*unread));
  }
  if (result.account.untimed > result.account.records) {
    diagnostics.push_back({Severity::warning, name,
                           fmt::format("{} of its {} lines carry no time, so no gap can be measured at them",
                                       result.account.untimed, result.account.lines),
                           result.format.starts_with("mediawiki-debug")
                               ? "MediaWiki's debug log has times only with $wgDebugTimestamps (old versions); "
                                 "configure Monolog with a timestamped line or JSON format"
                               : ""});
  }
  pipeline.lines.merge(result.account);
  if (pipeline.end_input) pipeline.end_input(id);
  return input;
}

}  // namespace

/// The trigger lines to align stalls with: the catalog's, its file-scope evidence (looked for
/// as markers, once per distinct pattern) and --trigger.
Expected<detect::AnalyzerOptions> analyzer_options_for(const catalog::Catalog& catalog, const ScanConfig& config) {
  detect::AnalyzerOptions analyzer_options;
  analyzer_options.threads = config.jobs;  // for the tests at the end; the report is the same
  for (const catalog::Cause& cause : catalog.causes) {
    for (const catalog::TriggerPattern& trigger : cause.triggers)
      analyzer_options.triggers.push_back({cause.id, trigger.pattern, trigger.meaning, trigger.after_ms * 1e6});
  }
  std::set<std::string> markers;
  for (const catalog::Cause& cause : catalog.causes) {
    for (const catalog::EvidencePattern& evidence : cause.evidence) {
      if (evidence.scope == catalog::EvidenceScope::file && markers.insert(evidence.pattern).second)
        analyzer_options.triggers.push_back({cause.id, evidence.pattern, evidence.meaning, 0, true});
    }
  }
  for (const std::string& pattern : config.triggers) {
    auto regex = Regex::compile(pattern, "--trigger");
    if (!regex) return unexpected(regex.error());
    analyzer_options.triggers.push_back({std::string(), pattern, std::string()});
  }
  analyzer_options.keep_context =
      catalog::request_evidence_filter(catalog, analyzer_options.context_patterns, &analyzer_options.context_screen);
  return analyzer_options;
}

/// Reads every input (the given texts, or the files and folders named) into the pipeline.
std::vector<report::Input> read_inputs(const ScanConfig& config, const std::vector<source::InputSpec>& specs,
                                       Pipeline& pipeline, source::SourceTable& sources,
                                       std::vector<Diagnostic>& diagnostics) {
  std::vector<report::Input> inputs;
  if (!config.texts.empty()) {
    for (const NamedText& text : config.texts) {
      const SourceId id = sources.add(text.name);
      source::Encoding encoding = source::Encoding::plain;
      auto bytes = source::open_decoded(source::make_string_source(text.text), text.name, &encoding);
      inputs.push_back(read_input(std::move(bytes), encoding, text.name, id, 0, config, pipeline, diagnostics));
    }
  } else {
    std::uint64_t total_bytes = 0;
    for (const source::InputSpec& spec : specs) total_bytes += source::input_size(spec);
    Progress progress(Progress::wanted(config.quiet), specs.size(), total_bytes);
    for (const source::InputSpec& spec : specs) {
      if (interrupted()) break;
      const SourceId id = sources.add(spec.is_stdin ? "<stdin>" : spec.name);
      source::Encoding encoding = source::Encoding::plain;
      std::shared_ptr<const source::LineText> text_file;
      auto bytes = source::open_input(spec, &encoding, &progress.bytes(), &text_file);
      if (!bytes) {
        diagnostics.push_back(bytes.error());
        inputs.push_back(report::Input{sources.name(id), "none", "plain", 0, 0, bytes.error().message, {}, {}});
        progress.file_done();
        continue;
      }
      inputs.push_back(read_input(std::move(*bytes), encoding, sources.name(id), id, source::modification_time(spec),
                                  config, pipeline, diagnostics, std::move(text_file)));
      progress.file_done();
    }
    progress.finish();
  }
  return inputs;
}

namespace {

/// Reads the one input of --follow as it grows, calling `on_tick` while it waits and at least
/// once a second.
std::vector<report::Input> read_followed(const ScanConfig& config, Pipeline& pipeline, source::SourceTable& sources,
                                         std::vector<Diagnostic>& diagnostics, std::function<void()> on_tick) {
  const std::string path = config.paths.empty() ? std::string("-") : config.paths.front();
  const SourceId id = sources.add(path == "-" ? "<stdin>" : path);
  source::FollowOptions options;
  options.on_tick = std::move(on_tick);
  auto bytes = source::open_follow(path, std::move(options));
  if (!bytes) {
    diagnostics.push_back(bytes.error());
    return {report::Input{sources.name(id), "none", "plain", 0, 0, bytes.error().message, {}, {}}};
  }
  return {
      read_input(std::move(*bytes), source::Encoding::plain, sources.name(id), id, 0, config, pipeline, diagnostics)};
}

/// What the report is built from besides detection: kept apart so that --follow's snapshots
/// and gapscan merge build theirs the same way as a scan's final report.
struct ScanParts {
  const catalog::Catalog* catalog = nullptr;
  const std::map<std::uint64_t, std::string>* templates = nullptr;
  std::uint64_t derived_streams = 0;
  const stream::GroupingStats* grouping = nullptr;
  const parse::LineAccount* lines = nullptr;
  const source::SourceTable* sources = nullptr;
};

report::Report report_of(detect::DetectionResult& detection, std::vector<detect::Finding> duration_findings,
                         const detect::PhaseProfile& phases, const ScanParts& parts, std::vector<report::Input> inputs,
                         std::vector<Diagnostic> diagnostics, bool explain) {
  detect::add_duration_findings(detection, std::move(duration_findings));
  std::vector<catalog::Suspect> suspects =
      catalog::rank_suspects(detection.findings, *parts.catalog, detection.markers);
  report::RunResults results;
  // A program's own timer (a heartbeat, a status line on a clock) is no suspect unless the lines
  // say what a cause looks for: a poller's `nothing to do` or `usleep` makes it a sleep loop.
  std::erase_if(suspects, [&](const catalog::Suspect& suspect) {
    if (!suspect.finding->own_timer || (suspect.best.cause != nullptr && suspect.best.evidence >= 0.05)) return false;
    results.timers.push_back(*suspect.finding);
    return true;
  });
  // Stamps that are arrival times come first: the other findings' gaps may be the carrier's too.
  std::stable_partition(suspects.begin(), suspects.end(),
                        [](const catalog::Suspect& suspect) { return suspect.finding->arrival.has_value(); });
  results.suspects = &suspects;
  results.detection = &detection.summary;
  results.runs = std::move(detection.runs);
  results.quantisation = std::move(detection.quantisation);
  results.streams = std::move(detection.streams);
  results.derived_streams = parts.derived_streams;
  results.templates = *parts.templates;
  results.grouping = parts.grouping;
  results.lines = parts.lines;
  results.sources = parts.sources;
  results.catalog = parts.catalog;
  results.inputs = std::move(inputs);
  results.diagnostics = std::move(diagnostics);
  results.phases = &phases;
  report::Report report = report::build_report(results);
  report.explain = explain;
  return report;
}

/// The report of a whole state: its analysis finished.
report::Report report_of_state(ScanState& state, const catalog::Catalog& catalog, bool explain) {
  source::SourceTable sources;
  for (const std::string& name : state.sources) sources.add(name);
  detect::DetectionResult detection = state.analyzer->finish();
  const ScanParts parts{&catalog, &state.templates, state.derived_streams, &state.grouping, &state.lines, &sources};
  std::vector<detect::Finding> duration_findings = state.durations.finish();
  return report_of(detection, std::move(duration_findings), state.durations.phase_profile(), parts,
                   std::move(state.inputs), std::move(state.diagnostics), explain);
}

/// --follow: finishes a copy of the analysis so far (the inputs read, `analyzed`, and the one
/// being read, `analyzer`, with its requests still open), and calls config.on_suspect for each
/// suspect that became likely since the last time.
void announce_likely(const detect::Analyzer& analyzed, const detect::Analyzer& analyzer,
                     const detect::DurationAnalyzer& durations_analyzed, const detect::DurationAnalyzer& durations,
                     const stream::StreamTable& streams, const ScanParts& parts, const ScanConfig& config,
                     std::uint64_t records, std::set<std::string>& announced) {
  std::unique_ptr<detect::Analyzer> current = analyzer.snapshot();
  streams.peek([&](const stream::StreamWindow& window) { current->add(window); });
  std::unique_ptr<detect::Analyzer> copy = analyzed.snapshot();
  copy->merge(std::move(*current));
  detect::DetectionResult detection = copy->finish();
  detect::DurationAnalyzer durations_now = durations_analyzed;
  durations_now.merge(detect::DurationAnalyzer(durations));
  std::vector<detect::Finding> duration_findings = durations_now.finish();
  const report::Report now =
      report_of(detection, std::move(duration_findings), durations_now.phase_profile(), parts, {}, {}, config.explain);
  for (const report::Finding& finding : now.findings) {
    if (finding.likely && finding.cause != "unknown" && announced.insert(finding.cause).second)
      config.on_suspect(finding, now, records);
  }
}

/// 0, k_exit_input_error when an input could not be read, or 128 + the signal that stopped the
/// scan (which then says so among the diagnostics; following ends that way: not an error then).
int exit_status(const ScanConfig& config, const std::vector<report::Input>& inputs,
                std::vector<Diagnostic>& diagnostics) {
  int status = k_exit_ok;
  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity == Severity::error) status = k_exit_input_error;
  }
  const int signal = interrupt_signal();
  if (signal == 0) return status;
  std::uint64_t lines = 0;
  for (const report::Input& input : inputs) lines += input.lines;
  const char* name = signal == SIGINT ? "SIGINT" : "SIGTERM";
  diagnostics.push_back(
      {Severity::warning, "",
       config.follow
           ? fmt::format("stopped following by {} after {} lines: the report covers what was read", name, lines)
           : fmt::format("interrupted by {} after {} lines: the report covers what was read", name, lines),
       ""});
  return config.follow ? status : 128 + signal;
}

/// The catalog given with the config, else the folder's (--patterns), else the built-in one.
Expected<std::shared_ptr<const catalog::Catalog>> catalog_of(const ScanConfig& config) {
  if (config.catalog) return config.catalog;
  std::vector<Diagnostic> diagnostics;
  auto loaded = config.patterns_dir.empty() ? catalog::load_builtin(diagnostics, catalog::Examples::skip)
                                            : catalog::load_directory(config.patterns_dir, diagnostics);
  if (!loaded) return unexpected(diagnostics.empty() ? loaded.error() : diagnostics.front());
  // A scan uses none of the causes' example logs (`gapscan patterns test` does): 1.5 MB. The
  // built-in ones are not even read; a folder's are, to check them.
  for (catalog::Cause& cause : loaded->causes) std::vector<catalog::Example>().swap(cause.examples);
  return std::make_shared<const catalog::Catalog>(std::move(*loaded));
}

/// The records' way from the reader to the streams and the durations, for one input at a time
/// (end_input is the caller's).
Pipeline pipeline_of(const ScanConfig& config,
                     const std::shared_ptr<const std::vector<parse::FormatInfo>>& user_formats,
                     stream::StreamTable& streams, DerivedStreams& derived, ProcessStreams& processes,
                     detect::DurationAnalyzer& durations) {
  Pipeline pipeline;
  pipeline.derived = config.derived_streams ? &derived : nullptr;
  pipeline.templates = &derived;
  pipeline.processes = &processes;
  pipeline.streams = &streams;
  pipeline.durations = &durations;
  pipeline.user_formats = user_formats;
  return pipeline;
}

/// The analyses of the inputs being read one after another: each made when first asked for (its
/// first window), merged into `merged` in input order at the input's end — by the reading thread
/// with one job; with more, by the analysis thread whose turn it is when the input's end marker
/// comes after its last window in the queue, so reading goes on meanwhile. An analysis made
/// after others were merged starts with their adapted prefilter and sampling ceilings: the same
/// report, less work.
class InputAnalyses {
 public:
  InputAnalyses(const detect::Analyzer& prototype, detect::Analyzer& merged)
      : m_prototype(prototype), m_merged(merged) {}

  detect::Analyzer& of(SourceId input) {
    std::lock_guard lock(m_mutex);
    std::unique_ptr<detect::Analyzer>& found = m_live[input];
    if (!found) {
      found = m_prototype.snapshot();
      found->use_prefilter(m_adapted);
      found->set_ceilings(m_ceilings);
    }
    return *found;
  }

  /// With more than one job, the queue whose jobs - 1 threads analyse the windows: each window
  /// is prepared by any of them, then absorbed in order, so the report is the same for any
  /// number of jobs. Null with one job.
  std::unique_ptr<stream::WindowQueue> queue(unsigned jobs) {
    if (jobs <= 1) return nullptr;
    stream::WindowQueue::Limits limits;
    limits.workers = jobs - 1;
    limits.producer_helps = true;  // the reading thread analyses while it waits for room
    return std::make_unique<stream::WindowQueue>(
        [this](const stream::StreamWindow& window) -> std::unique_ptr<stream::WindowWork> {
          if (window.stream_id == k_end_of_input) return std::make_unique<EndOfInput>();
          return of(window.input).prepare(window);
        },
        [this](const stream::StreamWindow& window, std::unique_ptr<stream::WindowWork> work) {
          if (window.stream_id == k_end_of_input) {
            join(window.input);
          } else {
            of(window.input).absorb(window, *work);
          }
        },
        limits);
  }

  /// The input's windows are all handed over: its end marker into the queue, or (no queue) its
  /// analysis merged now.
  void end(SourceId input, stream::WindowQueue* queue, detect::ArrivalSummary arrival) {
    {
      std::lock_guard lock(m_mutex);
      m_arrivals[input] = std::move(arrival);
    }
    if (queue == nullptr) return join(input);
    stream::OwnedWindow end;
    end.input = input;
    end.stream_id = k_end_of_input;
    queue->push(std::move(end));
  }

 private:
  static constexpr std::uint64_t k_end_of_input = UINT64_MAX;  // the stream id of an end marker
  struct EndOfInput final : stream::WindowWork {};

  void join(SourceId input) {
    std::unique_ptr<detect::Analyzer> done;
    {
      std::lock_guard lock(m_mutex);
      const auto found = m_live.find(input);
      const auto arrival = m_arrivals.find(input);
      if (found == m_live.end()) {
        if (arrival != m_arrivals.end()) m_merged.add_arrival(std::move(arrival->second));
        if (arrival != m_arrivals.end()) m_arrivals.erase(arrival);
        return;
      }
      done = std::move(found->second);
      if (arrival != m_arrivals.end()) {
        done->add_arrival(std::move(arrival->second));
        m_arrivals.erase(arrival);
      }
      m_live.erase(found);
      if (std::shared_ptr<const Prefilter> now = done->adapted_prefilter()) m_adapted = std::move(now);
    }
    m_merged.merge(std::move(*done));
    detect::Analyzer::Ceilings now = m_merged.ceilings();
    std::lock_guard lock(m_mutex);
    m_ceilings = std::move(now);
    for (auto& [later, analyzer] : m_live) {  // nothing of theirs absorbed yet
      analyzer->set_ceilings(m_ceilings);
      analyzer->use_prefilter(m_adapted);
    }
  }

  const detect::Analyzer& m_prototype;
  detect::Analyzer& m_merged;
  std::mutex m_mutex;
  std::map<SourceId, std::unique_ptr<detect::Analyzer>> m_live;
  std::map<SourceId, detect::ArrivalSummary> m_arrivals;  // of inputs read, until joined
  std::shared_ptr<const Prefilter> m_adapted;             // the last merged input's
  detect::Analyzer::Ceilings m_ceilings;                  // of the inputs merged so far
};

/// Spilling line text failed (no temporary file could be made, written or read back): the
/// requests that did not fit in memory were cut early, or example lines are blank, which the
/// user should know.
void note_spill_error(const stream::GroupingStats& grouping, std::vector<Diagnostic>& diagnostics) {
  if (grouping.spill_error.empty()) return;
  diagnostics.push_back(
      Diagnostic{Severity::warning, "", grouping.spill_error, "set TMPDIR to a writable directory with free space"});
}

/// The inputs one after another on this thread, with jobs - 1 threads analysing each input's
/// windows (--follow, text inputs, one input, or one input that is most of the bytes).
void read_in_turn(const ScanConfig& config, const std::vector<source::InputSpec>& specs,
                  const catalog::Catalog& catalog, const detect::Analyzer& prototype,
                  const std::shared_ptr<const std::vector<parse::FormatInfo>>& user_formats, ScanState& state) {
  std::vector<Diagnostic>& diagnostics = state.diagnostics;
  stream::GroupingOptions grouping;
  grouping.idle_timeout = static_cast<DurationNs>(config.idle_timeout_s * 1e9);
  InputAnalyses analyses(prototype, *state.analyzer);
  stream::BufferPool buffers;  // before the queue: it outlives the windows the queue holds
  grouping.memory = &buffers;
  const std::unique_ptr<stream::WindowQueue> queue = analyses.queue(config.jobs);
  stream::MemoryTrimmer trimmer;
  stream::StreamTable streams(grouping, [&](stream::OwnedWindow&& window) {
    if (queue) {
      queue->push(std::move(window));
    } else {
      analyses.of(window.input).add(window.view());
      trimmer.consumed(window.bytes());
    }
  });
  detect::DurationAnalyzer durations;  // the input being read
  DerivedStreams derived;
  ProcessStreams processes;
  const auto line_patterns = prototype.line_patterns();
  Pipeline pipeline = pipeline_of(config, user_formats, streams, derived, processes, durations);
  pipeline.line_patterns = line_patterns;
  pipeline.grouping = grouping;
  pipeline.end_input = [&](SourceId input) {
    streams.finish();
    streams.set_text_file(input, nullptr);
    analyses.end(input, queue.get(), pipeline.arrivals.finish(input));
    state.durations.merge(std::exchange(durations, detect::DurationAnalyzer()));
    state.add_templates(derived.end_input());
    processes.end_input();
  };
  source::SourceTable sources;

  // --follow: a snapshot of the analysis now and then (at most a fifth of the time spent on them).
  std::set<std::string> announced;
  auto next_snapshot = std::chrono::steady_clock::now();
  const auto snapshot = [&] {
    const auto start = std::chrono::steady_clock::now();
    if (start < next_snapshot || !config.on_suspect) return;
    if (queue) queue->drain();
    std::map<std::uint64_t, std::string> templates = state.templates;
    templates.insert(derived.templates.begin(), derived.templates.end());
    const ScanParts parts{&catalog,         &templates,      derived.streams + processes.streams,
                          &streams.stats(), &pipeline.lines, &sources};
    const SourceId reading = sources.size() > 0 ? static_cast<SourceId>(sources.size() - 1) : 0;
    announce_likely(*state.analyzer, analyses.of(reading), state.durations, durations, streams, parts, config,
                    pipeline.records, announced);
    next_snapshot = std::chrono::steady_clock::now() + 4 * (std::chrono::steady_clock::now() - start);
  };
  std::vector<report::Input> inputs = config.follow ? read_followed(config, pipeline, sources, diagnostics, snapshot)
                                                    : read_inputs(config, specs, pipeline, sources, diagnostics);
  if (queue) queue->finish();

  state.derived_streams = derived.streams + processes.streams;
  state.grouping = streams.stats();
  note_spill_error(state.grouping, diagnostics);
  state.lines = pipeline.lines;
  for (SourceId id = 0; id < sources.size(); ++id) state.sources.push_back(sources.name(id));
  state.inputs = std::move(inputs);
}

/// Whether to read several inputs at once, and in how many lanes: from four jobs on (on two
/// processors one thread reading while the other analyses is faster, on many small files too:
/// docs/performance.md), and not when an input is more than half of all the bytes (its lane
/// would be the run's: better read with every thread).
unsigned lanes_for(const ScanConfig& config, const std::vector<source::InputSpec>& specs) {
  constexpr std::size_t k_max_lanes = 8;  // each lane buffers up to 32 MiB of lines
  const auto lanes = std::min<std::size_t>({config.jobs, specs.size(), k_max_lanes});
  if (config.jobs < 4 || lanes < 2) return 1;
  std::uint64_t total = 0, largest = 0;
  for (const source::InputSpec& spec : specs) {
    if (spec.is_stdin) return 1;
    const std::uint64_t size = source::input_size(spec);
    total += size;
    largest = std::max(largest, size);
  }
  return 2 * largest > total ? 1 : static_cast<unsigned>(lanes);
}

/// One input read and analysed on its own, as a lane of read_in_lanes does it: a stream table,
/// an analysis and derived-stream caps of its own, as the first input of a scan would have them
/// (its stream ids start at 0: the caller shifts them).
ScanState scan_one_input(const source::InputSpec& spec, SourceId id, const ScanConfig& config,
                         const detect::Analyzer& prototype, const detect::Analyzer::Ceilings& ceilings,
                         std::shared_ptr<const Prefilter>& adapted,
                         const std::shared_ptr<const std::vector<parse::FormatInfo>>& user_formats,
                         const std::shared_ptr<const detect::LineMarker::Patterns>& line_patterns, Progress& progress) {
  ScanState one;
  one.analyzer = prototype.snapshot();
  std::unique_ptr<detect::Analyzer> analyzer = prototype.snapshot();
  // Spared work, the same report: samples the merge would drop (what the inputs joined so far
  // keep), adapting the trigger prefilter again (the lane's last input's).
  analyzer->set_ceilings(ceilings);
  analyzer->use_prefilter(adapted);
  stream::GroupingOptions grouping;
  grouping.idle_timeout = static_cast<DurationNs>(config.idle_timeout_s * 1e9);
  stream::MemoryTrimmer trimmer;
  stream::StreamTable streams(grouping, [&](stream::OwnedWindow&& window) {
    analyzer->add(window.view());
    trimmer.consumed(window.bytes());
  });
  detect::DurationAnalyzer durations;
  DerivedStreams derived;
  ProcessStreams processes;
  Pipeline pipeline = pipeline_of(config, user_formats, streams, derived, processes, durations);
  pipeline.line_patterns = line_patterns;
  pipeline.grouping = grouping;
  pipeline.end_input = [&](SourceId input) {
    streams.finish();
    streams.set_text_file(input, nullptr);
    analyzer->add_arrival(pipeline.arrivals.finish(input));
    if (!adapted) adapted = analyzer->adapted_prefilter();
    one.analyzer->merge(std::move(*analyzer));
    one.durations.merge(std::exchange(durations, detect::DurationAnalyzer()));
    one.add_templates(derived.end_input());
    processes.end_input();
  };
  const std::string name = spec.is_stdin ? "<stdin>" : spec.name;
  source::Encoding encoding = source::Encoding::plain;
  std::shared_ptr<const source::LineText> text_file;
  auto bytes = source::open_input(spec, &encoding, &progress.bytes(), &text_file);
  if (!bytes) {
    one.diagnostics.push_back(bytes.error());
    one.inputs.push_back(report::Input{name, "none", "plain", 0, 0, bytes.error().message, {}, {}});
  } else {
    one.inputs.push_back(read_input(std::move(*bytes), encoding, name, id, source::modification_time(spec), config,
                                    pipeline, one.diagnostics, std::move(text_file)));
  }
  one.derived_streams = derived.streams + processes.streams;
  one.grouping = streams.stats();
  note_spill_error(one.grouping, one.diagnostics);
  one.lines = pipeline.lines;
  one.sources.push_back(name);
  return one;
}

/// Several inputs at once: `lanes` threads each read and analyse one input at a time
/// (scan_one_input), and the inputs' states join `state` in input order, their stream ids
/// shifted to what one thread reading them in turn would have given: the same report. At most
/// 2 × lanes inputs are read ahead of the first not yet joined.
void read_in_lanes(const ScanConfig& config, const std::vector<source::InputSpec>& specs, unsigned lanes,
                   const detect::Analyzer& prototype,
                   const std::shared_ptr<const std::vector<parse::FormatInfo>>& user_formats, ScanState& state) {
  std::uint64_t total_bytes = 0;
  for (const source::InputSpec& spec : specs) total_bytes += source::input_size(spec);
  Progress progress(Progress::wanted(config.quiet), specs.size(), total_bytes);
  std::vector<std::optional<ScanState>> done(specs.size());
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t next = 0, joined = 0, running = lanes;
  detect::Analyzer::Ceilings ceilings;  // of the inputs joined so far
  const auto line_patterns = prototype.line_patterns();
  const auto lane = [&] {
    std::shared_ptr<const Prefilter> adapted;  // this lane's
    std::unique_lock lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return next >= specs.size() || next < joined + 2 * std::size_t{lanes}; });
      if (next >= specs.size() || interrupted()) break;
      const std::size_t index = next++;
      // A copy taken under the lock: the joining thread replaces `ceilings` meanwhile.
      // NOLINTNEXTLINE(performance-unnecessary-copy-initialization)
      const detect::Analyzer::Ceilings seen = ceilings;
      lock.unlock();
      ScanState one = scan_one_input(specs[index], static_cast<SourceId>(index), config, prototype, seen, adapted,
                                     user_formats, line_patterns, progress);
      progress.file_done();
      lock.lock();
      done[index] = std::move(one);
      changed.notify_all();
    }
    --running;
    changed.notify_all();
  };
  std::vector<std::thread> threads;
  for (unsigned k = 0; k < lanes; ++k) threads.emplace_back(lane);
  {
    std::unique_lock lock(mutex);
    while (joined < specs.size()) {
      changed.wait(lock, [&] { return done[joined].has_value() || running == 0; });
      if (!done[joined]) break;  // interrupted: the inputs before the first one not read
      ScanState one = std::move(*done[joined]);
      done[joined].reset();
      ++joined;
      changed.notify_all();
      lock.unlock();
      one.analyzer->shift_streams(state.grouping.streams);
      state.merge(std::move(one));
      detect::Analyzer::Ceilings now = state.analyzer->ceilings();
      lock.lock();
      ceilings = std::move(now);
    }
  }
  for (std::thread& thread : threads) thread.join();
  progress.finish();
}

/// gapscan merge: the partials, in the order given, added up into one report.
Expected<report::Report> merge_partials(const ScanConfig& config, const catalog::Catalog& catalog,
                                        PartialSettings settings, const detect::Analyzer& prototype, ScanState& state,
                                        int& exit_code) {
  settings.grouping.clear();  // the first partial's
  for (const std::string& path : config.partials) {
    if (interrupted()) break;
    if (auto merged = merge_partial(path, settings, prototype, state); !merged) return unexpected(merged.error());
  }
  for (const Diagnostic& diagnostic : state.diagnostics) {
    if (diagnostic.severity == Severity::error) exit_code = k_exit_input_error;
  }
  return report_of_state(state, catalog, config.explain);
}

}  // namespace

Expected<report::Report> run_scan(const ScanConfig& config, int& exit_code) {
  exit_code = k_exit_ok;
  std::vector<Diagnostic> diagnostics;

  auto loaded = catalog_of(config);
  if (!loaded) return unexpected(loaded.error());
  const std::shared_ptr<const catalog::Catalog> catalog = *loaded;

  std::vector<Diagnostic> format_diagnostics;
  auto user_formats = load_user_formats(config.format_files, config.patterns_dir, format_diagnostics);
  if (!user_formats) return unexpected(user_formats.error());
  catalog::release_embedded_pages();  // parsed: the catalog and the format presets

  auto analyzer_options = analyzer_options_for(*catalog, config);
  if (!analyzer_options) return unexpected(analyzer_options.error());
  const PartialSettings settings = partial_settings(config, *analyzer_options);
  // Each input is analysed on its own (its streams end with it) and its analysis then joins the
  // run's (Analyzer::merge): a run over many inputs is the merge of runs over each, which is
  // what lets partial scans (--partial) merge into the report of one.
  const detect::Analyzer prototype(std::move(*analyzer_options));
  ScanState state;
  state.analyzer = prototype.snapshot();  // the inputs read
  if (!config.partials.empty()) return merge_partials(config, *catalog, settings, prototype, state, exit_code);

  std::vector<source::InputSpec> specs;
  if (!config.follow && config.texts.empty()) {
    const source::InputFilter filter{config.include, config.exclude};
    specs = source::expand_inputs(config.paths, diagnostics, filter);
  }
  state.diagnostics = std::move(diagnostics);
  if (const unsigned lanes = lanes_for(config, specs); lanes > 1) {
    read_in_lanes(config, specs, lanes, prototype, *user_formats, state);
  } else {
    read_in_turn(config, specs, *catalog, prototype, *user_formats, state);
  }
  exit_code = exit_status(config, state.inputs, state.diagnostics);
  if (!config.partial_file.empty()) {
    // --partial: the evidence is saved for gapscan merge; the report says only what was read.
    report::Report report;
    report.inputs = state.inputs;
    report.diagnostics = state.diagnostics;
    if (auto written = write_partial(config.partial_file, state, settings); !written) {
      report.diagnostics.push_back(written.error());
      exit_code = k_exit_usage;
    }
    return report;
  }
  return report_of_state(state, *catalog, config.explain);
}

}  // namespace gapscan::cli
