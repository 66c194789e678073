#pragma once
// Hands stream windows to worker threads: parsing and grouping go on while the previous
// windows are analysed. Each window is first prepared (the costly, self-contained part of its
// analysis: gap series, per-request tests, trigger-line search), by any worker, many windows
// at once; then consumed (what changes shared state), one window at a time and in the order
// the windows were pushed, by whichever worker finished the batch that is next. So results do
// not depend on the number of workers, nor on whether the queue is used. The queue is bounded:
// the producer waits while `max_windows` windows or `max_bytes` bytes are pushed and not yet
// consumed, so memory stays bounded.

#include <gapscan/stream/stream_table.hpp>

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

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

/// What a window's preparation found, handed to the consumer with the window. Opaque here.
struct WindowWork {
  virtual ~WindowWork() = default;
};

class WindowQueue {
 public:
  /// Called for many windows at once, on any of the worker threads: must not touch state the
  /// consumer changes.
  using Prepare = std::function<std::unique_ptr<WindowWork>(const StreamWindow&)>;
  /// Called for one window at a time, in the order the windows were pushed.
  using Consumer = std::function<void(const StreamWindow&, std::unique_ptr<WindowWork>)>;

  struct Limits {
    unsigned workers = 1;                      ///< threads preparing (and, one at a time, consuming)
    std::size_t max_windows = 1024;            ///< windows pushed and not yet consumed
    std::size_t max_bytes = 4u << 20;          ///< their bytes (OwnedWindow::bytes)
    std::size_t min_batch_bytes = 256u << 10;  ///< a worker takes at least this much at once, if pending
    /// The producer, instead of waiting for room, prepares (and in its turn consumes) pending
    /// windows as a worker does: with fewer workers than processors, the reading thread's idle
    /// time goes to the analysis. The consumer may then be called on the producer's thread.
    bool producer_helps = false;
  };

  WindowQueue(Prepare prepare, Consumer consumer, Limits limits);
  /// One worker, no preparation: `consumer` is called for each window in order on its thread.
  explicit WindowQueue(std::function<void(const StreamWindow&)> consumer, std::size_t max_windows = 1024,
                       std::size_t max_bytes = 16u << 20);
  ~WindowQueue();  ///< finishes: consumes what is pending, then joins
  WindowQueue(const WindowQueue&) = delete;
  WindowQueue& operator=(const WindowQueue&) = delete;

  /// Enqueues a window. Windows are handed to the workers a batch's worth at a time (k_batch_windows
  /// or min_batch_bytes: one lock and one wake-up for many small windows); handing them over
  /// blocks while max_windows windows or max_bytes bytes are not yet consumed (a batch larger
  /// than max_bytes still goes through, alone), working on pending windows meanwhile when
  /// Limits::producer_helps. Called by one thread, the producer.
  void push(OwnedWindow&& window);
  /// Waits until every pushed window has been consumed; the workers go on waiting for more
  /// (gapscan --follow takes a snapshot of the analysis then). Called by the producer.
  void drain();

  /// Waits until every pushed window has been consumed and stops the workers. Called by the
  /// producer (or the destructor).
  void finish();

 private:
  struct Batch;
  /// Hands the windows pushed since the last call to the workers.
  void publish();
  void run();
  /// Whether pending windows may be taken now: a batch's worth, or anything when nothing more
  /// may come for a while (the producer waits for room, drain() waits, or the input ended).
  bool takeable() const;
  /// Takes a batch and prepares it; consumes it at once if it is next and nobody consumes, else
  /// leaves it ready, then consumes what is ready in order if nobody does. Called with a
  /// takeable batch, and returns, under the lock.
  void work_on(std::unique_lock<std::mutex>& lock);
  /// Takes the next batch from the pending windows: at least one window, and at least
  /// min_batch_bytes or a worker's share of the pending bytes. Under the lock.
  Batch take_batch();
  /// Whether a batch's worth is pending (min_batch_bytes, or k_batch_windows windows). Under the lock.
  bool enough_pending() const;
  static constexpr std::size_t k_batch_windows = 64;
  /// Consumes the ready batches in order while the next one is ready, then gives up the
  /// consumer's role (m_consuming, which the caller took). Called, and returns, under the lock
  /// (released while consuming).
  void consume_ready(std::unique_lock<std::mutex>& lock);
  /// Makes room for a consumed batch and hands its windows back to the producer, which frees
  /// them (glibc's free of a block another thread allocated takes that thread's arena lock:
  /// at 100 000 requests in flight the two threads spent a sixth of their time waiting on it).
  /// Called outside the lock; returns under it.
  void release(std::unique_lock<std::mutex>& lock, Batch batch);
  /// Takes the consumed windows for the producer to free (into m_freeing); their bytes. Under the lock.
  std::size_t take_consumed();
  /// Frees the windows taken, on the producer's thread, outside the lock; counts them for the trimmer.
  void free_taken(std::size_t bytes);

  Prepare m_prepare;
  Consumer m_consumer;
  Limits m_limits;
  std::mutex m_mutex;
  std::condition_variable m_work;      ///< workers wait for windows (or the end)
  std::condition_variable m_not_full;  ///< the producer waits for room
  std::condition_variable m_idle;      ///< drain() waits for everything to be consumed
  std::vector<OwnedWindow> m_pending;  ///< from m_taken on: pushed, not yet taken by a worker
  std::size_t m_taken = 0;
  std::size_t m_pending_bytes = 0;
  std::size_t m_unconsumed = 0;  ///< windows pushed and not yet consumed
  std::size_t m_unconsumed_bytes = 0;
  std::uint64_t m_next_batch = 0;          ///< sequence number of the next batch taken
  std::uint64_t m_next_consume = 0;        ///< sequence number of the next batch to consume
  std::map<std::uint64_t, Batch> m_ready;  ///< prepared, waiting for their turn
  bool m_consuming = false;                ///< a worker is consuming (one at a time)
  bool m_done = false;
  bool m_flush = false;  ///< drain() waits: workers take what is pending, however little
  unsigned m_waiting_workers = 0;
  bool m_producer_waiting = false;
  std::vector<OwnedWindow> m_outbox;  ///< pushed, not yet handed over (the producer's alone: no lock)
  std::size_t m_outbox_bytes = 0;
  std::vector<OwnedWindow> m_consumed;  ///< consumed windows, for the producer to free
  std::vector<OwnedWindow> m_freeing;   ///< the producer's: those it frees now
  std::size_t m_consumed_bytes = 0;
  MemoryTrimmer m_trimmer;  ///< used by the producer only
  std::vector<std::thread> m_threads;
};

}  // namespace gapscan::stream
