// <cuda_bf16.h> on the host backend: __nv_bfloat16 and __nv_bfloat162 with
// the conversions, arithmetic, comparisons, warp shuffles and atomics that
// kernels use, rounded as the GPU rounds (cohort_compat/half_rounding.hpp).
// The list is in docs/cuda-compat.md.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <cohort/cohort.hpp>

#include "cohort_compat/half_rounding.hpp"
#include "vector_types.h"

struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};

struct __nv_bfloat16;
__nv_bfloat16 __float2bfloat16(float a);
__nv_bfloat16 __double2bfloat16(double a);
float __bfloat162float(__nv_bfloat16 a);

struct alignas(2) __nv_bfloat16 {
  __nv_bfloat16() = default;
  constexpr __nv_bfloat16(__nv_bfloat16_raw r) : bits(r.x) {}
  __nv_bfloat16(float f) : __nv_bfloat16(__float2bfloat16(f)) {}
  __nv_bfloat16(double d) : __nv_bfloat16(__double2bfloat16(d)) {}
  __nv_bfloat16(int v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(unsigned v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(short v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(unsigned short v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(long long v) : __nv_bfloat16(static_cast<double>(v)) {}
  __nv_bfloat16(unsigned long long v) : __nv_bfloat16(static_cast<double>(v)) {}
  operator float() const { return __bfloat162float(*this); }
  operator __nv_bfloat16_raw() const { return {bits}; }
  __nv_bfloat16& operator=(float f) { return *this = __nv_bfloat16(f); }
  __nv_bfloat16& operator=(double d) { return *this = __nv_bfloat16(d); }

  unsigned short bits;  // CUDA's is private (__x); cohort's functions read it
};

struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  constexpr __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
  __nv_bfloat162(__nv_bfloat162_raw r) : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
  operator __nv_bfloat162_raw() const { return {x.bits, y.bits}; }
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

namespace cohort::compat::fp16 {
inline __nv_bfloat16 make_bfloat16(std::uint16_t bits) { return __nv_bfloat16(__nv_bfloat16_raw{bits}); }
inline __nv_bfloat16 rounded_bfloat16(double x, rounding mode = rounding::nearest_even) {
  return make_bfloat16(round_to(bfloat16, x, mode));
}
}  // namespace cohort::compat::fp16

inline __nv_bfloat16 __float2bfloat16(float a) { return cohort::compat::fp16::rounded_bfloat16(a); }
// A double NaN keeps its sign and quiet payload's top bits; a bfloat16 is the
// top half of a float, NaN payload included (both measured on an H200).
inline __nv_bfloat16 __double2bfloat16(double a) {
  if (a != a) {
    const auto bits = std::bit_cast<std::uint64_t>(a);
    return cohort::compat::fp16::make_bfloat16(
        static_cast<std::uint16_t>(((bits >> 48) & 0x8000) | 0x7fc0 | ((bits >> 45) & 0x7f)));
  }
  return cohort::compat::fp16::rounded_bfloat16(a);
}
inline float __bfloat162float(__nv_bfloat16 a) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(a.bits) << 16);
}
inline __nv_bfloat16 __float2bfloat16_rn(float a) { return cohort::compat::fp16::rounded_bfloat16(a); }
inline __nv_bfloat16 __float2bfloat16_rz(float a) {
  return cohort::compat::fp16::rounded_bfloat16(a, cohort::compat::fp16::rounding::toward_zero);
}
inline __nv_bfloat16 __float2bfloat16_rd(float a) {
  return cohort::compat::fp16::rounded_bfloat16(a, cohort::compat::fp16::rounding::down);
}
inline __nv_bfloat16 __float2bfloat16_ru(float a) {
  return cohort::compat::fp16::rounded_bfloat16(a, cohort::compat::fp16::rounding::up);
}
inline __nv_bfloat16 __int2bfloat16_rn(int a) { return cohort::compat::fp16::rounded_bfloat16(a); }
inline int __bfloat162int_rn(__nv_bfloat16 h) {
  const float f = __bfloat162float(h);
  if (f != f) return 0;
  if (f <= -2147483648.0f) return std::numeric_limits<int>::min();
  if (f >= 2147483648.0f) return std::numeric_limits<int>::max();
  return static_cast<int>(std::nearbyint(f));
}
inline int __bfloat162int_rz(__nv_bfloat16 h) {
  const float f = __bfloat162float(h);
  if (f != f) return 0;
  if (f <= -2147483648.0f) return std::numeric_limits<int>::min();
  if (f >= 2147483648.0f) return std::numeric_limits<int>::max();
  return static_cast<int>(f);
}

inline __nv_bfloat162 __float2bfloat162_rn(float a) { return {__float2bfloat16(a), __float2bfloat16(a)}; }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return {__float2bfloat16(a), __float2bfloat16(b)}; }
inline __nv_bfloat162 __float22bfloat162_rn(float2 a) { return {__float2bfloat16(a.x), __float2bfloat16(a.y)}; }
inline float2 __bfloat1622float2(__nv_bfloat162 a) { return {__bfloat162float(a.x), __bfloat162float(a.y)}; }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a) { return a.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a) { return a.y; }
inline float __low2float(__nv_bfloat162 a) { return __bfloat162float(a.x); }
inline float __high2float(__nv_bfloat162 a) { return __bfloat162float(a.y); }
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 lo, __nv_bfloat16 hi) { return {lo, hi}; }
inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return {a, a}; }
inline __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 a) { return {a.y, a.x}; }
inline __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return {a.x, b.x}; }
inline __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return {a.y, b.y}; }

inline short __bfloat16_as_short(__nv_bfloat16 h) { return static_cast<short>(h.bits); }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.bits; }
inline __nv_bfloat16 __short_as_bfloat16(short s) {
  return cohort::compat::fp16::make_bfloat16(static_cast<std::uint16_t>(s));
}
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short s) { return cohort::compat::fp16::make_bfloat16(s); }

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)

#include "cohort_compat/half_arithmetic.hpp"

COHORT_COMPAT_HALF_ARITHMETIC(__nv_bfloat16, __nv_bfloat162, cohort::compat::fp16::bfloat16)
