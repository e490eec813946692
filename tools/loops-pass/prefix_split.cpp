#include "prefix_split.hpp"

#include <optional>
#include <utility>

#include "loop_analyses.hpp"

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

struct prefix_test {
  ICmpInst* compare;
  const SCEVAddRecExpr* index;  // {start, +, 1}
  Value* bound;
  bool is_signed, inclusive;  // index < bound, or <=
  bool negated;               // the test is the opposite: index >= bound, index > bound, index != 0
};

// The loop's shape as the block function builds it: the header tests
// `x < end` and is the only way out; nothing defined in the loop is used after it.
bool has_thread_loop_shape(Loop& loop, PHINode*& counter, ICmpInst*& end_test) {
  BasicBlock* header = loop.getHeader();
  if (!loop.isInnermost() || !loop.getLoopPreheader() || !loop.getExitBlock() || loop.getExitingBlock() != header)
    return false;
  auto* branch = dyn_cast<BranchInst>(header->getTerminator());
  if (!branch || !branch->isConditional() || loop.contains(branch->getSuccessor(1))) return false;
  end_test = dyn_cast<ICmpInst>(branch->getCondition());
  if (!end_test || end_test->getPredicate() != ICmpInst::ICMP_ULT || !loop.isLoopInvariant(end_test->getOperand(1)))
    return false;
  counter = dyn_cast<PHINode>(end_test->getOperand(0));
  if (!counter || counter->getParent() != header) return false;
  for (BasicBlock* b : loop.blocks())
    for (Instruction& inst : *b)
      for (User* user : inst.users())
        if (!loop.contains(cast<Instruction>(user))) return false;
  return true;
}

// `equality`: look for `index == 0` and `index != 0` only; otherwise for the
// relational tests, which share out work (`tid < s`) and so come first.
std::optional<prefix_test> find_prefix_test(Loop& loop, ScalarEvolution& scev, ICmpInst* end_test, bool equality) {
  for (BasicBlock* b : loop.blocks()) {
    for (Instruction& inst : *b) {
      auto* compare = dyn_cast<ICmpInst>(&inst);
      if (!compare || compare == end_test || compare->isEquality() != equality) continue;
      for (unsigned side = 0; side < 2; ++side) {
        Value* v = compare->getOperand(side);
        Value* bound = compare->getOperand(1 - side);
        if (!v->getType()->isIntegerTy(32) || !loop.isLoopInvariant(bound)) continue;
        const auto* index = dyn_cast<SCEVAddRecExpr>(scev.getSCEV(v));
        if (!index || index->getLoop() != &loop || !index->isAffine() || !index->getStepRecurrence(scev)->isOne() ||
            !scev.isLoopInvariant(index->getStart(), &loop))
          continue;
        // As `index < bound` or `index <= bound`: true for a prefix of the row.
        // Their opposites (`>=`, `>`) are false for it; an unsigned `index == 0`
        // is `index <= 0` (`if (tid == 0)`, which InstCombine writes for `tid < 1`).
        ICmpInst::Predicate p = side == 0 ? compare->getPredicate() : compare->getSwappedPredicate();
        bool negated = false;
        if (ICmpInst::isEquality(p)) {
          const auto* zero = dyn_cast<ConstantInt>(bound);
          if (!zero || !zero->isZero()) continue;
          negated = p == ICmpInst::ICMP_NE;
          p = ICmpInst::ICMP_ULE;
        } else if (ICmpInst::isGE(p) || ICmpInst::isGT(p)) {
          negated = true;
          p = ICmpInst::getInversePredicate(p);
        }
        if (p != ICmpInst::ICMP_ULT && p != ICmpInst::ICMP_ULE && p != ICmpInst::ICMP_SLT && p != ICmpInst::ICMP_SLE)
          continue;
        return prefix_test{
            compare, index, bound, ICmpInst::isSigned(p), p == ICmpInst::ICMP_ULE || p == ICmpInst::ICMP_SLE, negated};
      }
    }
  }
  return std::nullopt;
}

// The headers of the prefix's and the rest's copies, or none where the loop has no such test.
std::optional<std::pair<BasicBlock*, BasicBlock*>> split(Function& block, BasicBlock* header) {
  loop_analyses analyses(block);
  DominatorTree& dominators = analyses.dominators;
  LoopInfo& loops = analyses.loops;
  ScalarEvolution& scev = analyses.scev;
  Loop* loop = loops.getLoopFor(header);
  PHINode* counter = nullptr;
  ICmpInst* end_test = nullptr;
  if (!loop || loop->getHeader() != header || !has_thread_loop_shape(*loop, counter, end_test)) return std::nullopt;
  std::optional<prefix_test> test = find_prefix_test(*loop, scev, end_test, false);
  if (!test) test = find_prefix_test(*loop, scev, end_test, true);
  if (!test) return std::nullopt;
  BasicBlock* checks = loop->getLoopPreheader();
  if (!loop->getExitBlock()->phis().empty()) return std::nullopt;
  SCEVExpander expander(scev, block.getParent()->getDataLayout(), "prefix");
  if (!expander.isSafeToExpandAt(test->index->getStart(), checks->getTerminator())) return std::nullopt;

  // Where the row starts, in 64 bits: the index's first value, how many threads
  // the loop runs, how many of them pass the test (clamped), and that the index
  // does not wrap over the row (else the loop as it is).
  Value* start =
      expander.expandCodeFor(test->index->getStart(), Type::getInt32Ty(block.getContext()), checks->getTerminator());
  IRBuilder<> b(checks->getTerminator());
  Type* i64 = b.getInt64Ty();
  auto widen = [&](Value* v) { return test->is_signed ? b.CreateSExt(v, i64) : b.CreateZExt(v, i64); };
  Value* first = counter->getIncomingValueForBlock(checks);
  Value* end = end_test->getOperand(1);
  Value* threads = b.CreateSub(b.CreateZExt(end, i64), b.CreateZExt(first, i64));
  threads = b.CreateSelect(b.CreateICmpULT(first, end), threads, b.getInt64(0));
  Value* last = b.CreateAdd(widen(start), b.CreateSub(threads, b.getInt64(1)));
  Value* no_wrap = b.CreateICmpSLE(last, b.getInt64(test->is_signed ? INT32_MAX : UINT32_MAX));
  Value* passing = b.CreateSub(widen(test->bound), widen(start));
  if (test->inclusive) passing = b.CreateAdd(passing, b.getInt64(1));
  passing = b.CreateSelect(b.CreateICmpSLT(passing, b.getInt64(0)), b.getInt64(0), passing);
  passing = b.CreateSelect(b.CreateICmpSGT(passing, threads), threads, passing);
  Value* split_at = b.CreateAdd(first, b.CreateTrunc(passing, b.getInt32Ty()), "prefix_end");

  // The prefix's copy, then the rest's, both chosen where the row starts.
  BasicBlock* exit = loop->getExitBlock();
  BasicBlock* preheader = SplitBlock(checks, checks->getTerminator(), &dominators, &loops, nullptr, "row.whole");
  ValueToValueMapTy prefix_map, rest_map;
  SmallVector<BasicBlock*, 16> prefix_blocks, rest_blocks;
  Loop* rest = cloneLoopWithPreheader(preheader, checks, loop, rest_map, ".rest", &loops, &dominators, rest_blocks);
  remapInstructionsInBlocks(rest_blocks, rest_map);
  Loop* prefix = cloneLoopWithPreheader(rest->getLoopPreheader(), checks, loop, prefix_map, ".prefix", &loops,
                                        &dominators, prefix_blocks);
  remapInstructionsInBlocks(prefix_blocks, prefix_map);
  Instruction* branch = checks->getTerminator();
  BranchInst::Create(prefix->getLoopPreheader(), preheader, no_wrap, branch->getIterator());
  branch->eraseFromParent();
  // The prefix leaves for the rest; each copy's test is a constant.
  cast<Instruction>(prefix_map[end_test])->setOperand(1, split_at);
  prefix->getHeader()->getTerminator()->replaceSuccessorWith(exit, rest->getLoopPreheader());
  cast<PHINode>(rest_map[counter])->setIncomingValueForBlock(rest->getLoopPreheader(), split_at);
  for (auto [map, value] : {std::pair{&prefix_map, !test->negated}, std::pair{&rest_map, test->negated}}) {
    auto* copy = cast<Instruction>((*map)[test->compare]);
    copy->replaceAllUsesWith(ConstantInt::getBool(block.getContext(), value));
    copy->eraseFromParent();
  }
  return std::pair(prefix->getHeader(), rest->getHeader());
}

// A loop is split at two tests at most (`if (tid < s)` and the `if (tid == 0)`
// an unswitched region may keep beside it): four copies, not more.
constexpr unsigned splits_per_loop = 2;

}  // namespace

unsigned split_thread_loops_at_prefixes(Function& block) {
  SmallVector<std::pair<BasicBlock*, unsigned>, 16> headers;  // a loop, and how often it was split
  {
    DominatorTree dominators(block);
    LoopInfo loops(dominators);
    for (Loop* loop : loops.getLoopsInPreorder())
      if (loop->isInnermost()) headers.push_back({loop->getHeader(), 0});
  }
  unsigned count = 0;
  while (!headers.empty()) {
    const auto [header, splits] = headers.pop_back_val();
    if (splits == splits_per_loop) continue;
    const auto copies = split(block, header);
    if (!copies) continue;
    ++count;
    headers.push_back({copies->first, splits + 1});
    headers.push_back({copies->second, splits + 1});
  }
  return count;
}

}  // namespace cohort_loops
