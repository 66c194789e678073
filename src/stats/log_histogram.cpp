#include <gapscan/stats/log_histogram.hpp>

#include <algorithm>
#include <cmath>

#include <bit>
#include <numeric>

namespace gapscan::stats {

LogHistogram::LogHistogram(unsigned sub_bits)
    : m_sub_bits(sub_bits), m_counts((64 - sub_bits + 1) * (std::size_t{1} << sub_bits), 0) {}

std::size_t LogHistogram::index_of(std::uint64_t value, unsigned sub_bits) {
  const std::uint64_t sub_count = std::uint64_t{1} << sub_bits;
  if (value < sub_count) return static_cast<std::size_t>(value);
  const unsigned exponent = 63u - static_cast<unsigned>(std::countl_zero(value));
  const std::uint64_t sub = (value >> (exponent - sub_bits)) - sub_count;
  return static_cast<std::size_t>((exponent - sub_bits + 1) * sub_count + sub);
}

std::uint64_t LogHistogram::lower(std::size_t index) const {
  const std::uint64_t sub_count = std::uint64_t{1} << m_sub_bits;
  if (index < sub_count) return index;
  const std::uint64_t octave = index / sub_count;
  const std::uint64_t sub = index % sub_count;
  return (sub_count + sub) << (octave - 1);
}

void LogHistogram::merge(const LogHistogram& other) {
  for (std::size_t i = 0; i < m_counts.size() && i < other.m_counts.size(); ++i) {
    m_counts[i] += other.m_counts[i];
  }
}

std::uint64_t LogHistogram::total() const {
  return std::accumulate(m_counts.begin(), m_counts.end(), std::uint64_t{0});
}

std::uint64_t LogHistogram::quantile(double q) const {
  const std::uint64_t n = total();
  if (n == 0) return 0;
  const auto rank = static_cast<std::uint64_t>(std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(n)));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < m_counts.size(); ++i) {
    seen += m_counts[i];
    if (seen >= std::max<std::uint64_t>(rank, 1)) return lower(i) + (upper(i) - lower(i)) / 2;
  }
  return highest();
}

std::uint64_t LogHistogram::highest() const {
  for (std::size_t i = m_counts.size(); i-- > 0;) {
    if (m_counts[i] > 0) return lower(i) + (upper(i) - lower(i)) / 2;
  }
  return 0;
}

}  // namespace gapscan::stats
