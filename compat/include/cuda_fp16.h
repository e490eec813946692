// <cuda_fp16.h> on the host backend: __half and __half2 with the conversions,
// arithmetic, comparisons, warp shuffles and atomics that kernels use, each
// rounded as the GPU rounds (cohort_compat/half_rounding.hpp). The list is in
// docs/cuda-compat.md; tests/cuda_programs/half_precision.cu checks it bit for
// bit against an H200's results.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>

#include <cohort/cohort.hpp>

#include "cohort_compat/half_rounding.hpp"
#include "vector_types.h"

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};

struct __half;
__half __float2half(float a);
__half __double2half(double a);
float __half2float(__half a);

struct alignas(2) __half {
  __half() = default;
  constexpr __half(__half_raw r) : bits(r.x) {}
  __half(float f) : __half(__float2half(f)) {}
  __half(double d) : __half(__double2half(d)) {}
  // CUDA's integer constructors round to nearest.
  __half(int v) : __half(static_cast<double>(v)) {}
  __half(unsigned v) : __half(static_cast<double>(v)) {}
  __half(short v) : __half(static_cast<double>(v)) {}
  __half(unsigned short v) : __half(static_cast<double>(v)) {}
  __half(long v) : __half(static_cast<double>(v)) {}
  __half(unsigned long v) : __half(static_cast<double>(v)) {}
  __half(long long v) : __half(static_cast<double>(v)) {}
  __half(unsigned long long v) : __half(static_cast<double>(v)) {}
  operator float() const { return __half2float(*this); }
  operator __half_raw() const { return {bits}; }
  __half& operator=(float f) { return *this = __half(f); }
  __half& operator=(double d) { return *this = __half(d); }
  __half& operator=(__half_raw r) {
    bits = r.x;
    return *this;
  }

  unsigned short bits;  // CUDA's is private (__x); cohort's functions read it
};

struct alignas(4) __half2 {
  __half x, y;
  __half2() = default;
  constexpr __half2(__half a, __half b) : x(a), y(b) {}
  __half2(__half2_raw r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  operator __half2_raw() const { return {x.bits, y.bits}; }
};

typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;

namespace cohort::compat::fp16 {
inline __half make_half(std::uint16_t bits) { return __half(__half_raw{bits}); }
inline double value(__half h) { return value_of(binary16, h.bits); }
inline __half rounded(double x, rounding mode = rounding::nearest_even) {
  return make_half(round_to(binary16, x, mode));
}
inline bool isnan(__half h) { return (h.bits & 0x7fff) > 0x7c00; }
// An integer conversion as the GPU's cvt: NaN is 0, values out of range saturate.
template <class I>
I to_integer(__half h, rounding mode) {
  // NaN: 0, except in 64 bits, where the GPU's conversion gives the smallest value.
  if (isnan(h)) return sizeof(I) == 8 ? static_cast<I>(1ull << 63) : 0;
  const double v = value(h);
  double r = mode == rounding::nearest_even  ? std::nearbyint(v)
             : mode == rounding::toward_zero ? std::trunc(v)
             : mode == rounding::down        ? std::floor(v)
                                             : std::ceil(v);
  if (r <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (r >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(r);
}
}  // namespace cohort::compat::fp16

inline __half __float2half(float a) { return cohort::compat::fp16::rounded(a); }
// A double NaN keeps its sign and quiet payload's top bits; a half NaN becomes
// the canonical float NaN (both measured on an H200).
inline __half __double2half(double a) {
  if (a != a) {
    const auto bits = std::bit_cast<std::uint64_t>(a);
    return cohort::compat::fp16::make_half(
        static_cast<std::uint16_t>(((bits >> 48) & 0x8000) | 0x7e00 | ((bits >> 42) & 0x3ff)));
  }
  return cohort::compat::fp16::rounded(a);
}
inline float __half2float(__half a) {
  if (cohort::compat::fp16::isnan(a)) return std::bit_cast<float>(0x7fffffffu);
  return static_cast<float>(cohort::compat::fp16::value(a));
}

// Conversions with a rounding suffix, to and from float and the integer types.
#define COHORT_COMPAT_HALF_ROUNDINGS(X) X(rn, nearest_even) X(rz, toward_zero) X(rd, down) X(ru, up)
#define COHORT_COMPAT_FROM(suffix, mode)                                                                  \
  inline __half __float2half_##suffix(float a) {                                                          \
    return cohort::compat::fp16::rounded(a, cohort::compat::fp16::rounding::mode);                        \
  }                                                                                                       \
  inline __half __int2half_##suffix(int a) {                                                              \
    return cohort::compat::fp16::rounded(a, cohort::compat::fp16::rounding::mode);                        \
  }                                                                                                       \
  inline __half __uint2half_##suffix(unsigned a) {                                                        \
    return cohort::compat::fp16::rounded(a, cohort::compat::fp16::rounding::mode);                        \
  }                                                                                                       \
  inline __half __short2half_##suffix(short a) {                                                          \
    return cohort::compat::fp16::rounded(a, cohort::compat::fp16::rounding::mode);                        \
  }                                                                                                       \
  inline __half __ushort2half_##suffix(unsigned short a) {                                                \
    return cohort::compat::fp16::rounded(a, cohort::compat::fp16::rounding::mode);                        \
  }                                                                                                       \
  inline __half __ll2half_##suffix(long long a) {                                                         \
    return cohort::compat::fp16::rounded(static_cast<double>(a), cohort::compat::fp16::rounding::mode);   \
  }                                                                                                       \
  inline __half __ull2half_##suffix(unsigned long long a) {                                               \
    return cohort::compat::fp16::rounded(static_cast<double>(a), cohort::compat::fp16::rounding::mode);   \
  }                                                                                                       \
  inline int __half2int_##suffix(__half h) {                                                              \
    return cohort::compat::fp16::to_integer<int>(h, cohort::compat::fp16::rounding::mode);                \
  }                                                                                                       \
  inline unsigned __half2uint_##suffix(__half h) {                                                        \
    return cohort::compat::fp16::to_integer<unsigned>(h, cohort::compat::fp16::rounding::mode);           \
  }                                                                                                       \
  inline short __half2short_##suffix(__half h) {                                                          \
    return cohort::compat::fp16::to_integer<short>(h, cohort::compat::fp16::rounding::mode);              \
  }                                                                                                       \
  inline unsigned short __half2ushort_##suffix(__half h) {                                                \
    return cohort::compat::fp16::to_integer<unsigned short>(h, cohort::compat::fp16::rounding::mode);     \
  }                                                                                                       \
  inline long long __half2ll_##suffix(__half h) {                                                         \
    return cohort::compat::fp16::to_integer<long long>(h, cohort::compat::fp16::rounding::mode);          \
  }                                                                                                       \
  inline unsigned long long __half2ull_##suffix(__half h) {                                               \
    return cohort::compat::fp16::to_integer<unsigned long long>(h, cohort::compat::fp16::rounding::mode); \
  }
COHORT_COMPAT_HALF_ROUNDINGS(COHORT_COMPAT_FROM)
#undef COHORT_COMPAT_FROM

inline __half2 __float2half2_rn(float a) { return {__float2half_rn(a), __float2half_rn(a)}; }
inline __half2 __floats2half2_rn(float a, float b) { return {__float2half_rn(a), __float2half_rn(b)}; }
inline __half2 __float22half2_rn(float2 a) { return {__float2half_rn(a.x), __float2half_rn(a.y)}; }
inline float2 __half22float2(__half2 a) { return {__half2float(a.x), __half2float(a.y)}; }
inline __half __low2half(__half2 a) { return a.x; }
inline __half __high2half(__half2 a) { return a.y; }
inline float __low2float(__half2 a) { return __half2float(a.x); }
inline float __high2float(__half2 a) { return __half2float(a.y); }
inline __half2 __halves2half2(__half lo, __half hi) { return {lo, hi}; }
inline __half2 __half2half2(__half a) { return {a, a}; }
inline __half2 __lowhigh2highlow(__half2 a) { return {a.y, a.x}; }
inline __half2 __lows2half2(__half2 a, __half2 b) { return {a.x, b.x}; }
inline __half2 __highs2half2(__half2 a, __half2 b) { return {a.y, b.y}; }
inline __half2 __low2half2(__half2 a) { return {a.x, a.x}; }
inline __half2 __high2half2(__half2 a) { return {a.y, a.y}; }

inline short __half_as_short(__half h) { return static_cast<short>(h.bits); }
inline unsigned short __half_as_ushort(__half h) { return h.bits; }
inline __half __short_as_half(short s) { return cohort::compat::fp16::make_half(static_cast<std::uint16_t>(s)); }
inline __half __ushort_as_half(unsigned short s) { return cohort::compat::fp16::make_half(s); }

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)

#include "cohort_compat/half_arithmetic.hpp"

COHORT_COMPAT_HALF_ARITHMETIC(__half, __half2, cohort::compat::fp16::binary16)
