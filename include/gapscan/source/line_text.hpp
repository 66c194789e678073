#pragma once
// The text of a plain file's lines, read back from the file at their offsets when a report
// needs it: the stream table keeps no line text for such an input (docs/ARCHITECTURE.md,
// "Windows without text").

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace gapscan::source {

class LineText {
 public:
  /// A reader of the file open as `fd` (duplicated: the caller keeps its own). Null when the
  /// descriptor cannot be duplicated or k_max_open readers are open already: the input's
  /// lines then keep their text in memory, as those of a pipe or an archive do.
  static std::shared_ptr<const LineText> open(int fd);
  ~LineText();
  LineText(const LineText&) = delete;
  LineText& operator=(const LineText&) = delete;

  /// Appends the `length` bytes at `offset` to `out`. False when fewer could be read (the file
  /// shrank or failed since): what could be read is appended, then spaces, so that the text
  /// keeps its length.
  bool read(std::uint64_t offset, std::size_t length, std::string& out) const;

  /// Readers open at once in the process, at most: each holds a descriptor until the last
  /// window and evidence line of its input are gone.
  static constexpr std::size_t k_max_open = 256;
  static std::size_t open_count();

 private:
  explicit LineText(int fd) : m_fd(fd) {}
  int m_fd;
};

}  // namespace gapscan::source
