#pragma once
// A log-linear histogram of non-negative integers (HdrHistogram layout): values below
// 2^sub_bits each get their own bin; above, every power-of-two range is split into
// 2^sub_bits equal bins, so a bin's relative width is at most 2^-sub_bits. Recording is
// O(1) without a logarithm; histograms with equal sub_bits merge by adding counters.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gapscan::stats {

class LogHistogram {
 public:
  /// sub_bits = 10 gives bins at most 0.1 % wide; 6 gives about 1.6 %.
  explicit LogHistogram(unsigned sub_bits = 10);

  static std::size_t index_of(std::uint64_t value, unsigned sub_bits);
  std::size_t index_of(std::uint64_t value) const { return index_of(value, m_sub_bits); }

  void add(std::uint64_t value, std::uint64_t count = 1) { m_counts[index_of(value)] += count; }
  void add_at(std::size_t index, std::uint64_t count = 1) { m_counts[index] += count; }
  void merge(const LogHistogram& other);

  std::size_t size() const { return m_counts.size(); }
  std::uint64_t count(std::size_t index) const { return m_counts[index]; }
  /// Smallest value that falls in bin `index`.
  std::uint64_t lower(std::size_t index) const;
  /// One past the largest value of bin `index`.
  std::uint64_t upper(std::size_t index) const { return lower(index + 1); }
  std::uint64_t total() const;
  /// The value below which a share `q` (0..1) of the counts lie: the middle of the bin holding
  /// that rank (within the bin width); 0 for an empty histogram.
  std::uint64_t quantile(double q) const;
  /// Middle of the highest bin with a count; 0 for an empty histogram.
  std::uint64_t highest() const;
  unsigned sub_bits() const { return m_sub_bits; }

 private:
  unsigned m_sub_bits;
  std::vector<std::uint64_t> m_counts;
};

}  // namespace gapscan::stats
