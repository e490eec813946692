// The step function: one thread's run of a kernel from a resume point to its
// next barrier or its exit, as a resumable clone of the kernel.
//
//   uint32_t K.cohort.step(<K's parameters>, uint32_t resume, ptr frame,
//                          uint32_t x, uint32_t y, uint32_t z, uint32_t row,
//                          ptr kept, ptr keep, ptr lane_in, ptr lane_arg, ptr lane_out)
//
// returns the barrier it stopped at (1..n, after storing the barrier's
// source_location in the frame's first slot) or `exited`. Everything of the
// thread's that lives across a barrier is in its frame: the kernel's locals
// (allocas) and the SSA values live after a barrier (demoted to frame slots),
// so a thread resumed after barrier i continues exactly where it stopped.
// Values every call can recompute alike (from the parameters, constants, the
// block's coordinates and thread-local addresses) are recomputed in the entry
// instead: they need no slot. A kernel without barriers keeps its locals on
// the stack and ignores the frame.
//
// The kernel's reads of threadIdx (and of the row behind thread_rank()) in
// its own body read x, y, z and row instead, so that in the thread loop they
// are the loop's counters; what else may read them (a function not inlined)
// still finds them in the runtime's thread position, which the block function
// then writes per thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "eligibility.hpp"
#include "lane_exchange.hpp"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "runtime_abi.hpp"
#include "uniformity.hpp"

namespace llvm {
class CallInst;
class Constant;
class Function;
class GlobalVariable;
class Instruction;
}  // namespace llvm

namespace cohort_loops {

struct step_function {
  llvm::Function* function;
  std::uint64_t frame_bytes;  // each thread's frame; 0 without barriers
  unsigned frame_values;      // SSA values demoted into the frame
  bool position_read;         // code the parameters do not reach may read the thread position
  unsigned recomputed = 0;    // instructions moved to the entry, recomputed at each resume
  unsigned barriers = 0;      // synchronization points: block barriers and collectives, numbered 1..barriers
  // Every barrier in control flow the same for every thread of the block
  // (uniformity.hpp): all live threads stop at the same barrier, or all exit;
  // barriers then record no call site, and the frame has no slot for one.
  bool uniform = false;
  unsigned block_values = 0;        // uniform values kept across barriers, once per block
  std::uint64_t uniform_bytes = 0;  // their slots (kept, keep: step_function.cpp)
  // Collectives in warp-uniform control flow, not reached by every warp
  // (uniformity.hpp): the block's regions run per warp, each completing its
  // own collectives; the layout says what the proof assumed of the block's shape.
  std::optional<warp_layout> per_warp = std::nullopt;
  // Which points are warp or tile collectives (by point - 1): the block
  // function completes each group's collective before the region after it.
  llvm::SmallVector<bool, 8> collective = {};
  // Which points are shuffles lowered to the lane arrays (lane_exchange.hpp):
  // the block function exchanges the lanes' values before the region after.
  llvm::SmallVector<std::optional<lane_point>, 8> lane_points = {};
  unsigned collectives = 0;
  // Grid and cluster barriers (grid_resume.hpp): each one's call site and
  // level by point - 1, null and none where the point is not one; the
  // block's static shared memory, kept with its uniform values while it waits.
  llvm::SmallVector<llvm::Constant*, 8> level_sites = {};
  llvm::SmallVector<std::optional<resume_level>, 8> levels = {};
  unsigned level_barriers = 0;
  llvm::SmallVector<llvm::GlobalVariable*, 4> block_shared = {};
};

// Why a kernel the eligibility admitted still stays on fibers: a collective
// where the threads of a block do not all go alike.
struct step_refusal {
  std::string reason;
  const llvm::Instruction* where;
};

// Block barriers and warp or tile collectives (calls of rendezvous) split the
// kernel alike; collectives only where every thread of the block reaches
// them (block-uniform control flow): a collective completes between two
// regions, for every group of the block at once. Otherwise `refused` says why
// (and no step function is left in the module).
struct step_or_refusal {
  step_function step;
  std::optional<step_refusal> refused;
};

// Grid and cluster barriers split it too, where every thread of the block
// reaches them with one call site, in a kernel whose barriers are all so reached.
// A split block barrier is a block barrier at its wait; memcpy_async's checking
// calls fail the launch (the runtime never runs them on loops).
step_or_refusal build_step_function(llvm::Function& kernel, llvm::ArrayRef<llvm::CallInst*> barriers,
                                    llvm::ArrayRef<llvm::CallInst*> collectives,
                                    llvm::ArrayRef<llvm::CallInst*> level_barriers = {},
                                    llvm::ArrayRef<split_barrier> split_barriers = {},
                                    llvm::ArrayRef<llvm::CallInst*> copy_checks = {});

}  // namespace cohort_loops
