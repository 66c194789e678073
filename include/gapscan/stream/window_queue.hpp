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

/// Hands the memory of consumed windows back to the system every 64 MiB of them: glibc keeps the
/// freed pages of many small windows, so that peak RSS grew with the input (148 MiB at 2 GiB)
/// while the heap did not (101 M); with it RSS stays flat (109 MiB). docs/performance.md.
class MemoryTrimmer {
 public:
  void consumed(std::size_t bytes);

 private:
  static constexpr std::size_t k_every = 64u << 20;
  std::size_t m_bytes = 0;
};

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
  MemoryTrimmer m_trimmer;  ///< consumer thread only
  std::thread m_thread;
};

}  // namespace gapscan::stream
