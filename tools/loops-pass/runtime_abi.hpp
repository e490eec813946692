// What the pass and cohort's host runtime agree on: the symbols the pass finds
// in kernels, the runtime entry points the generated code calls, and the layout
// of the record the runtime hands a block function (src/host_runtime/launch/loops_engine.cpp
// static_asserts the same layout). Change one side, change the other.
#pragma once

#include <cstdint>

#include "llvm/ADT/StringRef.h"

namespace cohort_loops {

// `__global__` under clang (detail/host/kernel_language.hpp) annotates the kernel with this.
inline constexpr llvm::StringLiteral kernel_annotation = "cohort.kernel";
// The thread-local pointer the thread's row is read through (detail/host/runtime/state.hpp): a
// thread_position { uint3 index; unsigned row; }, row being the rank of the row's first thread.
inline constexpr llvm::StringLiteral current_position_symbol = "_ZN6cohort6detail4host16current_positionE";
// threadIdx itself, a thread-local uint3 in the global namespace (the runtime's streak
// position's index, under CUDA's name).
inline constexpr llvm::StringLiteral thread_index_symbol = "threadIdx";
// The thread-locals blockIdx, blockDim, gridDim and warpSize: set once per block.
inline constexpr llvm::StringLiteral block_coordinate_symbols[] = {"blockIdx", "blockDim", "gridDim", "warpSize"};
// cohort::detail::host::block_sync(std::source_location): __syncthreads(), block.sync().
inline constexpr llvm::StringLiteral block_sync_symbol = "_ZN6cohort6detail4host10block_syncESt15source_location";

// cohort::detail::host::block_arrive(std::source_location) and block_wait(uint64_t phase, std::source_location):
// thread_block::barrier_arrive() and barrier_wait(token), the wait's phase the arrive's result.
inline constexpr llvm::StringLiteral block_arrive_symbol = "_ZN6cohort6detail4host12block_arriveESt15source_location";
inline constexpr llvm::StringLiteral block_wait_symbol = "_ZN6cohort6detail4host10block_waitEmSt15source_location";
// memcpy_async's checking mode (COHORT_CHECK=memcpy; detail/host/memcpy_async.hpp): issue_checked_copy(..., where)
// and complete_checked_copies(keep, where), each called only where the block's check_copies is set. The runtime
// runs a kernel that has them on fibers under that mode (cohort_loops_register_copy_checks).
inline constexpr llvm::StringLiteral copy_check_prefixes[] = {"_ZN6cohort6detail4host18issue_checked_copy",
                                                              "_ZN6cohort6detail4host23complete_checked_copies"};

// cohort::detail::host::grid_sync(std::source_location): grid.sync(), this_grid().sync().
inline constexpr llvm::StringLiteral grid_sync_symbol = "_ZN6cohort6detail4host9grid_syncESt15source_location";
// cohort::detail::host::cluster_sync(std::source_location): cluster.sync(), this_cluster().sync().
inline constexpr llvm::StringLiteral cluster_sync_symbol = "_ZN6cohort6detail4host12cluster_syncESt15source_location";
// cohort::detail::host::multi_grid_sync(std::source_location): multi_grid.sync(), this_multi_grid().sync().
inline constexpr llvm::StringLiteral multi_grid_sync_symbol =
    "_ZN6cohort6detail4host15multi_grid_syncESt15source_location";
// The levels above the block whose barriers are points where the block function returns to the
// scheduler (grid_resume.hpp), numbered as the runtime numbers them (loops_grid.hpp's loops_level).
enum resume_level : std::uint32_t { grid_level = 0, cluster_level = 1, multi_grid_level = 2 };
// The cluster's queries (cluster.block_rank(), dim_blocks(), ...) and the multi-device launch's
// (multi_grid_group's is_valid(), grid_rank(), num_grids(), num_threads(), and the grid's first thread, which
// thread_rank() adds to the thread's rank in the grid): the block's, read where called.
inline constexpr llvm::StringLiteral level_query_symbols[] = {"_ZN6cohort6detail4host18cluster_block_rankEv",
                                                              "_ZN6cohort6detail4host19cluster_block_countEv",
                                                              "_ZN6cohort6detail4host11cluster_dimEv",
                                                              "_ZN6cohort6detail4host19cluster_block_indexEv",
                                                              "_ZN6cohort6detail4host16cluster_grid_dimEv",
                                                              "_ZN6cohort6detail4host13cluster_indexEv",
                                                              "_ZN6cohort6detail4host16multi_grid_validEv",
                                                              "_ZN6cohort6detail4host15multi_grid_rankEv",
                                                              "_ZN6cohort6detail4host16multi_grid_countEv",
                                                              "_ZN6cohort6detail4host23multi_grid_thread_countEv",
                                                              "_ZN6cohort6detail4host23multi_grid_first_threadEv"};

// cohort::detail::host::rendezvous(collective_call const&): where every warp and tile
// collective (__shfl*_sync, votes, ballot, match, __reduce_*_sync, __syncwarp,
// tile sync, shuffles, reductions and scans) joins its group
// (detail/host/collectives/collective.hpp): the kernel side has written the
// thread's value and argument into its slot, and reads its result from there after.
inline constexpr llvm::StringLiteral rendezvous_symbol = "_ZN6cohort6detail4host10rendezvousERKNS1_15collective_callE";

// template <class T> T cohort::detail::host::lane_exchange(shuffle_kind, collective_op const&,
//     unsigned long long mask, T var, uint64_t arg, std::source_location)
// (detail/host/language/warp_intrinsics.hpp): a shuffle, its kind a constant (idx, up, down, xor
// as 0..3), `arg` the lane operand and width packed as the shuffle's slot holds them.
inline constexpr llvm::StringLiteral lane_exchange_prefix = "_ZN6cohort6detail4host13lane_exchangeI";
// template <class T> T cohort::detail::host::lane_combine(combine_kind, collective_op const&,
//     unsigned long long mask, T value, std::source_location) (the same header): a vote, `__reduce_*_sync` or
// `__syncwarp` or `__match_*_sync`, its kind a constant after the shuffles' (ballot 4, any, all, reduce_add,
// reduce_min_unsigned, reduce_min_signed, reduce_max_unsigned, reduce_max_signed, reduce_and, reduce_or,
// reduce_xor, sync 15, match_any, match_all 17); a match's value is its key (match_key.hpp), its result too.
inline constexpr llvm::StringLiteral lane_combine_prefix = "_ZN6cohort6detail4host12lane_combineI";
inline constexpr unsigned last_shuffle_kind = 3, last_combine_kind = 17, sync_kind = 15;
// template <class T> T cohort::detail::host::tile_exchange(tile_kind, unsigned size, collective_op const&, T var,
//     uint64_t arg, std::source_location) (detail/host/tile_primitives.hpp): a shuffle or sync of a
// thread_block_tile of `size` (1 to 32), its kind a constant after the warp intrinsics' (shfl 18, shfl_up,
// shfl_down, shfl_xor, sync 22); `arg` the source rank (with the width in the high word), delta or lane mask.
inline constexpr llvm::StringLiteral tile_exchange_prefix = "_ZN6cohort6detail4host13tile_exchangeI";
inline constexpr unsigned first_tile_kind = 18, tile_sync_kind = 22, tile_fold_kind = 23, tile_vote_kind = 24,
                          tile_match_any_kind = 25, tile_match_all_kind = 26;
// template <class T> T cohort::detail::host::tile_fold(tile_kind, unsigned size,
//     void (*lanes)(const std::byte* in, std::byte* out, unsigned first, unsigned end, unsigned tile), T value,
//     const collective_op&, std::source_location, const void* params) (detail/host/collectives/tile_fold.hpp):
// cg::reduce or a scan of a thread_block_tile of `size` (1 to 32) with a stateless operator, its kind
// tile_fold_kind; `lanes` folds the tiles of a range of ranks over the lane arrays.
inline constexpr llvm::StringLiteral tile_fold_prefix = "_ZN6cohort6detail4host9tile_foldI";
// template <class R> R cohort::detail::host::tile_vote(tile_kind, unsigned size, <lanes as above>, R predicate,
//     const collective_op&, std::source_location) (detail/host/tile_primitives.hpp): a thread_block_tile's any, all
// or ballot, its kind tile_vote_kind, lowered as tile_fold.
inline constexpr llvm::StringLiteral tile_vote_prefix = "_ZN6cohort6detail4host9tile_voteI";
// template <class Key> Key cohort::detail::host::tile_match(tile_kind, unsigned size, <lanes as above>, Key key,
//     const collective_op&, std::source_location) (the same header): a thread_block_tile's match_any or match_all
// (tile_match_any_kind, tile_match_all_kind), its value as its key (match_key.hpp), lowered as tile_vote.
inline constexpr llvm::StringLiteral tile_match_prefix = "_ZN6cohort6detail4host10tile_matchI";

// Marks, between the step and the block function, an instruction whose value is
// the same for every thread of the block: the block function computes it once.
inline constexpr llvm::StringLiteral uniform_metadata = "cohort.uniform";

// cohort::detail::host::spin_yield(std::source_location): where an atomic, fence or sleep lets the
// other fibers run (detail/host/language/atomics.hpp). A kernel that cannot poll (no atomic or volatile read
// in a loop) never needs it, and the step function drops it: a block function cannot yield.
inline constexpr llvm::StringLiteral spin_yield_symbol = "_ZN6cohort6detail4host10spin_yieldESt15source_location";
// cohort::detail::host::misaligned_atomic(...): an atomic's check of its address, which
// fails the launch (it returns to no caller) and reaches no barrier.
inline constexpr llvm::StringLiteral misaligned_atomic_symbol =
    "_ZN6cohort6detail4host17misaligned_atomicEPKcPKvmSt15source_location";
// glibc's __assert_fail, which a failed assert() calls: the runtime defines it for the program
// (src/host_runtime/diagnostics/kernel_assert.cpp) to fail the launch in kernel code.
inline constexpr llvm::StringLiteral assert_fail_symbol = "__assert_fail";

// loops_block* cohort_loops_begin_block(uint64_t frame_bytes)
inline constexpr llvm::StringLiteral begin_block_symbol = "cohort_loops_begin_block";
// uint32_t cohort_loops_next_block(loops_block*): a barrier-free block function ran every thread of its block;
// nonzero: the worker's next block, blockIdx and all, is set up in the same record, and the block function runs
// it too; 0: it returns.
inline constexpr llvm::StringLiteral next_block_symbol = "cohort_loops_next_block";
// void cohort_loops_check_site(loops_block*, unsigned first_rank, unsigned rank): fails the launch when
// the two threads stopped at different barrier call sites.
inline constexpr llvm::StringLiteral check_site_symbol = "cohort_loops_check_site";
// void cohort_loops_exchange(loops_block*): every thread stopped at a warp or tile collective, the
// address of its collective_call in its frame's first slot; checks each group and runs its combine.
inline constexpr llvm::StringLiteral exchange_symbol = "cohort_loops_exchange";
// void cohort_loops_lane_exchange(loops_block*, unsigned kind, unsigned size, uint64_t mask, std::source_location,
// bool uniform_arg, const void* lanes): every thread stopped at a shuffle lowered to the lane arrays, its value in
// lane_in and argument in lane_arg (only at lane_arg[0] where uniform_arg); checks the mask and leaves each lane's
// result in lane_out. The same for a vote, reduction or __syncwarp (a kind after the shuffles'; no argument): each
// warp's result in every lane's lane_out; and for a tile's shuffle or sync (a tile kind; `mask` is then the
// tile's size), per tile of consecutive ranks; for a tile's fold, `lanes` is tile_fold's function, which the
// exchange runs over the range's tiles, for a tile's vote tile_vote's and for its match tile_match's (null for every
// other kind).
inline constexpr llvm::StringLiteral lane_exchange_symbol = "cohort_loops_lane_exchange";
// void cohort_loops_lane_exchange_warp(loops_block*, unsigned first, <the rest as above>): the same for the
// warp whose first rank is `first` alone, in a kernel whose regions run per warp.
inline constexpr llvm::StringLiteral lane_exchange_warp_symbol = "cohort_loops_lane_exchange_warp";
// void cohort_loops_enter_thread(uint32_t x, uint32_t y, uint32_t z, uint32_t row): the thread
// about to call a runtime function that fails the launch, so that the message names it.
inline constexpr llvm::StringLiteral enter_thread_symbol = "cohort_loops_enter_thread";
// void cohort_loops_register_kernel(const void* kernel, const void* block_function, const char* name)
inline constexpr llvm::StringLiteral register_kernel_symbol = "cohort_loops_register_kernel";
// void cohort_loops_register_resuming_kernel(const void* kernel, const void* block_function, const char* name,
// uint32_t levels): a lowered kernel with grid, cluster or multi-grid barriers, whose block function may return at each
// (grid_resume.hpp); `levels` has bit 1 << resume_level set for each level it has barriers of.
inline constexpr llvm::StringLiteral register_resuming_kernel_symbol = "cohort_loops_register_resuming_kernel";
// void cohort_loops_register_warp_kernel(const void* kernel, const void* block_function, const char* name,
// unsigned layout): a lowered kernel whose regions run per warp (collectives in warp-uniform control flow),
// proven for warps of 32 lanes; `layout` (warp_layout, uniformity.hpp): 0 any block, 1 only where every
// warp lies in one row of threadIdx.x, 2 only where blockDim.x is a multiple of 32. Never one with levels.
inline constexpr llvm::StringLiteral register_warp_kernel_symbol = "cohort_loops_register_warp_kernel";
// loops_block* cohort_loops_begin_grid_block(uint64_t frame_bytes, uint64_t kept_bytes): begin_block for
// a kernel with grid or cluster barriers: the block's own frames, resume point and kept bytes, restored
// where it resumes.
inline constexpr llvm::StringLiteral begin_grid_block_symbol = "cohort_loops_begin_grid_block";
// bool cohort_loops_level_arrive(loops_block*, uint32_t point, uint32_t level, std::source_location): the
// block, every live thread stopped at point `point`, a barrier of `level`, arrives. True: the block function
// returns to the scheduler; false: the level's barrier is complete already (a cluster of one block, in a
// launch without clusters), and the block goes on at once.
inline constexpr llvm::StringLiteral level_arrive_symbol = "cohort_loops_level_arrive";
// void cohort_loops_register_copy_checks(const void* kernel): the kernel, lowered, has memcpy_async's checking
// calls; under COHORT_CHECK=memcpy (or memcpy-poison) its launches run on fibers.
inline constexpr llvm::StringLiteral register_copy_checks_symbol = "cohort_loops_register_copy_checks";
// [[noreturn]] void cohort_loops_unchecked_copy(std::source_location): what a block function calls in place of
// a checking call; reached only if a launch ran the kernel on loops in the checking mode, which the runtime never
// chooses: it fails the launch rather than skip the checks.
inline constexpr llvm::StringLiteral unchecked_copy_symbol = "cohort_loops_unchecked_copy";
// void cohort_loops_register_fallback(const void* kernel, const char* name, const char* reason)
inline constexpr llvm::StringLiteral register_fallback_symbol = "cohort_loops_register_fallback";

// struct loops_block, field offsets in bytes.
inline constexpr unsigned position_offset = 0;  // thread_position*: threadIdx.{x,y,z}, row (4 x u32)
inline constexpr unsigned frames_offset = 8;    // unsigned char*: count frames of frame_bytes each
inline constexpr unsigned resume_offset = 16;   // uint32_t*: each thread's resume point
inline constexpr unsigned dim_x_offset = 24;    // uint32_t blockDim.x
inline constexpr unsigned dim_y_offset = 28;    // uint32_t blockDim.y
inline constexpr unsigned dim_z_offset = 32;    // uint32_t blockDim.z
inline constexpr unsigned count_offset = 36;    // uint32_t threads in the block
// (uint64_t frame_bytes at 40, for the runtime)
inline constexpr unsigned order_offset = 48;        // uint32_t*: a shuffled schedule's order of the ranks, or null
inline constexpr unsigned lane_in_offset = 56;      // byte*: each rank's value at a lowered shuffle, `size` bytes apart
inline constexpr unsigned lane_arg_offset = 64;     // uint64_t*: each rank's packed operand and width
inline constexpr unsigned lane_out_offset = 72;     // byte*: each rank's result, `size` bytes apart
inline constexpr unsigned grid_resume_offset = 80;  // uint32_t: where the block resumes (0 or a grid barrier's point)
inline constexpr unsigned kept_store_offset =
    88;  // byte*: the block's kept values and shared memory across grid barriers

// A thread's resume point: 0 the kernel's start, i the code after barrier i, exited.
inline constexpr std::uint32_t exited = 0xffffffffu;
// The first bytes of each thread's frame, in a kernel with a barrier in thread-dependent
// control flow: the source_location of the barrier it stopped at; in a kernel with
// collectives: the address of the collective_call it stopped at.
inline constexpr unsigned site_slot_bytes = 8;

}  // namespace cohort_loops
