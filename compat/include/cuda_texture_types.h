// <cuda_texture_types.h> on the host backend: texture objects (the types of
// <texture_types.h> and the fetches of <texture_fetch_functions.h>). Texture
// references, the texture<T, dim, mode> template that CUDA 12 removed, are a
// compile error that says what to use instead.
#pragma once

#include "texture_fetch_functions.h"
#include "texture_types.h"

template <class T, int Dims = 1, cudaTextureReadMode Mode = cudaReadModeElementType>
struct texture {
  static_assert(sizeof(T) == 0,
                "cohort: texture<T, dim, mode> (texture references) was removed in CUDA 12 and is not supported: "
                "create a cudaTextureObject_t with cudaCreateTextureObject and read it with tex1Dfetch<T>(obj, i), "
                "tex1D<T>, tex2D<T> or tex3D<T>");
};
