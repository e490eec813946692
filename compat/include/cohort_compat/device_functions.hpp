// CUDA's device builtins that cohort's kernel language does not already
// provide (it has the qualifiers, indices, __syncthreads, atomics, fences,
// __nanosleep and warp intrinsics): cache-hinted loads and stores, clocks,
// __trap, the block votes, scoped atomics, and the fast-math, conversion and
// integer intrinsics. On the CPU every fast-math intrinsic is the exact
// library function (results at least as accurate as the GPU's).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include <cohort/cohort.hpp>

#include "address_spaces.hpp"
#include "integer_functions.hpp"
#include "kernel_clock.hpp"

// Loads and stores with cache hints: plain accesses on the host.
template <class T>
inline T __ldg(const T* p) {
  return *p;
}
template <class T>
inline T __ldcg(const T* p) {
  return *p;
}
template <class T>
inline T __ldca(const T* p) {
  return *p;
}
template <class T>
inline T __ldcs(const T* p) {
  return *p;
}
template <class T>
inline T __ldlu(const T* p) {
  return *p;
}
template <class T>
inline T __ldcv(const T* p) {
  return *p;
}
template <class T>
inline void __stwb(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stcg(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stcs(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stwt(T* p, T v) {
  *p = v;
}

namespace cohort::compat {
// What __trap() throws: the launch fails with cudaErrorLaunchFailure, as on the GPU.
struct trap : std::runtime_error {
  using std::runtime_error::runtime_error;
};
}  // namespace cohort::compat

[[noreturn]] inline void __trap() { throw cohort::compat::trap("__trap() called in a kernel"); }
[[noreturn]] inline void __brkpt() { throw cohort::compat::trap("__brkpt() called in a kernel"); }

// __syncthreads() that also counts, ands or ors a predicate over the block.
inline int __syncthreads_count(int predicate, cohort::call_site where = cohort::call_site::current()) {
  __syncthreads(where);
  return cohort::reduce(cohort::this_thread_block(), predicate != 0 ? 1 : 0, cohort::plus<int>(), where);
}
inline int __syncthreads_and(int predicate, cohort::call_site where = cohort::call_site::current()) {
  return __syncthreads_count(predicate, where) == static_cast<int>(cohort::this_thread_block().num_threads());
}
inline int __syncthreads_or(int predicate, cohort::call_site where = cohort::call_site::current()) {
  return __syncthreads_count(predicate, where) != 0;
}

// Scoped atomics: every scope is the whole process on the host.
#define COHORT_COMPAT_SCOPED_ATOMIC(op)           \
  template <class T, class... V>                  \
  inline T op##_block(T* address, V... values) {  \
    return op(address, values...);                \
  }                                               \
  template <class T, class... V>                  \
  inline T op##_system(T* address, V... values) { \
    return op(address, values...);                \
  }
COHORT_COMPAT_SCOPED_ATOMIC(atomicAdd)
COHORT_COMPAT_SCOPED_ATOMIC(atomicSub)
COHORT_COMPAT_SCOPED_ATOMIC(atomicExch)
COHORT_COMPAT_SCOPED_ATOMIC(atomicMin)
COHORT_COMPAT_SCOPED_ATOMIC(atomicMax)
COHORT_COMPAT_SCOPED_ATOMIC(atomicCAS)
COHORT_COMPAT_SCOPED_ATOMIC(atomicAnd)
COHORT_COMPAT_SCOPED_ATOMIC(atomicOr)
COHORT_COMPAT_SCOPED_ATOMIC(atomicXor)
COHORT_COMPAT_SCOPED_ATOMIC(atomicInc)
COHORT_COMPAT_SCOPED_ATOMIC(atomicDec)
#undef COHORT_COMPAT_SCOPED_ATOMIC

// Fast-math intrinsics. glibc declares (but does not export) several of these
// names, so they are defined noexcept to match its declarations.
inline float __expf(float x) noexcept { return std::exp(x); }
inline float __exp10f(float x) noexcept { return std::pow(10.0f, x); }
inline float __logf(float x) noexcept { return std::log(x); }
inline float __log2f(float x) noexcept { return std::log2(x); }
inline float __log10f(float x) noexcept { return std::log10(x); }
inline float __sinf(float x) noexcept { return std::sin(x); }
inline float __cosf(float x) noexcept { return std::cos(x); }
inline float __tanf(float x) noexcept { return std::tan(x); }
inline float __powf(float x, float y) noexcept { return std::pow(x, y); }
inline void __sincosf(float x, float* s, float* c) noexcept {
  *s = std::sin(x);
  *c = std::cos(x);
}
inline float __fdividef(float x, float y) { return x / y; }
inline float fdividef(float x, float y) { return x / y; }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
inline float sinpif(float x) { return std::sin(3.14159265358979323846f * x); }
inline float cospif(float x) { return std::cos(3.14159265358979323846f * x); }
inline double sinpi(double x) { return std::sin(3.14159265358979323846 * x); }
inline double cospi(double x) { return std::cos(3.14159265358979323846 * x); }
inline void sincospif(float x, float* s, float* c) {
  *s = sinpif(x);
  *c = cospif(x);
}
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : (x == x ? x : 0.0f)); }
inline float __frsqrt_rn(float x) { return 1.0f / std::sqrt(x); }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fsub_rn(float x, float y) { return x - y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fdiv_rn(float x, float y) { return x / y; }
inline float __fmaf_rn(float x, float y, float z) { return std::fma(x, y, z); }
inline double __dadd_rn(double x, double y) { return x + y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline double __fma_rn(double x, double y, double z) { return std::fma(x, y, z); }

// Conversions with CUDA's rounding suffixes: rn to nearest even, rz toward
// zero, rd down, ru up.
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(std::trunc(x)); }
inline int __float2int_rd(float x) { return static_cast<int>(std::floor(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(std::ceil(x)); }
inline unsigned __float2uint_rn(float x) { return static_cast<unsigned>(std::nearbyint(x)); }
inline unsigned __float2uint_rz(float x) { return static_cast<unsigned>(std::trunc(x)); }
inline long long __float2ll_rn(float x) { return static_cast<long long>(std::nearbyint(x)); }
inline long long __float2ll_rz(float x) { return static_cast<long long>(std::trunc(x)); }
inline int __double2int_rn(double x) { return static_cast<int>(std::nearbyint(x)); }
inline int __double2int_rz(double x) { return static_cast<int>(std::trunc(x)); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned x) { return static_cast<float>(x); }
inline float __ll2float_rn(long long x) { return static_cast<float>(x); }
inline double __int2double_rn(int x) { return x; }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline int __double2hiint(double x) { return static_cast<int>(std::bit_cast<unsigned long long>(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(std::bit_cast<unsigned long long>(x)); }

// Integer intrinsics.
// The low 32 bits of the product of the low 24 bits (sign-extended), as the
// GPU's: two 24-bit values multiply past int's range, so the product is 64-bit.
inline int __mul24(int x, int y) {
  const auto low24 = [](int v) { return static_cast<long long>(static_cast<int>(static_cast<unsigned>(v) << 8) >> 8); };
  return static_cast<int>(static_cast<unsigned>(low24(x) * low24(y)));
}
inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline long long __mul64hi(long long x, long long y) {
  return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned __uhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned __urhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
inline unsigned __sad(int x, int y, unsigned z) {
  return z + static_cast<unsigned>(x > y ? static_cast<long long>(x) - y : static_cast<long long>(y) - x);
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return z + (x > y ? x - y : y - x); }
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<unsigned>((bytes >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
// hi:lo shifted by shift mod 32 (l, r) or by min(shift, 32) (lc, rc): the
// clamped forms shift by all 32 bits for 32 and over.
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>((v << (shift & 31)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>((v << (shift > 32 ? 32 : shift)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>(v >> (shift & 31));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>(v >> (shift > 32 ? 32 : shift));
}
