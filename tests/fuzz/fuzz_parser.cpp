// libFuzzer target for one built-in parser family (GAPSCAN_FUZZ_FORMAT names it): the input's
// lines are learnt (generic layouts learn their stamp family from the first lines), parsed,
// then parsed again after restart(), as detection does. Nothing may crash, hang or leak.

#include <gapscan/parse/format.hpp>
#include <gapscan/parse/record.hpp>
#include <gapscan/source/line_reader.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#ifndef GAPSCAN_FUZZ_FORMAT
#error "GAPSCAN_FUZZ_FORMAT must name a built-in format"
#endif

namespace {

const gapscan::parse::FormatInfo& format_info() {
  for (const auto& info : gapscan::parse::builtin_formats()) {
    if (info.name == GAPSCAN_FUZZ_FORMAT) return info;
  }
  __builtin_trap();  // a target for a format that does not exist
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto lines = split_lines(text);
  std::vector<std::string> sample;
  for (std::size_t i = 0; i < lines.size() && i < 64; ++i) sample.emplace_back(lines[i]);

  auto parser = format_info().make_parser();
  parser->learn(sample, gapscan::parse::TimeSettings{});
  gapscan::parse::Record record;
  for (int pass = 0; pass < 2; ++pass) {
    for (std::string_view line : lines) {
      // Parsers may read up to a few bytes past a line (the reader guarantees padding), so
      // each line is handed over as the reader would: a copy with padding after it.
      std::string padded(line);
      padded.append(gapscan::source::LineReader::k_padding, '\0');
      const auto status = parser->parse(std::string_view(padded.data(), line.size()), record);
      if (status == gapscan::parse::ParseStatus::malformed) (void)parser->reason();
    }
    (void)parser->layout();
    parser->restart();
  }
  return 0;
}
