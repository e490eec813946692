// make_int2(), make_float4() and the rest of CUDA's vector constructors.
#pragma once
#define __VECTOR_FUNCTIONS_H__  // NVIDIA's include guard: programs test it

#include "vector_types.h"

#ifdef __cplusplus

#define COHORT_COMPAT_MAKE_VECTORS(T, name)                                    \
  inline constexpr name##1 make_##name##1(T x) { return {x}; }                 \
  inline constexpr name##2 make_##name##2(T x, T y) { return {x, y}; }         \
  inline constexpr name##3 make_##name##3(T x, T y, T z) { return {x, y, z}; } \
  inline constexpr name##4 make_##name##4(T x, T y, T z, T w) { return {x, y, z, w}; }

COHORT_COMPAT_MAKE_VECTORS(signed char, char)
COHORT_COMPAT_MAKE_VECTORS(unsigned char, uchar)
COHORT_COMPAT_MAKE_VECTORS(short, short)
COHORT_COMPAT_MAKE_VECTORS(unsigned short, ushort)
COHORT_COMPAT_MAKE_VECTORS(int, int)
COHORT_COMPAT_MAKE_VECTORS(unsigned, uint)
COHORT_COMPAT_MAKE_VECTORS(long, long)
COHORT_COMPAT_MAKE_VECTORS(unsigned long, ulong)
COHORT_COMPAT_MAKE_VECTORS(long long, longlong)
COHORT_COMPAT_MAKE_VECTORS(unsigned long long, ulonglong)
COHORT_COMPAT_MAKE_VECTORS(float, float)
COHORT_COMPAT_MAKE_VECTORS(double, double)
#undef COHORT_COMPAT_MAKE_VECTORS
#endif  // __cplusplus
