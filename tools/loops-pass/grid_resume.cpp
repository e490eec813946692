#include "grid_resume.hpp"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "runtime_abi.hpp"
#include "step_function.hpp"
#include "uniformity.hpp"

using namespace llvm;

namespace cohort_loops {

namespace {

struct level_names {
  StringRef symbol;
  resume_level level;
  const char* words;
  const char* call;
};
constexpr level_names levels[] = {
    {grid_sync_symbol, grid_level, "a grid barrier", "grid.sync()"},
    {cluster_sync_symbol, cluster_level, "a cluster barrier", "cluster.sync()"},
    {multi_grid_sync_symbol, multi_grid_level, "a multi-grid barrier", "multi_grid.sync()"}};

const level_names& names_of(resume_level level) { return levels[level]; }

}  // namespace

bool is_level_barrier(StringRef callee) {
  return any_of(levels, [&](const level_names& l) { return l.symbol == callee; });
}

resume_level level_of(StringRef callee) {
  return find_if(levels, [&](const level_names& l) { return l.symbol == callee; })->level;
}

resume_level level_of(const CallInst& barrier) { return level_of(barrier.getCalledFunction()->getName()); }

std::string barrier_words(resume_level level) { return names_of(level).words; }

std::optional<step_refusal> refuse_level_barriers(ArrayRef<CallInst*> calls, ArrayRef<CallInst*> originals,
                                                  const divergence& divergent, bool uniform) {
  for (unsigned i = 0; i < calls.size(); ++i) {
    const resume_level level = level_of(*calls[i]);
    if (divergent.divergently_executed(calls[i]->getParent()))
      return step_refusal{barrier_words(level) +
                              " in thread-dependent control flow (lowered only where every thread of the block "
                              "reaches it)",
                          originals[i]};
    if (!uniform)
      return step_refusal{barrier_words(level) + " in a kernel with a barrier in thread-dependent control flow",
                          originals[i]};
    if (!isa<Constant>(calls[i]->getArgOperand(0)))  // (the merged call has no line of its own)
      return step_refusal{barrier_words(level) + " whose call site is chosen at run time (" + names_of(level).call +
                              " calls merged into one)",
                          nullptr};
  }
  return std::nullopt;
}

void compute_thread_local_addresses_once(Function& step) {
  DenseMap<Value*, IntrinsicInst*> first;
  SmallVector<IntrinsicInst*, 16> calls;
  for (Instruction& inst : instructions(step))
    if (auto* call = dyn_cast<IntrinsicInst>(&inst); call && call->getIntrinsicID() == Intrinsic::threadlocal_address)
      calls.push_back(call);
  BasicBlock& entry = step.getEntryBlock();
  for (IntrinsicInst* call : calls) {
    IntrinsicInst*& kept = first[call->getArgOperand(0)];
    if (!kept) {
      kept = call;
      call->moveBefore(&*entry.getFirstInsertionPt());
    } else {
      call->replaceAllUsesWith(kept);
      call->eraseFromParent();
    }
  }
  for (bool folded = true; folded;) {
    folded = false;
    for (BasicBlock& block : step)
      for (PHINode& phi : make_early_inc_range(block.phis()))
        if (Value* same = phi.getIncomingValue(0);
            all_of(phi.incoming_values(), [&](const Value* v) { return v == same || v == &phi; }) && same != &phi) {
          phi.replaceAllUsesWith(same);
          phi.eraseFromParent();
          folded = true;
        }
  }
}

namespace {

bool thread_local_address(const Value* value) {
  if (!value->getType()->isPointerTy()) return false;
  SmallVector<const Value*, 4> objects;
  getUnderlyingObjects(value, objects);
  return any_of(objects, [](const Value* object) {
    const auto* call = dyn_cast<IntrinsicInst>(object);
    const auto* global = dyn_cast<GlobalVariable>(object);
    return (call && call->getIntrinsicID() == Intrinsic::threadlocal_address) || (global && global->isThreadLocal());
  });
}

}  // namespace

bool keeps_thread_local_address(const Function& step, ArrayRef<Instruction*> per_thread,
                                ArrayRef<Instruction*> per_block) {
  if (any_of(per_thread, thread_local_address) || any_of(per_block, thread_local_address)) return true;
  // One stored in memory (a local array of pointers) may be read after a grid barrier.
  for (const Instruction& inst : instructions(step))
    if (const auto* store = dyn_cast<StoreInst>(&inst); store && thread_local_address(store->getValueOperand()))
      return true;
  return false;
}

namespace {

// A function-local static's mangled name starts with _ZZ: `__shared__` is one.
bool is_block_shared(const GlobalVariable& g) {
  return g.isThreadLocal() && !g.isDeclaration() && g.getName().starts_with("_ZZ");
}

void collect_globals(const Value* v, SetVector<GlobalVariable*>& found, SmallPtrSetImpl<const Value*>& seen) {
  if (!seen.insert(v).second) return;
  if (const auto* g = dyn_cast<GlobalVariable>(v)) {
    if (is_block_shared(*g)) found.insert(const_cast<GlobalVariable*>(g));
    return;
  }
  if (const auto* c = dyn_cast<ConstantExpr>(v))
    for (const Value* operand : c->operands()) collect_globals(operand, found, seen);
}

}  // namespace

SmallVector<GlobalVariable*, 4> block_shared_memory(Function& kernel) {
  SetVector<GlobalVariable*> found;
  SetVector<Function*> reached;
  SmallPtrSet<const Value*, 32> seen;
  reached.insert(&kernel);
  for (size_t i = 0; i < reached.size(); ++i)
    for (Instruction& inst : instructions(*reached[i]))
      for (Value* operand : inst.operands()) {
        if (auto* callee = dyn_cast<Function>(operand); callee && !callee->isDeclaration())
          reached.insert(callee);
        else
          collect_globals(operand, found, seen);
      }
  return SmallVector<GlobalVariable*, 4>(found.begin(), found.end());
}

namespace {

// Each shared variable's offset in the kept store, after the uniform values.
template <class Each>
std::uint64_t lay_out_shared(const DataLayout& layout, const step_function& step, Each each) {
  std::uint64_t offset = alignTo(step.uniform_bytes, 16);
  for (GlobalVariable* shared : step.block_shared) {
    const std::uint64_t size = layout.getTypeAllocSize(shared->getValueType());
    each(shared, offset, size);
    offset = alignTo(offset + size, 16);
  }
  return offset;
}

Value* kept_store(IRBuilder<>& b, Value* ctx) {
  return b.CreateLoad(b.getPtrTy(), b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ctx, kept_store_offset), "kept_store");
}

}  // namespace

std::uint64_t kept_store_bytes(const Module& module, const step_function& step) {
  return lay_out_shared(module.getDataLayout(), step, [](GlobalVariable*, std::uint64_t, std::uint64_t) {});
}

Value* restore_block(IRBuilder<>& b, const step_function& step, Value* ctx, Value* kept, Value* keep) {
  Value* store = kept_store(b, ctx);
  if (step.uniform_bytes)
    for (Value* slots : {kept, keep}) b.CreateMemCpy(slots, Align(16), store, Align(16), step.uniform_bytes);
  const DataLayout& layout = b.GetInsertBlock()->getModule()->getDataLayout();
  lay_out_shared(layout, step, [&](GlobalVariable* shared, std::uint64_t offset, std::uint64_t size) {
    b.CreateMemCpy(b.CreateThreadLocalAddress(shared), shared->getAlign(),
                   b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), store, offset), Align(16), size);
  });
  return b.CreateLoad(b.getInt32Ty(), b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ctx, grid_resume_offset),
                      "resumed_at");
}

void suspend_block(IRBuilder<>& b, const step_function& step, Value* ctx, Value* kept, unsigned point,
                   BasicBlock* region) {
  Value* store = kept_store(b, ctx);
  if (step.uniform_bytes) b.CreateMemCpy(store, Align(16), kept, Align(16), step.uniform_bytes);
  const DataLayout& layout = b.GetInsertBlock()->getModule()->getDataLayout();
  lay_out_shared(layout, step, [&](GlobalVariable* shared, std::uint64_t offset, std::uint64_t size) {
    b.CreateMemCpy(b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), store, offset), Align(16),
                   b.CreateThreadLocalAddress(shared), shared->getAlign(), size);
  });
  Module& module = *b.GetInsertBlock()->getModule();
  FunctionCallee arrive = module.getOrInsertFunction(level_arrive_symbol, b.getInt1Ty(), b.getPtrTy(), b.getInt32Ty(),
                                                     b.getInt32Ty(), b.getPtrTy());
  Value* returns = b.CreateCall(
      arrive, {ctx, b.getInt32(point), b.getInt32(*step.levels[point - 1]), step.level_sites[point - 1]}, "returns");
  auto* leave = BasicBlock::Create(b.getContext(), "leave" + Twine(point), region->getParent());
  b.CreateCondBr(returns, leave, region);
  b.SetInsertPoint(leave);
  b.CreateRetVoid();
}

}  // namespace cohort_loops
