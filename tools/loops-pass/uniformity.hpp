// Which values and blocks of a step function are the same for every thread of
// the block (uniform) and which may differ (divergent): a divergence analysis
// seeded with the thread position. Conservative: memory may differ between
// threads, so every load is divergent except of the block's coordinates.
//
// The same analysis at warp level (docs/loops-engine.md, "Collectives in
// warp-uniform control flow"): a value the same for the 32 consecutive ranks
// of each warp, because it depends on the thread only through rank / 32.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

namespace llvm {
class Argument;
class BasicBlock;
class Function;
class Instruction;
class Value;
}  // namespace llvm

namespace cohort_loops {

// What a proof of warp-uniformity may assume of the block's shape.
enum class warp_layout {
  ranks,       // nothing: a warp is 32 consecutive ranks (row + x)
  rows,        // every warp lies in one row of threadIdx.x (blockDim.x a multiple of 32, or one row):
               // threadIdx.y, threadIdx.z and the row are the same in a warp, threadIdx.x's aligned blocks are warps
  whole_rows,  // blockDim.x a multiple of 32: `rows`, and every multiple of blockDim.x a multiple of 32
               // (blockIdx.x * blockDim.x + threadIdx.x, the launch's thread index, is aligned), and
               // gridDim.x * blockDim.x at most 2^31 (that index is not negative as an int)
};

// The step's thread position, at warp level.
struct warp_lanes {
  llvm::Argument* x;
  llvm::Argument* row;
  llvm::ArrayRef<llvm::Argument*> others;  // y, z and the frame: divergent, or under `rows` uniform (not the frame)
  warp_layout layout;
};

class divergence {
 public:
  // `thread_dependent`: the function's arguments that differ per thread (x, y, z, row, the frame).
  divergence(llvm::Function& function, llvm::ArrayRef<llvm::Argument*> thread_dependent);
  // Within each warp: what differs between the lanes of one warp.
  divergence(llvm::Function& function, const warp_lanes& lanes);

  bool divergent(const llvm::Value* value) const { return values_.contains(value); }
  // Executed by some threads of the block (of the warp) and not others: a block control
  // dependent (transitively) on a divergent branch, up to that branch's
  // immediate post-dominator.
  bool divergently_executed(const llvm::BasicBlock* block) const { return blocks_.contains(block); }

 private:
  // Seeds `values_`, then propagates to a fixpoint; `warp`, at warp level.
  void propagate(llvm::Function& function, const warp_lanes* warp);
  // At warp level: the same in a warp although an operand differs (rank / 32, rank < 32, ...).
  bool warp_uniform_of_aligned(const llvm::Instruction& inst, const warp_lanes& warp) const;
  // rank + a multiple of 32 (or, under `rows`, threadIdx.x + one): its blocks of 32 are warps.
  bool aligned(const llvm::Value* value, const warp_lanes& warp) const;
  // A thread index that is not negative as a signed value (the rank; the launch's x index, under
  // `whole_rows`, whose launch has at most 2^31 threads in x).
  bool non_negative_index(const llvm::Value* value, const warp_lanes& warp) const;
  // A multiple of 32, the same in a warp.
  bool multiple_of_warp(const llvm::Value* value, const warp_lanes& warp) const;

  llvm::DenseSet<const llvm::Value*> values_;
  llvm::DenseSet<const llvm::BasicBlock*> blocks_;
};

}  // namespace cohort_loops
