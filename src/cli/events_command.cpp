// `gapscan events`: what the parse stage sees, one row per record. For checking formats and
// for scoring timestamp recognition (bench/score_corpus.sh).

#include <gapscan/cli/cli.hpp>
#include <gapscan/cli/commands.hpp>
#include <gapscan/cli/options.hpp>
#include <gapscan/cli/reading.hpp>
#include <gapscan/source/input.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gapscan::cli {

namespace {

/// A Record::fields block (`name=value name="a b"`) as a JSON object.
nlohmann::ordered_json fields_object(std::string_view fields) {
  nlohmann::ordered_json object = nlohmann::ordered_json::object();
  std::size_t pos = 0;
  while (pos < fields.size()) {
    const std::size_t equals = fields.find('=', pos);
    if (equals == std::string_view::npos) break;
    const std::string name(fields.substr(pos, equals - pos));
    std::size_t start = equals + 1, end = 0;
    if (start < fields.size() && fields[start] == '"') {
      ++start;
      end = fields.find('"', start);
      if (end == std::string_view::npos) end = fields.size();
      pos = end + 2;
    } else {
      end = fields.find(' ', start);
      if (end == std::string_view::npos) end = fields.size();
      pos = end + 1;
    }
    if (!object.contains(name)) object[name] = std::string(fields.substr(start, end - start));
  }
  return object;
}

}  // namespace

int events_command(const std::vector<std::string>& args) {
  auto options = parse_events_options(args);
  if (!options) {
    print_diagnostic(options.error());
    return k_exit_usage;
  }
  if (options->help) {
    write_stdout(events_usage());
    return k_exit_ok;
  }
  std::vector<Diagnostic> diagnostics;
  auto user_formats = load_user_formats(options->format_files, "", diagnostics);
  if (!user_formats) {
    for (const Diagnostic& diagnostic : diagnostics) print_diagnostic(diagnostic);
    return k_exit_usage;
  }
  const auto inputs = source::expand_inputs(options->paths, diagnostics, {options->include, options->exclude});
  std::string out;
  bool open_pipe = true;
  auto flush = [&](bool force) {
    if (!force && out.size() < (1u << 16)) return;
    if (open_pipe) open_pipe = write_stdout(out);
    out.clear();
  };
  SourceId id = 0;
  for (const source::InputSpec& spec : inputs) {
    const std::string name = spec.is_stdin ? "<stdin>" : spec.name;
    auto bytes = source::open_input(spec);
    if (!bytes) {
      diagnostics.push_back(bytes.error());
      continue;
    }
    if (options->output == OutputFormat::text && inputs.size() > 1) out += fmt::format("# {}\n", name);
    parse::ReaderOptions reader;
    reader.group_by = options->group_by;
    reader.user_formats = *user_formats;
    reader.time = parse::TimeSettings::of_input(options->year, source::modification_time(spec), options->zone);
    const InputResult result = read_records(
        std::move(*bytes), id++, reader,
        [&](const parse::Record& record, std::string_view, const LineLocation& location) {
          if (!open_pipe) return;
          if (options->output == OutputFormat::json) {
            nlohmann::ordered_json row;
            row["input"] = name;
            row["line"] = location.line;
            row["time_ns"] = record.time;
            row["group"] = record.group.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(record.group);
            row["format"] = record.format;
            if (record.duration >= 0) row["duration_ns"] = record.duration;
            if (!record.fields.empty()) row["fields"] = fields_object(record.fields);
            out += row.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            out += '\n';
          } else {
            fmt::format_to(std::back_inserter(out), "{}\t{}\t{}\t{}\n", location.line, record.time,
                           record.group.empty() ? std::string_view("-") : record.group, record.format);
          }
          flush(false);
        });
    if (result.error) diagnostics.push_back(*result.error);
  }
  flush(true);
  int exit_code = k_exit_ok;
  for (const Diagnostic& diagnostic : diagnostics) {
    print_diagnostic(diagnostic);
    if (diagnostic.severity == Severity::error) exit_code = k_exit_input_error;
  }
  return exit_code;
}

}  // namespace gapscan::cli
