// The copy primitives behind memcpy_async, wait and wait_prior on the CUDA
// backend, for thread blocks, tiles and coalesced groups.
//
// From global to shared memory on sm_80+ the members issue cp.async: the
// widest chunk (16, 8 or 4 bytes) at which both addresses can be aligned
// together, after a head and before a tail of single bytes; each call is one
// commit group per thread, so wait_prior<N> is cp.async.wait_group N. Other
// copies (global to global, older GPUs, addresses whose alignments differ by
// an odd amount) are plain loads and stores at the widest such chunk, done
// when the call returns. wait and wait_prior then synchronize the group, which
// makes every member's part visible to all.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cohort/detail/cuda/collectives/group_fold.hpp"
#include "cohort/groups/grid_group.hpp"

namespace cohort::detail::gpu {

template <class Group>
concept copy_group = collective_group<Group> && !std::is_same_v<std::remove_cvref_t<Group>, grid_group>;

template <unsigned Bytes>
struct chunk_of;
template <>
struct chunk_of<16> {
  using type = uint4;
};
template <>
struct chunk_of<8> {
  using type = uint2;
};
template <>
struct chunk_of<4> {
  using type = unsigned;
};
template <>
struct chunk_of<1> {
  using type = unsigned char;
};

// Member `rank` of `members` copies its share of `count` chunks of Chunk bytes.
template <unsigned Chunk>
__device__ void copy_chunks(char* dst, const char* src, std::size_t count, unsigned rank, unsigned members,
                            bool asynchronous) {
  using C = typename chunk_of<Chunk>::type;
  for (std::size_t i = rank; i < count; i += members) {
#if __CUDA_ARCH__ >= 800
    if constexpr (Chunk >= 4) {
      if (asynchronous) {
        const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(dst + i * Chunk));
        if constexpr (Chunk == 16)
          asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(src + i * Chunk) : "memory");
        else
          asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(to), "l"(src + i * Chunk), "n"(Chunk)
                       : "memory");
        continue;
      }
    }
#endif
    reinterpret_cast<C*>(dst)[i] = reinterpret_cast<const C*>(src)[i];
  }
}

// A head of single bytes, `Chunk`-byte chunks, a tail of single bytes.
template <unsigned Chunk>
__device__ void copy_aligned(char* dst, const char* src, std::size_t bytes, unsigned rank, unsigned members,
                             bool asynchronous) {
  const std::size_t misaligned = (Chunk - reinterpret_cast<std::uintptr_t>(dst) % Chunk) % Chunk;
  const std::size_t head = misaligned < bytes ? misaligned : bytes;
  const std::size_t body = (bytes - head) / Chunk;
  copy_chunks<1>(dst, src, head, rank, members, false);
  copy_chunks<Chunk>(dst + head, src + head, body, rank, members, asynchronous);
  const std::size_t done = head + body * Chunk;
  copy_chunks<1>(dst + done, src + done, bytes - done, rank, members, false);
}

// Member g.thread_rank() issues its share of the copy, as one commit group.
template <class Group>
__device__ void copy_bytes_async(const Group& g, void* dst, const void* src, std::size_t bytes) {
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  const unsigned rank = static_cast<unsigned>(g.thread_rank()), members = static_cast<unsigned>(g.num_threads());
  // Addresses whose difference is a multiple of a chunk can be aligned together.
  const std::uintptr_t skew = reinterpret_cast<std::uintptr_t>(d) ^ reinterpret_cast<std::uintptr_t>(s);
#if __CUDA_ARCH__ >= 800
  const bool asynchronous = __isShared(dst) && __isGlobal(src);
#else
  const bool asynchronous = false;
#endif
  if ((skew & 15) == 0)
    copy_aligned<16>(d, s, bytes, rank, members, asynchronous);
  else if ((skew & 7) == 0)
    copy_aligned<8>(d, s, bytes, rank, members, asynchronous);
  else if ((skew & 3) == 0)
    copy_aligned<4>(d, s, bytes, rank, members, asynchronous);
  else
    copy_chunks<1>(d, s, bytes, rank, members, false);
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

// The alignment an aligned_size_t promised is not needed here: copy_bytes_async
// finds the widest chunk from the addresses themselves.
template <class Group>
__device__ __forceinline__ void copy_async(const Group& g, void* dst, const void* src, std::size_t bytes, std::size_t,
                                           call_site) {
  copy_bytes_async(g, dst, src, bytes);
}

template <class Group>
__device__ __forceinline__ void wait_all_copies(const Group& group, call_site) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
  group.sync();
}

template <unsigned NumStages, class Group>
__device__ __forceinline__ void wait_prior_copies(const Group& group, call_site) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(NumStages) : "memory");
#endif
  group.sync();
}

}  // namespace cohort::detail::gpu
