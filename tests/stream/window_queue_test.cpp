#include <gapscan/stream/window_queue.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
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
      /*max_windows=*/1);
  queue.push(OwnedWindow{});  // taken by the consumer, which waits
  queue.push(OwnedWindow{});  // pending: the queue is now full
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
