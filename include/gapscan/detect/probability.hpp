#pragma once
// Tail probabilities used by the detectors, in natural-log form so that p-values far below
// the smallest double (1e-308) stay comparable.

#include <cstddef>

namespace gapscan::detect {

/// ln P(X >= k) for X ~ Poisson(lambda); 0 when k <= 0, -inf when lambda <= 0 < k.
double log_poisson_tail(double lambda, double k);

/// ln Γ(x) for x > 0. std::lgamma also writes the global signgam, a data race when windows are
/// analysed on several threads (ThreadSanitizer found it); this one does not.
double log_gamma(double x);

/// Chernoff upper bound of ln P(X >= k) for X ~ Poisson(lambda); cheap, for pruning.
double log_poisson_tail_bound(double lambda, double k);

/// ln of the regularised lower incomplete gamma function P(a, x), a > 0, x >= 0.
double log_gamma_p(double a, double x);

/// P(T > t) for Student's t with `dof` degrees of freedom (one-sided upper tail).
double student_t_upper_tail(double t, double dof);

/// ln P(X >= k) for X ~ Binomial(n, p); 0 when k <= 0.
double log_binomial_tail(std::size_t n, std::size_t k, double p);
/// Converts ln p to log10 p.
inline double to_log10(double log_p) { return log_p * 0.43429448190325182765; }

}  // namespace gapscan::detect
