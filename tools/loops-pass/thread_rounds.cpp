#include "thread_rounds.hpp"

#include <cstdint>
#include <iterator>
#include <optional>

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace cohort_loops {

namespace {

// Per-thread arrays, each round_threads long: a few values a thread, no more,
// and a bound on all of a block function's (they are on the worker's stack).
constexpr unsigned most_kept_values = 8;
constexpr std::uint64_t most_array_bytes = 256 * 1024;

// A thread loop (`threads`, over `counter` up to `end`) whose body is code
// before a loop, the loop (`inner`), and code after it.
struct rounds_candidate {
  Loop* threads;
  Loop* inner;
  PHINode* counter;
  Value* end;
  SmallVector<Value*, 8> carried;  // values computed before the loop that the loop or the code after it reads
};

// Nothing that synchronizes with another thread or lets one observe another's
// progress: no atomics or fences, no volatile access, no call but intrinsics
// without side effects (a call may do anything), no stack memory (a thread's
// alloca would be one slot for every thread of the rounds).
bool keeps_to_itself(const Instruction& inst) {
  if (inst.isAtomic() || isa<AllocaInst>(inst)) return false;
  if (const auto* load = dyn_cast<LoadInst>(&inst)) return !load->isVolatile();
  if (const auto* store = dyn_cast<StoreInst>(&inst)) return !store->isVolatile();
  if (const auto* call = dyn_cast<CallBase>(&inst)) {
    const auto* intrinsic = dyn_cast<IntrinsicInst>(call);
    if (!intrinsic || call->isConvergent()) return false;
    return isa<DbgInfoIntrinsic>(intrinsic) || intrinsic->isLifetimeStartOrEnd() || !intrinsic->mayHaveSideEffects();
  }
  return true;
}

// The blocks of `loop` reachable from `from` without passing its header.
SmallPtrSet<BasicBlock*, 8> reachable_in_body(const Loop& loop, BasicBlock* from) {
  SmallPtrSet<BasicBlock*, 8> seen;
  SmallVector<BasicBlock*, 8> work{from};
  while (!work.empty()) {
    BasicBlock* b = work.pop_back_val();
    if (b == loop.getHeader() || !loop.contains(b) || !seen.insert(b).second) continue;
    append_range(work, successors(b));
  }
  return seen;
}

// Whether `value` is computed from the thread loop's counter: the inner loop's
// trip count differs per thread (a uniform loop gains nothing from rounds).
bool depends_on_counter(Value* value, const Loop& threads, PHINode* counter) {
  SmallPtrSet<Value*, 32> seen;
  SmallVector<Value*, 32> work{value};
  while (!work.empty()) {
    auto* inst = dyn_cast<Instruction>(work.pop_back_val());
    if (!inst || !threads.contains(inst) || !seen.insert(inst).second) continue;
    if (inst == counter) return true;
    append_range(work, inst->operands());
  }
  return false;
}

// The counter's increment, `counter + 1`, or null.
Instruction* increment_of(PHINode* counter, BasicBlock* latch) {
  auto* add = dyn_cast<BinaryOperator>(counter->getIncomingValueForBlock(latch));
  if (!add || add->getOpcode() != Instruction::Add || add->getOperand(0) != counter) return nullptr;
  auto* one = dyn_cast<ConstantInt>(add->getOperand(1));
  return one && one->isOne() ? add : nullptr;
}

// The thread loop's shape as the block function builds it (a counter marked
// thread_counter_metadata, incremented by one, tested `counter < end` in the
// header, the only way out), around exactly one loop, innermost, with one
// latch, some exit of which depends on the thread; nothing in the thread loop
// that could communicate.
std::optional<rounds_candidate> find_candidate(Loop& threads) {
  BasicBlock* header = threads.getHeader();
  BasicBlock* latch = threads.getLoopLatch();
  if (threads.getSubLoops().size() != 1 || !threads.getLoopPreheader() || !latch || !threads.getExitBlock() ||
      threads.getExitingBlock() != header || !threads.getExitBlock()->phis().empty())
    return std::nullopt;
  auto* branch = dyn_cast<BranchInst>(header->getTerminator());
  if (!branch || !branch->isConditional() || threads.contains(branch->getSuccessor(1))) return std::nullopt;
  auto* test = dyn_cast<ICmpInst>(branch->getCondition());
  if (!test || test->getPredicate() != ICmpInst::ICMP_ULT || !threads.isLoopInvariant(test->getOperand(1)))
    return std::nullopt;
  auto* counter = dyn_cast<PHINode>(test->getOperand(0));
  if (!counter || counter->getParent() != header || !counter->getMetadata(thread_counter_metadata) ||
      std::distance(header->phis().begin(), header->phis().end()) != 1 || !increment_of(counter, latch))
    return std::nullopt;

  Loop* inner = threads.getSubLoops().front();
  BasicBlock* inner_preheader = inner->getLoopPreheader();
  if (!inner->isInnermost() || !inner_preheader || !inner->getLoopLatch() || inner_preheader == header)
    return std::nullopt;
  SmallVector<BasicBlock*, 4> exiting;
  inner->getExitingBlocks(exiting);
  if (none_of(exiting, [&](BasicBlock* b) {
        auto* exit_branch = dyn_cast<BranchInst>(b->getTerminator());
        return exit_branch && exit_branch->isConditional() &&
               depends_on_counter(exit_branch->getCondition(), threads, counter);
      }))
    return std::nullopt;
  // Nothing computed in the thread loop is read after it (only the original loop would compute it).
  for (BasicBlock* b : threads.blocks())
    for (Instruction& inst : *b)
      for (User* user : inst.users())
        if (!threads.contains(cast<Instruction>(user))) return std::nullopt;
  // The header runs once a round for every thread: it may compute, not write.
  for (Instruction& inst : *header)
    if (inst.mayWriteToMemory() || !keeps_to_itself(inst)) return std::nullopt;

  // After the loop: what its exits reach before the next thread (the latch among them).
  SmallVector<BasicBlock*, 4> exits;
  inner->getExitBlocks(exits);
  SmallPtrSet<BasicBlock*, 8> after;
  for (BasicBlock* exit : exits) {
    const SmallPtrSet<BasicBlock*, 8> reached = reachable_in_body(threads, exit);
    after.insert(reached.begin(), reached.end());
  }
  if (!after.contains(latch)) return std::nullopt;

  rounds_candidate found{&threads, inner, counter, test->getOperand(1), {}};
  for (BasicBlock* b : threads.blocks()) {
    if (b == header) continue;
    for (Instruction& inst : *b) {
      if (!keeps_to_itself(inst)) return std::nullopt;
      if (inner->contains(b) || after.contains(b)) continue;
      // Computed before the loop, read in or after it: kept for the rounds.
      if (any_of(inst.users(), [&](User* u) {
            BasicBlock* at = cast<Instruction>(u)->getParent();
            return inner->contains(at) || after.contains(at);
          }))
        found.carried.push_back(&inst);
    }
  }
  const auto phis = inner->getHeader()->phis();
  if (found.carried.size() + std::distance(phis.begin(), phis.end()) > most_kept_values) return std::nullopt;
  for (Value* v : found.carried)
    if (!v->getType()->isSingleValueType()) return std::nullopt;
  for (PHINode& phi : phis)
    if (!phi.getType()->isSingleValueType()) return std::nullopt;
  return found;
}

// A copy of the thread loop's blocks, remapped among themselves (`map`: original to copy).
void copy_loop(Loop& loop, ValueToValueMapTy& map, const char* suffix) {
  SmallVector<BasicBlock*, 16> copies;
  for (BasicBlock* b : loop.blocks()) {
    BasicBlock* copy = CloneBasicBlock(b, map, suffix, b->getParent());
    map[b] = copy;
    copies.push_back(copy);
  }
  remapInstructionsInBlocks(copies, map);
}

BasicBlock* mapped(ValueToValueMapTy& map, BasicBlock* b) { return cast<BasicBlock>(map[b]); }

Value* mapped(ValueToValueMapTy& map, Value* v) {
  auto found = map.find(v);
  return found == map.end() ? v : static_cast<Value*>(found->second);
}

// A block at the end of which the counter goes on to the next thread.
BasicBlock* next_thread(BasicBlock* header, PHINode* counter, const char* name) {
  auto* next = BasicBlock::Create(header->getContext(), name, header->getParent());
  IRBuilder<> b(next);
  counter->addIncoming(b.CreateAdd(counter, b.getInt32(1)), next);
  b.CreateBr(header);
  return next;
}

// Rows of at most round_threads threads run two copies of the thread loop:
// the first runs each thread up to its inner loop and keeps the loop's live-in
// values (a thread that does not enter the loop runs on to its end); the
// second, repeated while some thread went on, runs up to round_iterations
// iterations of every thread still in its loop, and where the loop ends, the
// code after it.
// Longer rows run the loop as it was.
void run_in_rounds(Function& block, const rounds_candidate& c) {
  LLVMContext& context = block.getContext();
  Loop& threads = *c.threads;
  Loop& inner = *c.inner;
  BasicBlock* preheader = threads.getLoopPreheader();
  BasicBlock* header = threads.getHeader();
  BasicBlock* exit = threads.getExitBlock();
  BasicBlock* inner_header = inner.getHeader();
  BasicBlock* inner_preheader = inner.getLoopPreheader();
  BasicBlock* inner_latch = inner.getLoopLatch();
  SmallVector<PHINode*, 8> phis;
  for (PHINode& phi : inner_header->phis()) phis.push_back(&phi);
  SmallVector<Loop::Edge, 4> exit_edges;
  inner.getExitEdges(exit_edges);

  IRBuilder<> b(&block.getEntryBlock(), block.getEntryBlock().getFirstInsertionPt());
  Type* i8 = b.getInt8Ty();
  auto array_of = [&](Type* type, const char* name) {
    return b.CreateAlloca(ArrayType::get(type, round_threads), nullptr, name);
  };
  AllocaInst* active = array_of(i8, "round.active");
  AllocaInst* any = b.CreateAlloca(i8, nullptr, "round.any");
  SmallVector<AllocaInst*, 8> phi_slots, carried_slots;
  for (PHINode* phi : phis) phi_slots.push_back(array_of(phi->getType(), "round.phi"));
  for (Value* v : c.carried) carried_slots.push_back(array_of(v->getType(), "round.kept"));
  auto slot = [&](AllocaInst* array, Value* counter) {
    return b.CreateInBoundsGEP(array->getAllocatedType(), array,
                               {b.getInt64(0), b.CreateZExt(counter, b.getInt64Ty())});
  };

  ValueToValueMapTy first_map, round_map;
  copy_loop(threads, first_map, ".first");
  copy_loop(threads, round_map, ".round");
  auto* round_start = BasicBlock::Create(context, "round.start", &block);
  auto* round_end = BasicBlock::Create(context, "round.end", &block);
  auto* resume = BasicBlock::Create(context, "round.resume", &block);
  auto* load_state = BasicBlock::Create(context, "round.load", &block);
  auto* again = BasicBlock::Create(context, "round.again", &block);
  auto* save = BasicBlock::Create(context, "round.save", &block);

  // Where the row starts: rows that fit the arrays take the rounds.
  Instruction* into = preheader->getTerminator();
  b.SetInsertPoint(into);
  b.CreateCondBr(b.CreateICmpULE(c.end, b.getInt32(round_threads)), mapped(first_map, header), header);
  into->eraseFromParent();

  // The first copy: each thread up to its loop, its live-ins kept, active[x] whether it entered.
  BasicBlock* first_header = mapped(first_map, header);
  auto* first_counter = cast<PHINode>(first_map[c.counter]);
  first_header->getTerminator()->setSuccessor(1, round_start);
  BasicBlock* first_body = SplitEdge(first_header, first_header->getTerminator()->getSuccessor(0));
  b.SetInsertPoint(first_body->getTerminator());
  b.CreateStore(b.getInt8(0), slot(active, first_counter));
  BasicBlock* first_entry = mapped(first_map, inner_preheader);
  b.SetInsertPoint(first_entry->getTerminator());
  for (auto [phi, array] : zip(phis, phi_slots))
    b.CreateStore(mapped(first_map, phi->getIncomingValueForBlock(inner_preheader)), slot(array, first_counter));
  for (auto [v, array] : zip(c.carried, carried_slots)) b.CreateStore(first_map[v], slot(array, first_counter));
  b.CreateStore(b.getInt8(1), slot(active, first_counter));
  first_entry->getTerminator()->eraseFromParent();
  BranchInst::Create(next_thread(first_header, first_counter, "first.next"), first_entry);

  // A round: every thread still in its loop runs one iteration.
  BasicBlock* round_header = mapped(round_map, header);
  auto* round_counter = cast<PHINode>(round_map[c.counter]);
  b.SetInsertPoint(round_start);
  b.CreateStore(b.getInt8(0), any);
  b.CreateBr(round_header);
  round_counter->setIncomingBlock(round_counter->getBasicBlockIndex(preheader), round_start);
  round_header->getTerminator()->setSuccessor(1, round_end);
  round_header->getTerminator()->setSuccessor(0, resume);
  b.SetInsertPoint(round_end);
  b.CreateCondBr(b.CreateICmpNE(b.CreateLoad(i8, any), b.getInt8(0)), round_start, exit);
  BasicBlock* round_next = next_thread(round_header, round_counter, "round.next");

  b.SetInsertPoint(resume);
  b.CreateCondBr(b.CreateICmpNE(b.CreateLoad(i8, slot(active, round_counter)), b.getInt8(0)), load_state, round_next);
  b.SetInsertPoint(load_state);
  SmallVector<Value*, 8> phi_values, carried_values;
  for (auto [phi, array] : zip(phis, phi_slots))
    phi_values.push_back(b.CreateLoad(phi->getType(), slot(array, round_counter)));
  for (auto [v, array] : zip(c.carried, carried_slots))
    carried_values.push_back(b.CreateLoad(v->getType(), slot(array, round_counter)));
  BasicBlock* round_inner_header = mapped(round_map, inner_header);
  b.CreateBr(round_inner_header);

  // The iteration's end: on, the thread's next iteration while the round
  // has not run round_iterations of them, else its next values kept for the
  // next round; or out of the loop (active[x] = 0) into the code after it, to
  // the next thread.
  BasicBlock* round_latch = mapped(round_map, inner_latch);
  round_latch->getTerminator()->replaceSuccessorWith(round_inner_header, again);
  b.SetInsertPoint(round_inner_header, round_inner_header->getFirstInsertionPt());
  PHINode* steps = b.CreatePHI(b.getInt32Ty(), 2, "round.steps");
  steps->addIncoming(b.getInt32(0), load_state);
  steps->addIncoming(b.getInt32(0), mapped(round_map, inner_preheader));  // no longer reached: goes below
  b.SetInsertPoint(again);
  Value* next_steps = b.CreateAdd(steps, b.getInt32(1));
  steps->addIncoming(next_steps, again);
  b.CreateCondBr(b.CreateICmpULT(next_steps, b.getInt32(round_iterations)), round_inner_header, save);
  b.SetInsertPoint(save);
  for (auto [phi, array] : zip(phis, phi_slots))
    b.CreateStore(mapped(round_map, phi->getIncomingValueForBlock(inner_latch)), slot(array, round_counter));
  b.CreateStore(b.getInt8(1), any);
  b.CreateBr(round_next);
  for (auto [from, to] : exit_edges) {
    BasicBlock* round_from = mapped(round_map, const_cast<BasicBlock*>(from));
    BasicBlock* round_to = mapped(round_map, const_cast<BasicBlock*>(to));
    auto* finish = BasicBlock::Create(context, "round.finish", &block);
    b.SetInsertPoint(finish);
    b.CreateStore(b.getInt8(0), slot(active, round_counter));
    b.CreateBr(round_to);
    round_from->getTerminator()->replaceSuccessorWith(round_to, finish);
    for (PHINode& phi : round_to->phis()) phi.replaceIncomingBlockWith(round_from, finish);
  }

  // In and after the round's iterations, what the arrays kept, not the
  // copies computed before the loop: the loop's values enter from
  // load_state and go round from `again`.
  for (auto [phi, value] : zip(phis, phi_values)) {
    auto* copy = cast<PHINode>(round_map[phi]);
    copy->setIncomingBlock(copy->getBasicBlockIndex(round_latch), again);
    copy->addIncoming(value, load_state);
  }
  // (Their uses before the loop are in blocks no longer reached, which go.)
  for (auto [v, value] : zip(c.carried, carried_values)) round_map[v]->replaceAllUsesWith(value);
  removeUnreachableBlocks(block);
}

}  // namespace

unsigned run_thread_loops_in_rounds(Function& block) {
  DominatorTree dominators(block);
  LoopInfo loops(dominators);
  const DataLayout& layout = block.getParent()->getDataLayout();
  SmallVector<rounds_candidate, 4> candidates;
  std::uint64_t array_bytes = 0;
  for (Loop* loop : loops.getLoopsInPreorder()) {
    std::optional<rounds_candidate> found = find_candidate(*loop);
    if (!found) continue;
    std::uint64_t bytes = 1;  // active[x]
    for (PHINode& phi : found->inner->getHeader()->phis()) bytes += layout.getTypeAllocSize(phi.getType());
    for (Value* v : found->carried) bytes += layout.getTypeAllocSize(v->getType());
    bytes *= round_threads;
    if (array_bytes + bytes > most_array_bytes) continue;
    array_bytes += bytes;
    candidates.push_back(std::move(*found));
  }
  for (const rounds_candidate& c : candidates) run_in_rounds(block, c);
  return candidates.size();
}

}  // namespace cohort_loops
