#include <gapscan/parse/layouts.hpp>
#include <gapscan/parse/record_reader.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace gapscan;
using namespace gapscan::parse;

TEST_CASE("Every generic layout `gapscan formats` lists is read at the instant it claims", "[parse][layouts]") {
  constexpr TimeNs k_modified = 1796472000LL * k_ns_per_s;  // the file's modification time: 2026-12-05
  REQUIRE(generic_layouts().size() >= 30);
  for (const GenericLayout& layout : generic_layouts()) {
    INFO(layout.name << ": " << layout.example);
    std::vector<std::string> lines;
    std::string_view rest = layout.example;
    for (std::size_t end = rest.find('\n'); end != std::string_view::npos; end = rest.find('\n')) {
      lines.emplace_back(rest.substr(0, end));
      rest.remove_prefix(end + 1);
    }
    lines.emplace_back(rest);
    ReaderOptions options;
    options.time = TimeSettings::of_input(0, k_modified, nullptr);
    RecordReader reader(options);
    reader.detect(lines);
    Record record;
    std::vector<TimeNs> times;
    std::uint64_t number = 0;
    for (const std::string& line : lines) {
      reader.read(line, LineLocation{0, 0, ++number, 0}, record);
      if (reader.record_ready()) times.push_back(record.time);
    }
    REQUIRE(times.size() == 1);
    CHECK(times.front() == layout.instant);
    CHECK(reader.account().unparsed == 0);
  }
}
