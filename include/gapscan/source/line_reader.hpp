#pragma once
// Splits a byte stream into physical lines without copying them.

#include <gapscan/core/location.hpp>
#include <gapscan/source/byte_source.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace gapscan::source {

struct Line {
  std::string_view text;     ///< without the trailing "\n" or "\r\n"
  std::uint64_t number = 0;  ///< 1-based physical line number
  std::uint64_t offset = 0;  ///< byte offset of the first byte in the decoded stream
  bool truncated = false;    ///< the line was longer than LineReader::k_max_line: its first
                             ///< k_max_line bytes; the rest of it was skipped
};

class LineReader {
 public:
  /// A line longer than this is one Line of its first k_max_line bytes, flagged `truncated`;
  /// the rest of it is skipped up to its newline, so a file without newlines cannot exhaust
  /// memory and one over-long line stays one physical line between its neighbours.
  static constexpr std::size_t k_max_line = 16u << 20;

  /// Bytes read at a time by default, into a buffer of twice that (as fast as 1 MiB reads, 1.5
  /// MiB less resident: docs/performance.md, "Peak RSS and the time a log spans").
  static constexpr std::size_t k_default_chunk = 256u << 10;

  explicit LineReader(std::unique_ptr<ByteSource> source, std::size_t chunk_size = k_default_chunk);

  /// Next line, or nullopt at the end or after a read error (see error()). The view stays
  /// valid until the next call; at least k_padding readable bytes follow it in memory.
  std::optional<Line> next();

  /// The read error that ended the stream early, if any. Lines read before it are valid.
  const std::optional<Diagnostic>& error() const { return m_error; }

  /// Bytes read from the source so far.
  std::uint64_t bytes_read() const { return m_consumed_offset + (m_end - m_begin); }

  /// Keeps the buffer that the last line's text lies in: while the returned handle lives, the
  /// reader does not write over it (it reads on in another buffer), so the lines stay valid
  /// after next() (lines parsed on other threads). Release the handle on the reader's thread.
  std::shared_ptr<const void> pin() const { return m_buffer; }
  /// The buffer the last line lies in (to compare with a pin).
  const void* buffer() const { return m_buffer.get(); }

  static constexpr std::size_t k_padding = 64;

 private:
  bool fill();
  bool skip_rest();  // false at the end of the input

  std::unique_ptr<ByteSource> m_source;
  std::shared_ptr<std::vector<char>> m_buffer;
  // Every buffer, m_buffer among them: one is free when the pool holds its only handle. The
  // pool grows only while buffers are pinned (as many as the caller keeps).
  std::vector<std::shared_ptr<std::vector<char>>> m_pool;
  std::size_t m_begin = 0;  // first unconsumed byte
  std::size_t m_end = 0;    // one past the last valid byte
  std::size_t m_chunk;
  std::uint64_t m_consumed_offset = 0;  // stream offset of m_buffer[m_begin]
  std::uint64_t m_line_number = 0;
  bool m_eof = false;
  bool m_skipping = false;  // inside the rest of a truncated line
  std::optional<Diagnostic> m_error;
};

}  // namespace gapscan::source
