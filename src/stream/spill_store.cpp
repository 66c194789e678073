#include <gapscan/stream/spill_store.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace gapscan::stream {

namespace {
constexpr std::size_t k_buffer_bytes = std::size_t{256} << 10;  // appends are written in pieces of this size

/// Calls `io` (pread or pwrite) until all `size` bytes at `offset` are done; false on an error
/// or the end of the file.
template <typename Byte, typename Io>
bool all_of(Io io, int fd, Byte* data, std::size_t size, std::uint64_t offset) {
  while (size > 0) {
    const ssize_t n = io(fd, data, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

bool write_all(int fd, const char* data, std::size_t size, std::uint64_t offset) {
  return all_of(::pwrite, fd, data, size, offset);
}

bool read_all(int fd, char* data, std::size_t size, std::uint64_t offset) {
  return all_of(::pread, fd, data, size, offset);
}
}  // namespace

SpillStore::SpillStore(std::string directory, std::uint64_t file_limit)
    : m_directory(std::move(directory)), m_file_limit(file_limit) {}

SpillStore::~SpillStore() {
  for (File& file : m_files)
    if (file.fd >= 0) ::close(file.fd);
}

void SpillStore::fail(std::string what) {
  m_failed = true;
  m_error = std::move(what);
}

bool SpillStore::open_file() {
  std::string directory = m_directory;
  if (directory.empty()) {
    std::error_code error;
    directory = std::filesystem::temp_directory_path(error).string();
    if (error) directory = "/tmp";
  }
  // An unnamed file where the file system offers one; else a named one, unlinked at once.
  int fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {
    std::string name = directory + "/gapscan-spill-XXXXXX";
    fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd >= 0) ::unlink(name.c_str());
  }
  if (fd < 0) {
    fail("cannot make a temporary file in " + directory + ": " + std::strerror(errno));
    return false;
  }
  m_files.push_back(File{fd, 0, 0});
  m_current = static_cast<std::uint32_t>(m_files.size() - 1);
  m_buffer.clear();
  m_buffer_offset = 0;
  return true;
}

bool SpillStore::flush() const {
  if (m_buffer.empty()) return true;
  const File& file = m_files[m_current];
  if (!write_all(file.fd, m_buffer.data(), m_buffer.size(), m_buffer_offset)) return false;
  m_buffer_offset += m_buffer.size();
  m_buffer.clear();
  return true;
}

bool SpillStore::append(std::string_view bytes, Chunk& chunk) {
  if (m_failed) return false;
  if (m_files.empty() || m_files[m_current].fd < 0 || m_files[m_current].size >= m_file_limit) {
    if (!m_files.empty() && m_files[m_current].fd >= 0 && !flush()) {
      fail(std::string("cannot write a temporary file: ") + std::strerror(errno));
      return false;
    }
    if (!open_file()) return false;
  }
  File& file = m_files[m_current];
  if (m_buffer.size() + bytes.size() > k_buffer_bytes) {
    if (!flush()) {
      fail(std::string("cannot write a temporary file: ") + std::strerror(errno));
      return false;
    }
    if (bytes.size() > k_buffer_bytes) {  // too large to buffer: straight to the file
      if (!write_all(file.fd, bytes.data(), bytes.size(), m_buffer_offset)) {
        fail(std::string("cannot write a temporary file: ") + std::strerror(errno));
        return false;
      }
      m_buffer_offset += bytes.size();
    }
  }
  chunk.file = m_current;
  chunk.offset = file.size;
  chunk.length = static_cast<std::uint32_t>(bytes.size());
  if (m_buffer_offset <= file.size) m_buffer.append(bytes);
  file.size += bytes.size();
  file.live += bytes.size();
  m_bytes_written += bytes.size();
  return true;
}

bool SpillStore::read_into(const Chunk& chunk, char* data) const {
  if (chunk.length == 0) return true;
  const File& file = m_files[chunk.file];
  std::size_t length = chunk.length;
  std::uint64_t offset = chunk.offset;
  if (chunk.file == m_current && offset + length > m_buffer_offset) {
    // The chunk's tail (or all of it) is still in the buffer.
    const std::uint64_t in_file = offset < m_buffer_offset ? m_buffer_offset - offset : 0;
    std::memcpy(data + in_file, m_buffer.data() + (offset + in_file - m_buffer_offset), length - in_file);
    length = static_cast<std::size_t>(in_file);
  }
  if (length > 0 && !read_all(file.fd, data, length, offset)) {
    std::memset(data, ' ', length);
    return false;
  }
  return true;
}

void SpillStore::release(const Chunk& chunk) {
  File& file = m_files[chunk.file];
  file.live -= chunk.length;
  if (file.live > 0) return;
  if (chunk.file == m_current) {
    // Nothing of the current file is needed: start it again from the beginning.
    if (::ftruncate(file.fd, 0) == 0) {
      file.size = 0;
      m_buffer.clear();
      m_buffer_offset = 0;
    }
  } else if (file.fd >= 0) {
    ::close(file.fd);
    file.fd = -1;
  }
}

std::uint64_t SpillStore::bytes_held() const {
  std::uint64_t held = 0;
  for (const File& file : m_files) held += file.live;
  return held;
}

}  // namespace gapscan::stream
