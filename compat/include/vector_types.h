// CUDA's built-in vector types with CUDA's sizes and alignments (int2 is
// 8-byte aligned, float4 16-byte, the 3-component types have no extra
// alignment). dim3 and uint3 are cohort's own.
#pragma once
#define __VECTOR_TYPES_H__  // NVIDIA's include guard: programs test it

#ifdef __cplusplus
#include <cohort/cohort.hpp>
#else
// C (a .c file that calls the runtime): dim3 and uint3 as plain structs, laid
// out as cohort's.
typedef struct uint3 {
  unsigned x, y, z;
} uint3;
typedef struct dim3 {
  unsigned x, y, z;
} dim3;
#endif

// Each a typedef too, so that C names them as C++ does.
#define COHORT_COMPAT_VECTOR_TYPES(T, name, a2, a4)                     \
  typedef struct name##1 { T x; }                                       \
  name##1;                                                              \
  typedef struct __attribute__((aligned(a2))) name##2 { T x, y; }       \
  name##2;                                                              \
  typedef struct name##3 { T x, y, z; }                                 \
  name##3;                                                              \
  typedef struct __attribute__((aligned(a4))) name##4 { T x, y, z, w; } \
  name##4;

COHORT_COMPAT_VECTOR_TYPES(signed char, char, 2, 4)
COHORT_COMPAT_VECTOR_TYPES(unsigned char, uchar, 2, 4)
COHORT_COMPAT_VECTOR_TYPES(short, short, 4, 8)
COHORT_COMPAT_VECTOR_TYPES(unsigned short, ushort, 4, 8)
COHORT_COMPAT_VECTOR_TYPES(int, int, 8, 16)
COHORT_COMPAT_VECTOR_TYPES(long, long, 2 * sizeof(long), 16)
COHORT_COMPAT_VECTOR_TYPES(unsigned long, ulong, 2 * sizeof(long), 16)
COHORT_COMPAT_VECTOR_TYPES(long long, longlong, 16, 16)
COHORT_COMPAT_VECTOR_TYPES(unsigned long long, ulonglong, 16, 16)
COHORT_COMPAT_VECTOR_TYPES(float, float, 8, 16)
COHORT_COMPAT_VECTOR_TYPES(double, double, 16, 16)
#undef COHORT_COMPAT_VECTOR_TYPES

// uint3 is cohort's (threadIdx and blockIdx have that type); the others of the family here.
typedef struct uint1 {
  unsigned x;
} uint1;
typedef struct __attribute__((aligned(8))) uint2 {
  unsigned x, y;
} uint2;
typedef struct __attribute__((aligned(16))) uint4 {
  unsigned x, y, z, w;
} uint4;
