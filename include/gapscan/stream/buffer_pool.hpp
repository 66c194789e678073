#pragma once
// A memory resource for the stream table's buffers (line text, entries, window keys): blocks
// of up to 64 KiB in eighth-octave size classes (at most 12.5 % above the size asked for), freed blocks kept on a free
// list per class (at most `max_cached` bytes of them) and handed out again. With many requests in flight the stream
// table allocates and frees millions of small buffers that grow by doubling (a window of two lines costs five of each);
// glibc's malloc takes about a fifth of the reading thread for them (bins, coalescing), a free list a few instructions.
//
// Not std::pmr::unsynchronized_pool_resource: that keeps every freed block until it is destroyed
// and rounds sizes up further; in its place the same scan peaked at 88 MiB instead of 62 at 2 000
// requests in flight (docs/performance.md), at the same speed.
//
// Not thread-safe: one thread allocates and frees (the stream table's; the window queue hands
// consumed windows back to it). Blocks above 64 KiB go to operator new directly.

#include <array>
#include <cstddef>
#include <memory_resource>

namespace gapscan::stream {

class BufferPool final : public std::pmr::memory_resource {
 public:
  explicit BufferPool(std::size_t max_cached = std::size_t{2} << 20) : m_max_cached(max_cached) {}
  ~BufferPool() override;
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  std::size_t cached_bytes() const { return m_cached; }     ///< in the free lists
  std::size_t allocated_bytes() const { return m_handed; }  ///< handed out, not yet given back (class sizes)
  /// The size class a request of `bytes` is served from (its block's size); `bytes` itself above 64 KiB.
  static std::size_t block_size(std::size_t bytes);

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override;
  void do_deallocate(void* block, std::size_t bytes, std::size_t alignment) override;
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

  static constexpr std::size_t k_min_block = 64;
  static constexpr std::size_t k_max_block = std::size_t{64} << 10;
  static constexpr std::size_t k_classes = 1 + 8 * 10;  // 64, then eight classes an octave up to 64 KiB
  static std::size_t class_of(std::size_t bytes);       // bytes <= k_max_block
  static std::size_t size_of_class(std::size_t index);

  struct FreeBlock {
    FreeBlock* next;
  };
  std::array<FreeBlock*, k_classes> m_free{};
  std::size_t m_max_cached;
  std::size_t m_cached = 0;
  std::size_t m_handed = 0;
};

}  // namespace gapscan::stream
