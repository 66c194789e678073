#include <gapscan/stream/buffer_pool.hpp>

#include <catch2/catch.hpp>

#include <memory_resource>
#include <string>
#include <vector>

using gapscan::stream::BufferPool;

TEST_CASE("A buffer pool's blocks hold what was asked for, at most an eighth more", "[stream][pool]") {
  std::size_t previous = 0;
  for (std::size_t bytes = 1; bytes <= (std::size_t{64} << 10); bytes += bytes < 4096 ? 1 : 61) {
    const std::size_t block = BufferPool::block_size(bytes);
    CHECK(block >= bytes);
    CHECK(block % 8 == 0);
    CHECK(block >= previous);  // the classes grow with the size asked for
    if (bytes > 64) CHECK(static_cast<double>(block) <= static_cast<double>(bytes) * 1.125 + 16);
    previous = block;
  }
  CHECK(BufferPool::block_size(64) == 64);
  CHECK(BufferPool::block_size(65) == 72);
  CHECK(BufferPool::block_size(1000) == 1024);
  CHECK(BufferPool::block_size(std::size_t{1} << 20) == std::size_t{1} << 20);  // above 64 KiB: as asked
}

TEST_CASE("A buffer pool hands a freed block out again, and keeps no more than its cap", "[stream][pool]") {
  BufferPool pool(/*max_cached=*/4096);
  void* first = pool.allocate(1000);
  CHECK(pool.allocated_bytes() == 1024);
  pool.deallocate(first, 1000);
  CHECK(pool.allocated_bytes() == 0);
  CHECK(pool.cached_bytes() == 1024);
  void* again = pool.allocate(1010);  // the same class
  CHECK(again == first);
  CHECK(pool.cached_bytes() == 0);
  void* other = pool.allocate(200);  // another class: a new block
  CHECK(other != first);
  pool.deallocate(again, 1010);
  pool.deallocate(other, 200);

  // Freeing more than the cap gives the rest back to the system.
  std::vector<void*> blocks;
  for (int i = 0; i < 10; ++i) blocks.push_back(pool.allocate(1024));
  for (void* block : blocks) pool.deallocate(block, 1024);
  CHECK(pool.cached_bytes() <= 4096);
  CHECK(pool.allocated_bytes() == 0);

  // Large blocks are not pooled.
  void* large = pool.allocate(std::size_t{1} << 20);
  pool.deallocate(large, std::size_t{1} << 20);
  CHECK(pool.cached_bytes() <= 4096);
}

TEST_CASE("Strings and vectors grow and shrink in a buffer pool as in the heap", "[stream][pool]") {
  BufferPool pool;
  {
    std::pmr::string text(&pool);
    std::pmr::vector<int> numbers(&pool);
    for (int i = 0; i < 20000; ++i) {
      text += static_cast<char>('a' + i % 26);
      numbers.push_back(i);
    }
    CHECK(text.size() == 20000);
    CHECK(text[19999] == static_cast<char>('a' + 19999 % 26));
    CHECK(numbers[12345] == 12345);
    CHECK(pool.allocated_bytes() >= 20000);  // the text; the numbers (80 000 bytes) are above 64 KiB
    std::pmr::string(&pool).swap(text);      // frees the buffer
    CHECK(text.empty());
  }
  CHECK(pool.allocated_bytes() == 0);
}
