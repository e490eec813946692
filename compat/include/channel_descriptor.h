// <channel_descriptor.h>: cudaCreateChannelDesc, also as a template over the
// texel's type (CUDA's specializations: the built-in scalar and vector types).
#pragma once

#include "cohort_compat/memory_3d_types.hpp"
#include "vector_types.h"

inline cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return {x, y, z, w, f};
}

namespace cohort::compat {
template <class Scalar>
constexpr cudaChannelFormatKind channel_kind() {
  if constexpr (Scalar(-1) > Scalar(0))
    return cudaChannelFormatKindUnsigned;
  else if constexpr (Scalar(1) / Scalar(2) != Scalar(0))
    return cudaChannelFormatKindFloat;
  else
    return cudaChannelFormatKindSigned;
}
template <class Scalar>
cudaChannelFormatDesc channels(int count) {
  const int bits = static_cast<int>(sizeof(Scalar) * 8);
  return {bits, count > 1 ? bits : 0, count > 2 ? bits : 0, count > 3 ? bits : 0, channel_kind<Scalar>()};
}
template <class T>
struct channel_layout;
#define COHORT_COMPAT_CHANNELS(T, Scalar, count)                           \
  template <>                                                              \
  struct channel_layout<T> {                                               \
    static cudaChannelFormatDesc get() { return channels<Scalar>(count); } \
  };
#define COHORT_COMPAT_CHANNEL_FAMILY(Scalar, name) \
  COHORT_COMPAT_CHANNELS(Scalar, Scalar, 1)        \
  COHORT_COMPAT_CHANNELS(name##1, Scalar, 1)       \
  COHORT_COMPAT_CHANNELS(name##2, Scalar, 2)       \
  COHORT_COMPAT_CHANNELS(name##4, Scalar, 4)
COHORT_COMPAT_CHANNEL_FAMILY(signed char, char)
COHORT_COMPAT_CHANNEL_FAMILY(unsigned char, uchar)
COHORT_COMPAT_CHANNEL_FAMILY(short, short)
COHORT_COMPAT_CHANNEL_FAMILY(unsigned short, ushort)
COHORT_COMPAT_CHANNEL_FAMILY(int, int)
COHORT_COMPAT_CHANNEL_FAMILY(unsigned int, uint)
COHORT_COMPAT_CHANNEL_FAMILY(float, float)
COHORT_COMPAT_CHANNELS(char, signed char, 1)
COHORT_COMPAT_CHANNELS(long, int, 1)  // CUDA's: long is described as 32 bits
COHORT_COMPAT_CHANNELS(unsigned long, unsigned, 1)
#undef COHORT_COMPAT_CHANNEL_FAMILY
#undef COHORT_COMPAT_CHANNELS
}  // namespace cohort::compat

template <class T>
cudaChannelFormatDesc cudaCreateChannelDesc() {
  return cohort::compat::channel_layout<T>::get();
}
