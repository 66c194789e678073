#pragma once
// The seam between where bytes come from (a file, a pipe, a decompressor) and the line
// splitter. One real implementation per kind of input; tests use a string source.

#include <gapscan/core/expected.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace gapscan::source {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Reads up to `capacity` bytes into `buffer`. Returns the number read, 0 at the end,
  /// or an error naming the input and the byte offset where reading failed.
  virtual Expected<std::size_t> read(char* buffer, std::size_t capacity) = 0;
};

/// Reads an already open file descriptor (a file or stdin); reads a pipe as it arrives.
/// `name` is used in diagnostics. Takes ownership of `fd` unless it is 0 (stdin).
std::unique_ptr<ByteSource> make_fd_source(int fd, std::string name);

/// Passes `inner`'s bytes through, adding how many were read to `counter` (read by another
/// thread: the progress line counts an input's raw, still compressed bytes this way).
std::unique_ptr<ByteSource> make_counting_source(std::unique_ptr<ByteSource> inner,
                                                 std::atomic<std::uint64_t>& counter);

/// Serves bytes from memory; for tests and for embedded examples.
std::unique_ptr<ByteSource> make_string_source(std::string bytes);

}  // namespace gapscan::source
