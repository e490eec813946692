// The SSA values live on entry to given blocks: the values a thread must keep
// in its frame across a barrier (the blocks being the code after each barrier).
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SetVector.h"

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
}  // namespace llvm

namespace cohort_loops {

// Backward dataflow over the CFG; a phi's operand counts as used at the end
// of the block it comes from. Arguments are left out: every resumed call of
// the step function receives them again.
llvm::SetVector<llvm::Instruction*> values_live_into(llvm::Function& function,
                                                     llvm::ArrayRef<llvm::BasicBlock*> blocks);

}  // namespace cohort_loops
