// CUDA's built-in vector types with CUDA's sizes and alignments (int2 is
// 8-byte aligned, float4 16-byte, the 3-component types have no extra
// alignment). dim3 and uint3 are cohort's own.
#pragma once

#include <cohort/cohort.hpp>

#define COHORT_COMPAT_VECTOR_TYPES(T, name, a2, a4)   \
  struct name##1 { T x; };                             \
  struct alignas(a2) name##2 { T x, y; };              \
  struct name##3 { T x, y, z; };                       \
  struct alignas(a4) name##4 { T x, y, z, w; };

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
struct uint1 { unsigned x; };
struct alignas(8) uint2 { unsigned x, y; };
struct alignas(16) uint4 { unsigned x, y, z, w; };
