#include <gapscan/stream/window_queue.hpp>

#include <malloc.h>

namespace gapscan::stream {

void MemoryTrimmer::consumed(std::size_t bytes) {
  m_bytes += bytes;
  if (m_bytes < k_every) return;
  m_bytes = 0;
  ::malloc_trim(0);
}

WindowQueue::WindowQueue(Consumer consumer, std::size_t max_windows, std::size_t max_bytes)
    : m_consumer(std::move(consumer)), m_max_windows(max_windows), m_max_bytes(max_bytes) {
  m_thread = std::thread([this] { run(); });
}

WindowQueue::~WindowQueue() { finish(); }

void WindowQueue::push(OwnedWindow&& window) {
  const std::size_t bytes = window.bytes();
  std::unique_lock lock(m_mutex);
  // A window larger than the byte budget still goes through, alone.
  if (!(m_pending.empty() || (m_pending.size() < m_max_windows && m_pending_bytes + bytes <= m_max_bytes))) {
    m_producer_waiting = true;
    m_not_full.wait(lock, [&] {
      return m_pending.empty() || (m_pending.size() < m_max_windows && m_pending_bytes + bytes <= m_max_bytes);
    });
    m_producer_waiting = false;
  }
  m_pending_bytes += bytes;
  m_pending.push_back(std::move(window));
  // Woken only when it waits: a wake-up per window costs more than analysing a small one.
  const bool wake = m_consumer_waiting;
  lock.unlock();
  if (wake) m_not_empty.notify_one();
}

void WindowQueue::run() {
  std::deque<OwnedWindow> batch;
  for (;;) {
    {
      std::unique_lock lock(m_mutex);
      m_consumer_waiting = true;
      if (m_drain_waiting && m_pending.empty()) m_idle.notify_all();
      m_not_empty.wait(lock, [&] { return !m_pending.empty() || m_done; });
      m_consumer_waiting = false;
      if (m_pending.empty()) return;  // done and drained
      // Everything pending is taken at once: one lock and one wake-up per batch.
      batch.swap(m_pending);
      m_pending_bytes = 0;
      if (m_producer_waiting) m_not_full.notify_one();
    }
    std::size_t bytes = 0;
    for (OwnedWindow& window : batch) {
      bytes += window.bytes();
      m_consumer(window.view());
    }
    batch.clear();
    m_trimmer.consumed(bytes);
  }
}

void WindowQueue::drain() {
  std::unique_lock lock(m_mutex);
  m_drain_waiting = true;
  m_idle.wait(lock, [&] { return (m_pending.empty() && m_consumer_waiting) || !m_thread.joinable(); });
  m_drain_waiting = false;
}

void WindowQueue::finish() {
  {
    std::lock_guard lock(m_mutex);
    if (m_done) return;
    m_done = true;
  }
  m_not_empty.notify_one();
  if (m_thread.joinable()) m_thread.join();
}

}  // namespace gapscan::stream
