// CUDA's math functions that the C++ library does not have under these names:
// the normal distribution's CDF and its inverse, the inverse error functions,
// the scaled complementary error function, reciprocal and n-dimensional norms,
// modified Bessel functions of the first kind. Computed in double (float forms
// rounded once at the end), at least as accurate as CUDA's (its documented
// ulp bounds are 2 to 7 for these).
#pragma once

#include <cmath>
#include <limits>

namespace cohort::compat::special {

// erfinv by Newton's method on erf from Giles' single-precision approximation
// (a few correct bits suffice as a start: each step about triples them).
inline double erfinv(double y) {
  if (!(y > -1.0 && y < 1.0)) {
    if (y == 1.0) return std::numeric_limits<double>::infinity();
    if (y == -1.0) return -std::numeric_limits<double>::infinity();
    return std::numeric_limits<double>::quiet_NaN();
  }
  double w = -std::log((1.0 - y) * (1.0 + y)), x;
  if (w < 5.0) {
    w -= 2.5;
    x = y * (1.50140941 + w * (0.246640727 + w * (-0.00417768164 + w * (-0.00125372503 + w * (0.00021858087)))));
  } else {
    w = std::sqrt(w) - 3.0;
    x = y * (2.83297682 + w * (1.00167406 + w * (0.00943887047 + w * (-0.0076224613 + w * 0.00573950773))));
  }
  const double two_over_sqrt_pi = 1.1283791670955126;
  for (int i = 0; i < 3; ++i) x -= (std::erf(x) - y) / (two_over_sqrt_pi * std::exp(-x * x));
  return x;
}

inline double erfcx(double x);

// erfcinv(y) = erfinv(1 - y), computed on erfc directly where 1 - y would lose
// y's digits: Newton's method on log(erfc(x)) = log(erfcx(x)) - x^2, which
// is smooth in the tail, where erfc itself underflows and its slope changes fast.
inline double erfcinv(double y) {
  if (!(y > 0.0 && y < 2.0)) {
    if (y == 0.0) return std::numeric_limits<double>::infinity();
    if (y == 2.0) return -std::numeric_limits<double>::infinity();
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (y > 0.0625 && y < 1.9375) return erfinv(1.0 - y);
  const bool upper = y < 1.0;  // erfc(-x) = 2 - erfc(x)
  const double log_t = std::log(upper ? y : 2.0 - y);
  double x = std::sqrt(-log_t);  // the tail's leading behaviour, a start
  const double two_over_sqrt_pi = 1.1283791670955126;
  for (int i = 0; i < 50; ++i) {
    const double scaled = erfcx(x);
    const double step = (std::log(scaled) - x * x - log_t) / (-two_over_sqrt_pi / scaled);
    x -= step;
    if (std::fabs(step) <= 1e-16 * std::fabs(x)) break;
  }
  return upper ? x : -x;
}

inline double erfcx(double x) {
  if (x < 26.0) return std::exp(x * x) * std::erfc(x);
  // exp(x^2) overflows past 26.6, long before erfc(x) underflows: the
  // asymptotic series, whose seventh term is below 1e-13 from x = 26 on.
  const double u = 1.0 / (2.0 * x * x);
  double term = 1.0, sum = 1.0;
  for (int n = 1; n < 7; ++n) {
    term *= -(2 * n - 1) * u;
    sum += term;
  }
  return sum / (x * 1.7724538509055160273);
}

}  // namespace cohort::compat::special

inline double normcdf(double x) { return 0.5 * std::erfc(-x * 0.70710678118654752440); }
inline float normcdff(float x) { return static_cast<float>(normcdf(x)); }
inline double normcdfinv(double p) { return -1.41421356237309504880 * cohort::compat::special::erfcinv(2.0 * p); }
inline float normcdfinvf(float p) { return static_cast<float>(normcdfinv(p)); }
inline double erfinv(double y) { return cohort::compat::special::erfinv(y); }
inline float erfinvf(float y) { return static_cast<float>(erfinv(y)); }
inline double erfcinv(double y) { return cohort::compat::special::erfcinv(y); }
inline float erfcinvf(float y) { return static_cast<float>(erfcinv(y)); }
inline double erfcx(double x) { return cohort::compat::special::erfcx(x); }
inline float erfcxf(float x) { return static_cast<float>(erfcx(x)); }

inline double rhypot(double x, double y) { return 1.0 / std::hypot(x, y); }
inline float rhypotf(float x, float y) { return static_cast<float>(rhypot(x, y)); }
inline double norm3d(double a, double b, double c) { return std::hypot(a, b, c); }
inline float norm3df(float a, float b, float c) { return static_cast<float>(norm3d(a, b, c)); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
inline float rnorm3df(float a, float b, float c) { return static_cast<float>(rnorm3d(a, b, c)); }
inline double norm4d(double a, double b, double c, double d) { return std::hypot(std::hypot(a, b), std::hypot(c, d)); }
inline float norm4df(float a, float b, float c, float d) { return static_cast<float>(norm4d(a, b, c, d)); }
inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
inline float rnorm4df(float a, float b, float c, float d) { return static_cast<float>(rnorm4d(a, b, c, d)); }
// The Euclidean norm of `dim` elements, scaled so that no square overflows.
inline double norm(int dim, const double* a) {
  double largest = 0.0;
  for (int i = 0; i < dim; ++i) largest = std::fmax(largest, std::fabs(a[i]));
  if (largest == 0.0 || std::isinf(largest)) return largest;
  double sum = 0.0;
  for (int i = 0; i < dim; ++i) sum += (a[i] / largest) * (a[i] / largest);
  return largest * std::sqrt(sum);
}
inline double rnorm(int dim, const double* a) { return 1.0 / norm(dim, a); }
inline float normf(int dim, const float* a) {
  double largest = 0.0, sum = 0.0;
  for (int i = 0; i < dim; ++i) largest = std::fmax(largest, std::fabs(static_cast<double>(a[i])));
  if (largest == 0.0 || std::isinf(largest)) return static_cast<float>(largest);
  for (int i = 0; i < dim; ++i) sum += (a[i] / largest) * (a[i] / largest);
  return static_cast<float>(largest * std::sqrt(sum));
}
inline float rnormf(int dim, const float* a) { return 1.0f / normf(dim, a); }

inline double cyl_bessel_i0(double x) { return std::cyl_bessel_i(0.0, std::fabs(x)); }
inline float cyl_bessel_i0f(float x) { return static_cast<float>(cyl_bessel_i0(x)); }
inline double cyl_bessel_i1(double x) { return x < 0 ? -std::cyl_bessel_i(1.0, -x) : std::cyl_bessel_i(1.0, x); }
inline float cyl_bessel_i1f(float x) { return static_cast<float>(cyl_bessel_i1(x)); }
