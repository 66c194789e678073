// gap_hist_floor — bench/gap_hist.awk's job (the per-request gap histogram of a MediaWiki line
// log) in plain C++, as fast as a program doing only that job can be: the floor under any tool
// that does at least awk's work. bench/run.sh times it beside mawk and gapscan and checks that
// its output is mawk's, byte for byte.
//
// One pass per thread over its share of the file (cut at line ends): split lines with memchr,
// take the first three blank-separated fields, the time from the first two (the same double
// arithmetic as the awk program, so the same buckets), the request id from the third; an open
// addressing table keeps each request's first and last time. Shares are joined in file order:
// a request seen in two shares has one gap across the cut.
//
// usage: gap_hist_floor [--threads N] FILE
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

bool blank(char c) { return c == ' ' || c == '\t'; }

/// Days since 1970-01-01 of a "YYYY-MM-DD" string, as gap_hist.awk counts them.
long day_number(std::string_view date) {
  static constexpr int k_month_start[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
  const auto number = [&](std::size_t at, std::size_t length) {
    long value = 0;
    for (std::size_t i = at; i < at + length && i < date.size(); ++i) {
      if (date[i] < '0' || date[i] > '9') break;
      value = value * 10 + (date[i] - '0');
    }
    return value;
  };
  const long y = number(0, 4), m = number(5, 2), d = number(8, 2);
  const long yp = y - 1;
  long days =
      365 * (y - 1970) + yp / 4 - yp / 100 + yp / 400 - 477 + (m >= 1 && m <= 12 ? k_month_start[m - 1] : 0) + d - 1;
  if (m > 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ++days;
  return days;
}

/// awk's string-to-number of a field: digits with an optional fraction of up to 15 digits are
/// read exactly (an integer divided by a power of ten is rounded as strtod rounds the decimal);
/// anything else goes to strtod, as awk does.
double awk_number(std::string_view text) {
  static constexpr double k_power[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  std::uint64_t value = 0;
  std::size_t i = 0, digits = 0, fraction = 0;
  bool point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      value = value * 10 + static_cast<std::uint64_t>(c - '0');
      ++digits;
      if (point) ++fraction;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (i == text.size() && digits > 0 && digits <= 15) return static_cast<double>(value) / k_power[fraction];
  char buffer[64];
  const std::size_t n = std::min(text.size(), sizeof buffer - 1);
  std::memcpy(buffer, text.data(), n);
  buffer[n] = '\0';
  return std::strtod(buffer, nullptr);
}

struct Histogram {
  static constexpr long k_offset = 40000;
  std::vector<std::uint64_t> bins = std::vector<std::uint64_t>(2 * k_offset, 0);
  std::map<long, std::uint64_t> outside;
  std::uint64_t gaps = 0, zero = 0, negative = 0;

  void add(double gap) {
    if (gap > 0) {
      const double x = std::log(gap) * 1000;
      long b = static_cast<long>(x);  // awk's int(): towards zero
      if (static_cast<double>(b) > x) --b;
      if (b > -k_offset && b < k_offset)
        ++bins[static_cast<std::size_t>(b + k_offset)];
      else
        ++outside[b];
      ++gaps;
    } else if (gap == 0) {
      ++zero;
    } else {
      ++negative;
    }
  }
  void merge(const Histogram& other) {
    for (std::size_t i = 0; i < bins.size(); ++i) bins[i] += other.bins[i];
    for (const auto& [b, n] : other.outside) outside[b] += n;
    gaps += other.gaps;
    zero += other.zero;
    negative += other.negative;
  }
};

/// Request id -> first and last time, open addressing with linear probing.
class Table {
 public:
  struct Slot {
    std::uint64_t hash = 0;
    const char* key = nullptr;
    std::uint32_t length = 0;
    double first = 0, last = 0;
  };

  /// The slot of `key`, and whether it was there before.
  std::pair<Slot*, bool> find_or_add(std::string_view key) { return find_or_add(key, hash_of(key)); }
  std::pair<Slot*, bool> find_or_add(std::string_view key, std::uint64_t hash) {
    if (2 * (m_size + 1) > m_slots.size()) grow();
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      Slot& slot = m_slots[i];
      if (slot.key == nullptr) {
        slot = {hash, store(key), static_cast<std::uint32_t>(key.size()), 0, 0};
        ++m_size;
        return {&slot, false};
      }
      if (slot.hash == hash && slot.length == key.size() && std::memcmp(slot.key, key.data(), key.size()) == 0)
        return {&slot, true};
    }
  }
  /// Asks the processor for the slot where `key` would be looked up first.
  void prefetch(std::uint64_t hash) const { __builtin_prefetch(&m_slots[hash & (m_slots.size() - 1)]); }
  const std::vector<Slot>& slots() const { return m_slots; }
  std::size_t size() const { return m_size; }

  /// The standard library's string hash (request ids are hashed once per line).
  static std::uint64_t hash_of(std::string_view key) { return std::hash<std::string_view>{}(key); }

 private:
  const char* store(std::string_view key) {
    if (m_arena.empty() || m_used + key.size() > k_block) {
      m_arena.push_back(std::make_unique<char[]>(std::max(k_block, key.size())));
      m_used = 0;
    }
    char* at = m_arena.back().get() + m_used;
    std::memcpy(at, key.data(), key.size());
    m_used += key.size();
    return at;
  }
  void grow() {
    std::vector<Slot> old(m_slots.size() * 2);
    old.swap(m_slots);
    const std::size_t mask = m_slots.size() - 1;
    for (const Slot& slot : old) {
      if (slot.key == nullptr) continue;
      std::size_t i = slot.hash & mask;
      while (m_slots[i].key != nullptr) i = (i + 1) & mask;
      m_slots[i] = slot;
    }
  }
  static constexpr std::size_t k_block = 1 << 20;
  std::vector<Slot> m_slots = std::vector<Slot>(1 << 16);
  std::size_t m_size = 0;
  std::vector<std::unique_ptr<char[]>> m_arena;
  std::size_t m_used = 0;
};

/// The next `length` bytes at `offset`, fewer at the end of the file; false on an error.
bool read_at(int fd, std::size_t offset, char* into, std::size_t length, std::size_t& got) {
  got = 0;
  while (got < length) {
    const ssize_t n = pread(fd, into + got, length - got, static_cast<off_t>(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  return true;
}

/// One thread's share of the file: bytes [begin, end), cut at line ends.
struct Share {
  int fd = -1;
  std::size_t begin = 0, end = 0;
  long day0 = 0;
  Histogram histogram;
  Table requests;
  std::uint64_t lines = 0, continuation = 0;
  int error = 0;  // errno of a failed read

  void run() {
    // Read in blocks like wc and cat; a line cut by a block's end moves to the front of the next.
    constexpr std::size_t k_block = 1 << 20;
    std::vector<char> buffer(2 * k_block);
    std::size_t carried = 0;
    for (std::size_t offset = begin; offset < end || carried > 0;) {
      std::size_t got = 0;
      if (offset < end && !read_at(fd, offset, buffer.data() + carried, std::min(k_block, end - offset), got)) {
        error = errno;
        return;
      }
      offset += got;
      const bool last = offset >= end || got == 0;
      const std::size_t filled = carried + got;
      if (filled + k_block > buffer.size() && !last) buffer.resize(2 * buffer.size());  // a line longer than a block
      std::string_view text(buffer.data(), filled);
      std::size_t used = last ? filled : text.rfind('\n') + 1;  // npos + 1 == 0: no line end yet
      lines_of(text.substr(0, used));
      carried = filled - used;
      std::memmove(buffer.data(), buffer.data() + used, carried);
      if (last) break;
    }
  }

  void lines_of(std::string_view text) {
    // Lines go through in batches: the request ids of a batch are hashed and their table slots
    // asked for before any is looked up, so that the cache misses of a batch overlap (with many
    // requests in flight every lookup misses).
    struct Pending {
      std::string_view key;
      std::uint64_t hash;
      double t;
    };
    constexpr std::size_t k_batch = 16;
    Pending batch[k_batch];
    std::size_t n = 0;
    const auto flush = [&] {
      for (std::size_t i = 0; i < n; ++i) {
        auto [slot, seen] = requests.find_or_add(batch[i].key, batch[i].hash);
        if (seen)
          histogram.add(batch[i].t - slot->last);
        else
          slot->first = batch[i].t;
        slot->last = batch[i].t;
      }
      n = 0;
    };
    const char* at = text.data();
    const char* const end_of_text = text.data() + text.size();
    while (at < end_of_text) {
      const char* newline = static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end_of_text - at)));
      const char* const line_end = newline ? newline : end_of_text;
      ++lines;
      std::string_view field[3];
      const char* p = at;
      for (std::string_view& f : field) {
        while (p < line_end && blank(*p)) ++p;
        const char* start = p;
        while (p < line_end && !blank(*p)) ++p;
        f = std::string_view(start, static_cast<std::size_t>(p - start));
      }
      at = newline ? newline + 1 : end_of_text;
      if (field[2].empty() || field[2][0] != '[') {
        ++continuation;
        continue;
      }
      if (field[0] != date) {
        date.assign(field[0]);
        day_s = static_cast<double>((day_number(date) - day0) * 86400);
      }
      const std::string_view clock = field[1];
      const auto part = [&](std::size_t from, std::size_t length) {
        return awk_number(clock.substr(std::min(from, clock.size()), length));
      };
      const std::uint64_t hash = Table::hash_of(field[2]);
      requests.prefetch(hash);
      batch[n++] = {field[2], hash, day_s + part(0, 2) * 3600 + part(3, 2) * 60 + part(6, std::string_view::npos)};
      if (n == k_batch) flush();
    }
    flush();
  }

  std::string date;  // the last date field seen, and its day's start in seconds from day0
  double day_s = 0;
};

}  // namespace

int main(int argc, char** argv) {
  unsigned threads = 1;
  const char* path = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
      threads = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
    else
      path = argv[i];
  }
  if (path == nullptr) {
    std::fprintf(stderr, "usage: gap_hist_floor [--threads N] FILE\n");
    return 2;
  }
  const int fd = open(path, O_RDONLY);
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0) {
    std::fprintf(stderr, "gap_hist_floor: %s: %s\n", path, std::strerror(errno));
    return 1;
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  // The first line's day is day 0 for every share.
  long day0 = 0;
  {
    std::string head(4096, '\0');
    std::size_t got = 0;
    read_at(fd, 0, head.data(), head.size(), got);
    const std::string_view first = std::string_view(head.data(), got).substr(0, head.find('\n'));
    const std::size_t start = first.find_first_not_of(" \t");
    if (start != std::string_view::npos)
      day0 = day_number(first.substr(start, first.find_first_of(" \t", start) - start));
  }
  // Shares of about equal size, each ending after a line end.
  std::vector<Share> shares(std::max(1u, threads));
  std::size_t from = 0;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    std::size_t to = i + 1 == shares.size() ? size : std::max(from, size / shares.size() * (i + 1));
    while (to < size) {  // past the next line end
      char block[4096];
      std::size_t got = 0;
      if (!read_at(fd, to, block, sizeof block, got) || got == 0) {
        to = size;
        break;
      }
      const void* newline = std::memchr(block, '\n', got);
      if (newline != nullptr) {
        to += static_cast<std::size_t>(static_cast<const char*>(newline) - block) + 1;
        break;
      }
      to += got;
    }
    shares[i].fd = fd;
    shares[i].begin = from;
    shares[i].end = to;
    shares[i].day0 = day0;
    from = to;
  }
  std::vector<std::thread> running;
  for (std::size_t i = 1; i < shares.size(); ++i) running.emplace_back([&, i] { shares[i].run(); });
  shares[0].run();
  for (std::thread& thread : running) thread.join();
  for (const Share& share : shares) {
    if (share.error != 0) {
      std::fprintf(stderr, "gap_hist_floor: %s: %s\n", path, std::strerror(share.error));
      return 1;
    }
  }

  // Join in file order: a request already seen has its first line in this share make a gap.
  Share& all = shares[0];
  for (std::size_t i = 1; i < shares.size(); ++i) {
    all.histogram.merge(shares[i].histogram);
    all.lines += shares[i].lines;
    all.continuation += shares[i].continuation;
    for (const Table::Slot& slot : shares[i].requests.slots()) {
      if (slot.key == nullptr) continue;
      auto [joined, seen] = all.requests.find_or_add(std::string_view(slot.key, slot.length));
      if (seen)
        all.histogram.add(slot.first - joined->last);
      else
        joined->first = slot.first;
      joined->last = slot.last;
    }
  }
  const Histogram& h = all.histogram;
  std::printf("# lines=%llu requests=%llu gaps=%llu zero=%llu negative=%llu continuation=%llu\n",
              static_cast<unsigned long long>(all.lines), static_cast<unsigned long long>(all.requests.size()),
              static_cast<unsigned long long>(h.gaps + h.zero + h.negative), static_cast<unsigned long long>(h.zero),
              static_cast<unsigned long long>(h.negative), static_cast<unsigned long long>(all.continuation));
  std::printf("# bucket\tlower_s\tcount\nzero\t0\t%llu\nnegative\t-\t%llu\n", static_cast<unsigned long long>(h.zero),
              static_cast<unsigned long long>(h.negative));
  std::map<long, std::uint64_t> rows(h.outside);
  for (std::size_t i = 0; i < h.bins.size(); ++i)
    if (h.bins[i] > 0) rows[static_cast<long>(i) - Histogram::k_offset] += h.bins[i];
  for (const auto& [b, n] : rows)
    std::printf("%ld\t%.9g\t%llu\n", b, std::exp(static_cast<double>(b) / 1000), static_cast<unsigned long long>(n));
  return 0;
}
