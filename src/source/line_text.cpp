#include <gapscan/source/line_text.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>

namespace gapscan::source {
namespace {

std::atomic<std::size_t> g_open{0};

}  // namespace

std::shared_ptr<const LineText> LineText::open(int fd) {
  if (g_open.fetch_add(1) >= k_max_open) {
    g_open.fetch_sub(1);
    return nullptr;
  }
  const int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) {
    g_open.fetch_sub(1);
    return nullptr;
  }
  return std::shared_ptr<const LineText>(new LineText(copy));
}

LineText::~LineText() {
  ::close(m_fd);
  g_open.fetch_sub(1);
}

std::size_t LineText::open_count() { return g_open.load(); }

bool LineText::read(std::uint64_t offset, std::size_t length, std::string& out) const {
  const std::size_t at = out.size();
  out.resize(at + length, ' ');
  std::size_t done = 0;
  while (done < length) {
    const ssize_t n = ::pread(m_fd, out.data() + at + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  if (done < length) std::fill(out.begin() + static_cast<std::ptrdiff_t>(at + done), out.end(), ' ');
  return done == length;
}

}  // namespace gapscan::source
