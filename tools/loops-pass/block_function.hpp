// The block function: the kernel's signature, run once per block, looping
// over the block's threads between barriers. Three shapes:
//
// Without barriers, one nest, threadIdx.x innermost, the step's x, y, z the
// loops' counters (the thread position stored only where code the step's
// parameters do not reach may read it):
//
//   for z: for y: for x: step(args..., 0, frames, x, y, z, row)
//
// (each row of x in two versions, row_versions.hpp). With barriers all in
// block-uniform control flow (step_function.hpp), one resume point per block:
//
//   resume = 0
//   while resume != exited:                         // a nest per resume point k
//     next = step(args..., k, frame(0), 0, 0, 0, 0, kept, keep)   // thread 0
//     for every other thread: step(args..., k, frame(rank), x, y, z, row, kept, ignored)
//     kept = keep; resume = next
//
// where a region that starts after a warp or tile collective first completes
// it for every group of the block (cohort_loops_exchange: each thread's
// collective_call is in its frame, its value and argument in its slot).
//
// With collectives in warp-uniform control flow (step.per_warp), the uniform
// shape per warp between block barriers: each warp in turn runs region after
// region over its 32 lanes, its collectives completed for its ranks alone
// (cohort_loops_lane_exchange_warp), until it stops at a block barrier or exits.
//
// With a barrier in thread-dependent control flow, regions until no thread waits at one:
//
//   ctx = cohort_loops_begin_block(frame_bytes)     // positions, frames, resume points
//   do {                                            // one region: up to the next barrier
//     first = none
//     for rank, (x, y, z) in the block:             // threadIdx.x innermost
//       if resume[rank] == exited: continue         // CUDA: exited threads no longer count
//       resume[rank] = step(args..., resume[rank], frame(rank), x, y, z, row)
//       if it stopped at a barrier: the same call site as `first`'s, else the launch fails
//   } while some thread stopped at a barrier
//
// The step function is inlined into the thread loops, and the block function
// tidied for the vectorizer (SROA, LICM, unswitching; block_function.cpp).
#pragma once

#include "llvm/IR/PassManager.h"

namespace cohort_loops {

struct step_function;

// `in_rounds`: how many of its thread loops run a per-thread loop in rounds (thread_rounds.hpp).
llvm::Function* build_block_function(llvm::Function& kernel, const step_function& step,
                                     llvm::FunctionAnalysisManager& functions, unsigned& in_rounds);

}  // namespace cohort_loops
