// The arithmetic, comparisons, math functions, operators and atomics of a
// 16-bit float type H and its pair H2, written once for __half and
// __nv_bfloat16 (each header instantiates it for its types): every result is
// the exact one rounded once to nearest-even (half_rounding.hpp), a NaN result
// the canonical NaN. Non-template overloads, so that mixed arguments convert
// as CUDA's do (a float to H, never H to an integer overload of __hadd).
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>

#include "half_rounding.hpp"

namespace cohort::compat::fp16 {
inline bool is_nan_bits(format f, std::uint16_t b) { return (b & 0x7fff) > f.infinity(); }
// Clamped to [0, 1]: NaN and both zeros become +0, as on the GPU.
inline double saturated(double v) { return !(v > 0.0) ? 0.0 : (v > 1.0 ? 1.0 : v); }
// The value x rounded to nearest-even as an H (specialized by each type).
template <class H>
H round_as(double x);
}  // namespace cohort::compat::fp16

// H, H2 and their format (cohort::compat::fp16::binary16 or bfloat16).
#define COHORT_COMPAT_HALF_ARITHMETIC(H, H2, FORMAT)                                                                   \
  namespace cohort::compat::fp16 {                                                                                     \
  inline double v(H a) { return value_of(FORMAT, a.bits); }                                                            \
  template <>                                                                                                          \
  inline H round_as<H>(double x) {                                                                                     \
    H h;                                                                                                               \
    h.bits = round_to(FORMAT, x, rounding::nearest_even);                                                              \
    return h;                                                                                                          \
  }                                                                                                                    \
  inline H bits_of(std::uint16_t b, H) {                                                                               \
    H h;                                                                                                               \
    h.bits = b;                                                                                                        \
    return h;                                                                                                          \
  }                                                                                                                    \
  inline bool nan(H a) { return is_nan_bits(FORMAT, a.bits); }                                                         \
  /* max and min: -0 below +0; a NaN operand yields the other; two, the canonical NaN */                               \
  inline H larger(H a, H b, bool want_max) {                                                                           \
    if (nan(a) && nan(b)) return bits_of(0x7fff, a);                                                                   \
    if (nan(a)) return b;                                                                                              \
    if (nan(b)) return a;                                                                                              \
    const double x = v(a), y = v(b);                                                                                   \
    if (x == y) return (std::signbit(x) != want_max) ? a : b;                                                          \
    return ((x > y) == want_max) ? a : b;                                                                              \
  }                                                                                                                    \
  }                                                                                                                    \
  inline H __hadd(H a, H b) {                                                                                          \
    return cohort::compat::fp16::round_as<H>(cohort::compat::fp16::v(a) + cohort::compat::fp16::v(b));                 \
  }                                                                                                                    \
  inline H __hsub(H a, H b) {                                                                                          \
    return cohort::compat::fp16::round_as<H>(cohort::compat::fp16::v(a) - cohort::compat::fp16::v(b));                 \
  }                                                                                                                    \
  inline H __hmul(H a, H b) {                                                                                          \
    return cohort::compat::fp16::round_as<H>(cohort::compat::fp16::v(a) * cohort::compat::fp16::v(b));                 \
  }                                                                                                                    \
  inline H __hdiv(H a, H b) {                                                                                          \
    return cohort::compat::fp16::round_as<H>(cohort::compat::fp16::v(a) / cohort::compat::fp16::v(b));                 \
  }                                                                                                                    \
  inline H __hfma(H a, H b, H c) {                                                                                     \
    H h;                                                                                                               \
    h.bits = cohort::compat::fp16::round_exact_sum(FORMAT, cohort::compat::fp16::v(a) * cohort::compat::fp16::v(b),    \
                                                   cohort::compat::fp16::v(c),                                         \
                                                   cohort::compat::fp16::rounding::nearest_even);                      \
    return h;                                                                                                          \
  }                                                                                                                    \
  /* The sign flipped or cleared; a NaN becomes the canonical NaN (measured on an H200). */                            \
  inline H __hneg(H a) {                                                                                               \
    return cohort::compat::fp16::bits_of(                                                                              \
        cohort::compat::fp16::nan(a) ? std::uint16_t{0x7fff} : static_cast<std::uint16_t>(a.bits ^ 0x8000), a);        \
  }                                                                                                                    \
  inline H __habs(H a) {                                                                                               \
    return cohort::compat::fp16::bits_of(                                                                              \
        cohort::compat::fp16::nan(a) ? std::uint16_t{0x7fff} : static_cast<std::uint16_t>(a.bits & 0x7fff), a);        \
  }                                                                                                                    \
  inline H __hadd_sat(H a, H b) {                                                                                      \
    return cohort::compat::fp16::round_as<H>(cohort::compat::fp16::saturated(cohort::compat::fp16::v(__hadd(a, b))));  \
  }                                                                                                                    \
  inline H __hsub_sat(H a, H b) {                                                                                      \
    return cohort::compat::fp16::round_as<H>(cohort::compat::fp16::saturated(cohort::compat::fp16::v(__hsub(a, b))));  \
  }                                                                                                                    \
  inline H __hmul_sat(H a, H b) {                                                                                      \
    return cohort::compat::fp16::round_as<H>(cohort::compat::fp16::saturated(cohort::compat::fp16::v(__hmul(a, b))));  \
  }                                                                                                                    \
  inline H __hfma_sat(H a, H b, H c) {                                                                                 \
    return cohort::compat::fp16::round_as<H>(                                                                          \
        cohort::compat::fp16::saturated(cohort::compat::fp16::v(__hfma(a, b, c))));                                    \
  }                                                                                                                    \
  inline H __hfma_relu(H a, H b, H c) {                                                                                \
    const H f = __hfma(a, b, c);                                                                                       \
    if (cohort::compat::fp16::nan(f)) return cohort::compat::fp16::bits_of(0x7fff, f);                                 \
    return (f.bits & 0x8000) ? cohort::compat::fp16::bits_of(0, f) : f;                                                \
  }                                                                                                                    \
  inline H __hmax(H a, H b) { return cohort::compat::fp16::larger(a, b, true); }                                       \
  inline H __hmin(H a, H b) { return cohort::compat::fp16::larger(a, b, false); }                                      \
  inline H __hmax_nan(H a, H b) {                                                                                      \
    return cohort::compat::fp16::nan(a) || cohort::compat::fp16::nan(b) ? cohort::compat::fp16::bits_of(0x7fff, a)     \
                                                                        : __hmax(a, b);                                \
  }                                                                                                                    \
  inline H __hmin_nan(H a, H b) {                                                                                      \
    return cohort::compat::fp16::nan(a) || cohort::compat::fp16::nan(b) ? cohort::compat::fp16::bits_of(0x7fff, a)     \
                                                                        : __hmin(a, b);                                \
  }                                                                                                                    \
  inline bool __heq(H a, H b) { return cohort::compat::fp16::v(a) == cohort::compat::fp16::v(b); }                     \
  inline bool __hne(H a, H b) {                                                                                        \
    return !cohort::compat::fp16::nan(a) && !cohort::compat::fp16::nan(b) && !__heq(a, b);                             \
  }                                                                                                                    \
  inline bool __hlt(H a, H b) { return cohort::compat::fp16::v(a) < cohort::compat::fp16::v(b); }                      \
  inline bool __hle(H a, H b) { return cohort::compat::fp16::v(a) <= cohort::compat::fp16::v(b); }                     \
  inline bool __hgt(H a, H b) { return cohort::compat::fp16::v(a) > cohort::compat::fp16::v(b); }                      \
  inline bool __hge(H a, H b) { return cohort::compat::fp16::v(a) >= cohort::compat::fp16::v(b); }                     \
  inline bool __hequ(H a, H b) { return cohort::compat::fp16::nan(a) || cohort::compat::fp16::nan(b) || __heq(a, b); } \
  inline bool __hneu(H a, H b) { return cohort::compat::fp16::v(a) != cohort::compat::fp16::v(b); }                    \
  inline bool __hltu(H a, H b) { return !(cohort::compat::fp16::v(a) >= cohort::compat::fp16::v(b)); }                 \
  inline bool __hleu(H a, H b) { return !(cohort::compat::fp16::v(a) > cohort::compat::fp16::v(b)); }                  \
  inline bool __hgtu(H a, H b) { return !(cohort::compat::fp16::v(a) <= cohort::compat::fp16::v(b)); }                 \
  inline bool __hgeu(H a, H b) { return !(cohort::compat::fp16::v(a) < cohort::compat::fp16::v(b)); }                  \
  inline bool __hisnan(H a) { return cohort::compat::fp16::nan(a); }                                                   \
  inline int __hisinf(H a) {                                                                                           \
    const double x = cohort::compat::fp16::v(a);                                                                       \
    return std::isinf(x) ? (x < 0 ? -1 : 1) : 0;                                                                       \
  }                                                                                                                    \
  /* Exact roundings of the exact functions; the others through double (the GPU approximates them). */                 \
  inline H hsqrt(H a) { return cohort::compat::fp16::round_as<H>(std::sqrt(cohort::compat::fp16::v(a))); }             \
  inline H hrsqrt(H a) { return cohort::compat::fp16::round_as<H>(1.0 / std::sqrt(cohort::compat::fp16::v(a))); }      \
  inline H hrcp(H a) { return cohort::compat::fp16::round_as<H>(1.0 / cohort::compat::fp16::v(a)); }                   \
  inline H hexp(H a) { return cohort::compat::fp16::round_as<H>(std::exp(cohort::compat::fp16::v(a))); }               \
  inline H hexp2(H a) { return cohort::compat::fp16::round_as<H>(std::exp2(cohort::compat::fp16::v(a))); }             \
  inline H hexp10(H a) { return cohort::compat::fp16::round_as<H>(std::pow(10.0, cohort::compat::fp16::v(a))); }       \
  inline H hlog(H a) { return cohort::compat::fp16::round_as<H>(std::log(cohort::compat::fp16::v(a))); }               \
  inline H hlog2(H a) { return cohort::compat::fp16::round_as<H>(std::log2(cohort::compat::fp16::v(a))); }             \
  inline H hlog10(H a) { return cohort::compat::fp16::round_as<H>(std::log10(cohort::compat::fp16::v(a))); }           \
  inline H hsin(H a) { return cohort::compat::fp16::round_as<H>(std::sin(cohort::compat::fp16::v(a))); }               \
  inline H hcos(H a) { return cohort::compat::fp16::round_as<H>(std::cos(cohort::compat::fp16::v(a))); }               \
  inline H htanh(H a) { return cohort::compat::fp16::round_as<H>(std::tanh(cohort::compat::fp16::v(a))); }             \
  inline H hfloor(H a) { return cohort::compat::fp16::round_as<H>(std::floor(cohort::compat::fp16::v(a))); }           \
  inline H hceil(H a) { return cohort::compat::fp16::round_as<H>(std::ceil(cohort::compat::fp16::v(a))); }             \
  inline H htrunc(H a) { return cohort::compat::fp16::round_as<H>(std::trunc(cohort::compat::fp16::v(a))); }           \
  inline H hrint(H a) { return cohort::compat::fp16::round_as<H>(std::nearbyint(cohort::compat::fp16::v(a))); }        \
  /* The pair, lane by lane. */                                                                                        \
  inline H2 __hadd2(H2 a, H2 b) { return {__hadd(a.x, b.x), __hadd(a.y, b.y)}; }                                       \
  inline H2 __hsub2(H2 a, H2 b) { return {__hsub(a.x, b.x), __hsub(a.y, b.y)}; }                                       \
  inline H2 __hmul2(H2 a, H2 b) { return {__hmul(a.x, b.x), __hmul(a.y, b.y)}; }                                       \
  inline H2 __h2div(H2 a, H2 b) { return {__hdiv(a.x, b.x), __hdiv(a.y, b.y)}; }                                       \
  inline H2 __hfma2(H2 a, H2 b, H2 c) { return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }                       \
  inline H2 __hneg2(H2 a) { return {__hneg(a.x), __hneg(a.y)}; }                                                       \
  inline H2 __habs2(H2 a) { return {__habs(a.x), __habs(a.y)}; }                                                       \
  inline H2 __hadd2_sat(H2 a, H2 b) { return {__hadd_sat(a.x, b.x), __hadd_sat(a.y, b.y)}; }                           \
  inline H2 __hsub2_sat(H2 a, H2 b) { return {__hsub_sat(a.x, b.x), __hsub_sat(a.y, b.y)}; }                           \
  inline H2 __hmul2_sat(H2 a, H2 b) { return {__hmul_sat(a.x, b.x), __hmul_sat(a.y, b.y)}; }                           \
  inline H2 __hfma2_sat(H2 a, H2 b, H2 c) { return {__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y)}; }           \
  inline H2 __hfma2_relu(H2 a, H2 b, H2 c) { return {__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y)}; }        \
  inline H2 __hmax2(H2 a, H2 b) { return {__hmax(a.x, b.x), __hmax(a.y, b.y)}; }                                       \
  inline H2 __hmin2(H2 a, H2 b) { return {__hmin(a.x, b.x), __hmin(a.y, b.y)}; }                                       \
  inline H2 __hmax2_nan(H2 a, H2 b) { return {__hmax_nan(a.x, b.x), __hmax_nan(a.y, b.y)}; }                           \
  inline H2 __hmin2_nan(H2 a, H2 b) { return {__hmin_nan(a.x, b.x), __hmin_nan(a.y, b.y)}; }                           \
  inline H2 h2sqrt(H2 a) { return {hsqrt(a.x), hsqrt(a.y)}; }                                                          \
  inline H2 h2rcp(H2 a) { return {hrcp(a.x), hrcp(a.y)}; }                                                             \
  inline H2 h2exp(H2 a) { return {hexp(a.x), hexp(a.y)}; }                                                             \
  inline H2 h2log(H2 a) { return {hlog(a.x), hlog(a.y)}; }                                                             \
  inline H2 h2floor(H2 a) { return {hfloor(a.x), hfloor(a.y)}; }                                                       \
  inline H2 h2ceil(H2 a) { return {hceil(a.x), hceil(a.y)}; }                                                          \
  inline H2 h2trunc(H2 a) { return {htrunc(a.x), htrunc(a.y)}; }                                                       \
  inline H2 h2rint(H2 a) { return {hrint(a.x), hrint(a.y)}; }                                                          \
  /* Comparisons of pairs: 1.0 or 0.0 per lane (__heq2 ...), or both lanes (__hbeq2 ...). */                           \
  inline H cohort_compat_truth(bool t, H) { return cohort::compat::fp16::round_as<H>(t ? 1.0 : 0.0); }                 \
  inline H2 __heq2(H2 a, H2 b) {                                                                                       \
    return {cohort_compat_truth(__heq(a.x, b.x), a.x), cohort_compat_truth(__heq(a.y, b.y), a.x)};                     \
  }                                                                                                                    \
  inline H2 __hne2(H2 a, H2 b) {                                                                                       \
    return {cohort_compat_truth(__hne(a.x, b.x), a.x), cohort_compat_truth(__hne(a.y, b.y), a.x)};                     \
  }                                                                                                                    \
  inline H2 __hlt2(H2 a, H2 b) {                                                                                       \
    return {cohort_compat_truth(__hlt(a.x, b.x), a.x), cohort_compat_truth(__hlt(a.y, b.y), a.x)};                     \
  }                                                                                                                    \
  inline H2 __hle2(H2 a, H2 b) {                                                                                       \
    return {cohort_compat_truth(__hle(a.x, b.x), a.x), cohort_compat_truth(__hle(a.y, b.y), a.x)};                     \
  }                                                                                                                    \
  inline H2 __hgt2(H2 a, H2 b) {                                                                                       \
    return {cohort_compat_truth(__hgt(a.x, b.x), a.x), cohort_compat_truth(__hgt(a.y, b.y), a.x)};                     \
  }                                                                                                                    \
  inline H2 __hge2(H2 a, H2 b) {                                                                                       \
    return {cohort_compat_truth(__hge(a.x, b.x), a.x), cohort_compat_truth(__hge(a.y, b.y), a.x)};                     \
  }                                                                                                                    \
  inline H2 __hisnan2(H2 a) {                                                                                          \
    return {cohort_compat_truth(__hisnan(a.x), a.x), cohort_compat_truth(__hisnan(a.y), a.x)};                         \
  }                                                                                                                    \
  inline bool __hbeq2(H2 a, H2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }                                       \
  inline bool __hbne2(H2 a, H2 b) { return __hne(a.x, b.x) && __hne(a.y, b.y); }                                       \
  inline bool __hblt2(H2 a, H2 b) { return __hlt(a.x, b.x) && __hlt(a.y, b.y); }                                       \
  inline bool __hble2(H2 a, H2 b) { return __hle(a.x, b.x) && __hle(a.y, b.y); }                                       \
  inline bool __hbgt2(H2 a, H2 b) { return __hgt(a.x, b.x) && __hgt(a.y, b.y); }                                       \
  inline bool __hbge2(H2 a, H2 b) { return __hge(a.x, b.x) && __hge(a.y, b.y); }                                       \
  /* Operators, as CUDA's header defines them: arithmetic rounds as the intrinsics, != is unordered. */                \
  inline H operator+(const H& a, const H& b) { return __hadd(a, b); }                                                  \
  inline H operator-(const H& a, const H& b) { return __hsub(a, b); }                                                  \
  inline H operator*(const H& a, const H& b) { return __hmul(a, b); }                                                  \
  inline H operator/(const H& a, const H& b) { return __hdiv(a, b); }                                                  \
  inline H& operator+=(H& a, const H& b) { return a = __hadd(a, b); }                                                  \
  inline H& operator-=(H& a, const H& b) { return a = __hsub(a, b); }                                                  \
  inline H& operator*=(H& a, const H& b) { return a = __hmul(a, b); }                                                  \
  inline H& operator/=(H& a, const H& b) { return a = __hdiv(a, b); }                                                  \
  inline H operator+(const H& a) { return a; }                                                                         \
  inline H operator-(const H& a) { return __hneg(a); }                                                                 \
  inline H& operator++(H& a) { return a = __hadd(a, cohort::compat::fp16::round_as<H>(1.0)); }                         \
  inline H& operator--(H& a) { return a = __hsub(a, cohort::compat::fp16::round_as<H>(1.0)); }                         \
  inline H operator++(H& a, int) {                                                                                     \
    const H old = a;                                                                                                   \
    ++a;                                                                                                               \
    return old;                                                                                                        \
  }                                                                                                                    \
  inline H operator--(H& a, int) {                                                                                     \
    const H old = a;                                                                                                   \
    --a;                                                                                                               \
    return old;                                                                                                        \
  }                                                                                                                    \
  inline bool operator==(const H& a, const H& b) { return __heq(a, b); }                                               \
  inline bool operator!=(const H& a, const H& b) { return __hneu(a, b); }                                              \
  inline bool operator<(const H& a, const H& b) { return __hlt(a, b); }                                                \
  inline bool operator<=(const H& a, const H& b) { return __hle(a, b); }                                               \
  inline bool operator>(const H& a, const H& b) { return __hgt(a, b); }                                                \
  inline bool operator>=(const H& a, const H& b) { return __hge(a, b); }                                               \
  inline H2 operator+(const H2& a, const H2& b) { return __hadd2(a, b); }                                              \
  inline H2 operator-(const H2& a, const H2& b) { return __hsub2(a, b); }                                              \
  inline H2 operator*(const H2& a, const H2& b) { return __hmul2(a, b); }                                              \
  inline H2 operator/(const H2& a, const H2& b) { return __h2div(a, b); }                                              \
  inline H2& operator+=(H2& a, const H2& b) { return a = __hadd2(a, b); }                                              \
  inline H2& operator-=(H2& a, const H2& b) { return a = __hsub2(a, b); }                                              \
  inline H2& operator*=(H2& a, const H2& b) { return a = __hmul2(a, b); }                                              \
  inline H2& operator/=(H2& a, const H2& b) { return a = __h2div(a, b); }                                              \
  inline H2 operator-(const H2& a) { return __hneg2(a); }                                                              \
  inline bool operator==(const H2& a, const H2& b) { return __hbeq2(a, b); }                                           \
  inline bool operator!=(const H2& a, const H2& b) { return __hneu(a.x, b.x) && __hneu(a.y, b.y); }                    \
  /* Atomic adds: a compare-and-swap loop on the bits (each lane of a pair rounded on its own). */                     \
  inline H atomicAdd(H* address, H value) {                                                                            \
    std::atomic_ref<unsigned short> ref(address->bits);                                                                \
    unsigned short old = ref.load();                                                                                   \
    while (!ref.compare_exchange_weak(old, __hadd(cohort::compat::fp16::bits_of(old, value), value).bits)) {           \
    }                                                                                                                  \
    return cohort::compat::fp16::bits_of(old, value);                                                                  \
  }                                                                                                                    \
  inline H2 atomicAdd(H2* address, H2 value) {                                                                         \
    static_assert(sizeof(H2) == 4);                                                                                    \
    std::atomic_ref<std::uint32_t> ref(*reinterpret_cast<std::uint32_t*>(address));                                    \
    std::uint32_t old = ref.load();                                                                                    \
    for (;;) {                                                                                                         \
      const H2 seen{cohort::compat::fp16::bits_of(static_cast<std::uint16_t>(old), value.x),                           \
                    cohort::compat::fp16::bits_of(static_cast<std::uint16_t>(old >> 16), value.x)};                    \
      const H2 sum = __hadd2(seen, value);                                                                             \
      const std::uint32_t next = sum.x.bits | (static_cast<std::uint32_t>(sum.y.bits) << 16);                          \
      if (ref.compare_exchange_weak(old, next)) return seen;                                                           \
    }                                                                                                                  \
  }
