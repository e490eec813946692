// Rounding to the 16-bit floating-point formats, as the GPU rounds: binary16
// (__half: 5 exponent bits, 10 fraction bits) and bfloat16 (8 and 7), each
// in the four IEEE modes, with subnormals, infinities and NaN (a NaN becomes
// the canonical 0x7fff, as the GPU's conversions give it).
//
// Every value is taken as a double: a double holds every half, bfloat16 and
// float exactly, and the exact sum, difference and product of two halves or
// two bfloat16s; a quotient or square root rounded first to double and then
// to 16 bits is rounded correctly, since double carries more than twice the
// 16-bit formats' precision plus two bits. An fma's exact value is a double
// and its rounding error (exact_sum), rounded as one value.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace cohort::compat::fp16 {

enum class rounding { nearest_even, toward_zero, down, up };

// Format of a 16-bit float: exponent bits and fraction bits.
struct format {
  int exponent_bits;
  int fraction_bits;
  constexpr int bias() const { return (1 << (exponent_bits - 1)) - 1; }
  constexpr std::uint16_t infinity() const {
    return static_cast<std::uint16_t>(((1u << exponent_bits) - 1) << fraction_bits);
  }
  constexpr std::uint16_t max_finite() const { return static_cast<std::uint16_t>(infinity() - 1); }
};
inline constexpr format binary16{5, 10};
inline constexpr format bfloat16{8, 7};

// Rounds a non-negative magnitude `n` (an integer plus a fraction) to an integer.
inline double round_magnitude(double n, rounding mode, bool negative) {
  const double floor_n = std::floor(n);
  const double fraction = n - floor_n;
  if (fraction == 0.0) return n;
  switch (mode) {
    case rounding::toward_zero:
      return floor_n;
    case rounding::down:
      return negative ? floor_n + 1 : floor_n;
    case rounding::up:
      return negative ? floor_n : floor_n + 1;
    default:
      if (fraction > 0.5) return floor_n + 1;
      if (fraction < 0.5) return floor_n;
      return std::fmod(floor_n, 2.0) == 0.0 ? floor_n : floor_n + 1;
  }
}

inline std::uint16_t round_to(format f, double x, rounding mode) {
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x)) return 0x7fff;
  const double a = std::fabs(x);
  const bool negative = sign != 0;
  const auto overflow = [&]() -> std::uint16_t {
    const bool to_infinity =
        mode == rounding::nearest_even || (mode == rounding::up && !negative) || (mode == rounding::down && negative);
    return sign | (to_infinity ? f.infinity() : f.max_finite());
  };
  if (std::isinf(a)) return sign | f.infinity();
  const int min_exponent = 1 - f.bias();  // of the smallest normal
  int e = 0;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e)
  const int exponent = e - 1;
  std::uint32_t bits;
  if (a == 0.0 || exponent < min_exponent) {
    // Subnormal: multiples of 2^(min_exponent - fraction_bits); rounding up may reach the smallest normal.
    const double n = std::ldexp(a, f.fraction_bits - min_exponent);
    bits = static_cast<std::uint32_t>(round_magnitude(n, mode, negative));
  } else {
    const double n = std::ldexp(a, f.fraction_bits - exponent) - std::ldexp(1.0, f.fraction_bits);
    const auto biased = static_cast<std::uint32_t>(exponent + f.bias());
    bits = (biased << f.fraction_bits) + static_cast<std::uint32_t>(round_magnitude(n, mode, negative));
  }
  if (bits >= f.infinity()) return overflow();
  return static_cast<std::uint16_t>(sign | bits);
}

inline double value_of(format f, std::uint16_t h) {
  const bool negative = (h & 0x8000) != 0;
  const int exponent = (h & 0x7fff) >> f.fraction_bits;
  const int fraction = h & ((1 << f.fraction_bits) - 1);
  double magnitude;
  if (exponent == (1 << f.exponent_bits) - 1)
    magnitude = fraction ? NAN : INFINITY;
  else if (exponent == 0)
    magnitude = std::ldexp(fraction, 1 - f.bias() - f.fraction_bits);
  else
    magnitude = std::ldexp(fraction | (1 << f.fraction_bits), exponent - f.bias() - f.fraction_bits);
  return negative ? -magnitude : magnitude;
}

// The exact value sum + error of a double sum (Knuth's two-sum), rounded once:
// the error only decides when the sum lies on a rounding boundary, and moving
// the sum one double step towards it decides the same way.
inline std::uint16_t round_exact_sum(format f, double product, double addend, rounding mode) {
  const double sum = product + addend;
  if (!std::isfinite(sum)) return round_to(f, sum, mode);
  const double b = sum - product;
  const double error = (product - (sum - b)) + (addend - b);
  if (error == 0.0) return round_to(f, sum, mode);
  return round_to(f, std::nextafter(sum, error > 0 ? INFINITY : -INFINITY), mode);
}

}  // namespace cohort::compat::fp16
