#include <gapscan/detect/probability.hpp>

#include <catch2/catch.hpp>

#include <cmath>

using namespace gapscan::detect;

namespace {

/// P(Poisson(lambda) >= k) by direct summation of the lower terms, for moderate values.
double brute_tail(double lambda, int k) {
  long double term = std::exp(static_cast<long double>(-lambda));
  long double below = 0;
  for (int j = 0; j < k; ++j) {
    below += term;
    term *= lambda / (j + 1);
  }
  return static_cast<double>(1 - below);
}

}  // namespace

TEST_CASE("Poisson tails agree with direct summation and stay finite far out", "[detect][probability]") {
  for (double lambda : {0.3, 2.0, 7.5, 40.0}) {
    for (int k : {1, 2, 5, 10, 20, 60}) {
      const double expected = brute_tail(lambda, k);
      if (expected < 1e-8) continue;  // beyond the summation's precision
      INFO("lambda " << lambda << " k " << k);
      CHECK(std::exp(log_poisson_tail(lambda, k)) == Approx(expected).epsilon(1e-9));
    }
  }
  CHECK(to_log10(log_poisson_tail(1e-6, 3)) == Approx(std::log10(1e-18 / 6)).epsilon(1e-6));
  CHECK(to_log10(log_poisson_tail(1e-6, 400)) < -2000);  // far below the smallest double
  CHECK(log_poisson_tail(5, 0) == 0);
  CHECK(log_poisson_tail_bound(2, 10) >= log_poisson_tail(2, 10));
}

TEST_CASE("Student t upper tail", "[detect][probability]") {
  CHECK(student_t_upper_tail(0, 11) == Approx(0.5));
  CHECK(student_t_upper_tail(2.718, 11) == Approx(0.01).epsilon(0.01));
  CHECK(student_t_upper_tail(-2.718, 11) == Approx(0.99).epsilon(0.001));
}
