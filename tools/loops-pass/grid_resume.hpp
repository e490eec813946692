// Grid, cluster and multi-grid barriers as points where the block function
// returns to the scheduler (docs/loops-engine.md, "Grid barriers", "Cluster
// barriers", "Multi-grid barriers"). A
// kernel whose barriers are all in block-uniform control flow
// (step_function.hpp) has one resume point per block: at a grid or cluster
// barrier (a call of grid_sync, cluster_sync or multi_grid_sync) every live thread of the block
// stops there, or all have exited. The block function then
//
//   keeps its uniform values and its static shared memory in the block's
//   kept store, tells the runtime that the block arrived at the barrier
//   (cohort_loops_level_arrive), and returns;
//
// the runtime runs the grid's blocks, or each cluster's, in phases
// (src/host_runtime/launch/loops_grid.cpp): every block to its next such
// barrier or its exit, then, once all have arrived, each again from where it
// stopped. Where the block function starts
// it takes its resume point, frames and kept store from the runtime
// (cohort_loops_begin_grid_block: the block's own, not the worker's), restores
// its uniform values and shared memory, and goes on at the resume point;
// only arriving there from a region, not from the start, returns again. The
// threads' frames stay where they are, in the block's memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "runtime_abi.hpp"

namespace cohort_loops {

class divergence;
struct step_function;
struct step_refusal;

// Whether `callee` is grid_sync, cluster_sync or multi_grid_sync; the level
// such a call synchronizes, and its words in remarks ("a grid barrier") and
// its call in code ("grid.sync()").
bool is_level_barrier(llvm::StringRef callee);
resume_level level_of(llvm::StringRef callee);
resume_level level_of(const llvm::CallInst& barrier);
std::string barrier_words(resume_level level);

// Why grid or cluster barriers (`calls`, in the step; `originals`, in the
// kernel, for the remark's line) keep the kernel on fibers, if they do: one in
// thread-dependent control flow, in a kernel with a barrier in
// thread-dependent control flow, or whose call site differs between calls
// (two calls merged into one).
std::optional<step_refusal> refuse_level_barriers(llvm::ArrayRef<llvm::CallInst*> calls,
                                                  llvm::ArrayRef<llvm::CallInst*> originals,
                                                  const divergence& divergent, bool uniform);

// A block resumes on whichever worker takes it: a thread-local address (its
// shared memory's, blockIdx's) is the OS thread's, and must not be kept across
// a grid barrier. Clang computes one per path and joins them (a phi of the
// same address); here each thread-local's address is computed once, in the
// entry, where the step recomputes it at every resume, and such joins fold.
void compute_thread_local_addresses_once(llvm::Function& step);

// Whether a value kept across barriers (per thread or per block), or one the
// step stores in memory, is still a thread-local address.
bool keeps_thread_local_address(const llvm::Function& step, llvm::ArrayRef<llvm::Instruction*> per_thread,
                                llvm::ArrayRef<llvm::Instruction*> per_block);

// The static shared memory (`__shared__`, a function-local `static thread_local`)
// of the kernel and the functions it calls: the block's, which a worker's OS
// thread holds only while it runs the block.
llvm::SmallVector<llvm::GlobalVariable*, 4> block_shared_memory(llvm::Function& kernel);

// The bytes of the block's kept store: its uniform values, then its shared memory.
std::uint64_t kept_store_bytes(const llvm::Module& module, const step_function& step);

// In the block function's entry, after cohort_loops_begin_grid_block: the
// uniform values and shared memory restored from the kept store (as the block
// left them, or zeros at its start). The values go into `kept` and into
// `keep` both: a region writes a value to `keep` only where it defines it, and
// the block function copies all of `keep` over `kept` after every region, so
// `keep` must hold the block's values from the start of the call on, as it
// does when regions follow each other in one call. Returns the resume point.
llvm::Value* restore_block(llvm::IRBuilder<>& b, const step_function& step, llvm::Value* ctx, llvm::Value* kept,
                           llvm::Value* keep);

// At grid or cluster barrier `point` (1-based): the block kept and arrived;
// the block function returns, or, where the runtime says the level's barrier
// is complete already (a cluster of one block), goes on to `region`.
void suspend_block(llvm::IRBuilder<>& b, const step_function& step, llvm::Value* ctx, llvm::Value* kept, unsigned point,
                   llvm::BasicBlock* region);

}  // namespace cohort_loops
