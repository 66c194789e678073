#pragma once
// Hands stream windows to a consumer on its own thread: parsing and grouping go on while
// the previous windows are analysed. Windows are consumed in the order they were produced,
// so results do not depend on whether the queue is used. The queue is bounded: the producer
// waits while `max_windows` windows or `max_bytes` bytes are pending (plus the batch being
// analysed: the consumer takes everything pending at once), so memory stays bounded.

#include <gapscan/stream/stream_table.hpp>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace gapscan::stream {

class WindowQueue {
 public:
  using Consumer = std::function<void(const StreamWindow&)>;

  explicit WindowQueue(Consumer consumer, std::size_t max_windows = 256, std::size_t max_bytes = 32u << 20);
  ~WindowQueue();  ///< finishes: consumes what is pending, then joins
  WindowQueue(const WindowQueue&) = delete;
  WindowQueue& operator=(const WindowQueue&) = delete;

  /// Enqueues a window; blocks while the queue is full.
  void push(OwnedWindow&& window);
  /// Waits until every pushed window has been consumed; the consumer thread goes on waiting
  /// for more (gapscan --follow takes a snapshot of the analysis then).
  void drain();

  /// Waits until every pushed window has been consumed and stops the consumer thread.
  void finish();

 private:
  void run();

  Consumer m_consumer;
  std::size_t m_max_windows;
  std::size_t m_max_bytes;
  std::mutex m_mutex;
  std::condition_variable m_not_empty;
  std::condition_variable m_not_full;
  std::condition_variable m_idle;  ///< the consumer waits with nothing pending (for drain())
  std::deque<OwnedWindow> m_pending;
  std::size_t m_pending_bytes = 0;
  bool m_done = false;
  bool m_consumer_waiting = false;
  bool m_producer_waiting = false;
  bool m_drain_waiting = false;
  std::thread m_thread;
};

}  // namespace gapscan::stream
