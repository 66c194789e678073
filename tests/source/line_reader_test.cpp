#include <gapscan/source/byte_source.hpp>
#include <gapscan/source/input.hpp>
#include <gapscan/source/line_reader.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace gapscan;
using namespace gapscan::source;

namespace {

std::vector<Line> read_all(std::string bytes, std::size_t chunk, std::vector<std::string>& texts) {
  LineReader reader(make_string_source(std::move(bytes)), chunk);
  std::vector<Line> lines;
  while (auto line = reader.next()) {
    texts.emplace_back(line->text);
    lines.push_back(*line);
  }
  return lines;
}

/// A source that fails after delivering some bytes, like a truncated pipe or a bad disk.
class FailingSource final : public ByteSource {
 public:
  Expected<std::size_t> read(char* buffer, std::size_t capacity) override {
    if (m_done) return unexpected(make_error("broken.log", "read failed at byte offset 6: Input/output error"));
    m_done = true;
    const std::string text = "a\nbcd\n";
    const std::size_t n = std::min(capacity, text.size());
    text.copy(buffer, n);
    return n;
  }

 private:
  bool m_done = false;
};

}  // namespace

TEST_CASE("LineReader splits lines, strips CRLF and keeps a last line without newline", "[source]") {
  for (std::size_t chunk : {1u, 3u, 7u, 1024u}) {
    std::vector<std::string> texts;
    const auto lines = read_all("one\r\ntwo\n\nthree", chunk, texts);
    REQUIRE(texts == std::vector<std::string>{"one", "two", "", "three"});
    CHECK(lines[0].number == 1);
    CHECK(lines[3].number == 4);
    CHECK(lines[1].offset == 5);
    CHECK(lines[3].offset == 10);
  }
}

TEST_CASE("LineReader reports a read error and keeps the lines before it", "[source]") {
  LineReader reader(std::make_unique<FailingSource>(), 64);
  std::vector<std::string> texts;
  while (auto line = reader.next()) texts.emplace_back(line->text);
  CHECK(texts == std::vector<std::string>{"a", "bcd"});
  REQUIRE(reader.error());
  CHECK(reader.error()->where == "broken.log");
}

TEST_CASE("Missing inputs become diagnostics naming the path", "[source]") {
  std::vector<Diagnostic> diagnostics;
  const auto inputs = expand_inputs({"/nonexistent/gapscan.log", "-"}, diagnostics);
  REQUIRE(inputs.size() == 1);
  CHECK(inputs[0].is_stdin);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].where == "/nonexistent/gapscan.log");
  CHECK(diagnostics[0].message.find("cannot read input") == 0);
}

TEST_CASE("An over-long line is one truncated line: its first bytes, the rest skipped", "[source]") {
  // 40 MiB without a newline between two short lines, and one at the end with none at all.
  const std::size_t max = LineReader::k_max_line;
  std::string bytes = "first\n";
  bytes.append(40u << 20, 'x');
  bytes += "\nsecond\n";
  bytes.append(max + 5, 'y');
  for (std::size_t chunk : {std::size_t{1} << 20, std::size_t{3} << 20}) {
    std::vector<std::string> texts;
    const auto lines = read_all(bytes, chunk, texts);
    REQUIRE(lines.size() == 4);
    CHECK(texts[0] == "first");
    CHECK(lines[1].truncated);
    CHECK(texts[1].size() == max);
    CHECK(texts[2] == "second");
    CHECK(lines[2].number == 3);
    CHECK(lines[2].offset == 6 + (40u << 20) + 1);
    CHECK(lines[3].truncated);
    CHECK(lines[3].number == 4);
    CHECK_FALSE(lines[0].truncated);
  }
}

TEST_CASE("Pinned lines stay valid while the reader reads on", "[source]") {
  std::string bytes;
  for (int i = 0; i < 410; ++i)
    bytes += "line " + std::to_string(i) + " " + std::string(static_cast<std::size_t>(i % 37), 'x') + "\n";
  // Small reads: the reader fills its buffer again every few lines.
  LineReader reader(make_string_source(bytes), 64);
  std::vector<std::shared_ptr<const void>> pins;
  std::vector<std::string_view> held;  // views into the reader's buffers, read at the end
  std::vector<std::string> copies;
  while (auto line = reader.next()) {
    if (pins.empty() || pins.back().get() != reader.buffer()) pins.push_back(reader.pin());
    held.push_back(line->text);
    copies.emplace_back(line->text);
    if (held.size() == 100) {
      // What a consumer does with a batch it has taken: checks it, then unpins its buffers.
      for (std::size_t i = 0; i < held.size(); ++i) REQUIRE(held[i] == copies[i]);
      held.clear();
      copies.clear();
      pins.clear();
    }
  }
  REQUIRE(copies.size() == held.size());
  for (std::size_t i = 0; i < held.size(); ++i) CHECK(held[i] == copies[i]);
  REQUIRE(held.size() == 10);
  CHECK(held.back() == "line 409 " + std::string(409 % 37, 'x'));
}
