// CUDA's directed-rounding intrinsics (compat/include/cohort_compat/rounding_intrinsics.hpp),
// compiled with -frounding-math: each operation runs with the floating-point
// environment's rounding mode set for it, and the compiler, told that the mode
// changes, neither folds the operation nor moves it across the mode's change.
#include "cohort_compat/rounding_intrinsics.hpp"

#include <cfenv>
#include <cmath>
#include <cstdint>

namespace cohort::compat::rounding {

// The operation's operands and result pass through volatile objects, so that
// the operation happens between the two changes of mode (GCC moves arithmetic
// across fesetround even under -frounding-math).
template <class T, class Op>
T in_mode(int mode, Op op) {
  const int saved = std::fegetround();
  std::fesetround(mode);
  volatile T result = op();
  std::fesetround(saved);
  return result;
}

}  // namespace cohort::compat::rounding

#define COHORT_COMPAT_ROUNDED(type, name, mode, expression, ...)                                                       \
  type name(COHORT_COMPAT_PARAMS_##__VA_ARGS__) {                                                                      \
    return ::cohort::compat::rounding::in_mode<type>(mode,                                                             \
                                                     [=] { COHORT_COMPAT_VOLATILE_##__VA_ARGS__ return expression; }); \
  }
#define COHORT_COMPAT_PARAMS_float1 float x
#define COHORT_COMPAT_PARAMS_float2 float x, float y
#define COHORT_COMPAT_PARAMS_float3 float x, float y, float z
#define COHORT_COMPAT_PARAMS_double1 double x
#define COHORT_COMPAT_PARAMS_double2 double x, double y
#define COHORT_COMPAT_PARAMS_double3 double x, double y, double z
#define COHORT_COMPAT_VOLATILE_float1 volatile float a = x;
#define COHORT_COMPAT_VOLATILE_float2 volatile float a = x, b = y;
#define COHORT_COMPAT_VOLATILE_float3 volatile float a = x, b = y, c = z;
#define COHORT_COMPAT_VOLATILE_double1 volatile double a = x;
#define COHORT_COMPAT_VOLATILE_double2 volatile double a = x, b = y;
#define COHORT_COMPAT_VOLATILE_double3 volatile double a = x, b = y, c = z;

// The arithmetic of one rounding suffix.
#define COHORT_COMPAT_ROUNDED_ARITHMETIC(suffix, mode)                                                         \
  COHORT_COMPAT_ROUNDED(float, __fadd_##suffix, mode, a + b, float2)                                           \
  COHORT_COMPAT_ROUNDED(float, __fsub_##suffix, mode, a - b, float2)                                           \
  COHORT_COMPAT_ROUNDED(float, __fmul_##suffix, mode, a* b, float2)                                            \
  COHORT_COMPAT_ROUNDED(float, __fdiv_##suffix, mode, a / b, float2)                                           \
  COHORT_COMPAT_ROUNDED(float, __frcp_##suffix, mode, 1.0f / a, float1)                                        \
  COHORT_COMPAT_ROUNDED(float, __fsqrt_##suffix, mode, std::sqrt(static_cast<float>(a)), float1)               \
  COHORT_COMPAT_ROUNDED(float, __fmaf_##suffix, mode,                                                          \
                        std::fma(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c)), float3) \
  COHORT_COMPAT_ROUNDED(double, __dadd_##suffix, mode, a + b, double2)                                         \
  COHORT_COMPAT_ROUNDED(double, __dsub_##suffix, mode, a - b, double2)                                         \
  COHORT_COMPAT_ROUNDED(double, __dmul_##suffix, mode, a* b, double2)                                          \
  COHORT_COMPAT_ROUNDED(double, __ddiv_##suffix, mode, a / b, double2)                                         \
  COHORT_COMPAT_ROUNDED(double, __drcp_##suffix, mode, 1.0 / a, double1)                                       \
  COHORT_COMPAT_ROUNDED(double, __dsqrt_##suffix, mode, std::sqrt(static_cast<double>(a)), double1)            \
  COHORT_COMPAT_ROUNDED(double, __fma_##suffix, mode,                                                          \
                        std::fma(static_cast<double>(a), static_cast<double>(b), static_cast<double>(c)), double3)

COHORT_COMPAT_ROUNDED_ARITHMETIC(rz, FE_TOWARDZERO)
COHORT_COMPAT_ROUNDED_ARITHMETIC(rd, FE_DOWNWARD)
COHORT_COMPAT_ROUNDED_ARITHMETIC(ru, FE_UPWARD)
// The to-nearest forms device_functions.hpp does not have.
COHORT_COMPAT_ROUNDED(double, __dsub_rn, FE_TONEAREST, a - b, double2)
COHORT_COMPAT_ROUNDED(double, __ddiv_rn, FE_TONEAREST, a / b, double2)
COHORT_COMPAT_ROUNDED(double, __drcp_rn, FE_TONEAREST, 1.0 / a, double1)
COHORT_COMPAT_ROUNDED(double, __dsqrt_rn, FE_TONEAREST, std::sqrt(static_cast<double>(a)), double1)

// Conversions from floating point to integers: the rounding is the function's.
#define COHORT_COMPAT_TO_INTEGER(from, short_from, to, short_to)                         \
  to __##short_from##2##short_to##_rd(from x) { return static_cast<to>(std::floor(x)); } \
  to __##short_from##2##short_to##_ru(from x) { return static_cast<to>(std::ceil(x)); }
COHORT_COMPAT_TO_INTEGER(float, float, unsigned, uint)
COHORT_COMPAT_TO_INTEGER(float, float, long long, ll)
COHORT_COMPAT_TO_INTEGER(double, double, int, int)
COHORT_COMPAT_TO_INTEGER(double, double, unsigned, uint)
COHORT_COMPAT_TO_INTEGER(double, double, long long, ll)
COHORT_COMPAT_TO_INTEGER(double, double, unsigned long long, ull)
COHORT_COMPAT_TO_INTEGER(float, float, unsigned long long, ull)
unsigned long long __float2ull_rn(float x) { return static_cast<unsigned long long>(std::nearbyint(x)); }
unsigned long long __float2ull_rz(float x) { return static_cast<unsigned long long>(std::trunc(x)); }
unsigned __double2uint_rn(double x) { return static_cast<unsigned>(std::nearbyint(x)); }
unsigned __double2uint_rz(double x) { return static_cast<unsigned>(std::trunc(x)); }
long long __double2ll_rn(double x) { return static_cast<long long>(std::nearbyint(x)); }
long long __double2ll_rz(double x) { return static_cast<long long>(std::trunc(x)); }
unsigned long long __double2ull_rn(double x) { return static_cast<unsigned long long>(std::nearbyint(x)); }
unsigned long long __double2ull_rz(double x) { return static_cast<unsigned long long>(std::trunc(x)); }

// Conversions that round to a narrower floating-point type: the CPU's
// conversion instruction, under the mode.
#define COHORT_COMPAT_TO_FLOATING(from, short_from, to, short_to)       \
  to __##short_from##2##short_to##_rz(from x) {                         \
    return ::cohort::compat::rounding::in_mode<to>(FE_TOWARDZERO, [=] { \
      volatile from v = x;                                              \
      return static_cast<to>(v);                                        \
    });                                                                 \
  }                                                                     \
  to __##short_from##2##short_to##_rd(from x) {                         \
    return ::cohort::compat::rounding::in_mode<to>(FE_DOWNWARD, [=] {   \
      volatile from v = x;                                              \
      return static_cast<to>(v);                                        \
    });                                                                 \
  }                                                                     \
  to __##short_from##2##short_to##_ru(from x) {                         \
    return ::cohort::compat::rounding::in_mode<to>(FE_UPWARD, [=] {     \
      volatile from v = x;                                              \
      return static_cast<to>(v);                                        \
    });                                                                 \
  }
COHORT_COMPAT_TO_FLOATING(double, double, float, float)
COHORT_COMPAT_TO_FLOATING(int, int, float, float)
COHORT_COMPAT_TO_FLOATING(unsigned, uint, float, float)
COHORT_COMPAT_TO_FLOATING(long long, ll, float, float)
COHORT_COMPAT_TO_FLOATING(unsigned long long, ull, float, float)
COHORT_COMPAT_TO_FLOATING(long long, ll, double, double)
COHORT_COMPAT_TO_FLOATING(unsigned long long, ull, double, double)
float __ull2float_rn(unsigned long long x) { return static_cast<float>(x); }
double __ll2double_rn(long long x) { return static_cast<double>(x); }
double __ull2double_rn(unsigned long long x) { return static_cast<double>(x); }
double __uint2double_rn(unsigned x) { return x; }

#undef COHORT_COMPAT_ROUNDED_ARITHMETIC
#undef COHORT_COMPAT_TO_INTEGER
#undef COHORT_COMPAT_TO_FLOATING
#undef COHORT_COMPAT_ROUNDED
#undef COHORT_COMPAT_PARAMS_float1
#undef COHORT_COMPAT_PARAMS_float2
#undef COHORT_COMPAT_PARAMS_float3
#undef COHORT_COMPAT_PARAMS_double1
#undef COHORT_COMPAT_PARAMS_double2
#undef COHORT_COMPAT_PARAMS_double3
#undef COHORT_COMPAT_VOLATILE_float1
#undef COHORT_COMPAT_VOLATILE_float2
#undef COHORT_COMPAT_VOLATILE_float3
#undef COHORT_COMPAT_VOLATILE_double1
#undef COHORT_COMPAT_VOLATILE_double2
#undef COHORT_COMPAT_VOLATILE_double3
