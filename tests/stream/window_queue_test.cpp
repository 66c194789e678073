#include <gapscan/stream/window_queue.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <memory_resource>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace gapscan::stream;

TEST_CASE("The window queue delivers every window, in order, on its own thread", "[stream][queue]") {
  std::vector<std::uint64_t> seen;
  std::thread::id consumer_thread;
  {
    WindowQueue queue(
        [&](const StreamWindow& window) {
          consumer_thread = std::this_thread::get_id();
          seen.push_back(window.stream_id);
          CHECK(window.entries.size() == 1);
          CHECK(window.text == "line");
        },
        /*max_windows=*/2);
    for (std::uint64_t id = 0; id < 100; ++id) {
      OwnedWindow window;
      window.stream_id = id;
      window.entries.resize(1);
      window.entries[0].text_length = 4;
      window.text = "line";
      queue.push(std::move(window));
    }
    queue.finish();
  }
  REQUIRE(seen.size() == 100);
  for (std::uint64_t id = 0; id < 100; ++id) CHECK(seen[id] == id);
  CHECK(consumer_thread != std::this_thread::get_id());
}

TEST_CASE("A full window queue makes the producer wait", "[stream][queue]") {
  std::atomic<int> consumed{0};
  std::atomic<bool> release{false};
  WindowQueue queue(
      [&](const StreamWindow&) {
        while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ++consumed;
      },
      /*max_windows=*/2);
  queue.push(OwnedWindow{});
  queue.push(OwnedWindow{});  // two windows not yet consumed: the queue is now full
  std::atomic<bool> third_pushed{false};
  std::thread producer([&] {
    queue.push(OwnedWindow{});
    third_pushed = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(third_pushed);
  release = true;
  producer.join();
  queue.finish();
  CHECK(consumed == 3);
}

namespace {

struct Squared final : WindowWork {
  std::uint64_t value = 0;
  std::thread::id thread;
};

OwnedWindow window_of(std::uint64_t id, std::size_t text_bytes) {
  OwnedWindow window;
  window.stream_id = id;
  window.entries.resize(1);
  window.text.assign(text_bytes, 'x');
  window.entries[0].text_length = static_cast<std::uint32_t>(text_bytes);
  return window;
}

/// What a consumer saw: the windows' ids in the order consumed, and whether two consumed at once.
struct Consumed {
  std::vector<std::uint64_t> seen;
  std::atomic<int> consuming{0};
  bool overlapped = false;
};

/// A consumer that checks each window came with its own Squared work, and notes it in `consumed`.
WindowQueue::Consumer checking_consumer(Consumed& consumed) {
  return [&consumed](const StreamWindow& window, std::unique_ptr<WindowWork> work) {
    consumed.overlapped |= ++consumed.consuming > 1;  // one consumer at a time, whichever thread
    const auto* squared = dynamic_cast<const Squared*>(work.get());
    REQUIRE(squared != nullptr);
    CHECK(squared->value == window.stream_id * window.stream_id);
    consumed.seen.push_back(window.stream_id);
    --consumed.consuming;
  };
}

}  // namespace

TEST_CASE("Many workers prepare windows at once, and each is consumed once, in order, with its own work",
          "[stream][queue]") {
  const unsigned workers = GENERATE(1u, 2u, 4u);
  const std::size_t text_bytes = GENERATE(std::size_t{10}, std::size_t{100000});  // tiny and large windows
  Consumed consumed;
  std::atomic<int> prepared{0};
  {
    WindowQueue::Limits limits;
    limits.workers = workers;
    limits.max_windows = 100;
    limits.max_bytes = 4u << 20;
    limits.min_batch_bytes = 64u << 10;
    WindowQueue queue(
        [&](const StreamWindow& window) {
          ++prepared;
          auto work = std::make_unique<Squared>();
          work->value = window.stream_id * window.stream_id;
          return std::unique_ptr<WindowWork>(std::move(work));
        },
        checking_consumer(consumed), limits);
    for (std::uint64_t id = 0; id < 2000; ++id) queue.push(window_of(id, text_bytes));
    queue.finish();
  }
  CHECK(prepared == 2000);
  CHECK_FALSE(consumed.overlapped);
  REQUIRE(consumed.seen.size() == 2000);
  for (std::uint64_t id = 0; id < 2000; ++id) CHECK(consumed.seen[id] == id);
}

TEST_CASE("Draining the queue consumes windows fewer than a batch, and the queue goes on", "[stream][queue]") {
  std::atomic<int> consumed{0};
  WindowQueue::Limits limits;
  limits.workers = 3;
  WindowQueue queue([](const StreamWindow&) { return std::unique_ptr<WindowWork>(); },
                    [&](const StreamWindow&, std::unique_ptr<WindowWork>) { ++consumed; }, limits);
  queue.push(window_of(0, 10));
  queue.push(window_of(1, 10));
  queue.drain();  // two tiny windows: far from a batch, taken because drain() waits
  CHECK(consumed == 2);
  queue.push(window_of(2, 10));
  queue.drain();
  CHECK(consumed == 3);
  queue.finish();
}

TEST_CASE("A producer that helps prepares windows itself when the queue is full, and the order holds",
          "[stream][queue]") {
  const unsigned workers = GENERATE(1u, 3u);
  const std::thread::id producer = std::this_thread::get_id();
  std::atomic<int> prepared_by_producer{0};
  Consumed consumed;
  {
    WindowQueue::Limits limits;
    limits.workers = workers;
    limits.max_windows = 8;  // full often: the producer has to wait, so it helps
    limits.min_batch_bytes = 1;
    limits.producer_helps = true;
    WindowQueue queue(
        [&](const StreamWindow& window) {
          if (std::this_thread::get_id() == producer) ++prepared_by_producer;
          std::this_thread::sleep_for(std::chrono::microseconds(200));  // slower than pushing
          auto work = std::make_unique<Squared>();
          work->value = window.stream_id * window.stream_id;
          return std::unique_ptr<WindowWork>(std::move(work));
        },
        checking_consumer(consumed), limits);
    for (std::uint64_t id = 0; id < 400; ++id) queue.push(window_of(id, 100));
    queue.finish();
  }
  CHECK(prepared_by_producer > 0);
  CHECK_FALSE(consumed.overlapped);
  REQUIRE(consumed.seen.size() == 400);
  for (std::uint64_t id = 0; id < 400; ++id) CHECK(consumed.seen[id] == id);
}

namespace {

/// A memory resource that notes on which threads its blocks were freed.
class FreeingThreads final : public std::pmr::memory_resource {
 public:
  std::set<std::thread::id> threads() const {
    std::lock_guard lock(m_mutex);
    return m_threads;
  }
  std::size_t frees() const {
    std::lock_guard lock(m_mutex);
    return m_frees;
  }

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    return std::pmr::new_delete_resource()->allocate(bytes, alignment);
  }
  void do_deallocate(void* block, std::size_t bytes, std::size_t alignment) override {
    {
      std::lock_guard lock(m_mutex);
      m_threads.insert(std::this_thread::get_id());
      ++m_frees;
    }
    std::pmr::new_delete_resource()->deallocate(block, bytes, alignment);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

  mutable std::mutex m_mutex;
  std::set<std::thread::id> m_threads;
  std::size_t m_frees = 0;
};

}  // namespace

TEST_CASE("The window queue frees every window on the thread that pushed it", "[stream][queue]") {
  // glibc's free of a block that another thread allocated takes that thread's arena lock: the
  // windows' buffers go back to the producer, which allocated them.
  const unsigned workers = GENERATE(1u, 3u);
  const bool helps = GENERATE(false, true);
  FreeingThreads memory;
  Consumed consumed;
  {
    WindowQueue::Limits limits;
    limits.workers = workers;
    limits.max_windows = 16;
    limits.min_batch_bytes = 1;
    limits.producer_helps = helps;
    WindowQueue queue(
        [&](const StreamWindow& window) {
          auto work = std::make_unique<Squared>();
          work->value = window.stream_id * window.stream_id;
          return std::unique_ptr<WindowWork>(std::move(work));
        },
        checking_consumer(consumed), limits);
    for (std::uint64_t id = 0; id < 500; ++id) {
      OwnedWindow window(&memory);
      window.stream_id = id;
      window.key = "a request id longer than a short string";
      window.entries.resize(2);
      window.text.assign(300, 'x');
      window.entries[0].text_length = 300;
      queue.push(std::move(window));
    }
    queue.finish();
  }
  REQUIRE(consumed.seen.size() == 500);
  CHECK(memory.frees() == 3 * 500);  // key, entries and text of each window
  CHECK(memory.threads() == std::set<std::thread::id>{std::this_thread::get_id()});
}
