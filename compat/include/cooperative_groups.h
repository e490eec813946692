// NVIDIA's <cooperative_groups.h> on cohort's host backend: namespace
// cooperative_groups names cohort's groups and collectives, which carry
// NVIDIA's names and signatures. docs/cuda-compat.md lists the differences.
#pragma once
#define _COOPERATIVE_GROUPS_H_  // NVIDIA's include guard: programs test it

#include "cuda_runtime.h"  // first: it sets how cohort's headers answer (COHORT_NVIDIA_TILE_SIZES)

#include <cstddef>
#include <functional>
#include <utility>

#include <cohort/cohort.hpp>

namespace cooperative_groups {

using cohort::block_tile_memory;
using cohort::cluster_group;
using cohort::coalesced_group;
using cohort::grid_group;
using cohort::multi_grid_group;
using cohort::thread_block;
using cohort::thread_block_tile;
using cohort::thread_group;

using cohort::binary_partition;
using cohort::coalesced_threads;
using cohort::group_size;
using cohort::labeled_partition;
using cohort::sync;
using cohort::this_cluster;
using cohort::this_grid;
using cohort::this_multi_grid;
using cohort::this_thread;
using cohort::this_thread_block;
using cohort::thread_rank;
using cohort::tiled_partition;

using cohort::bit_and;
using cohort::bit_or;
using cohort::bit_xor;
using cohort::greater;
using cohort::less;
using cohort::plus;

using cohort::exclusive_scan;
using cohort::exclusive_scan_update;
using cohort::inclusive_scan;
using cohort::inclusive_scan_update;
using cohort::invoke_one;
using cohort::invoke_one_broadcast;
using cohort::reduce;
using cohort::reduce_store_async;
using cohort::reduce_update_async;

using cohort::memcpy_async;
using cohort::wait;
using cohort::wait_prior;

// NVIDIA's invoke_one on the grid: its rank 0 calls fn, without synchronizing,
// so it needs no cooperative launch (cohort's own synchronizes the grid around the call).
template <class Fn, class... Args>
void invoke_one(const grid_group& grid, Fn&& fn, Args&&... args) {
  if (grid.thread_rank() == 0) std::invoke(std::forward<Fn>(fn), std::forward<Args>(args)...);
}

// NVIDIA's untyped form: bytes from void pointers.
template <class Group>
void memcpy_async(const Group& group, void* dst, const void* src, std::size_t bytes) {
  cohort::memcpy_async(group, static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), bytes);
}
template <class Group, std::size_t Align>
void memcpy_async(const Group& group, void* dst, const void* src, cohort::aligned_size_t<Align> bytes) {
  cohort::memcpy_async(group, static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), bytes);
}

}  // namespace cooperative_groups
