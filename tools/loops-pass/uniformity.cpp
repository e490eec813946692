#include "uniformity.hpp"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "recomputed_values.hpp"
#include "runtime_abi.hpp"

using namespace llvm;

namespace cohort_loops {

namespace {

// What may differ between threads whatever its operands: memory (each thread
// may read another value, or its own frame), calls (but the cluster's
// queries: the block's rank and shape in its cluster), atomics.
bool divergent_source(const Instruction& inst) {
  if (isa<AllocaInst>(inst) || isa<AtomicRMWInst>(inst) || isa<AtomicCmpXchgInst>(inst)) return true;
  if (const auto* load = dyn_cast<LoadInst>(&inst)) return !reads_block_coordinates(*load);
  if (const auto* call = dyn_cast<CallBase>(&inst)) {
    // The address of a thread-local: the block keeps its OS thread.
    if (const auto* intrinsic = dyn_cast<IntrinsicInst>(call))
      return intrinsic->getIntrinsicID() != Intrinsic::threadlocal_address &&
             (!intrinsic->doesNotAccessMemory() || intrinsic->mayHaveSideEffects());
    const Function* callee = call->getCalledFunction();
    return !callee || !is_contained(cluster_query_symbols, callee->getName());
  }
  return false;
}

// The blocks from which no path returns: each ends in a call that fails the
// launch (a collective's check of its mask, an atomic's of its address).
DenseSet<const BasicBlock*> doomed_blocks(Function& function) {
  SmallVector<const BasicBlock*, 16> work;
  DenseSet<const BasicBlock*> returning;
  for (BasicBlock& block : function)
    if (isa<ReturnInst>(block.getTerminator())) work.push_back(&block), returning.insert(&block);
  while (!work.empty())
    for (const BasicBlock* from : predecessors(work.pop_back_val()))
      if (returning.insert(from).second) work.push_back(from);
  DenseSet<const BasicBlock*> doomed;
  for (BasicBlock& block : function)
    if (!returning.contains(&block)) doomed.insert(&block);
  return doomed;
}

}  // namespace

divergence::divergence(Function& function, ArrayRef<Argument*> thread_dependent) {
  PostDominatorTree post_dominators(function);
  // A branch whose other ways all end the launch leaves every thread that
  // goes on on the same path: it does not diverge.
  const DenseSet<const BasicBlock*> doomed = doomed_blocks(function);
  const auto ways_on = [&](const BasicBlock& block) {
    return count_if(successors(&block), [&](const BasicBlock* to) { return !doomed.contains(to); });
  };
  values_.insert(thread_dependent.begin(), thread_dependent.end());
  DenseSet<const Instruction*> branches;  // divergent branches whose blocks are marked
  // Values make branches divergent, branches make blocks divergently executed,
  // which make their values and the phis they reach divergent: to a fixpoint.
  for (bool changed = true; changed;) {
    changed = false;
    for (Instruction& inst : instructions(function)) {
      if (values_.contains(&inst)) continue;
      bool differs = divergent_source(inst) || blocks_.contains(inst.getParent());
      for (const Use& operand : inst.operands()) differs = differs || values_.contains(operand.get());
      // A phi joins paths: where some thread may come along another path than others.
      if (const auto* phi = dyn_cast<PHINode>(&inst))
        for (const BasicBlock* from : phi->blocks())
          differs = differs || blocks_.contains(from) || branches.contains(from->getTerminator());
      if (differs) values_.insert(&inst), changed = true;
    }
    for (BasicBlock& block : function) {
      Instruction* branch = block.getTerminator();
      if (branch->getNumSuccessors() < 2 || branches.contains(branch) || ways_on(block) < 2) continue;
      const Value* condition = nullptr;
      if (const auto* br = dyn_cast<BranchInst>(branch))
        condition = br->getCondition();
      else if (const auto* sw = dyn_cast<SwitchInst>(branch))
        condition = sw->getCondition();
      if (condition && !values_.contains(condition) && !blocks_.contains(&block)) continue;
      // Every block between the branch and where its paths meet again; all
      // reachable ones where they never meet (the virtual exit).
      branches.insert(branch);
      changed = true;
      const DomTreeNode* node = post_dominators.getNode(&block);
      const BasicBlock* join = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
      SmallVector<const BasicBlock*, 16> work(succ_begin(&block), succ_end(&block));
      while (!work.empty()) {
        const BasicBlock* next = work.pop_back_val();
        if (next == join || !blocks_.insert(next).second) continue;
        work.append(succ_begin(next), succ_end(next));
      }
    }
  }
}

}  // namespace cohort_loops
