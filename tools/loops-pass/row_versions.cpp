#include "row_versions.hpp"

#include "loop_analyses.hpp"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace cohort_loops {

namespace {

// A 32-bit value that grows by a positive constant per thread of the row: {start, +, step}.
const SCEVAddRecExpr* row_index(ScalarEvolution& scev, Value* v, const Loop& loop) {
  if (!v->getType()->isIntegerTy(32)) return nullptr;
  const auto* index = dyn_cast<SCEVAddRecExpr>(scev.getSCEV(v));
  if (!index || index->getLoop() != &loop || !index->isAffine()) return nullptr;
  const auto* step = dyn_cast<SCEVConstant>(index->getStepRecurrence(scev));
  if (!step || !step->getAPInt().isStrictlyPositive() || step->getAPInt().getZExtValue() > 1024) return nullptr;
  if (!scev.isLoopInvariant(index->getStart(), &loop)) return nullptr;
  return index;
}

struct comparison {
  ICmpInst* inst;
  unsigned index_operand;  // 0 or 1: the row index; the other is the same for the whole row
};

}  // namespace

bool version_rows(Function& block, BasicBlock* header, Value* dim_x) {
  loop_analyses analyses(block);
  DominatorTree& dominators = analyses.dominators;
  LoopInfo& loops = analyses.loops;
  ScalarEvolution& scev = analyses.scev;
  Loop* loop = loops.getLoopFor(header);
  if (!loop || loop->getHeader() != header || !loop->isInnermost() || !loop->getLoopPreheader() ||
      !loop->getExitBlock())
    return false;

  Value* counter = &*header->phis().begin();  // x: 0, 1, ... dim_x - 1
  const auto* x = dyn_cast<SCEVAddRecExpr>(scev.getSCEV(counter));
  if (!x || x->getLoop() != loop || !x->getStart()->isZero() || !x->getStepRecurrence(scev)->isOne()) return false;

  // What the fast version assumes: comparisons true, indices widened without wrap.
  SmallVector<comparison, 4> comparisons;
  SmallVector<ZExtInst*, 4> widened;
  MapVector<const SCEVAddRecExpr*, std::pair<bool, bool>> indices;  // must not wrap: unsigned, signed
  for (BasicBlock* b : loop->blocks()) {
    for (Instruction& inst : *b) {
      auto* compare = dyn_cast<ICmpInst>(&inst);
      // (Not the loop's own end: it holds at the first thread of a row, not at the last.)
      if (compare && compare->isRelational() && !loop->isLoopExiting(b)) {
        for (unsigned side = 0; side < 2; ++side) {
          const SCEVAddRecExpr* index = row_index(scev, compare->getOperand(side), *loop);
          if (!index || !loop->isLoopInvariant(compare->getOperand(1 - side))) continue;
          comparisons.push_back({compare, side});
          auto& wraps = indices[index];
          (compare->isSigned() ? wraps.second : wraps.first) = true;
          break;
        }
      } else if (auto* zext = dyn_cast<ZExtInst>(&inst); zext && zext->getType()->isIntegerTy(64)) {
        if (const SCEVAddRecExpr* index = row_index(scev, zext->getOperand(0), *loop)) {
          widened.push_back(zext);
          indices[index].first = true;
        }
      }
    }
  }
  if (comparisons.empty() && widened.empty()) return false;

  // The checks, where the row starts: each index's first and last values, in 64 bits.
  BasicBlock* checks = loop->getLoopPreheader();
  SCEVExpander expander(scev, block.getParent()->getDataLayout(), "row");
  for (auto& [index, wraps] : indices)
    if (!expander.isSafeToExpandAt(index->getStart(), checks->getTerminator())) return false;
  IRBuilder<> b(checks->getTerminator());
  Type* i64 = b.getInt64Ty();
  Value* last_step = b.CreateSub(b.CreateZExt(dim_x, i64), b.getInt64(1));
  Value* all_hold = b.getTrue();
  DenseMap<const SCEVAddRecExpr*, std::pair<Value*, Value*>> ends;  // first, last (32-bit)
  DenseMap<const SCEVAddRecExpr*, Value*> starts;
  for (auto& [index, wraps] : indices) {
    Value* start = expander.expandCodeFor(index->getStart(), b.getInt32Ty(), checks->getTerminator());
    b.SetInsertPoint(checks->getTerminator());
    const std::uint64_t step = cast<SCEVConstant>(index->getStepRecurrence(scev))->getAPInt().getZExtValue();
    Value* span = b.CreateMul(last_step, b.getInt64(step));
    if (wraps.first && !index->hasNoUnsignedWrap())
      all_hold =
          b.CreateAnd(all_hold, b.CreateICmpULE(b.CreateAdd(b.CreateZExt(start, i64), span), b.getInt64(UINT32_MAX)));
    if (wraps.second && !index->hasNoSignedWrap())
      all_hold =
          b.CreateAnd(all_hold, b.CreateICmpSLE(b.CreateAdd(b.CreateSExt(start, i64), span), b.getInt64(INT32_MAX)));
    ends[index] = {start, b.CreateTrunc(b.CreateAdd(b.CreateZExt(start, i64), span), b.getInt32Ty())};
    starts[index] = start;
  }
  for (const comparison& c : comparisons) {
    const auto* index = cast<SCEVAddRecExpr>(scev.getSCEV(c.inst->getOperand(c.index_operand)));
    for (Value* end : {ends[index].first, ends[index].second}) {
      Value* lhs = c.index_operand == 0 ? end : c.inst->getOperand(0);
      Value* rhs = c.index_operand == 0 ? c.inst->getOperand(1) : end;
      all_hold = b.CreateAnd(all_hold, b.CreateICmp(c.inst->getPredicate(), lhs, rhs));
    }
  }
  SmallVector<std::pair<ZExtInst*, const SCEVAddRecExpr*>, 4> widened_indices;
  for (ZExtInst* zext : widened)
    widened_indices.push_back({zext, cast<SCEVAddRecExpr>(scev.getSCEV(zext->getOperand(0)))});

  // The copy for rows where all that holds, chosen where the row starts.
  BasicBlock* preheader = SplitBlock(checks, checks->getTerminator(), &dominators, &loops, nullptr, "row.checked");
  ValueToValueMapTy map;
  SmallVector<BasicBlock*, 16> copied;
  Loop* fast = cloneLoopWithPreheader(preheader, checks, loop, map, ".fast", &loops, &dominators, copied);
  remapInstructionsInBlocks(copied, map);
  Instruction* branch = checks->getTerminator();
  BranchInst::Create(fast->getLoopPreheader(), preheader, all_hold, branch->getIterator());
  branch->eraseFromParent();
  dominators.changeImmediateDominator(loop->getExitBlock(), checks);

  for (const comparison& c : comparisons) {
    auto* copy = cast<Instruction>(map[c.inst]);
    copy->replaceAllUsesWith(ConstantInt::getTrue(block.getContext()));
    copy->eraseFromParent();
  }
  for (auto& [zext, index] : widened_indices) {
    auto* copy = cast<Instruction>(map[zext]);
    IRBuilder<> at(copy);
    const std::uint64_t step = cast<SCEVConstant>(index->getStepRecurrence(scev))->getAPInt().getZExtValue();
    Value* offset = at.CreateMul(at.CreateZExt(map[counter], i64), at.getInt64(step), "", true, true);
    copy->replaceAllUsesWith(at.CreateAdd(at.CreateZExt(starts[index], i64), offset, "row.index", true, true));
    copy->eraseFromParent();
  }
  return true;
}

}  // namespace cohort_loops
