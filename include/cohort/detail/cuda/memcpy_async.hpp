// memcpy_async, wait and wait_prior on the CUDA backend, for thread blocks,
// tiles and coalesced groups, with every form of the model: a size in
// bytes or as aligned_size_t<N>, and element counts for the destination and
// the source, of which the smaller is copied.
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

#include "cohort/detail/copy_layout.hpp"
#include "cohort/detail/cuda/group_fold.hpp"
#include "cohort/groups/grid_group.hpp"

namespace cohort {

namespace detail::gpu {

using ::cohort::detail::copy_layout;
using ::cohort::detail::layout_alignment;

// NVIDIA requires two aligned layouts to promise the same alignment.
template <class D, class S>
inline constexpr bool layouts_agree =
    layout_alignment<D>::value == 0 || layout_alignment<S>::value == 0 || layout_alignment<D>::value == layout_alignment<S>::value;

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

template <class Group>
__device__ void copy_async(const Group& g, void* dst, const void* src, std::size_t bytes) {
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

}  // namespace detail::gpu

// Copies `shape` bytes (a count, or aligned_size_t<N>) from src to dst.
template <detail::gpu::copy_group Group, class TyElem, detail::gpu::copy_layout TyShape>
__device__ void memcpy_async(const Group& group, TyElem* dst, const TyElem* src, const TyShape& shape) {
  static_assert(std::is_trivially_copyable_v<TyElem>, "memcpy_async copies trivially copyable elements");
  detail::gpu::copy_async(group, dst, src, static_cast<std::size_t>(shape));
}

// Copies min(dst_layout, src_layout) elements (counts, or aligned_size_t<N>).
template <detail::gpu::copy_group Group, class TyElem, detail::gpu::copy_layout TyDstLayout,
          detail::gpu::copy_layout TySrcLayout>
__device__ void memcpy_async(const Group& group, TyElem* dst, const TyDstLayout& dst_layout, const TyElem* src,
                             const TySrcLayout& src_layout) {
  static_assert(std::is_trivially_copyable_v<TyElem>, "memcpy_async copies trivially copyable elements");
  static_assert(detail::gpu::layouts_agree<TyDstLayout, TySrcLayout>,
                "memcpy_async: aligned_size_t layouts must specify the same alignment");
  const std::size_t d = static_cast<std::size_t>(dst_layout), s = static_cast<std::size_t>(src_layout);
  detail::gpu::copy_async(group, dst, src, (d < s ? d : s) * sizeof(TyElem));
}

// Waits for every copy the calling member has issued, then synchronizes the group.
template <detail::gpu::copy_group Group>
__device__ void wait(const Group& group) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
  group.sync();
}

// Waits for all but the latest NumStages copies the calling member has
// issued, then synchronizes the group.
template <unsigned NumStages, detail::gpu::copy_group Group>
__device__ void wait_prior(const Group& group) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(NumStages) : "memory");
#endif
  group.sync();
}

}  // namespace cohort
