#include <gapscan/stream/window_queue.hpp>

#include <malloc.h>

#include <algorithm>
#include <iterator>
#include <utility>

namespace gapscan::stream {

void MemoryTrimmer::consumed(std::size_t bytes) {
  m_bytes += bytes;
  if (m_bytes < k_every) return;
  m_bytes = 0;
  ::malloc_trim(0);
}

struct WindowQueue::Batch {
  std::vector<OwnedWindow> windows;
  std::vector<std::unique_ptr<WindowWork>> work;  // one per window, once prepared
  std::size_t bytes = 0;
};

WindowQueue::WindowQueue(Prepare prepare, Consumer consumer, Limits limits)
    : m_prepare(std::move(prepare)), m_consumer(std::move(consumer)), m_limits(limits) {
  m_limits.workers = std::max(1u, m_limits.workers);
  // The vectors that pass windows between the threads are allocated here, once, by the producer
  // (which frees them): neither thread frees a block the other allocated (see release()).
  const std::size_t most = m_limits.max_windows + k_batch_windows;
  m_pending.reserve(most);
  m_consumed.reserve(most);
  m_freeing.reserve(most);
  m_threads.reserve(m_limits.workers);
  for (unsigned i = 0; i < m_limits.workers; ++i) m_threads.emplace_back([this] { run(); });
}

WindowQueue::WindowQueue(std::function<void(const StreamWindow&)> consumer, std::size_t max_windows,
                         std::size_t max_bytes)
    : WindowQueue(
          nullptr,
          [consume = std::move(consumer)](const StreamWindow& window, std::unique_ptr<WindowWork>) { consume(window); },
          Limits{1, max_windows, max_bytes, 0}) {}

WindowQueue::~WindowQueue() { finish(); }

void WindowQueue::push(OwnedWindow&& window) {
  m_outbox_bytes += window.bytes();
  m_outbox.push_back(std::move(window));
  if (m_outbox.size() >= k_batch_windows || m_outbox_bytes >= m_limits.min_batch_bytes) publish();
}

void WindowQueue::publish() {
  if (m_outbox.empty()) return;
  const std::size_t windows = m_outbox.size(), bytes = std::exchange(m_outbox_bytes, 0);
  std::unique_lock lock(m_mutex);
  const auto room = [&] {
    return m_unconsumed == 0 ||
           (m_unconsumed + windows <= m_limits.max_windows && m_unconsumed_bytes + bytes <= m_limits.max_bytes);
  };
  if (!room()) {
    m_producer_waiting = true;  // what is pending, however little, is all there is for a while
    while (!room()) {
      if (!m_consumed.empty()) {  // what was consumed meanwhile, freed now: memory stays bounded
        const std::size_t consumed = take_consumed();
        lock.unlock();
        free_taken(consumed);
        lock.lock();
        continue;
      }
      if (m_limits.producer_helps && takeable()) {
        work_on(lock);
        continue;
      }
      if (m_waiting_workers > 0) m_work.notify_all();
      m_not_full.wait(lock, [&] { return room() || (m_limits.producer_helps && takeable()); });
    }
    m_producer_waiting = false;
  }
  m_unconsumed += windows;
  m_unconsumed_bytes += bytes;
  m_pending_bytes += bytes;
  if (m_taken > 0 && m_taken >= m_pending.size() / 2) {  // moved-from windows hold no memory
    m_pending.erase(m_pending.begin(), m_pending.begin() + static_cast<std::ptrdiff_t>(m_taken));
    m_taken = 0;
  }
  std::move(m_outbox.begin(), m_outbox.end(), std::back_inserter(m_pending));
  m_outbox.clear();
  // A worker is woken only when one waits and a batch's worth is pending: a wake-up per window
  // costs more than analysing a small one.
  const bool wake = m_waiting_workers > 0 && enough_pending();
  const std::size_t consumed = take_consumed();
  lock.unlock();
  if (wake) m_work.notify_one();
  free_taken(consumed);
}

std::size_t WindowQueue::take_consumed() {
  std::move(m_consumed.begin(), m_consumed.end(), std::back_inserter(m_freeing));
  m_consumed.clear();
  return std::exchange(m_consumed_bytes, 0);
}

void WindowQueue::free_taken(std::size_t bytes) {
  if (m_freeing.empty()) return;
  m_freeing.clear();
  m_trimmer.consumed(bytes);
}

WindowQueue::Batch WindowQueue::take_batch() {
  Batch batch;
  const std::size_t share = m_pending_bytes / (m_limits.workers + (m_limits.producer_helps ? 1 : 0));
  const std::size_t target = std::max(m_limits.min_batch_bytes, share);
  while (m_taken < m_pending.size() && (batch.windows.empty() || batch.bytes < target)) {
    OwnedWindow& next = m_pending[m_taken++];
    const std::size_t bytes = next.bytes();
    batch.bytes += bytes;
    m_pending_bytes -= bytes;
    batch.windows.push_back(std::move(next));
  }
  if (m_taken == m_pending.size()) {
    m_pending.clear();  // keeps its buffer, which only the producer allocates
    m_taken = 0;
  }
  return batch;
}

bool WindowQueue::takeable() const {
  return m_taken < m_pending.size() && (enough_pending() || m_producer_waiting || m_flush || m_done);
}

void WindowQueue::run() {
  std::unique_lock lock(m_mutex);
  for (;;) {
    if (!takeable()) {
      if (m_done) return;  // nothing pending; what others still prepare, they consume
      ++m_waiting_workers;
      m_work.wait(lock, [&] { return takeable() || m_done; });
      --m_waiting_workers;
      continue;
    }
    work_on(lock);
  }
}

void WindowQueue::work_on(std::unique_lock<std::mutex>& lock) {
  Batch batch = take_batch();
  const std::uint64_t sequence = m_next_batch++;
  // More windows left: another worker may take them while this one prepares.
  if (m_waiting_workers > 0 && enough_pending()) m_work.notify_one();
  if (!m_consuming && m_next_consume == sequence) {
    // This batch is next: each window is prepared and consumed at once, while it is in the
    // cache (with one worker, always).
    m_consuming = true;
    lock.unlock();
    for (OwnedWindow& window : batch.windows) {
      const StreamWindow view = window.view();
      m_consumer(view, m_prepare ? m_prepare(view) : nullptr);
    }
    release(lock, std::move(batch));
    ++m_next_consume;
  } else {
    lock.unlock();
    batch.work.resize(batch.windows.size());
    if (m_prepare) {
      for (std::size_t i = 0; i < batch.windows.size(); ++i) batch.work[i] = m_prepare(batch.windows[i].view());
    }
    lock.lock();
    m_ready.emplace(sequence, std::move(batch));
    if (m_consuming) return;
    m_consuming = true;
  }
  consume_ready(lock);
}

void WindowQueue::release(std::unique_lock<std::mutex>& lock, Batch batch) {
  const std::size_t windows = batch.windows.size(), bytes = batch.bytes;
  batch.work.clear();  // what the preparation allocated is freed here, outside the lock
  lock.lock();
  std::move(batch.windows.begin(), batch.windows.end(), std::back_inserter(m_consumed));
  m_consumed_bytes += bytes;
  m_unconsumed -= windows;
  m_unconsumed_bytes -= bytes;
  if (m_producer_waiting) m_not_full.notify_one();
}

void WindowQueue::consume_ready(std::unique_lock<std::mutex>& lock) {
  for (auto next = m_ready.find(m_next_consume); next != m_ready.end(); next = m_ready.find(m_next_consume)) {
    Batch batch = std::move(next->second);
    m_ready.erase(next);
    ++m_next_consume;
    lock.unlock();
    for (std::size_t i = 0; i < batch.windows.size(); ++i)
      m_consumer(batch.windows[i].view(), std::move(batch.work[i]));
    release(lock, std::move(batch));
  }
  m_consuming = false;
  if (m_unconsumed == 0) m_idle.notify_all();
}

bool WindowQueue::enough_pending() const {
  return m_pending_bytes >= m_limits.min_batch_bytes || m_pending.size() - m_taken >= k_batch_windows;
}

void WindowQueue::drain() {
  publish();
  std::unique_lock lock(m_mutex);
  m_flush = true;
  m_work.notify_all();
  m_idle.wait(lock, [&] { return m_unconsumed == 0; });
  m_flush = false;
}

void WindowQueue::finish() {
  publish();
  {
    std::lock_guard lock(m_mutex);
    if (m_done) return;
    m_done = true;
  }
  m_work.notify_all();
  for (std::thread& thread : m_threads) {
    if (thread.joinable()) thread.join();
  }
  free_taken(take_consumed());  // the workers are gone: no lock needed
}

}  // namespace gapscan::stream
