// Whether a kernel can become a block function, decided at compile time.
// Never silently wrong: anything the thread loops cannot run as the fibers
// would (a barrier the pass cannot see, a wait on another thread without a
// barrier, a collective that is not lowered yet) keeps the kernel on fibers,
// with the reason and the instruction that caused it.
#pragma once

#include <optional>
#include <string>

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class CallInst;
class Function;
class Instruction;
}  // namespace llvm

namespace cohort_loops {

struct refusal {
  std::string reason;
  const llvm::Instruction* where = nullptr;  // null: the kernel as a whole
};

// The kernel's block barriers (calls of block_sync in the kernel's own body)
// and its warp and tile collectives (calls of rendezvous there), its split
// block barriers and memcpy_async's checking calls, or why the
// kernel stays on fibers.
// A split block barrier: barrier_arrive, and the barrier_wait on its token, with
// no other synchronization between them on any path and no exit (the wait is a
// block barrier at the arrive's call site; the arrive, nothing).
struct split_barrier {
  llvm::CallInst* arrive;
  llvm::CallInst* wait;
};

struct eligibility {
  llvm::SmallVector<llvm::CallInst*, 8> barriers;
  llvm::SmallVector<split_barrier, 4> split_barriers;
  // memcpy_async's checking calls (runtime_abi.hpp's copy_check_prefixes), in the kernel's own body.
  llvm::SmallVector<llvm::CallInst*, 4> copy_checks;
  llvm::SmallVector<llvm::CallInst*, 8> collectives;
  llvm::SmallVector<llvm::CallInst*, 4> level_barriers;  // calls of grid_sync or cluster_sync there (grid_resume.hpp)
  std::optional<refusal> refused;
};

eligibility check_eligibility(llvm::Function& kernel, llvm::FunctionAnalysisManager& functions);

// Inlines into the kernel every call of a function defined in the module that
// reaches a warp or tile collective, a split block barrier or a memcpy_async checking call (cohort's intrinsics are
// templates the inliner may leave out of line), so that the collective is in the kernel's own body, where the step
// function can split at it. Returns whether any was.
bool inline_collective_helpers(llvm::Function& kernel);

// Whether `call` is one of memcpy_async's checking calls.
bool is_copy_check(const llvm::CallInst& call);

// "file:line" of the instruction, or "" without debug locations.
std::string source_line(const llvm::Instruction* where);

}  // namespace cohort_loops
