#pragma once
// A small deterministic random source for synthetic test data (the same numbers on every
// machine, unlike std::normal_distribution).

#include <cmath>
#include <cstdint>

namespace gapscan::testing {

class Random {
 public:
  explicit Random(std::uint64_t seed) : m_state(seed) { m_state = next() ^ 0xd1b54a32d192ed03ull; }
  std::uint64_t next() {
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double normal() {
    const double u = std::max(uniform(), 1e-300);
    return std::sqrt(-2 * std::log(u)) * std::cos(6.283185307179586 * uniform());
  }
  /// Log-normal with the given median and sigma of ln.
  double lognormal(double median, double sigma) { return median * std::exp(sigma * normal()); }

 private:
  std::uint64_t m_state;
};

}  // namespace gapscan::testing
