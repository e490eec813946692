// The block function: the kernel's signature, run once per block, looping
// over the block's threads between barriers. Two shapes:
//
// Without barriers, one nest, threadIdx.x innermost, the step's x, y, z the
// loops' counters (the thread position stored only where code the step's
// parameters do not reach may read it):
//
//   for z: for y: for x: step(args..., 0, frames, x, y, z, row)
//
// With barriers, regions until no thread waits at one:
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
// The step function is inlined into the thread loop.
#pragma once

#include "llvm/IR/PassManager.h"

namespace cohort_loops {

struct step_function;

llvm::Function* build_block_function(llvm::Function& kernel, const step_function& step,
                                     llvm::FunctionAnalysisManager& functions);

}  // namespace cohort_loops
