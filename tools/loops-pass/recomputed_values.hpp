// Values the step function recomputes at each resume instead of keeping them
// in the thread's frame.
#pragma once

namespace llvm {
class BasicBlock;
class Function;
class LoadInst;
}  // namespace llvm

namespace cohort_loops {

// A load of the block's coordinates (blockIdx, blockDim, gridDim, warpSize):
// thread-locals that the runtime sets once per block and kernel code never writes.
bool reads_block_coordinates(const llvm::LoadInst& load);
// A load of threadIdx: the running thread's own index, which no other thread changes.
bool reads_thread_index(const llvm::LoadInst& load);

// Moves into `entry` every instruction that computes the same value wherever
// and whenever the step runs for the thread: from the step's parameters (the
// kernel's `kernel_params`, and the thread's x, y, z, row), constants,
// thread-local addresses (a block keeps its OS thread) and the block's
// coordinates, without side effects or traps. Those without x, y, z or row in
// them get the uniform_metadata mark (runtime_abi.hpp): the block function
// computes them once per block. Returns how many moved.
unsigned hoist_recomputable(llvm::Function& step, llvm::BasicBlock& entry, unsigned kernel_params);

}  // namespace cohort_loops
