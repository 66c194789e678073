#include <gapscan/source/follow.hpp>

#include <gapscan/core/interrupt.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace gapscan::source {
namespace {

using Clock = std::chrono::steady_clock;

class FollowSource final : public ByteSource {
 public:
  FollowSource(int fd, std::string path, std::string name, FollowOptions options)
      : m_fd(fd), m_path(std::move(path)), m_name(std::move(name)), m_options(std::move(options)) {
    struct stat info {};
    // A named file is watched at its end; standard input ends where it ends, even when it is a
    // redirected file (a pipe from tail -F is the way to follow through stdin).
    m_regular = !m_path.empty() && ::fstat(m_fd, &info) == 0 && S_ISREG(info.st_mode);
    if (!m_regular) ::fstat(m_fd, &info);
    m_inode = info.st_ino;
    m_device = info.st_dev;
  }
  ~FollowSource() override {
    if (m_fd > 0) ::close(m_fd);
  }
  FollowSource(const FollowSource&) = delete;
  FollowSource& operator=(const FollowSource&) = delete;

  Expected<std::size_t> read(char* buffer, std::size_t capacity) override {
    for (;;) {
      if (interrupted()) return std::size_t{0};
      if (Clock::now() - m_last_tick >= m_options.tick) tick();
      if (!m_regular) {
        // A pipe or terminal: wait for bytes at most one poll interval, ticking while none come.
        pollfd watched{m_fd, POLLIN, 0};
        const int ready = ::poll(&watched, 1, static_cast<int>(m_options.poll.count()));
        if (ready == 0) {
          tick();
          continue;
        }
        if (ready < 0 && errno == EINTR) continue;
      }
      const ssize_t n = ::read(m_fd, buffer, capacity);
      if (n > 0) {
        m_offset += static_cast<std::uint64_t>(n);
        return static_cast<std::size_t>(n);
      }
      if (n < 0) {
        if (errno == EINTR) continue;
        return unexpected(
            make_error(m_name, fmt::format("read failed at byte offset {}: {}", m_offset, std::strerror(errno))));
      }
      if (!m_regular) return std::size_t{0};  // the writer closed the pipe: the end
      // At the end of a file: look again after a while, reopening it when it was replaced.
      tick();
      ::usleep(static_cast<useconds_t>(m_options.poll.count() * 1000));
      reopen_if_changed();
    }
  }

 private:
  void tick() {
    m_last_tick = Clock::now();
    if (m_options.on_tick) m_options.on_tick();
  }

  void reopen_if_changed() {
    struct stat now {};
    if (::stat(m_path.c_str(), &now) != 0) return;  // gone for now (rotation in progress): keep waiting
    if (now.st_ino != m_inode || now.st_dev != m_device) {
      const int fd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) return;
      ::close(m_fd);
      m_fd = fd;
      m_inode = now.st_ino;
      m_device = now.st_dev;
      m_offset = 0;
    } else if (static_cast<std::uint64_t>(now.st_size) < m_offset) {
      ::lseek(m_fd, 0, SEEK_SET);  // truncated (copytruncate): read it again from the start
      m_offset = 0;
    }
  }

  int m_fd;
  std::string m_path;
  std::string m_name;
  FollowOptions m_options;
  bool m_regular = false;
  ino_t m_inode = 0;
  dev_t m_device = 0;
  std::uint64_t m_offset = 0;
  Clock::time_point m_last_tick = Clock::now();
};

}  // namespace

Expected<std::unique_ptr<ByteSource>> open_follow(const std::string& path, FollowOptions options) {
  if (path == "-") return std::unique_ptr<ByteSource>(new FollowSource(0, "", "<stdin>", std::move(options)));
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return unexpected(make_error(path, fmt::format("cannot open: {}", std::strerror(errno))));
  return std::unique_ptr<ByteSource>(new FollowSource(fd, path, path, std::move(options)));
}

}  // namespace gapscan::source
