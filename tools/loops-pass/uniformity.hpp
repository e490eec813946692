// Which values and blocks of a step function are the same for every thread of
// the block (uniform) and which may differ (divergent): a divergence analysis
// seeded with the thread position. Conservative: memory may differ between
// threads, so every load is divergent except of the block's coordinates.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

namespace llvm {
class Argument;
class BasicBlock;
class Function;
class Value;
}  // namespace llvm

namespace cohort_loops {

class divergence {
 public:
  // `thread_dependent`: the function's arguments that differ per thread (x, y, z, row, the frame).
  divergence(llvm::Function& function, llvm::ArrayRef<llvm::Argument*> thread_dependent);

  bool divergent(const llvm::Value* value) const { return values_.contains(value); }
  // Executed by some threads of the block and not others: a block control
  // dependent (transitively) on a divergent branch, up to that branch's
  // immediate post-dominator.
  bool divergently_executed(const llvm::BasicBlock* block) const { return blocks_.contains(block); }

 private:
  llvm::DenseSet<const llvm::Value*> values_;
  llvm::DenseSet<const llvm::BasicBlock*> blocks_;
};

}  // namespace cohort_loops
