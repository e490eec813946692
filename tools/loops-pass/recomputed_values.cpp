#include "recomputed_values.hpp"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "runtime_abi.hpp"

using namespace llvm;

namespace cohort_loops {

namespace {
// The global a plain load reads, where it reads one (a thread-local too), or null.
const GlobalVariable* global_read(const LoadInst& load) {
  if (load.isVolatile() || load.isAtomic()) return nullptr;
  // getUnderlyingObject may or may not look through llvm.threadlocal.address.
  const Value* v = getUnderlyingObject(load.getPointerOperand());
  if (const auto* tls = dyn_cast<IntrinsicInst>(v); tls && tls->getIntrinsicID() == Intrinsic::threadlocal_address)
    v = tls->getArgOperand(0);
  return dyn_cast<GlobalVariable>(v);
}
}  // namespace

bool reads_block_coordinates(const LoadInst& load) {
  const GlobalVariable* global = global_read(load);
  return global && is_contained(block_coordinate_symbols, global->getName());
}

bool reads_thread_index(const LoadInst& load) {
  const GlobalVariable* global = global_read(load);
  return global && global->getName() == thread_index_symbol;
}

unsigned hoist_recomputable(Function& step, BasicBlock& entry, unsigned kernel_params) {
  SmallPtrSet<const Instruction*, 32> moved, uniform;
  // Uniform: the same for every thread of the block (no x, y, z or row in it).
  auto is_uniform = [&](const Value* v) {
    if (const auto* arg = dyn_cast<Argument>(v)) return arg->getArgNo() < kernel_params;
    const auto* inst = dyn_cast<Instruction>(v);
    return !inst || uniform.contains(inst);
  };
  auto invariant = [&](const Value* v) {
    if (isa<Constant>(v) || isa<Argument>(v)) return true;
    const auto* inst = dyn_cast<Instruction>(v);
    return inst && moved.contains(inst);
  };
  SmallVector<Instruction*, 32> order;
  ReversePostOrderTraversal<Function*> blocks(&step);  // definitions before uses
  for (BasicBlock* block : blocks) {
    if (block == &entry) continue;
    for (Instruction& inst : *block) {
      if (isa<PHINode>(inst) || isa<AllocaInst>(inst) || inst.isTerminator() || inst.mayHaveSideEffects()) continue;
      if (!all_of(inst.operands(), invariant)) continue;
      const auto* load = dyn_cast<LoadInst>(&inst);
      if (load ? !reads_block_coordinates(*load) : !isSafeToSpeculativelyExecute(&inst)) continue;
      moved.insert(&inst);
      order.push_back(&inst);
      if (all_of(inst.operands(), is_uniform)) {
        uniform.insert(&inst);
        inst.setMetadata(uniform_metadata, MDNode::get(step.getContext(), {}));
      }
    }
  }
  for (Instruction* inst : order) {
    inst->moveBefore(entry.getTerminator());
    inst->dropPoisonGeneratingAnnotations();  // it now runs on paths that did not compute it
  }
  return order.size();
}

}  // namespace cohort_loops
