#include "liveness.hpp"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace cohort_loops {

namespace {

using value_set = DenseSet<Instruction*>;

struct block_facts {
  value_set used_before_defined;  // used here (non-phi), defined in another block
  value_set defined;
  value_set live_in;
};

}  // namespace

SetVector<Instruction*> values_live_into(Function& function, ArrayRef<BasicBlock*> blocks) {
  DenseMap<BasicBlock*, block_facts> facts;
  for (BasicBlock& block : function) {
    block_facts& f = facts[&block];
    for (Instruction& inst : block) {
      f.defined.insert(&inst);
      if (isa<PHINode>(inst)) continue;
      for (Value* operand : inst.operands())
        if (auto* def = dyn_cast<Instruction>(operand); def && def->getParent() != &block)
          f.used_before_defined.insert(def);
    }
  }
  // live_out(B) = U over successors S: (live_in(S) - phis of S) + values S's phis take from B
  // live_in(B) = used_before_defined(B) + (live_out(B) - defined(B))
  for (bool changed = true; changed;) {
    changed = false;
    for (BasicBlock& each : reverse(function)) {
      BasicBlock* block = &each;
      block_facts& f = facts[block];
      value_set live = f.used_before_defined;
      for (BasicBlock* succ : successors(block)) {
        for (Instruction* v : facts[succ].live_in)
          if (!(isa<PHINode>(v) && v->getParent() == succ)) live.insert(v);
        for (PHINode& phi : succ->phis())
          if (auto* def = dyn_cast<Instruction>(phi.getIncomingValueForBlock(block))) live.insert(def);
      }
      for (Instruction* v : live) {
        if (f.defined.contains(v) && v->getParent() == block) continue;
        if (f.live_in.insert(v).second) changed = true;
      }
    }
  }
  value_set live;
  for (BasicBlock* block : blocks) live.insert(facts[block].live_in.begin(), facts[block].live_in.end());
  // In program order, so that a kernel's frame layout is the same on every compilation.
  SetVector<Instruction*> result;
  for (Instruction& inst : instructions(function))
    if (live.contains(&inst)) result.insert(&inst);
  return result;
}

}  // namespace cohort_loops
