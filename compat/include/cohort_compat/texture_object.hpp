// What a cudaTextureObject_t names on the host backend: the texels' memory and
// layout and the sampling state of its cudaTextureDesc, made by
// cudaCreateTextureObject (src/compat/textures.cpp) and read by the fetch
// functions (texture_fetch_functions.h) as the CUDA programming guide's
// "Texture Fetching" appendix specifies them.
#pragma once

#include <cstddef>

#include "../texture_types.h"

namespace cohort::compat {

struct texture_object {
  const unsigned char* base = nullptr;
  std::size_t row_pitch = 0;    // bytes from one row to the next
  std::size_t slice_pitch = 0;  // bytes from one 2-D slice to the next
  int extent[3] = {1, 1, 1};    // texels along x, y, z
  cudaChannelFormatDesc format{};
  int texel_bytes = 0;
  cudaTextureAddressMode address[3] = {cudaAddressModeWrap, cudaAddressModeWrap, cudaAddressModeWrap};
  cudaTextureFilterMode filter = cudaFilterModePoint;
  cudaTextureReadMode read = cudaReadModeElementType;
  bool normalized_coords = false;
  float border[4] = {0, 0, 0, 0};
  // A 1-D CUDA array is sampled as a 2-D one of one row at y = 0, as an H200
  // samples it: linear filtering blends the row above (y = -1) in with half
  // the weight, which only the border mode makes visible.
  bool one_row_array = false;
};

inline const texture_object& texture_of(cudaTextureObject_t handle) {
  return *reinterpret_cast<const texture_object*>(static_cast<std::size_t>(handle));
}

}  // namespace cohort::compat
