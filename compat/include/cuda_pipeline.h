// <cuda_pipeline.h>'s primitives on the host backend: a thread's asynchronous
// copies into shared memory. The copy is done at the call, so every commit
// and wait of the thread's own copies finds them complete (copies by other
// threads are seen after a barrier, as on the GPU).
#pragma once

#include <cstddef>
#include <cstring>

inline void __pipeline_memcpy_async(void* dst_shared, const void* src_global, std::size_t size_and_align,
                                    std::size_t zfill = 0) {
  // The last zfill bytes of the destination are zeroed instead of copied.
  std::memcpy(dst_shared, src_global, size_and_align - zfill);
  std::memset(static_cast<char*>(dst_shared) + (size_and_align - zfill), 0, zfill);
}
inline void __pipeline_commit() {}
inline void __pipeline_wait_prior(std::size_t) {}
template <class Barrier>
void __pipeline_arrive_on(Barrier*) {}
