#include <gapscan/detect/probability.hpp>

#include <cmath>
#include <limits>

namespace gapscan::detect {

double log_gamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}
namespace {

constexpr double k_epsilon = 1e-15;
constexpr int k_max_iterations = 100000;

/// ln Q(a, x) by the continued fraction for the upper incomplete gamma (modified Lentz),
/// valid for x >= a + 1.
double log_gamma_q_fraction(double a, double x) {
  const double tiny = 1e-300;
  double b = x + 1 - a;
  double c = 1 / tiny;
  double d = 1 / b;
  double h = d;
  for (int i = 1; i < k_max_iterations; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < k_epsilon) break;
  }
  return -x + a * std::log(x) - log_gamma(a) + std::log(h);
}

/// Continued fraction for the regularised incomplete beta function (modified Lentz).
double beta_fraction(double a, double b, double x) {
  const double tiny = 1e-300;
  double c = 1;
  double d = 1 - (a + b) * x / (a + 1);
  if (std::abs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m < 10000; ++m) {
    const int m2 = 2 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (std::abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (std::abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < k_epsilon) break;
  }
  return h;
}

/// Regularised incomplete beta I_x(a, b).
double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front = std::exp(log_gamma(a + b) - log_gamma(a) - log_gamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * beta_fraction(a, b, x) / a;
  return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

}  // namespace

double log_gamma_p(double a, double x) {
  if (x <= 0) return -std::numeric_limits<double>::infinity();
  if (x < a + 1) {
    // Series: P(a, x) = e^-x x^a / Gamma(a) * sum_n x^n / (a (a+1) ... (a+n)).
    double term = 1 / a;
    double sum = term;
    for (int n = 1; n < k_max_iterations; ++n) {
      term *= x / (a + n);
      sum += term;
      if (term < sum * k_epsilon) break;
    }
    return -x + a * std::log(x) - log_gamma(a) + std::log(sum);
  }
  const double log_q = log_gamma_q_fraction(a, x);
  const double q = std::exp(log_q);
  return q < 1 ? std::log1p(-q) : -std::numeric_limits<double>::infinity();
}

double log_poisson_tail(double lambda, double k) {
  if (k <= 0) return 0;
  if (lambda <= 0) return -std::numeric_limits<double>::infinity();
  // P(X >= k) = P(k, lambda) for integer k >= 1 (regularised lower incomplete gamma).
  return log_gamma_p(std::ceil(k), lambda);
}

double log_poisson_tail_bound(double lambda, double k) {
  if (k <= lambda) return 0;
  if (lambda <= 0) return -std::numeric_limits<double>::infinity();
  return -(lambda - k + k * std::log(k / lambda));
}

double student_t_upper_tail(double t, double dof) {
  const double x = dof / (dof + t * t);
  const double half = 0.5 * incomplete_beta(dof / 2, 0.5, x);
  return t > 0 ? half : 1 - half;
}

double log_binomial_tail(std::size_t n, std::size_t k, double p) {
  if (k == 0) return 0;
  if (k > n || p <= 0) return -std::numeric_limits<double>::infinity();
  if (p >= 1) return 0;
  double log_sum = -std::numeric_limits<double>::infinity();
  for (std::size_t j = k; j <= n; ++j) {
    const double term = log_gamma(static_cast<double>(n) + 1) - log_gamma(static_cast<double>(j) + 1) -
                        log_gamma(static_cast<double>(n - j) + 1) + static_cast<double>(j) * std::log(p) +
                        static_cast<double>(n - j) * std::log1p(-p);
    const double hi = std::max(log_sum, term);
    log_sum = hi + std::log(std::exp(log_sum - hi) + std::exp(term - hi));
  }
  return std::min(0.0, log_sum);
}

}  // namespace gapscan::detect
