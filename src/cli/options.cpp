// All command-line parsing. Each option is defined once, with its help text, in the tables
// below; the usage texts are generated from them.

#include <gapscan/cli/options.hpp>
#include <gapscan/cli/reading.hpp>
#include <gapscan/cli/suggest.hpp>

#include <sched.h>

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <thread>

namespace gapscan::cli {
namespace po = boost::program_options;

namespace {

/// The processors this process may run on (its affinity mask: taskset, a container's cpuset),
/// else what the machine has; at least 1.
unsigned available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    return static_cast<unsigned>(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

po::options_description scan_description(ScanOptions& options, std::string& output, std::string& group_by,
                                         std::string& tz, std::string& fail_on) {
  po::options_description description("Options");
  // clang-format off
  description.add_options()
      ("help,h", po::bool_switch(&options.help), "show this help")
      ("output,o", po::value(&output)->default_value("text"),
       "report format: text, json, markdown (for an issue tracker) or html (one self-contained page with plots)")
      ("follow,f", po::bool_switch(&options.config.follow),
       "follow one growing file or standard input (like tail -F): print each suspect when it becomes "
       "likely, and the whole report when the input ends or on Ctrl-C")
      ("partial", po::value(&options.config.partial_file)->value_name("FILE"),
       "save the evidence to FILE (- for standard output) instead of printing a report: gapscan merge adds "
       "partials up into the report one scan over all their inputs would give")
      ("report", po::value(&options.config.report_file),
       "write the report to this file instead of stdout (text without colour, 80 columns)")
      ("patterns", po::value(&options.config.patterns_dir),
       "read the cause catalog from this folder of *.toml files instead of the built-in one")
      ("group-by", po::value(&group_by)->default_value("auto"),
       "auto: by request id, trace id, then pid or syslog tag; none: one stream per input; "
       "NAME: the value of NAME= or of a JSON key path (extra.reqId); re:REGEX: its first capture group")
      ("idle-timeout", po::value(&options.config.idle_timeout_s)->default_value(600),
       "seconds of log time after which a request without new lines is closed")
      ("format-file", po::value(&options.config.format_files)->composing(),
       "a user-defined format (TOML: regex and time layout, docs/formats.md); repeatable")
      ("include", po::value(&options.config.include)->composing(),
       "in folders, read only files matching this glob (repeatable; e.g. '*.log*')")
      ("exclude", po::value(&options.config.exclude)->composing(),
       "in folders, skip files matching this glob (repeatable)")
      ("year", po::value(&options.config.year),
       "year of stamps that have none (syslog), when no line of the file has one "
       "(default: the file's modification year)")
      ("tz", po::value(&tz)->default_value("UTC"),
       "zone of stamps that have none: UTC, an offset such as +01:00, or a name such as Europe/Berlin")
      ("jobs,j", po::value(&options.config.jobs)->default_value(available_cores()),
       "threads in all (default: the processors this process may run on): 1 reads and analyses on one "
       "thread; N reads on one while N - 1 analyse; the report is the same for any N")
      ("color", po::value(&options.config.color)->default_value("auto"),
       "colour in the text report: auto (when stdout is a terminal and NO_COLOR is not set), always or never")
      ("quiet,q", po::bool_switch(&options.config.quiet),
       "no progress line on stderr (shown only when stderr is a terminal)")
      ("explain", po::bool_switch(&options.config.explain),
       "print each suspect's score components (docs/ranking.md) and every evidence pattern tested")
      ("derived-streams", po::bool_switch(&options.config.derived_streams),
       "also analyse the lines of each message template, and all lines of each input whose lines "
       "belong to requests (slower: about 3.5 times on a large log)")
      ("fail-on", po::value(&fail_on),
       "exit with status 3 when a suspect named by the catalog reaches this confidence: likely (0.6), "
       "possible (any named suspect) or a number from 0 to 1; for CI")
      ("trigger", po::value(&options.config.triggers)->composing(),
       "a regex (RE2) of lines that may start a stall, such as 'GC pause|fork'; gaps of other "
       "streams around them are tested (repeatable; the catalog's triggers are always tested)");
  // clang-format on
  return description;
}

Diagnostic usage_error(const std::string& message, const std::string& hint) { return make_error("", message, hint); }

/// A command line Boost could not read: its message, and for an unknown option the known one
/// closest to it.
Diagnostic option_error(const po::error& error, const po::options_description& options, const std::string& help) {
  if (const auto* unknown = dynamic_cast<const po::unknown_option*>(&error)) {
    std::vector<std::string> names;
    for (const auto& option : options.options()) {
      if (!option->long_name().empty() && option->long_name() != "input" && option->long_name() != "word")
        names.push_back("--" + option->long_name());
    }
    const std::string name = unknown->get_option_name();
    const std::string meant = closest(name.substr(0, name.find('=')), names);
    if (!meant.empty()) return usage_error(error.what(), "did you mean " + meant + "? see " + help);
  }
  return usage_error(error.what(), "see " + help);
}

/// An unknown word for an option that takes one of `known`.
Diagnostic unknown_value(const std::string& what, const std::string& value, const std::vector<std::string>& known) {
  std::string list;
  for (const std::string& word : known) list += (list.empty() ? "" : ", ") + word;
  const std::string meant = closest(value, known);
  return usage_error(fmt::format("unknown {} '{}'", what, value),
                     meant.empty() ? "use " + list : "did you mean " + meant + "? one of " + list);
}

/// --group-by: auto, none, re:REGEX (one capture group) or a field name / JSON key path.
Expected<parse::GroupBy> parse_group_by(const std::string& text) {
  parse::GroupBy by;
  if (text == "auto") return by;
  if (text == "none") {
    by.mode = parse::GroupBy::Mode::none;
    return by;
  }
  if (text.rfind("re:", 0) == 0) {
    auto regex = Regex::compile(text.substr(3), "--group-by");
    if (!regex) return unexpected(regex.error());
    if (regex->group_names().size() < 2) {
      return unexpected(usage_error("--group-by re:REGEX needs one capture group", "e.g. re:conn=(\\d+)"));
    }
    by.mode = parse::GroupBy::Mode::regex;
    by.regex = std::make_shared<const Regex>(std::move(*regex));
    return by;
  }
  if (text.empty() || text.find_first_of(" \t=") != std::string::npos) {
    return unexpected(usage_error(fmt::format("unknown --group-by '{}'", text),
                                  "use auto, none, a field or JSON key path (extra.reqId), or re:REGEX"));
  }
  by.mode = parse::GroupBy::Mode::field;
  by.field = text;
  return by;
}

/// Validates --year and loads --tz.
std::optional<Diagnostic> time_options(int year, const std::string& tz, std::shared_ptr<const parse::Zone>& zone) {
  if (year != 0 && (year < 1 || year > 9999)) return usage_error("--year must be between 1 and 9999", "");
  auto loaded = parse::Zone::load(tz);
  if (!loaded) {
    Diagnostic error = loaded.error();
    error.message = "--tz: " + error.message;
    return error;
  }
  if (!loaded->is_utc()) zone = std::make_shared<const parse::Zone>(std::move(*loaded));
  return std::nullopt;
}

}  // namespace

Expected<ScanOptions> parse_scan_options(const std::vector<std::string>& args) {
  ScanOptions options;
  std::string output, group_by, tz, fail_on;
  po::options_description description = scan_description(options, output, group_by, tz, fail_on);
  po::options_description hidden;
  hidden.add_options()("input", po::value(&options.config.paths));
  // Lines per parsing batch: tests make it small so that batches end everywhere.
  hidden.add_options()("parse-batch", po::value(&options.config.parse_batch));
  hidden.add_options()("parse-threads", po::value(&options.config.parse_threads));
  po::options_description all;
  all.add(description).add(hidden);
  po::positional_options_description positional;
  positional.add("input", -1);
  try {
    po::variables_map values;
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), values);
    po::notify(values);
  } catch (const po::error& error) {
    return unexpected(option_error(error, all, "gapscan --help"));
  }
  if (options.config.parse_batch == 0) return unexpected(usage_error("--parse-batch must be at least 1", ""));
  if (output == "text") {
    options.config.output = OutputFormat::text;
  } else if (output == "json") {
    options.config.output = OutputFormat::json;
  } else if (output == "markdown" || output == "md") {
    options.config.output = OutputFormat::markdown;
  } else if (output == "html") {
    options.config.output = OutputFormat::html;
  } else {
    return unexpected(unknown_value("output format", output, {"text", "json", "markdown", "html"}));
  }
  if (options.config.color != "auto" && options.config.color != "always" && options.config.color != "never") {
    return unexpected(unknown_value("--color value", options.config.color, {"auto", "always", "never"}));
  }
  auto by = parse_group_by(group_by);
  if (!by) return unexpected(by.error());
  options.config.group_by = std::move(*by);
  if (options.config.jobs == 0) return unexpected(usage_error("--jobs must be at least 1", ""));
  if (!options.config.partial_file.empty() && (options.config.follow || !options.config.report_file.empty())) {
    return unexpected(usage_error("--partial saves evidence, not a report: it goes with neither --follow nor --report",
                                  "gapscan merge FILE prints the report of partials"));
  }
  if (options.config.follow) {
    if (options.config.paths.size() > 1)
      return unexpected(usage_error("--follow follows one file or standard input", "run one gapscan per file"));
    std::error_code error;
    if (!options.config.paths.empty() && std::filesystem::is_directory(options.config.paths.front(), error))
      return unexpected(
          usage_error("--follow follows one file or standard input, not a folder", "name the file that grows"));
  }
  if (auto error = time_options(options.config.year, tz, options.config.zone)) {
    return unexpected(*error);
  }
  if (options.config.idle_timeout_s <= 0) {
    return unexpected(usage_error("--idle-timeout must be positive", ""));
  }
  // An installed gapscan reads the catalog installed beside it (share/gapscan/patterns).
  if (options.config.patterns_dir.empty()) options.config.patterns_dir = installed_patterns_dir();
  if (!fail_on.empty()) {
    if (fail_on == "likely") {
      options.config.fail_on = 0.6;
    } else if (fail_on == "possible") {
      options.config.fail_on = 0;
    } else {
      char* end = nullptr;
      const double level = std::strtod(fail_on.c_str(), &end);
      if (end == fail_on.c_str() || *end != '\0' || !(level >= 0 && level <= 1)) {
        return unexpected(unknown_value("--fail-on level", fail_on, {"likely", "possible", "a number from 0 to 1"}));
      }
      options.config.fail_on = level;
    }
  }
  return options;
}

namespace {

po::options_description events_description(EventsOptions& options, std::string& output, std::string& group_by,
                                           std::string& tz) {
  po::options_description description("Options");
  // clang-format off
  description.add_options()
      ("help,h", po::bool_switch(&options.help), "show this help")
      ("output,o", po::value(&output)->default_value("text"), "text (tab-separated) or json (JSON lines)")
      ("group-by", po::value(&group_by)->default_value("auto"), "auto, none, NAME or re:REGEX, as for scan")
      ("format-file", po::value(&options.format_files)->composing(), "a user-defined format, as for scan")
      ("include", po::value(&options.include)->composing(), "in folders, read only files matching this glob")
      ("exclude", po::value(&options.exclude)->composing(), "in folders, skip files matching this glob")
      ("year", po::value(&options.year), "year of stamps that have none, as for scan")
      ("tz", po::value(&tz)->default_value("UTC"), "zone of stamps that have none, as for scan");
  // clang-format on
  return description;
}

}  // namespace

Expected<EventsOptions> parse_events_options(const std::vector<std::string>& args) {
  EventsOptions options;
  std::string output, group_by, tz;
  po::options_description description = events_description(options, output, group_by, tz);
  po::options_description hidden;
  hidden.add_options()("input", po::value(&options.paths));
  po::options_description all;
  all.add(description).add(hidden);
  po::positional_options_description positional;
  positional.add("input", -1);
  try {
    po::variables_map values;
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), values);
    po::notify(values);
  } catch (const po::error& error) {
    return unexpected(option_error(error, all, "gapscan events --help"));
  }
  if (output == "json") {
    options.output = OutputFormat::json;
  } else if (output != "text") {
    return unexpected(unknown_value("output format", output, {"text", "json"}));
  }
  auto by = parse_group_by(group_by);
  if (!by) return unexpected(by.error());
  options.group_by = std::move(*by);
  if (auto error = time_options(options.year, tz, options.zone)) return unexpected(*error);
  return options;
}

std::string events_usage() {
  EventsOptions options;
  std::string output, group_by, tz;
  std::ostringstream text;
  text << "Usage: gapscan events [options] [FILE|FOLDER|-]...\n\n"
          "Prints one row per record: the physical line where it starts, its time as integer\n"
          "nanoseconds since the Unix epoch (UTC), its group key (or -) and the format name,\n"
          "separated by tabs; with several inputs, a '# NAME' line precedes each input's rows.\n\n"
       << events_description(options, output, group_by, tz);
  return text.str();
}

std::string merge_usage() {
  ScanOptions options;
  std::string output, group_by, tz, fail_on;
  std::ostringstream text;
  text << "Usage: gapscan merge [options] PARTIAL...\n\n"
          "Adds up partial scans (gapscan scan --partial PARTIAL LOGS...) into the report one scan over\n"
          "all their inputs would give, the partials' inputs taken in the order the partials are given.\n"
          "The partials must be made with the same --group-by, --idle-timeout and --derived-streams,\n"
          "and with the catalog and --trigger given here. The report options are scan's:\n\n"
       << scan_description(options, output, group_by, tz, fail_on)
       << "\nExit status: 0 merged; 1 an input of a partial could not be read completely; 2 a usage\n"
          "error, a broken catalog, or a partial that cannot be read or was made otherwise; 3 --fail-on\n"
          "found a suspect.\n";
  return text.str();
}

std::string scan_usage() {
  ScanOptions options;
  std::string output, group_by, tz, fail_on;
  std::ostringstream text;
  text << "Usage: gapscan [scan] [options] [FILE|FOLDER|-]...\n\n"
          "Finds regular gaps between the lines of each request and names their likely cause.\n"
          "Reads standard input when no file is given or for '-'.\n\n"
       << scan_description(options, output, group_by, tz, fail_on)
       << "\nExit status: 0 the scan ran; 1 an input could not be read completely (the report covers\n"
          "what was read); 2 a usage error or a broken catalog; 3 --fail-on found a suspect; 130 or\n"
          "143 stopped by SIGINT or SIGTERM, after the report of what was read.\n";
  return text.str();
}

Expected<PatternsOptions> parse_patterns_options(const std::vector<std::string>& args) {
  PatternsOptions options;
  std::string folder;
  po::options_description description("Options");
  description.add_options()("help,h", po::bool_switch(&options.help), "show this help")(
      "patterns", po::value(&folder), "the catalog folder (the same as DIR)");
  po::options_description hidden;
  std::vector<std::string> words;
  hidden.add_options()("word", po::value(&words));
  po::options_description all;
  all.add(description).add(hidden);
  po::positional_options_description positional;
  positional.add("word", -1);
  try {
    po::variables_map values;
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), values);
    po::notify(values);
  } catch (const po::error& error) {
    return unexpected(option_error(error, all, "gapscan patterns --help"));
  }
  if (options.help) return options;
  if (words.empty()) {
    return unexpected(usage_error("patterns needs an action",
                                  "use: gapscan patterns check|test|list [DIR] (see gapscan patterns --help)"));
  }
  if (words[0] != "check" && words[0] != "list" && words[0] != "test") {
    return unexpected(unknown_value("patterns action", words[0], {"check", "test", "list"}));
  }
  if (words.size() > 2) return unexpected(usage_error("too many arguments", "gapscan patterns check [DIR]"));
  options.action = words[0];
  if (words.size() == 2) options.directory = words[1];
  if (!folder.empty() && !options.directory.empty() && folder != options.directory) {
    return unexpected(usage_error("two catalog folders: --patterns " + folder + " and " + options.directory,
                                  "give one: gapscan patterns " + words[0] + " DIR"));
  }
  if (!folder.empty()) options.directory = folder;
  if (options.directory.empty()) options.directory = installed_patterns_dir();
  return options;
}

std::string patterns_usage() {
  return "Usage: gapscan patterns check [DIR]   validate catalog files (default: the built-in catalog)\n"
         "       gapscan patterns test  [DIR]   run every [[example]] through the whole pipeline: a \"match\"\n"
         "                                      example must rank its cause first at confidence 0.6 or more,\n"
         "                                      a \"no-match\" one must never report it at 0.6 or more\n"
         "       gapscan patterns list  [DIR]   list the causes with their delay values\n";
}

po::options_description causes_description(CausesOptions& options) {
  po::options_description description("Options");
  description.add_options()("help,h", po::bool_switch(&options.help), "show this help")(
      "patterns", po::value(&options.directory), "read the catalog from this folder instead of the built-in one");
  return description;
}

Expected<CausesOptions> parse_causes_options(const std::vector<std::string>& args) {
  CausesOptions options;
  po::options_description description = causes_description(options);
  po::options_description hidden;
  std::vector<std::string> words;
  hidden.add_options()("word", po::value(&words));
  po::options_description all;
  all.add(description).add(hidden);
  po::positional_options_description positional;
  positional.add("word", -1);
  try {
    po::variables_map values;
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), values);
    po::notify(values);
  } catch (const po::error& error) {
    return unexpected(option_error(error, all, "gapscan causes --help"));
  }
  if (words.size() > 1) return unexpected(usage_error("too many arguments", "gapscan causes [ID]"));
  if (!words.empty()) options.id = words[0];
  if (options.directory.empty()) options.directory = installed_patterns_dir();
  return options;
}

std::string causes_usage() {
  CausesOptions options;
  std::ostringstream text;
  text << "Usage: gapscan causes [--patterns DIR]      the causes in the catalog, with their typical values\n"
          "       gapscan causes ID [--patterns DIR]   one cause in full: delays, evidence, how to confirm, the fix\n\n"
       << causes_description(options);
  return text.str();
}

}  // namespace gapscan::cli
