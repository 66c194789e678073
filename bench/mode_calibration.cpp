// Calibration and power of the per-request mode test (detect/mode_scan.hpp), on synthetic
// gaps: the false-positive rate under a log-normal null at alpha = 0.01, and the recall of a
// tight 44 ms spike with k members and of a 40-44.3 ms band, for several sample sizes.
//   build/release/mode_calibration [replicates]
// Deterministic: the same table on every machine. docs/detection.md quotes its output.

#include <gapscan/detect/mode_scan.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using gapscan::detect::ScanOptions;
using gapscan::detect::ScanPoint;

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
    const double u = uniform() > 1e-300 ? uniform() : 1e-300;
    return std::sqrt(-2 * std::log(u)) * std::cos(6.283185307179586 * uniform());
  }

 private:
  std::uint64_t m_state;
};

std::vector<ScanPoint> background(Random& random, int n) {
  std::vector<ScanPoint> points;
  for (int i = 0; i < n; ++i) {
    points.push_back({std::log(1e6) + 1.5 * random.normal(), 1, static_cast<std::uint32_t>(i)});
  }
  return points;
}

bool found_between(const std::vector<ScanPoint>& points, double lo, double hi) {
  for (const auto& mode : gapscan::detect::scan_modes(points, ScanOptions{})) {
    const double centre = std::exp((mode.z_lo + mode.z_hi) / 2);
    if (centre > lo && centre < hi) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const int replicates = argc > 1 ? std::atoi(argv[1]) : 1000;
  std::printf("per-request mode test, alpha = 0.01, background log-normal (median 1 ms, sigma_ln 1.5)\n");
  std::printf("%6s  %8s  %9s  %9s  %9s  %9s\n", "n", "FPR", "spike k=3", "spike k=5", "spike k=8", "band n/5");
  for (int n : {20, 100, 1000}) {
    const int null_replicates = n >= 1000 ? replicates / 5 : replicates;
    int false_positives = 0;
    for (int r = 0; r < null_replicates; ++r) {
      Random random(1'000'000 + static_cast<std::uint64_t>(r));
      if (!gapscan::detect::scan_modes(background(random, n), ScanOptions{}).empty()) ++false_positives;
    }
    double recall[4] = {0, 0, 0, 0};
    const int power_replicates = replicates / 5;
    for (int r = 0; r < power_replicates; ++r) {
      int column = 0;
      for (int k : {3, 5, 8}) {
        Random random(2'000'000 + static_cast<std::uint64_t>(r) * 16 + static_cast<std::uint64_t>(k));
        auto points = background(random, n);
        for (int i = 0; i < k; ++i) {
          points.push_back({std::log(44e6 * (1 + 0.0005 * random.normal())), 1, static_cast<std::uint32_t>(n + i)});
        }
        recall[column++] += found_between(points, 43e6, 45e6) ? 1 : 0;
      }
      Random random(3'000'000 + static_cast<std::uint64_t>(r));
      auto points = background(random, n);
      const int members = n / 5 > 4 ? n / 5 : 4;
      for (int i = 0; i < members; ++i) {
        points.push_back({std::log(40e6 + 4.3e6 * random.uniform()), 1, static_cast<std::uint32_t>(n + i)});
      }
      recall[3] += found_between(points, 39e6, 45e6) ? 1 : 0;
    }
    std::printf("%6d  %8.4f  %9.2f  %9.2f  %9.2f  %9.2f\n", n, false_positives / static_cast<double>(null_replicates),
                recall[0] / power_replicates, recall[1] / power_replicates, recall[2] / power_replicates,
                recall[3] / power_replicates);
  }
  return 0;
}
