#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::stream {

/// Where the stream table keeps line text it has no memory for: anonymous temporary files
/// (unlinked from the start, so nothing is left behind), written through a buffer, read back
/// when the text is needed again. A file is emptied when none of its bytes are needed any more;
/// once one is larger than `file_limit` a new one is started, and the old one is closed when
/// its last bytes are released, so the disk used stays near what is still held.
class SpillStore {
 public:
  /// A place in the store: which file, where, how long.
  struct Chunk {
    std::uint32_t file = 0;
    std::uint32_t length = 0;
    std::uint64_t offset = 0;
  };

  /// `directory`: empty for the system's temporary directory ($TMPDIR, else /tmp).
  explicit SpillStore(std::string directory = {}, std::uint64_t file_limit = std::uint64_t{256} << 20);
  ~SpillStore();
  SpillStore(const SpillStore&) = delete;
  SpillStore& operator=(const SpillStore&) = delete;

  /// Stores `bytes`; false (and nothing stored) when no file can be made or written, after
  /// which every call fails: the caller keeps its text in memory.
  bool append(std::string_view bytes, Chunk& chunk);
  /// Appends the bytes of `chunk` to `out` (a string); false on a read error (`out` then ends
  /// with as many spaces instead, so offsets into it stay right).
  template <typename String>
  bool read(const Chunk& chunk, String& out) const {
    const std::size_t at = out.size();
    out.resize(at + chunk.length, ' ');
    return read_into(chunk, out.data() + at);
  }
  /// Writes the `chunk.length` bytes of `chunk` to `data`; on a read error, spaces and false.
  bool read_into(const Chunk& chunk, char* data) const;
  /// The bytes of `chunk` are not needed any more.
  void release(const Chunk& chunk);

  bool failed() const { return m_failed; }
  const std::string& error() const { return m_error; }
  std::uint64_t bytes_written() const { return m_bytes_written; }  ///< over the store's life
  std::uint64_t bytes_held() const;                                ///< not yet released

 private:
  struct File {
    int fd = -1;
    std::uint64_t size = 0;  // bytes appended, the buffer's included
    std::uint64_t live = 0;  // appended and not released
  };
  bool open_file();
  bool flush() const;
  void fail(std::string what);

  std::string m_directory;
  std::uint64_t m_file_limit;
  std::vector<File> m_files;  // index = Chunk::file; fd -1 once closed
  std::uint32_t m_current = 0;
  // Appends to the current file wait here, from file offset m_buffer_offset on.
  mutable std::string m_buffer;
  mutable std::uint64_t m_buffer_offset = 0;
  bool m_failed = false;
  std::string m_error;
  std::uint64_t m_bytes_written = 0;
};

}  // namespace gapscan::stream
