// Where a live CUDA array's elements are (arrays.cpp), for the objects that
// read and write them: texture objects (textures.cpp), surface objects
// (surfaces.cpp).
#pragma once

#include "cohort_compat/memory_3d_types.hpp"

namespace cohort::compat::detail {

// False where `a` is not a live array; `flags` may be null.
bool array_storage(cudaArray_const_t a, void** data, cudaChannelFormatDesc* desc, cudaExtent* extent,
                   unsigned* flags = nullptr);

}  // namespace cohort::compat::detail
