// Windows without text: lines marked where they are parsed (detect::LineMarker) keep only their
// length in the stream table, and their text is read back from the file (source::LineText) when
// an evidence line is asked for it. What the analysis finds must not change.

#include <gapscan/detect/line_marker.hpp>
#include <gapscan/detect/triggers.hpp>
#include <gapscan/source/line_text.hpp>
#include <gapscan/stats/gap_pool.hpp>
#include <gapscan/stream/buffer_pool.hpp>
#include <gapscan/stream/stream_table.hpp>

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

using namespace gapscan;

namespace {

/// A log file written for the test, removed at the end; its lines and their offsets.
struct TempLog {
  std::string path;
  std::vector<std::string> lines;
  std::vector<std::uint64_t> offsets;
  int fd = -1;
  explicit TempLog(std::vector<std::string> text)
      : path("/tmp/gapscan-text-free-" + std::to_string(::getpid()) + ".log"), lines(std::move(text)) {
    std::ofstream out(path, std::ios::binary);
    std::uint64_t at = 0;
    for (const std::string& line : lines) {
      offsets.push_back(at);
      out << line << '\n';
      at += line.size() + 1;
    }
    out.close();
    fd = ::open(path.c_str(), O_RDONLY);
  }
  ~TempLog() {
    ::close(fd);
    std::remove(path.c_str());
  }
  TempLog(const TempLog&) = delete;
  TempLog& operator=(const TempLog&) = delete;
};

std::vector<std::string> request_lines() {
  // Two requests interleaved; one names its session, one line is a trigger, one is long.
  std::vector<std::string> lines;
  for (int i = 0; i < 40; ++i) {
    const char* key = i % 2 == 0 ? "req-a" : "req-b";
    std::string line = "2026-01-01 00:00:" + std::to_string(10 + i) + " [" + key + "] step " + std::to_string(i);
    if (i == 7) line += " Background saving started by pid 4242";
    if (i == 12) line += " session_id=abcdefghijklmnopqrstuvwxyz0123";
    if (i == 20) line += " " + std::string(600, 'x');
    lines.push_back(line);
  }
  return lines;
}

struct Collected {
  std::unique_ptr<stream::BufferPool> memory = std::make_unique<stream::BufferPool>();  // outlives the windows
  std::vector<stream::OwnedWindow> windows;
};

/// Feeds the log's lines to a stream table, marked by `marker` (null: unmarked), the text read
/// back from `text_file` (null: kept).
Collected group(const TempLog& log, detect::LineMarker* marker, std::shared_ptr<const source::LineText> text_file) {
  Collected collected;
  stream::GroupingOptions options;
  options.memory = collected.memory.get();
  stream::StreamTable table(options, [&](stream::OwnedWindow&& w) { collected.windows.push_back(std::move(w)); });
  if (text_file) table.set_text_file(0, text_file);
  for (std::size_t i = 0; i < log.lines.size(); ++i) {
    parse::Record record;
    const std::string& line = log.lines[i];
    record.group = std::string_view(line).substr(line.find('[') + 1, 5);
    record.time = static_cast<TimeNs>(i) * 1'000'000;
    const LineLocation where{0, 0, i + 1, log.offsets[i]};
    const stream::LineMarks marks = marker != nullptr ? marker->mark(line, {}) : stream::LineMarks{};
    table.add(record, line, where, marks);
  }
  table.finish();
  return collected;
}

}  // namespace

TEST_CASE("A line's text is read back from the file at its offset, spaces past its end", "[stream][text]") {
  const TempLog log({"first line", "second line"});
  const auto text = source::LineText::open(log.fd);
  REQUIRE(text);
  std::string out;
  CHECK(text->read(log.offsets[1], 6, out));
  CHECK(out == "second");
  out.clear();
  CHECK_FALSE(text->read(log.offsets[1] + 7, 10, out));  // "line\n" and then the end of the file
  CHECK(out == "line\n     ");
  CHECK(source::LineText::open(-1) == nullptr);
}

TEST_CASE("Marked lines keep no text, the trigger and screened lines' neither, and read it back", "[stream][text]") {
  const TempLog log(request_lines());
  const detect::TriggerAligner triggers({{"", "Background saving started by pid", ""}}, detect::TriggerOptions{});
  int asked = 0;
  const stats::LineFilter context = [&asked](std::string_view text, std::string_view) {
    ++asked;
    return text.find("session_id=") != std::string_view::npos;
  };
  const stats::LineScreen screen{{"session_?id"}, false};
  const stream::GroupingOptions grouping;
  detect::LineMarker marker(detect::LineMarker::compile(triggers, true, screen), grouping);

  const Collected marked = group(log, &marker, source::LineText::open(log.fd));
  const Collected kept = group(log, nullptr, nullptr);
  REQUIRE(marked.windows.size() == 2);
  REQUIRE(kept.windows.size() == 2);
  for (std::size_t w = 0; w < marked.windows.size(); ++w) {
    const stream::StreamWindow with = kept.windows[w].view();
    const stream::StreamWindow without = marked.windows[w].view();
    INFO("window " << with.key);
    CHECK(without.marked);
    CHECK_FALSE(with.marked);
    REQUIRE(without.text_file);
    REQUIRE(without.entries.size() == with.entries.size());
    for (std::size_t i = 0; i < with.entries.size(); ++i) {
      const stream::Entry& entry = without.entries[i];
      const std::string& line = log.lines[entry.location.line - 1];
      CHECK_FALSE(entry.has_text());
      CHECK(without.line_text(entry).empty());
      CHECK(without.read_text(entry) == with.line_text(with.entries[i]));
      const bool screened = line.find("session_id") != std::string::npos;
      CHECK(((entry.flags & stream::Entry::k_screened) != 0) == screened);
      // The evidence line says what the kept text says: the line, cut at the kept length.
      CHECK(stats::evidence_line(without, entry).text() == stats::evidence_line(with, with.entries[i]).text());
      CHECK(stats::evidence_line(without, entry).text() == line.substr(0, grouping.max_line_text));
    }
    CHECK(without.text.empty());
    // The triggers found where the lines were parsed are those found in the kept text.
    const auto from_marks = triggers.find_lines(without);
    const auto from_text = triggers.find_lines(with);
    REQUIRE(from_marks.size() == from_text.size());
    for (std::size_t m = 0; m < from_marks.size(); ++m) {
      CHECK(from_marks[m].entry == from_text[m].entry);
      CHECK(from_marks[m].spec == from_text[m].spec);
    }
  }
  CHECK(triggers.find_lines(marked.windows[1].view()).size() == 1);  // req-b holds line 8

  // Context: an unscreened marked line is never handed to the filter; kept text is.
  const auto asked_for = [&](const Collected& collected) {
    asked = 0;
    stats::GapPool pool;
    pool.keep_context_if(context);
    for (const stream::OwnedWindow& owned : collected.windows) {
      const stream::StreamWindow window = owned.view();
      pool.add(window, stats::build_gap_series(window));
    }
    return asked;
  };
  CHECK(asked_for(kept) > 2);
  CHECK(asked_for(marked) <= 1);
}

TEST_CASE("A line of another input, or unmarked, keeps its text in a stream with a text file", "[stream][text]") {
  const TempLog log({"2026-01-01 [req-a] one", "2026-01-01 [req-a] two"});
  stream::BufferPool memory;
  std::vector<stream::OwnedWindow> windows;
  stream::GroupingOptions options;
  options.memory = &memory;
  stream::StreamTable table(options, [&](stream::OwnedWindow&& w) { windows.push_back(std::move(w)); });
  table.set_text_file(0, source::LineText::open(log.fd));
  parse::Record record;
  record.group = "req-a";
  stream::LineMarks marks;
  marks.known = true;
  table.add(record, log.lines[0], LineLocation{0, 0, 1, log.offsets[0]}, marks);
  record.time = 1;
  table.add(record, "from another input", LineLocation{1, 1, 1, 0}, marks);
  record.time = 2;
  table.add(record, log.lines[1], LineLocation{0, 0, 2, log.offsets[1]});  // unmarked
  table.finish();
  REQUIRE(windows.size() == 1);
  const stream::StreamWindow window = windows[0].view();
  CHECK_FALSE(window.marked);
  REQUIRE(window.entries.size() == 3);
  CHECK_FALSE(window.entries[0].has_text());
  CHECK(window.entries[1].has_text());
  CHECK(window.entries[2].has_text());
  CHECK(window.line_text(window.entries[1]) == "from another input");
  CHECK(stats::evidence_line(window, window.entries[0]).text() == log.lines[0]);
}
