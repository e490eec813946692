#include "uniformity.hpp"

#include <cstdint>
#include <utility>

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "recomputed_values.hpp"
#include "runtime_abi.hpp"

using namespace llvm;

namespace cohort_loops {

namespace {

constexpr unsigned warp_bits = 5;  // a warp of the proof: 32 consecutive ranks
constexpr std::uint64_t warp_width = std::uint64_t{1} << warp_bits;

// What may differ between threads whatever its operands: memory (each thread
// may read another value, or its own frame), calls (but the cluster's and the
// multi-device launch's queries: the block's rank and shape in its cluster,
// its grid's rank), atomics.
bool divergent_source(const Instruction& inst) {
  if (isa<AllocaInst>(inst) || isa<AtomicRMWInst>(inst) || isa<AtomicCmpXchgInst>(inst)) return true;
  if (const auto* load = dyn_cast<LoadInst>(&inst)) return !reads_block_coordinates(*load);
  if (const auto* call = dyn_cast<CallBase>(&inst)) {
    // The address of a thread-local: the block keeps its OS thread.
    if (const auto* intrinsic = dyn_cast<IntrinsicInst>(call))
      return intrinsic->getIntrinsicID() != Intrinsic::threadlocal_address &&
             (!intrinsic->doesNotAccessMemory() || intrinsic->mayHaveSideEffects());
    const Function* callee = call->getCalledFunction();
    return !callee || !is_contained(level_query_symbols, callee->getName());
  }
  return false;
}

// A load of the x field of block coordinate `name` (blockDim, blockIdx): at offset 0.
bool reads_x_of(const LoadInst& load, StringRef name) {
  if (!reads_block_coordinates(load) || !load.getType()->isIntegerTy(32)) return false;
  APInt offset(64, 0);
  const Value* base =
      load.getPointerOperand()->stripAndAccumulateConstantOffsets(load.getModule()->getDataLayout(), offset, true);
  if (const auto* tls = dyn_cast<IntrinsicInst>(base); tls && tls->getIntrinsicID() == Intrinsic::threadlocal_address)
    base = tls->getArgOperand(0)->stripAndAccumulateConstantOffsets(load.getModule()->getDataLayout(), offset, true);
  return offset.isZero() && isa<GlobalVariable>(base) && base->getName() == name;
}

bool reads_x_of(const Value* value, StringRef name) {
  const auto* load = dyn_cast<LoadInst>(value);
  return load && reads_x_of(*load, name);
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
  values_.insert(thread_dependent.begin(), thread_dependent.end());
  propagate(function, nullptr);
}

divergence::divergence(Function& function, const warp_lanes& lanes) {
  values_.insert(lanes.x);
  if (lanes.layout == warp_layout::ranks) values_.insert(lanes.row);
  for (Argument* other : lanes.others)
    if (lanes.layout == warp_layout::ranks || !other->getType()->isIntegerTy()) values_.insert(other);
  propagate(function, &lanes);
}

bool divergence::multiple_of_warp(const Value* value, const warp_lanes& warp) const {
  if (const auto* c = dyn_cast<ConstantInt>(value)) return (c->getZExtValue() & (warp_width - 1)) == 0;
  if (values_.contains(value)) return false;
  if (value == warp.row) return true;  // uniform in a warp only under `rows` (values_ says)
  const auto* inst = dyn_cast<Instruction>(value);
  if (!inst) return false;
  if (warp.layout == warp_layout::whole_rows)
    if (reads_x_of(inst, "blockDim")) return true;
  const auto constant_at_least = [](const Value* v, std::uint64_t least) {
    const auto* c = dyn_cast<ConstantInt>(v);
    return c && c->getZExtValue() >= least;
  };
  switch (inst->getOpcode()) {
    case Instruction::Shl:
      return constant_at_least(inst->getOperand(1), warp_bits);
    case Instruction::Mul:  // (the other factor is the same in a warp: values_ says so of the product)
      return multiple_of_warp(inst->getOperand(0), warp) || multiple_of_warp(inst->getOperand(1), warp);
    case Instruction::Add:
    case Instruction::Sub:
      return multiple_of_warp(inst->getOperand(0), warp) && multiple_of_warp(inst->getOperand(1), warp);
    case Instruction::ZExt:
    case Instruction::SExt:
      return multiple_of_warp(inst->getOperand(0), warp);
    default:
      return false;
  }
}

bool divergence::aligned(const Value* value, const warp_lanes& warp) const {
  if (value == warp.x) return warp.layout != warp_layout::ranks;
  // threadIdx read again on two paths: a phi of one value.
  if (const auto* phi = dyn_cast<PHINode>(value))
    if (const Value* same = phi->hasConstantValue()) return aligned(same, warp);
  const auto* inst = dyn_cast<Instruction>(value);
  if (!inst) return false;
  switch (inst->getOpcode()) {
    case Instruction::Add: {
      const Value* a = inst->getOperand(0);
      const Value* b = inst->getOperand(1);
      if ((a == warp.row && b == warp.x) || (a == warp.x && b == warp.row)) return true;  // the rank
      return (aligned(a, warp) && multiple_of_warp(b, warp)) || (aligned(b, warp) && multiple_of_warp(a, warp));
    }
    case Instruction::Sub:
      return aligned(inst->getOperand(0), warp) && multiple_of_warp(inst->getOperand(1), warp);
    case Instruction::ZExt:
    case Instruction::SExt:
      return aligned(inst->getOperand(0), warp);
    case Instruction::Trunc:  // modulo a power of two of at least 32: blocks of 32 stay blocks
      return inst->getType()->getScalarSizeInBits() >= warp_bits && aligned(inst->getOperand(0), warp);
    default:
      return false;
  }
}

bool divergence::non_negative_index(const Value* value, const warp_lanes& warp) const {
  if (const auto* phi = dyn_cast<PHINode>(value))
    if (const Value* same = phi->hasConstantValue()) return non_negative_index(same, warp);
  if (value == warp.x) return true;  // less than 1024
  const auto* sum = dyn_cast<BinaryOperator>(value);
  if (!sum || sum->getOpcode() != Instruction::Add) return false;
  const Value* a = sum->getOperand(0);
  const Value* b = sum->getOperand(1);
  if (b == warp.x) std::swap(a, b);
  if (a != warp.x) return false;
  if (b == warp.row) return true;  // the rank, less than 1024
  // blockIdx.x * blockDim.x + threadIdx.x: less than 2^31 where the launch has at most 2^31 threads in x.
  const auto* product = dyn_cast<BinaryOperator>(b);
  return warp.layout == warp_layout::whole_rows && product && product->getOpcode() == Instruction::Mul &&
         ((reads_x_of(product->getOperand(0), "blockIdx") && reads_x_of(product->getOperand(1), "blockDim")) ||
          (reads_x_of(product->getOperand(0), "blockDim") && reads_x_of(product->getOperand(1), "blockIdx")));
}

bool divergence::warp_uniform_of_aligned(const Instruction& inst, const warp_lanes& warp) const {
  const auto constant = [](const Value* v) { return dyn_cast<ConstantInt>(v); };
  const auto at_boundary = [](std::uint64_t c) { return (c & (warp_width - 1)) == 0; };
  switch (inst.getOpcode()) {
    case Instruction::LShr:
    case Instruction::AShr:  // rank / 2^k, k >= 5
      if (const ConstantInt* k = constant(inst.getOperand(1)))
        return k->getZExtValue() >= warp_bits && aligned(inst.getOperand(0), warp);
      return false;
    case Instruction::UDiv:
      if (const ConstantInt* c = constant(inst.getOperand(1)))
        return !c->isZero() && at_boundary(c->getZExtValue()) && aligned(inst.getOperand(0), warp);
      return false;
    case Instruction::SDiv:  // rounds toward 0: uniform in a warp of indices that are not negative
      if (const ConstantInt* c = constant(inst.getOperand(1)))
        return c->getValue().isStrictlyPositive() && at_boundary(c->getZExtValue()) &&
               aligned(inst.getOperand(0), warp) && non_negative_index(inst.getOperand(0), warp);
      return false;
    case Instruction::And:  // rank & ~31, and the like
      for (unsigned i = 0; i < 2; ++i)
        if (const ConstantInt* m = constant(inst.getOperand(1 - i)); m && at_boundary(m->getZExtValue()))
          if (aligned(inst.getOperand(i), warp)) return true;
      return false;
    case Instruction::ICmp: {
      const auto& compare = cast<ICmpInst>(inst);
      CmpInst::Predicate predicate = compare.getPredicate();
      const Value* index = compare.getOperand(0);
      const Value* bound = compare.getOperand(1);
      if (!aligned(index, warp)) std::swap(index, bound), predicate = CmpInst::getSwappedPredicate(predicate);
      if (!aligned(index, warp)) return false;
      switch (predicate) {
        case CmpInst::ICMP_ULT:
        case CmpInst::ICMP_UGE:
        case CmpInst::ICMP_SLT:
        case CmpInst::ICMP_SGE:  // true below a multiple of 32 (an aligned value's blocks of 32 never straddle 2^31)
          return multiple_of_warp(bound, warp);
        case CmpInst::ICMP_ULE:
        case CmpInst::ICMP_UGT:
        case CmpInst::ICMP_SLE:
        case CmpInst::ICMP_SGT:  // as < c + 1
          if (const ConstantInt* c = constant(bound)) return at_boundary(c->getZExtValue() + 1);
          return false;
        default:
          return false;
      }
    }
    default:
      return false;
  }
}

void divergence::propagate(Function& function, const warp_lanes* warp) {
  PostDominatorTree post_dominators(function);
  // A branch whose other ways all end the launch leaves every thread that
  // goes on on the same path: it does not diverge.
  const DenseSet<const BasicBlock*> doomed = doomed_blocks(function);
  const auto ways_on = [&](const BasicBlock& block) {
    return count_if(successors(&block), [&](const BasicBlock* to) { return !doomed.contains(to); });
  };
  DenseSet<const Instruction*> branches;  // divergent branches whose blocks are marked
  // Values make branches divergent, branches make blocks divergently executed,
  // which make their values and the phis they reach divergent: to a fixpoint.
  for (bool changed = true; changed;) {
    changed = false;
    for (Instruction& inst : instructions(function)) {
      if (values_.contains(&inst)) continue;
      const bool source = divergent_source(inst) || blocks_.contains(inst.getParent());
      bool differs = source;
      for (const Use& operand : inst.operands()) differs = differs || values_.contains(operand.get());
      // Within a warp, rank / 32 is the same although the rank differs.
      if (differs && !source && warp && warp_uniform_of_aligned(inst, *warp)) differs = false;
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
