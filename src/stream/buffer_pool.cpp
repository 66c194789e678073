#include <gapscan/stream/buffer_pool.hpp>

#include <bit>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace gapscan::stream {

namespace {
constexpr std::size_t k_plain_alignment = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

// A block on a free list is poisoned: AddressSanitizer reports a use after it was given back,
// as it would for memory from malloc.
void poison([[maybe_unused]] void* block, [[maybe_unused]] std::size_t size) {
#if defined(__SANITIZE_ADDRESS__)
  __asan_poison_memory_region(block, size);
#endif
}

void unpoison([[maybe_unused]] void* block, [[maybe_unused]] std::size_t size) {
#if defined(__SANITIZE_ADDRESS__)
  __asan_unpoison_memory_region(block, size);
#endif
}
}  // namespace

BufferPool::~BufferPool() {
  for (std::size_t index = 0; index < k_classes; ++index) {
    while (FreeBlock* block = m_free[index]) {
      unpoison(block, size_of_class(index));
      m_free[index] = block->next;
      ::operator delete(block);
    }
  }
}

std::size_t BufferPool::class_of(std::size_t bytes) {
  if (bytes <= k_min_block) return 0;
  // 2^octave < bytes <= 2^(octave + 1); classes 2^octave + q * 2^(octave - 3), q = 1..8.
  const std::size_t octave = static_cast<std::size_t>(std::bit_width(bytes - 1)) - 1;
  const std::size_t step = std::size_t{1} << (octave - 3);
  const std::size_t eighth = (bytes - (std::size_t{1} << octave) + step - 1) / step;  // 1..8
  return 1 + (octave - 6) * 8 + (eighth - 1);
}

std::size_t BufferPool::size_of_class(std::size_t index) {
  if (index == 0) return k_min_block;
  const std::size_t octave = 6 + (index - 1) / 8, eighth = 1 + (index - 1) % 8;
  return (std::size_t{1} << octave) + eighth * (std::size_t{1} << (octave - 3));
}

std::size_t BufferPool::block_size(std::size_t bytes) {
  return bytes > k_max_block ? bytes : size_of_class(class_of(bytes));
}

void* BufferPool::do_allocate(std::size_t bytes, std::size_t alignment) {
  if (bytes > k_max_block || alignment > k_plain_alignment) {
    return alignment > k_plain_alignment ? ::operator new (bytes, std::align_val_t{alignment}) : ::operator new(bytes);
  }
  const std::size_t index = class_of(bytes);
  const std::size_t size = size_of_class(index);
  m_handed += size;
  if (FreeBlock* block = m_free[index]) {
    unpoison(block, size);
    m_free[index] = block->next;
    m_cached -= size;
    return block;
  }
  return ::operator new(size);
}

void BufferPool::do_deallocate(void* block, std::size_t bytes, std::size_t alignment) {
  if (bytes > k_max_block || alignment > k_plain_alignment) {
    if (alignment > k_plain_alignment) {
      ::operator delete (block, std::align_val_t{alignment});
    } else {
      ::operator delete(block);
    }
    return;
  }
  const std::size_t index = class_of(bytes);
  const std::size_t size = size_of_class(index);
  m_handed -= size;
  if (m_cached + size > m_max_cached) {
    ::operator delete(block);
    return;
  }
  auto* free = static_cast<FreeBlock*>(block);
  free->next = m_free[index];
  m_free[index] = free;
  m_cached += size;
  poison(free, size);
}

}  // namespace gapscan::stream
