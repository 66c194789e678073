#include <gapscan/catalog/embedded.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace gapscan::catalog {

void release_embedded_pages() {
#ifdef MADV_DONTNEED
  const long page = sysconf(_SC_PAGESIZE);
  if (page <= 0) return;
  const auto size = static_cast<std::uintptr_t>(page);
  for (const EmbeddedFile& file : embedded_files()) {
    // Only whole pages inside the file's bytes: their neighbours may hold other data.
    const auto begin = reinterpret_cast<std::uintptr_t>(file.text.data());
    const std::uintptr_t first = (begin + size - 1) / size * size;
    const std::uintptr_t last = (begin + file.text.size()) / size * size;
    if (last <= first) continue;
    // Read-only pages of a private file mapping: dropping them loses nothing. A failure only
    // leaves them resident.
    (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
  }
#endif
}

}  // namespace gapscan::catalog
