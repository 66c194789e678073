#include <gapscan/source/byte_source.hpp>

#include <gapscan/core/interrupt.hpp>

#include <fmt/format.h>

#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>

namespace gapscan::source {
namespace {

class FdSource final : public ByteSource {
 public:
  FdSource(int fd, std::string name) : m_fd(fd), m_name(std::move(name)) {}
  ~FdSource() override {
    if (m_fd > 0) ::close(m_fd);
  }
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;

  Expected<std::size_t> read(char* buffer, std::size_t capacity) override {
    for (;;) {
      const ssize_t n = ::read(m_fd, buffer, capacity);
      if (n >= 0) {
        m_offset += static_cast<std::uint64_t>(n);
        return static_cast<std::size_t>(n);
      }
      if (errno == EINTR) {
        if (interrupted()) return std::size_t{0};  // asked to stop: read as the end of the input
        continue;
      }
      return unexpected(
          make_error(m_name, fmt::format("read failed at byte offset {}: {}", m_offset, std::strerror(errno))));
    }
  }

 private:
  int m_fd;
  std::string m_name;
  std::uint64_t m_offset = 0;
};

class StringSource final : public ByteSource {
 public:
  explicit StringSource(std::string bytes) : m_bytes(std::move(bytes)) {}
  Expected<std::size_t> read(char* buffer, std::size_t capacity) override {
    const std::size_t n = std::min(capacity, m_bytes.size() - m_position);
    std::memcpy(buffer, m_bytes.data() + m_position, n);
    m_position += n;
    return n;
  }

 private:
  std::string m_bytes;
  std::size_t m_position = 0;
};

}  // namespace

std::unique_ptr<ByteSource> make_fd_source(int fd, std::string name) {
  return std::make_unique<FdSource>(fd, std::move(name));
}

namespace {

class CountingSource final : public ByteSource {
 public:
  CountingSource(std::unique_ptr<ByteSource> inner, std::atomic<std::uint64_t>& counter)
      : m_inner(std::move(inner)), m_counter(counter) {}
  Expected<std::size_t> read(char* buffer, std::size_t capacity) override {
    auto n = m_inner->read(buffer, capacity);
    if (n) m_counter.fetch_add(*n, std::memory_order_relaxed);
    return n;
  }

 private:
  std::unique_ptr<ByteSource> m_inner;
  std::atomic<std::uint64_t>& m_counter;
};

}  // namespace

std::unique_ptr<ByteSource> make_counting_source(std::unique_ptr<ByteSource> inner,
                                                 std::atomic<std::uint64_t>& counter) {
  return std::make_unique<CountingSource>(std::move(inner), counter);
}

std::unique_ptr<ByteSource> make_string_source(std::string bytes) {
  return std::make_unique<StringSource>(std::move(bytes));
}

}  // namespace gapscan::source
