// Partial files: a header line "GAPSCAN-PARTIAL <version>\n", then one zstd frame holding one
// CBOR document: the scan's settings, its inputs, line accounting, diagnostics and grouping
// counts, and the analysis state (detect/state.hpp) as a byte string.

#include <gapscan/cli/commands.hpp>
#include <gapscan/cli/partial.hpp>
#include <gapscan/detect/state.hpp>

#include <fmt/format.h>
#include <zstd.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace gapscan::cli {
namespace {

using Json = nlohmann::json;

constexpr std::string_view k_magic = "GAPSCAN-PARTIAL ";

Json location_json(const LineLocation& l) { return Json::array({l.source, l.salt, l.line, l.offset}); }
LineLocation location_of(const Json& j, SourceId offset) {
  return {j.at(0).get<SourceId>() + offset, j.at(1).get<std::uint32_t>(), j.at(2).get<std::uint64_t>(),
          j.at(3).get<std::uint64_t>()};
}

Json lines_json(const parse::LineAccount& a) {
  Json examples = Json::array();
  for (const parse::UnparsedExample& e : a.examples)
    examples.push_back(Json::array({location_json(e.location), e.text, e.reason}));
  return Json::array({a.lines, a.records, a.continuation, a.untimed, a.blank, a.comment, a.unparsed, a.truncated,
                      a.by_format, examples});
}
report::Input input_of(const Json& i) {
  report::Input input{i.at(0).get<std::string>(),
                      i.at(1).get<std::string>(),
                      i.at(2).get<std::string>(),
                      i.at(3).get<std::uint64_t>(),
                      i.at(4).get<std::uint64_t>(),
                      i.at(5).get<std::string>(),
                      {},
                      {}};
  if (i.size() > 7) {  // partials written before the unread-line notes have six fields
    input.unread = i.at(6).get<std::string>();
    input.sketch = i.at(7).get<std::string>();
  }
  return input;
}

parse::LineAccount lines_of(const Json& j, SourceId offset) {
  parse::LineAccount a;
  a.lines = j.at(0).get<std::uint64_t>();
  a.records = j.at(1).get<std::uint64_t>();
  a.continuation = j.at(2).get<std::uint64_t>();
  a.untimed = j.at(3).get<std::uint64_t>();
  a.blank = j.at(4).get<std::uint64_t>();
  a.comment = j.at(5).get<std::uint64_t>();
  a.unparsed = j.at(6).get<std::uint64_t>();
  a.truncated = j.at(7).get<std::uint64_t>();
  a.by_format = j.at(8).get<std::map<std::string, std::uint64_t>>();
  for (const Json& e : j.at(9))
    a.examples.push_back({location_of(e.at(0), offset), e.at(1).get<std::string>(), e.at(2).get<std::string>()});
  return a;
}

Json grouping_json(const stream::GroupingStats& g) {
  return Json::array({g.streams, g.windows, g.idle_closed, g.early_flushes, g.forgotten, g.peak_active,
                      g.peak_buffered_bytes, g.spills, g.spilled_bytes, g.peak_spill_held, g.spill_error});
}
stream::GroupingStats grouping_of(const Json& j) {
  stream::GroupingStats g;
  g.streams = j.at(0).get<std::uint64_t>();
  g.windows = j.at(1).get<std::uint64_t>();
  g.idle_closed = j.at(2).get<std::uint64_t>();
  g.early_flushes = j.at(3).get<std::uint64_t>();
  g.forgotten = j.at(4).get<std::uint64_t>();
  g.peak_active = j.at(5).get<std::size_t>();
  g.peak_buffered_bytes = j.at(6).get<std::size_t>();
  g.spills = j.at(7).get<std::uint64_t>();
  g.spilled_bytes = j.at(8).get<std::uint64_t>();
  g.peak_spill_held = j.at(9).get<std::uint64_t>();
  g.spill_error = j.at(10).get<std::string>();
  return g;
}

Diagnostic partial_error(const std::string& path, const std::string& message, const std::string& hint = {}) {
  return make_error(path, message, hint);
}

}  // namespace

void ScanState::add_templates(std::map<std::uint64_t, std::string> more) {
  templates.merge(more);
  while (templates.size() > k_max_templates) templates.erase(std::prev(templates.end()));
}

void ScanState::merge(ScanState&& other) {
  analyzer->merge(std::move(*other.analyzer));
  durations.merge(std::move(other.durations));
  add_templates(std::move(other.templates));
  derived_streams += other.derived_streams;
  grouping.streams += other.grouping.streams;
  grouping.windows += other.grouping.windows;
  grouping.idle_closed += other.grouping.idle_closed;
  grouping.early_flushes += other.grouping.early_flushes;
  grouping.forgotten += other.grouping.forgotten;
  grouping.peak_active = std::max(grouping.peak_active, other.grouping.peak_active);
  grouping.peak_buffered_bytes = std::max(grouping.peak_buffered_bytes, other.grouping.peak_buffered_bytes);
  grouping.spills += other.grouping.spills;
  grouping.spilled_bytes += other.grouping.spilled_bytes;
  grouping.peak_spill_held = std::max(grouping.peak_spill_held, other.grouping.peak_spill_held);
  if (grouping.spill_error.empty()) grouping.spill_error = std::move(other.grouping.spill_error);
  lines.merge(other.lines);
  for (std::string& name : other.sources) sources.push_back(std::move(name));
  for (report::Input& input : other.inputs) inputs.push_back(std::move(input));
  for (Diagnostic& diagnostic : other.diagnostics) diagnostics.push_back(std::move(diagnostic));
}

PartialSettings partial_settings(const ScanConfig& config, const detect::AnalyzerOptions& options) {
  Json triggers = Json::array();
  for (const detect::TriggerSpec& spec : options.triggers)
    triggers.push_back(Json::array({spec.cause, spec.pattern, spec.after_ns, spec.marker}));
  // The request lines kept as context of example gaps are part of what the scan looked for.
  triggers.push_back(Json::array({"context", options.context_patterns}));
  const parse::GroupBy& group = config.group_by;
  const char* const modes[] = {"auto", "none", "field", "regex"};
  const Json grouping = {
      {"group_by",
       fmt::format("{} {}", modes[static_cast<int>(group.mode)], group.regex ? group.regex->pattern() : group.field)},
      {"idle_timeout_s", config.idle_timeout_s},
      {"derived_streams", config.derived_streams},
  };
  return {grouping.dump(), triggers.dump()};
}

Expected<void> write_partial(const std::string& path, ScanState& state, const PartialSettings& settings) {
  Json inputs = Json::array();
  for (const report::Input& i : state.inputs)
    inputs.push_back(Json::array({i.name, i.format, i.encoding, i.lines, i.bytes, i.error, i.unread, i.sketch}));
  Json diagnostics = Json::array();
  for (const Diagnostic& d : state.diagnostics)
    diagnostics.push_back(Json::array({static_cast<int>(d.severity), d.where, d.message, d.hint}));
  Json templates = Json::array();
  for (const auto& [hash, text] : state.templates) templates.push_back(Json::array({hash, text}));
  const std::string analysis = detect::encode_state(*state.analyzer, state.durations);
  const Json document = {
      {"grouping_settings", settings.grouping},
      {"triggers", settings.triggers},
      {"sources", state.sources},
      {"inputs", inputs},
      {"diagnostics", diagnostics},
      {"lines", lines_json(state.lines)},
      {"grouping", grouping_json(state.grouping)},
      {"templates", templates},
      {"derived_streams", state.derived_streams},
      {"analysis", Json::binary(std::vector<std::uint8_t>(analysis.begin(), analysis.end()))},
  };
  std::string cbor;
  Json::to_cbor(document, cbor);
  std::string bytes = fmt::format("{}{}\n", k_magic, k_partial_version);
  const std::size_t header = bytes.size();
  bytes.resize(header + ZSTD_compressBound(cbor.size()));
  const std::size_t size = ZSTD_compress(bytes.data() + header, bytes.size() - header, cbor.data(), cbor.size(), 3);
  if (ZSTD_isError(size) != 0) return unexpected(partial_error(path, ZSTD_getErrorName(size)));
  bytes.resize(header + size);
  if (path == "-") {
    // --partial -: to standard output (ssh HOST gapscan scan --partial - LOGS > HOST.gsp).
    if (!write_stdout(bytes)) return unexpected(partial_error("<stdout>", "cannot write the partial"));
    return {};
  }
  // Written beside the target and renamed over it: a partial is whole or absent.
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      return unexpected(partial_error(path, fmt::format("cannot write the partial: {}", std::strerror(errno)),
                                      "give --partial a path in a writable folder"));
    }
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      return unexpected(partial_error(path, "cannot write the partial (disk full?)"));
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) return unexpected(partial_error(path, fmt::format("cannot write the partial: {}", ec.message())));
  return {};
}

Expected<void> merge_partial(const std::string& path, PartialSettings& settings, const detect::Analyzer& prototype,
                             ScanState& into) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return unexpected(partial_error(path, fmt::format("cannot open the partial: {}", std::strerror(errno))));
  std::string header;
  std::getline(in, header);
  if (!header.starts_with(k_magic)) {
    return unexpected(
        partial_error(path, "not a gapscan partial", "partials are written by gapscan scan --partial FILE"));
  }
  const std::string version = header.substr(k_magic.size());
  if (version != std::to_string(k_partial_version)) {
    return unexpected(partial_error(
        path, fmt::format("a partial of format version {}; this gapscan reads version {}", version, k_partial_version),
        "make the partials and merge them with the same gapscan version"));
  }
  const std::string frame((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > (std::uint64_t{1} << 34)) {
    return unexpected(partial_error(path, "a damaged partial: its compressed body cannot be read",
                                    "make it again with gapscan scan --partial"));
  }
  std::string body(size, '\0');
  const std::size_t read = ZSTD_decompress(body.data(), body.size(), frame.data(), frame.size());
  if (ZSTD_isError(read) != 0 || read != size) {
    return unexpected(partial_error(
        path, fmt::format("a damaged partial: {}", ZSTD_isError(read) != 0 ? ZSTD_getErrorName(read) : "cut short"),
        "make it again with gapscan scan --partial"));
  }
  ScanState state;
  state.analyzer = prototype.snapshot();
  try {
    const Json document = Json::from_cbor(body);
    if (document.at("triggers").get<std::string>() != settings.triggers) {
      return unexpected(partial_error(path, "made with other trigger or evidence lines than this merge's",
                                      "give gapscan merge the catalog (--patterns) and --trigger the partial scans "
                                      "were made with"));
    }
    const auto grouping = document.at("grouping_settings").get<std::string>();
    if (settings.grouping.empty()) settings.grouping = grouping;
    if (grouping != settings.grouping) {
      return unexpected(partial_error(
          path,
          fmt::format("grouped otherwise than the partials before it ({} against {})", grouping, settings.grouping),
          "make every partial with the same --group-by, --idle-timeout and --derived-streams"));
    }
    const auto offset = static_cast<SourceId>(into.sources.size());
    state.sources = document.at("sources").get<std::vector<std::string>>();
    for (const Json& i : document.at("inputs")) state.inputs.push_back(input_of(i));
    for (const Json& d : document.at("diagnostics")) {
      state.diagnostics.push_back({static_cast<Severity>(d.at(0).get<int>()), d.at(1).get<std::string>(),
                                   d.at(2).get<std::string>(), d.at(3).get<std::string>()});
    }
    state.lines = lines_of(document.at("lines"), offset);
    state.grouping = grouping_of(document.at("grouping"));
    for (const Json& t : document.at("templates"))
      state.templates.emplace(t.at(0).get<std::uint64_t>(), t.at(1).get<std::string>());
    state.derived_streams = document.at("derived_streams").get<std::uint64_t>();
    const std::vector<std::uint8_t>& analysis = document.at("analysis").get_binary();
    const detect::StateOffsets offsets{offset, into.grouping.streams};
    auto decoded =
        detect::decode_state(std::string_view(reinterpret_cast<const char*>(analysis.data()), analysis.size()), offsets,
                             *state.analyzer, state.durations);
    if (!decoded) return unexpected(partial_error(path, decoded.error().message));
  } catch (const std::exception& error) {
    return unexpected(partial_error(path, fmt::format("a damaged partial: {}", error.what()),
                                    "make it again with gapscan scan --partial"));
  }
  into.merge(std::move(state));
  return {};
}

}  // namespace gapscan::cli
