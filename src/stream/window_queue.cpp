#include <gapscan/stream/window_queue.hpp>

namespace gapscan::stream {

WindowQueue::WindowQueue(Consumer consumer, std::size_t max_windows, std::size_t max_bytes)
    : m_consumer(std::move(consumer)), m_max_windows(max_windows), m_max_bytes(max_bytes) {
  m_thread = std::thread([this] { run(); });
}

WindowQueue::~WindowQueue() { finish(); }

void WindowQueue::push(OwnedWindow&& window) {
  const std::size_t bytes = window.bytes();
  std::unique_lock lock(m_mutex);
  // A window larger than the byte budget still goes through, alone.
  m_not_full.wait(lock, [&] {
    return m_pending.empty() || (m_pending.size() < m_max_windows && m_pending_bytes + bytes <= m_max_bytes);
  });
  m_pending_bytes += bytes;
  m_pending.push_back(std::move(window));
  m_not_empty.notify_one();
}

void WindowQueue::run() {
  for (;;) {
    OwnedWindow window;
    {
      std::unique_lock lock(m_mutex);
      m_not_empty.wait(lock, [&] { return !m_pending.empty() || m_done; });
      if (m_pending.empty()) return;  // done and drained
      window = std::move(m_pending.front());
      m_pending.pop_front();
      m_pending_bytes -= window.bytes();
    }
    m_not_full.notify_one();  // room for one more while this one is analysed
    m_consumer(window.view());
  }
}

void WindowQueue::finish() {
  {
    std::lock_guard lock(m_mutex);
    m_done = true;
  }
  m_not_empty.notify_one();
  if (m_thread.joinable()) m_thread.join();
}

}  // namespace gapscan::stream
