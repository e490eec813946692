// CUDA's integer math functions that cohort's kernel language does not
// already have (it has min/max for mixed types, __popc, __clz, __ffs, __brev
// and their 64-bit forms): the typed min/max of math_functions.h, __dp4a and
// __dp2a, and the SIMD-within-a-word ("video") functions on two 16-bit or four
// 8-bit lanes, each lane computed as the CUDA Math API documents it.
#pragma once

#include <cstdint>

inline unsigned umin(unsigned a, unsigned b) { return b < a ? b : a; }
inline unsigned umax(unsigned a, unsigned b) { return a < b ? b : a; }
inline long long llmin(long long a, long long b) { return b < a ? b : a; }
inline long long llmax(long long a, long long b) { return a < b ? b : a; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return b < a ? b : a; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a < b ? b : a; }

// Four-way byte and two-way half-word dot products, accumulated into c.
inline int __dp4a(int a, int b, int c) {
  for (int i = 0; i < 4; ++i) c += static_cast<std::int8_t>(a >> (8 * i)) * static_cast<std::int8_t>(b >> (8 * i));
  return c;
}
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) {
  for (int i = 0; i < 4; ++i) c += ((a >> (8 * i)) & 0xffu) * ((b >> (8 * i)) & 0xffu);
  return c;
}
inline int __dp2a_lo(int a, int b, int c) {
  for (int i = 0; i < 2; ++i) c += static_cast<std::int16_t>(a >> (16 * i)) * static_cast<std::int8_t>(b >> (8 * i));
  return c;
}
inline int __dp2a_hi(int a, int b, int c) {
  for (int i = 0; i < 2; ++i)
    c += static_cast<std::int16_t>(a >> (16 * i)) * static_cast<std::int8_t>(b >> (8 * (i + 2)));
  return c;
}

namespace cohort::compat::simd {

// Applies `op` to each of the word's Lanes lanes (2 of 16 bits or 4 of 8),
// signed or unsigned, and packs the lanes' results back, truncated to the lane.
template <int Lanes, bool Signed, class Op>
unsigned lanewise(unsigned a, unsigned b, Op op) {
  constexpr int bits = 32 / Lanes;
  constexpr unsigned mask = (1u << bits) - 1;
  unsigned r = 0;
  for (int i = 0; i < Lanes; ++i) {
    const unsigned ua = (a >> (bits * i)) & mask, ub = (b >> (bits * i)) & mask;
    long long x = ua, y = ub;
    if constexpr (Signed) {
      if (ua >> (bits - 1)) x -= 1ll << bits;
      if (ub >> (bits - 1)) y -= 1ll << bits;
    }
    r |= (static_cast<unsigned>(op(x, y, bits)) & mask) << (bits * i);
  }
  return r;
}

inline long long saturate(long long v, int bits, bool is_signed) {
  const long long lo = is_signed ? -(1ll << (bits - 1)) : 0;
  const long long hi = is_signed ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
  return v < lo ? lo : (v > hi ? hi : v);
}
// A comparison's lane: all ones when true.
inline long long all_ones(bool c) { return c ? -1 : 0; }

}  // namespace cohort::compat::simd

// Defines __v<name>2 and __v<name>4 from one lane operation (x, y, bits).
#define COHORT_COMPAT_SIMD(name, is_signed, ...)                                                       \
  inline unsigned __v##name##2(unsigned a, unsigned b) {                                               \
    return cohort::compat::simd::lanewise<2, is_signed>(a, b, [](long long x, long long y, int bits) { \
      (void)bits;                                                                                      \
      return __VA_ARGS__;                                                                              \
    });                                                                                                \
  }                                                                                                    \
  inline unsigned __v##name##4(unsigned a, unsigned b) {                                               \
    return cohort::compat::simd::lanewise<4, is_signed>(a, b, [](long long x, long long y, int bits) { \
      (void)bits;                                                                                      \
      return __VA_ARGS__;                                                                              \
    });                                                                                                \
  }

COHORT_COMPAT_SIMD(add, false, x + y)
COHORT_COMPAT_SIMD(sub, false, x - y)
COHORT_COMPAT_SIMD(addss, true, cohort::compat::simd::saturate(x + y, bits, true))
COHORT_COMPAT_SIMD(subss, true, cohort::compat::simd::saturate(x - y, bits, true))
COHORT_COMPAT_SIMD(addus, false, cohort::compat::simd::saturate(x + y, bits, false))
COHORT_COMPAT_SIMD(subus, false, cohort::compat::simd::saturate(x - y, bits, false))
COHORT_COMPAT_SIMD(absdiffs, true, x > y ? x - y : y - x)
COHORT_COMPAT_SIMD(absdiffu, false, x > y ? x - y : y - x)
COHORT_COMPAT_SIMD(avgu, false, (x + y + 1) >> 1)
COHORT_COMPAT_SIMD(haddu, false, (x + y) >> 1)
COHORT_COMPAT_SIMD(maxs, true, x > y ? x : y)
COHORT_COMPAT_SIMD(maxu, false, x > y ? x : y)
COHORT_COMPAT_SIMD(mins, true, x < y ? x : y)
COHORT_COMPAT_SIMD(minu, false, x < y ? x : y)
COHORT_COMPAT_SIMD(cmpeq, false, cohort::compat::simd::all_ones(x == y))
COHORT_COMPAT_SIMD(cmpne, false, cohort::compat::simd::all_ones(x != y))
COHORT_COMPAT_SIMD(cmpges, true, cohort::compat::simd::all_ones(x >= y))
COHORT_COMPAT_SIMD(cmpgeu, false, cohort::compat::simd::all_ones(x >= y))
COHORT_COMPAT_SIMD(cmpgts, true, cohort::compat::simd::all_ones(x > y))
COHORT_COMPAT_SIMD(cmpgtu, false, cohort::compat::simd::all_ones(x > y))
COHORT_COMPAT_SIMD(cmples, true, cohort::compat::simd::all_ones(x <= y))
COHORT_COMPAT_SIMD(cmpleu, false, cohort::compat::simd::all_ones(x <= y))
COHORT_COMPAT_SIMD(cmplts, true, cohort::compat::simd::all_ones(x < y))
COHORT_COMPAT_SIMD(cmpltu, false, cohort::compat::simd::all_ones(x < y))
COHORT_COMPAT_SIMD(seteq, false, x == y ? 1 : 0)
COHORT_COMPAT_SIMD(setne, false, x != y ? 1 : 0)
COHORT_COMPAT_SIMD(setges, true, x >= y ? 1 : 0)
COHORT_COMPAT_SIMD(setgeu, false, x >= y ? 1 : 0)
COHORT_COMPAT_SIMD(setgts, true, x > y ? 1 : 0)
COHORT_COMPAT_SIMD(setgtu, false, x > y ? 1 : 0)
COHORT_COMPAT_SIMD(setles, true, x <= y ? 1 : 0)
COHORT_COMPAT_SIMD(setleu, false, x <= y ? 1 : 0)
COHORT_COMPAT_SIMD(setlts, true, x < y ? 1 : 0)
COHORT_COMPAT_SIMD(setltu, false, x < y ? 1 : 0)
#undef COHORT_COMPAT_SIMD

// The one-operand forms and the sums of absolute differences.
inline unsigned __vabs2(unsigned a) { return __vabsdiffs2(a, 0); }
inline unsigned __vabs4(unsigned a) { return __vabsdiffs4(a, 0); }
inline unsigned __vabsss2(unsigned a) {
  return cohort::compat::simd::lanewise<2, true>(a, 0, [](long long x, long long, int bits) {
    return cohort::compat::simd::saturate(x < 0 ? -x : x, bits, true);
  });
}
inline unsigned __vabsss4(unsigned a) {
  return cohort::compat::simd::lanewise<4, true>(a, 0, [](long long x, long long, int bits) {
    return cohort::compat::simd::saturate(x < 0 ? -x : x, bits, true);
  });
}
inline unsigned __vneg2(unsigned a) { return __vsub2(0, a); }
inline unsigned __vneg4(unsigned a) { return __vsub4(0, a); }
inline unsigned __vnegss2(unsigned a) { return __vsubss2(0, a); }
inline unsigned __vnegss4(unsigned a) { return __vsubss4(0, a); }
inline unsigned __vsads2(unsigned a, unsigned b) {
  const unsigned d = __vabsdiffs2(a, b);
  return (d & 0xffffu) + (d >> 16);
}
inline unsigned __vsadu2(unsigned a, unsigned b) {
  const unsigned d = __vabsdiffu2(a, b);
  return (d & 0xffffu) + (d >> 16);
}
inline unsigned __vsads4(unsigned a, unsigned b) {
  const unsigned d = __vabsdiffs4(a, b);
  return (d & 0xff) + ((d >> 8) & 0xff) + ((d >> 16) & 0xff) + (d >> 24);
}
inline unsigned __vsadu4(unsigned a, unsigned b) {
  const unsigned d = __vabsdiffu4(a, b);
  return (d & 0xff) + ((d >> 8) & 0xff) + ((d >> 16) & 0xff) + (d >> 24);
}
