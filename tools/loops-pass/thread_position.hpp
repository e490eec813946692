// threadIdx in the step function's own body: the loads of threadIdx.x/y/z and
// of the row (thread_rank()) through the thread-local current_position become
// the step's x, y, z and row parameters, the thread loops' counters.
#pragma once

namespace llvm {
class Argument;
class Function;
}  // namespace llvm

namespace cohort_loops {

// Returns whether anything else may still read the thread position: another
// use of the pointer, or a call of a function defined in the module (it may
// read threadIdx); the block function then stores the position per thread.
bool forward_thread_position(llvm::Function& step, llvm::Argument* const (&position)[4]);

}  // namespace cohort_loops
