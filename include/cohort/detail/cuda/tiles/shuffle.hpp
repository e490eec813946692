// Shuffles of any exchangeable T among the lanes of `lanes`, in segments of
// Width lanes, with the source rules of the plain __shfl_*_sync intrinsics
// (the caller keeps its arguments in range). The group APIs and the
// collectives are built on these.
#pragma once

#include <cuda_runtime.h>

#include "cohort/detail/cuda/tiles/words.hpp"

namespace cohort::detail::gpu {

template <unsigned Width = 32, class T>
__device__ __forceinline__ T shfl_idx(unsigned lanes, const T& v, unsigned src) {
  return move_words(v, [&](unsigned w, unsigned) { return __shfl_sync(lanes, w, static_cast<int>(src), Width); });
}

template <unsigned Width = 32, class T>
__device__ __forceinline__ T shfl_up(unsigned lanes, const T& v, unsigned delta) {
  return move_words(v, [&](unsigned w, unsigned) { return __shfl_up_sync(lanes, w, delta, Width); });
}

template <unsigned Width = 32, class T>
__device__ __forceinline__ T shfl_down(unsigned lanes, const T& v, unsigned delta) {
  return move_words(v, [&](unsigned w, unsigned) { return __shfl_down_sync(lanes, w, delta, Width); });
}

template <unsigned Width = 32, class T>
__device__ __forceinline__ T shfl_xor(unsigned lanes, const T& v, unsigned mask) {
  return move_words(v, [&](unsigned w, unsigned) { return __shfl_xor_sync(lanes, w, static_cast<int>(mask), Width); });
}

}  // namespace cohort::detail::gpu
