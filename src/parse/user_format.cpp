#include <gapscan/core/regex.hpp>
#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/log_format.hpp>
#include <gapscan/parse/stamp_clock.hpp>
#include <gapscan/parse/time_layout.hpp>
#include <gapscan/parse/user_format.hpp>
#include <gapscan/parse/zone.hpp>

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <climits>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

namespace gapscan::parse {
namespace {

struct UserFormat {
  std::shared_ptr<const Regex> regex;
  TimeLayout layout;
  int time_group = 0, group_group = 0, message_group = 0, channel_group = 0, level_group = 0, duration_group = 0;
  DurationNs duration_unit = k_ns_per_s;  ///< what one unit of the duration group is, in ns
  std::shared_ptr<const Zone> zone;       ///< zone of times without one; null: the input's zone (--tz)
  /// The other named groups: their index, name and canonical name (parse::canonical_field_name),
  /// written to Record::fields for the catalog's field tests.
  struct Field {
    int index = 0;
    std::string name, canonical;
  };
  std::vector<Field> fields;
  int request_group = 0;         ///< a group named `request` ("GET /x HTTP/1.1"): method and path come from it
  bool has_method = false;       ///< a group gives the method itself
  bool one_per_request = false;  ///< a web server's own format: each line is a finished request
};

class UserLineParser final : public LineParser {
 public:
  explicit UserLineParser(std::shared_ptr<const UserFormat> format) : m_format(std::move(format)) {}

  void learn(const std::vector<std::string>& sample, const TimeSettings& settings) override {
    (void)sample;
    m_default_year = settings.default_year;
    m_default_day = settings.default_day;
    m_zone = m_format->zone ? m_format->zone : settings.zone;
    restart();
  }
  void restart() override {
    m_clock = StampClock(0, m_default_year);
    m_clock.set_zone(m_zone);
    m_clock.set_default_day(m_default_day);
    m_previous = INT64_MIN;
  }

  ParseStatus parse(std::string_view line, Record& record) override {
    if (!m_format->regex->match(line, m_groups)) return ParseStatus::not_this_format;
    StampFields fields;
    if (!m_format->layout.read(m_groups[static_cast<std::size_t>(m_format->time_group)], fields)) {
      m_reason = "the time does not fit the layout " + m_format->layout.text();
      return ParseStatus::malformed;
    }
    record.time = m_clock.instant(fields);
    record.time_digits = fields.digits;
    record.zoned = m_clock.last_zoned();
    if (!record.zoned && m_format->zone) {
      record.time = m_format->zone->to_utc(record.time, m_previous);
      record.zoned = true;
    }
    m_previous = record.time;
    auto group = [&](int index) { return index > 0 ? m_groups[static_cast<std::size_t>(index)] : std::string_view(); };
    record.group = group(m_format->group_group);
    record.message = m_format->message_group > 0 ? group(m_format->message_group) : line;
    record.channel = group(m_format->channel_group);
    record.level = group(m_format->level_group);
    write_fields(record);
    record.completion = m_format->one_per_request;
    if (m_format->duration_group > 0) {
      const std::string_view duration = group(m_format->duration_group);
      if (!duration.empty() && duration != "-" &&
          !parse_duration(duration, m_format->duration_unit, record.duration, record.duration_digits)) {
        m_reason = "the duration is not a number";
        return ParseStatus::malformed;
      }
    }
    // Fields whose names say a phase (nginx's $upstream_connect_time, a preset's `connect_ms`
    // group): the request's phase timers, as generic lines' pairs are read.
    record.phases.fill(-1);
    if (!m_fields.empty()) {
      DurationNs total = 0;
      std::uint8_t digits = 0;
      find_duration(m_fields, total, digits, &record.phases);
    }
    return ParseStatus::parsed;
  }

  std::string_view reason() const override { return m_reason; }

 private:
  void write_fields(Record& record) {
    m_fields.clear();
    for (const UserFormat::Field& field : m_format->fields) {
      const std::string_view value = m_groups[static_cast<std::size_t>(field.index)];
      append_field(m_fields, field.name, value);
      if (!field.canonical.empty()) append_field(m_fields, field.canonical, value);
    }
    if (m_format->request_group > 0 && !m_format->has_method) {
      const std::string_view request = m_groups[static_cast<std::size_t>(m_format->request_group)];
      const std::size_t space = request.find(' ');
      if (space != std::string_view::npos) {
        append_field(m_fields, "method", request.substr(0, space));
        const std::size_t end = request.find(' ', space + 1);
        append_field(m_fields, "path", request.substr(space + 1, end - space - 1));
      }
    }
    record.fields = m_fields;
  }

  std::shared_ptr<const UserFormat> m_format;
  std::string m_fields;
  std::vector<std::string_view> m_groups;
  StampClock m_clock;
  std::shared_ptr<const Zone> m_zone;  // the format's or the input's, for zone abbreviations
  std::int64_t m_default_day = INT64_MIN;
  int m_default_year = 1970;
  TimeNs m_previous = INT64_MIN;  // the last instant, for the choice around a change of offset
  std::string m_reason;
};

std::string where(const std::string& file, const toml::node& node) {
  return fmt::format("{}:{}", file, node.source().begin.line);
}

bool valid_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
      return false;
    }
  }
  return true;
}

}  // namespace

namespace {

/// One format file being read: its table, and where its problems go.
struct FileReader {
  const toml::table& root;
  const std::string& file;
  std::vector<Diagnostic>& diagnostics;

  void error(const toml::node& node, std::string message, std::string hint = {}) const {
    diagnostics.push_back(make_error(where(file, node), std::move(message), std::move(hint)));
  }
  std::string string_of(std::string_view key, bool required) const {
    const toml::node* node = root.get(key);
    if (node == nullptr) {
      if (required) error(root, fmt::format("missing key '{}'", key));
      return {};
    }
    if (!node->is_string()) {
      error(*node, fmt::format("'{}' must be a string", key));
      return {};
    }
    return std::string(*node->value<std::string_view>());
  }
};

void check_keys(const FileReader& in) {
  static constexpr std::array<std::string_view, 9> k_keys = {"name",
                                                             "description",
                                                             "regex",
                                                             "time_layout",
                                                             "zone",
                                                             "duration_unit",
                                                             "samples",
                                                             "nginx_log_format",
                                                             "apache_log_format"};
  for (const auto& [key, node] : in.root) {
    if (std::find(k_keys.begin(), k_keys.end(), key.str()) == k_keys.end()) {
      in.error(node, fmt::format("unknown key '{}' in a format file", key.str()),
               "known keys: name, description, regex, time_layout, zone, duration_unit, samples, nginx_log_format, "
               "apache_log_format");
    }
  }
}

/// The line's description: regex and time_layout, or a web server's own format string (nginx
/// log_format, Apache LogFormat, varnishncsa -F) standing for both and the duration unit.
struct LineSpec {
  std::string pattern, layout, duration_unit;
  bool server_format = false;  ///< from nginx_log_format / apache_log_format: one line per request
  const toml::node* pattern_node = nullptr;
  const toml::node* layout_node = nullptr;
};

LineSpec read_line_spec(const FileReader& in) {
  LineSpec spec;
  const toml::node* server = in.root.get("nginx_log_format");
  const bool nginx = server != nullptr;
  if (server == nullptr) server = in.root.get("apache_log_format");
  if (server == nullptr) {
    spec.pattern = in.string_of("regex", true);
    spec.layout = in.string_of("time_layout", true);
    spec.pattern_node = in.root.get("regex");
    spec.layout_node = in.root.get("time_layout");
    return spec;
  }
  spec.pattern_node = spec.layout_node = server;
  spec.server_format = true;
  if (in.root.get("regex") != nullptr || in.root.get("time_layout") != nullptr)
    in.error(*server, "give either a server's log format or regex and time_layout, not both");
  const std::string text = in.string_of(nginx ? "nginx_log_format" : "apache_log_format", true);
  auto translated = nginx ? translate_nginx_log_format(text) : translate_apache_log_format(text);
  if (!translated) {
    in.error(*server, translated.error().message, translated.error().hint);
    return spec;
  }
  spec.pattern = translated->regex;
  spec.layout = translated->time_layout;
  spec.duration_unit = translated->duration_unit;
  return spec;
}

void compile_regex(const FileReader& in, const LineSpec& spec, UserFormat& format) {
  if (spec.pattern.empty()) {
    // A missing key, a value that is not a string or a server format that does not translate
    // is reported already; an empty regex is reported here (it has no time group to read).
    if (!spec.server_format && spec.pattern_node != nullptr && spec.pattern_node->is_string())
      in.error(*spec.pattern_node, "the regex is empty", "give one with a named group 'time': (?P<time>...)");
    return;
  }
  auto regex = Regex::compile(spec.pattern, where(in.file, *spec.pattern_node));
  if (!regex) {
    in.diagnostics.push_back(regex.error());
    return;
  }
  const std::vector<std::string> names = regex->group_names();
  for (std::size_t i = 1; i < names.size(); ++i) {
    const int index = static_cast<int>(i);
    if (names[i] == "time") format.time_group = index;
    if (names[i] == "group") format.group_group = index;
    if (names[i] == "message") format.message_group = index;
    if (names[i] == "channel") format.channel_group = index;
    if (names[i] == "level") format.level_group = index;
    if (names[i] == "duration") format.duration_group = index;
    if (names[i].empty() || names[i] == "time" || names[i] == "group" || names[i] == "message" ||
        names[i] == "channel" || names[i] == "level" || names[i] == "duration") {
      continue;
    }
    std::string canonical(canonical_field_name(names[i]));
    if (names[i] == "request") format.request_group = index;
    if (names[i] == "method" || canonical == "method") format.has_method = true;
    format.fields.push_back({index, names[i], canonical});
  }
  if (format.time_group == 0) {
    in.error(*spec.pattern_node, "the regex needs a named group 'time': (?P<time>...)",
             "other groups it may name: group, message, channel, level, duration");
  }
  format.regex = std::make_shared<const Regex>(std::move(*regex));
}

/// The time layout, the zone and the duration unit.
void read_time_and_unit(const FileReader& in, const LineSpec& spec, UserFormat& format) {
  if (!spec.layout.empty()) {
    auto layout = TimeLayout::compile(spec.layout, where(in.file, *spec.layout_node));
    if (!layout)
      in.diagnostics.push_back(layout.error());
    else
      format.layout = std::move(*layout);
  } else if (!spec.server_format && spec.layout_node != nullptr && spec.layout_node->is_string()) {
    in.error(*spec.layout_node, "the time layout is empty", "describe the time group, e.g. \"%Y-%m-%d %H:%M:%S\"");
  }
  if (const std::string zone = in.string_of("zone", false); !zone.empty()) {
    auto loaded = Zone::load(zone);
    if (!loaded)
      in.error(*in.root.get("zone"), loaded.error().message);
    else
      format.zone = std::make_shared<const Zone>(std::move(*loaded));
  }
  std::string unit = in.string_of("duration_unit", false);
  if (unit.empty()) unit = spec.duration_unit;
  if (unit.empty()) return;
  static constexpr std::array<std::pair<std::string_view, DurationNs>, 5> k_units = {
      {{"s", k_ns_per_s}, {"ms", k_ns_per_ms}, {"us", k_ns_per_us}, {"ns", 1}, {"min", 60 * k_ns_per_s}}};
  const auto it = std::find_if(k_units.begin(), k_units.end(), [&](const auto& u) { return u.first == unit; });
  if (it == k_units.end()) {
    const toml::node* node = in.root.get("duration_unit");
    in.error(node != nullptr ? *node : *spec.pattern_node, fmt::format("unknown duration_unit '{}'", unit),
             "use s, ms, us, ns or min");
  } else {
    format.duration_unit = it->second;
  }
}

std::vector<std::string> read_samples(const FileReader& in) {
  std::vector<std::string> samples;
  const toml::node* node = in.root.get("samples");
  if (node == nullptr) {
    in.error(in.root, "missing key 'samples'", "give at least one real line of the format; the loader parses it");
    return samples;
  }
  const toml::array* array = node->as_array();
  if (array == nullptr || array->empty()) in.error(*node, "'samples' must be a non-empty array of log lines");
  if (array == nullptr) return samples;
  for (const toml::node& item : *array) {
    if (item.is_string())
      samples.emplace_back(*item.value<std::string_view>());
    else
      in.error(item, "samples must be strings");
  }
  return samples;
}

/// Every sample must parse.
void check_samples(const FileReader& in, const FormatInfo& info, const std::vector<std::string>& samples) {
  auto parser = info.make_parser();
  parser->learn(samples, TimeSettings{});
  for (const std::string& sample : samples) {
    Record record;
    if (parser->parse(sample, record) != ParseStatus::parsed) {
      in.error(*in.root.get("samples"),
               fmt::format("sample does not parse: {}{}", sample,
                           parser->reason().empty() ? std::string(" (the regex does not match)")
                                                    : " (" + std::string(parser->reason()) + ")"));
    }
  }
}

}  // namespace

std::optional<FormatInfo> parse_format_file(std::string_view text, const std::string& file,
                                            std::vector<Diagnostic>& diagnostics) {
  if (text.size() > k_max_format_file_bytes) {
    diagnostics.push_back(make_error(
        file, fmt::format("format file of {} bytes: at most {} are read", text.size(), k_max_format_file_bytes)));
    return std::nullopt;
  }
  toml::table root;
  try {
    root = toml::parse(text, file);
  } catch (const toml::parse_error& error) {
    diagnostics.push_back(
        make_error(fmt::format("{}:{}:{}", file, error.source().begin.line, error.source().begin.column),
                   std::string(error.description())));
    return std::nullopt;
  }
  const std::size_t before = diagnostics.size();
  const FileReader in{root, file, diagnostics};
  check_keys(in);
  FormatInfo info;
  info.name = in.string_of("name", true);
  info.description = in.string_of("description", false);
  if (!info.name.empty() && !valid_name(info.name)) {
    in.error(*root.get("name"), fmt::format("format name '{}' must be letters, digits, - and _", info.name));
  }
  const LineSpec spec = read_line_spec(in);
  auto format = std::make_shared<UserFormat>();
  compile_regex(in, spec, *format);
  format->one_per_request = spec.server_format;
  read_time_and_unit(in, spec, *format);
  const std::vector<std::string> samples = read_samples(in);
  if (diagnostics.size() != before) return std::nullopt;

  std::shared_ptr<const UserFormat> shared = format;
  info.sample = samples.front();
  info.make_parser = [shared]() -> std::unique_ptr<LineParser> { return std::make_unique<UserLineParser>(shared); };
  check_samples(in, info, samples);
  if (diagnostics.size() != before) return std::nullopt;
  if (info.description.empty()) info.description = "user-defined format from " + file;
  return info;
}

std::vector<FormatInfo> load_format_files(const std::vector<std::string>& paths, std::vector<Diagnostic>& diagnostics) {
  std::vector<FormatInfo> formats;
  for (const std::string& path : paths) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > k_max_format_file_bytes) {
      diagnostics.push_back(
          make_error(path, fmt::format("format file of {} bytes: at most {} are read", size, k_max_format_file_bytes)));
      continue;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      diagnostics.push_back(make_error(path, "cannot read format file"));
      continue;
    }
    std::stringstream text;
    text << in.rdbuf();
    if (auto format = parse_format_file(text.str(), path, diagnostics)) formats.push_back(std::move(*format));
  }
  return formats;
}

}  // namespace gapscan::parse
