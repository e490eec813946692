// A thread loop around a loop whose trip count depends on the thread (a
// grid-stride loop: `for (i = rank; i < n; i += stride)`) runs its threads one
// after another, each through its whole loop: at a stride of thousands of
// elements, every load of a thread's loop is in another page. Run in rounds
// instead (round_iterations iterations of every thread of the row, then the
// next as many: near the order a GPU runs them in, for which such loops are
// written), the row reads a few sequential streams. Legal in a region of the
// block function (between two barriers, or the kernel's entry and exit):
// CUDA orders no thread's accesses against another's there but through
// synchronization, and each thread's own accesses keep their order. So
// nothing in the thread loop may synchronize or communicate (atomics, fences,
// volatile accesses, calls). Each thread's loop-carried values and the values
// it computed before the loop live in per-thread arrays between rounds; a
// thread runs the code after its loop in the round its loop ends. Rows longer
// than those arrays run the thread loop as it was.
#pragma once

namespace llvm {
class Function;
}  // namespace llvm

namespace cohort_loops {

// Marks the counter of a thread loop whose body may run in rounds (the block
// function's loops over threadIdx.x, where no code reads the thread's position
// from memory: it is stored once per thread, not per iteration).
constexpr const char* thread_counter_metadata = "cohort.thread_counter";

// The most threads of a row whose loop runs in rounds: CUDA's most threads of a block.
constexpr unsigned round_threads = 1024;

// Iterations a thread runs in a round before the next thread's: its state goes
// to and from the arrays once a round, not once an iteration, while a round's
// loads stay within round_iterations strides of each thread's start.
constexpr unsigned round_iterations = 8;

// Rewrites every such thread loop of the block function; returns how many.
unsigned run_thread_loops_in_rounds(llvm::Function& block);

}  // namespace cohort_loops
