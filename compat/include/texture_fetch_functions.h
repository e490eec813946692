// The texture fetches of texture objects on the host backend: tex1Dfetch,
// tex1D, tex2D, tex3D (and their *Lod forms, level 0: there are no mipmaps),
// as templates over the result type and in the older out-parameter form.
// Texture references (texture<T, dim>), removed in CUDA 12, are not supported
// (<cuda_texture_types.h> says what to use).
//
// As the CUDA programming guide specifies: point sampling reads texel
// floor(x); linear filtering blends the texels around x - 0.5 with weights
// kept in 9-bit fixed point (8 fractional bits); the address mode maps each
// texel index outside the texture (wrap and mirror apply to normalized
// coordinates; with unnormalized ones they clamp); cudaReadModeNormalizedFloat
// reads 8- and 16-bit integer texels as floats in [0, 1] or [-1, 1].
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cohort_compat/texture_object.hpp"
#include "vector_types.h"

namespace cohort::compat::texturing {

inline float half_to_float(std::uint16_t h) {
  const int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

// The texel's channels as floats (normalized when the read mode says so).
inline void decode(const texture_object& t, const unsigned char* texel, float out[4]) {
  const int bits[4] = {t.format.x, t.format.y, t.format.z, t.format.w};
  const bool normalize = t.read == cudaReadModeNormalizedFloat;
  int offset = 0;
  for (int c = 0; c < 4; ++c) {
    out[c] = 0.0f;
    if (bits[c] == 0) continue;
    const unsigned char* p = texel + offset;
    offset += bits[c] / 8;
    switch (t.format.f) {
      case cudaChannelFormatKindFloat:
        if (bits[c] == 32)
          std::memcpy(&out[c], p, 4);
        else {
          std::uint16_t h;
          std::memcpy(&h, p, 2);
          out[c] = half_to_float(h);
        }
        break;
      case cudaChannelFormatKindSigned: {
        long long v = 0;
        if (bits[c] == 8)
          v = *reinterpret_cast<const std::int8_t*>(p);
        else if (bits[c] == 16) {
          std::int16_t s;
          std::memcpy(&s, p, 2);
          v = s;
        } else {
          std::int32_t s;
          std::memcpy(&s, p, 4);
          v = s;
        }
        const float scale = bits[c] == 8 ? 127.0f : 32767.0f;
        out[c] = normalize && bits[c] < 32 ? std::max(static_cast<float>(v) / scale, -1.0f) : static_cast<float>(v);
        break;
      }
      default: {
        unsigned long long v = 0;
        if (bits[c] == 8)
          v = *p;
        else if (bits[c] == 16) {
          std::uint16_t s;
          std::memcpy(&s, p, 2);
          v = s;
        } else {
          std::uint32_t s;
          std::memcpy(&s, p, 4);
          v = s;
        }
        const float scale = bits[c] == 8 ? 255.0f : 65535.0f;
        out[c] = normalize && bits[c] < 32 ? static_cast<float>(v) / scale : static_cast<float>(v);
      }
    }
  }
}

// The texel index along a dimension of n texels, or -1 for the border.
inline int address(long long i, int n, cudaTextureAddressMode mode, bool normalized) {
  if (!normalized && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror)) mode = cudaAddressModeClamp;
  switch (mode) {
    case cudaAddressModeWrap: {
      const long long m = i % n;
      return static_cast<int>(m < 0 ? m + n : m);
    }
    case cudaAddressModeMirror: {
      long long m = i % (2ll * n);
      if (m < 0) m += 2ll * n;
      return static_cast<int>(m < n ? m : 2ll * n - 1 - m);
    }
    case cudaAddressModeBorder:
      return i < 0 || i >= n ? -1 : static_cast<int>(i);
    default:
      return static_cast<int>(i < 0 ? 0 : (i >= n ? n - 1 : i));
  }
}

// A coordinate in texels: scaled from [0, 1) when coordinates are normalized,
// and kept within what an index can hold.
inline double texel_coordinate(float x, int n, bool normalized) {
  const double v = normalized ? static_cast<double>(x) * n : static_cast<double>(x);
  if (std::isnan(v)) return 0.0;
  return std::clamp(v, -1073741824.0, 1073741824.0);
}

// Linear filtering's weight: the fraction in fixed point with 8 fractional bits.
inline float weight(double fraction) { return static_cast<float>(std::round(fraction * 256.0) / 256.0); }

// The channels of the texel at integer coordinates (already addressed), or the border.
inline void channels_at(const texture_object& t, const long long (&index)[3], int dims, float out[4]) {
  int at[3] = {0, 0, 0};
  for (int d = 0; d < dims; ++d) {
    at[d] = address(index[d], t.extent[d], t.address[d], t.normalized_coords);
    if (at[d] < 0) {
      for (int c = 0; c < 4; ++c) out[c] = t.border[c];
      return;
    }
  }
  decode(t, t.base + at[2] * t.slice_pitch + at[1] * t.row_pitch + static_cast<std::size_t>(at[0]) * t.texel_bytes,
         out);
}

// The raw bytes of the texel (element-type reads without filtering), or the
// border color in the texel's format.
inline void bytes_at(const texture_object& t, const long long (&index)[3], int dims, unsigned char* out) {
  int at[3] = {0, 0, 0};
  for (int d = 0; d < dims; ++d) {
    at[d] = address(index[d], t.extent[d], t.address[d], t.normalized_coords);
    if (at[d] < 0) {
      const int bits[4] = {t.format.x, t.format.y, t.format.z, t.format.w};
      int offset = 0;
      for (int c = 0; c < 4 && bits[c] != 0; ++c) {
        if (t.format.f == cudaChannelFormatKindFloat && bits[c] == 32)
          std::memcpy(out + offset, &t.border[c], 4);
        else {
          const long long v = static_cast<long long>(t.border[c]);
          std::memcpy(out + offset, &v, static_cast<std::size_t>(bits[c] / 8));  // little-endian low bytes
        }
        offset += bits[c] / 8;
      }
      return;
    }
  }
  std::memcpy(out,
              t.base + at[2] * t.slice_pitch + at[1] * t.row_pitch + static_cast<std::size_t>(at[0]) * t.texel_bytes,
              static_cast<std::size_t>(t.texel_bytes));
}

template <class T>
T from_channels(const float (&c)[4]) {
  if constexpr (std::is_same_v<T, float>)
    return c[0];
  else if constexpr (std::is_same_v<T, float1>)
    return {c[0]};
  else if constexpr (std::is_same_v<T, float2>)
    return {c[0], c[1]};
  else if constexpr (std::is_same_v<T, float4>)
    return {c[0], c[1], c[2], c[3]};
  else {
    // Another type read through a float path: the channels' bits, as the GPU's registers hold them.
    T r{};
    std::memcpy(&r, c, sizeof(T) < sizeof c ? sizeof(T) : sizeof c);
    return r;
  }
}

template <class T, int Dims>
T fetch(cudaTextureObject_t handle, const float (&coordinate)[3]) {
  const texture_object& t = texture_of(handle);
  if constexpr (Dims == 1)
    if (t.one_row_array) return fetch<T, 2>(handle, {coordinate[0], 0.0f, 0.0f});
  double x[3] = {0, 0, 0};
  for (int d = 0; d < Dims; ++d) x[d] = texel_coordinate(coordinate[d], t.extent[d], t.normalized_coords);
  if (t.filter == cudaFilterModePoint) {
    long long index[3] = {0, 0, 0};
    for (int d = 0; d < Dims; ++d) index[d] = static_cast<long long>(std::floor(x[d]));
    if (t.read == cudaReadModeElementType && t.format.f != cudaChannelFormatKindFloat) {
      unsigned char bytes[16] = {};
      bytes_at(t, index, Dims, bytes);
      T r{};
      std::memcpy(&r, bytes, sizeof(T) < sizeof bytes ? sizeof(T) : sizeof bytes);
      return r;
    }
    float c[4];
    channels_at(t, index, Dims, c);
    return from_channels<T>(c);
  }
  long long low[3] = {0, 0, 0};
  float alpha[3] = {0, 0, 0};
  for (int d = 0; d < Dims; ++d) {
    const double b = x[d] - 0.5;
    low[d] = static_cast<long long>(std::floor(b));
    alpha[d] = weight(b - std::floor(b));
  }
  float sum[4] = {0, 0, 0, 0};
  for (int corner = 0; corner < (1 << Dims); ++corner) {
    long long index[3] = {0, 0, 0};
    float w = 1.0f;
    for (int d = 0; d < Dims; ++d) {
      const bool high = (corner >> d) & 1;
      index[d] = low[d] + (high ? 1 : 0);
      w *= high ? alpha[d] : 1.0f - alpha[d];
    }
    float c[4];
    channels_at(t, index, Dims, c);
    for (int k = 0; k < 4; ++k) sum[k] += w * c[k];
  }
  return from_channels<T>(sum);
}

// tex1Dfetch: an integer index into linear memory, no filtering; outside it, zeros.
template <class T>
T fetch_linear(cudaTextureObject_t handle, int i) {
  const texture_object& t = texture_of(handle);
  if (i < 0 || i >= t.extent[0]) {
    const float zero[4] = {0, 0, 0, 0};
    if (t.read == cudaReadModeNormalizedFloat || t.format.f == cudaChannelFormatKindFloat)
      return from_channels<T>(zero);
    return T{};
  }
  const unsigned char* texel = t.base + static_cast<std::size_t>(i) * t.texel_bytes;
  if (t.read == cudaReadModeElementType) {
    T r{};
    std::memcpy(&r, texel, sizeof(T) < static_cast<std::size_t>(t.texel_bytes) ? sizeof(T) : t.texel_bytes);
    return r;
  }
  float c[4];
  decode(t, texel, c);
  return from_channels<T>(c);
}

}  // namespace cohort::compat::texturing

template <class T>
T tex1Dfetch(cudaTextureObject_t t, int x) {
  return cohort::compat::texturing::fetch_linear<T>(t, x);
}
template <class T>
T tex1D(cudaTextureObject_t t, float x) {
  return cohort::compat::texturing::fetch<T, 1>(t, {x, 0.0f, 0.0f});
}
template <class T>
T tex2D(cudaTextureObject_t t, float x, float y) {
  return cohort::compat::texturing::fetch<T, 2>(t, {x, y, 0.0f});
}
template <class T>
T tex3D(cudaTextureObject_t t, float x, float y, float z) {
  return cohort::compat::texturing::fetch<T, 3>(t, {x, y, z});
}
template <class T>
T tex1DLod(cudaTextureObject_t t, float x, float) {
  return tex1D<T>(t, x);
}
template <class T>
T tex2DLod(cudaTextureObject_t t, float x, float y, float) {
  return tex2D<T>(t, x, y);
}
template <class T>
T tex3DLod(cudaTextureObject_t t, float x, float y, float z, float) {
  return tex3D<T>(t, x, y, z);
}

template <class T>
void tex1Dfetch(T* result, cudaTextureObject_t t, int x) {
  *result = tex1Dfetch<T>(t, x);
}
template <class T>
void tex1D(T* result, cudaTextureObject_t t, float x) {
  *result = tex1D<T>(t, x);
}
template <class T>
void tex2D(T* result, cudaTextureObject_t t, float x, float y) {
  *result = tex2D<T>(t, x, y);
}
template <class T>
void tex3D(T* result, cudaTextureObject_t t, float x, float y, float z) {
  *result = tex3D<T>(t, x, y, z);
}
