#include "step_function.hpp"

#include "grid_resume.hpp"
#include "liveness.hpp"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"
#include "recomputed_values.hpp"
#include "runtime_abi.hpp"
#include "thread_position.hpp"
#include "uniformity.hpp"

using namespace llvm;

namespace cohort_loops {

namespace {

struct clone_result {
  Function* step;
  Argument* resume;
  Argument* frame;
  Argument* position[4];  // x, y, z, row
  Argument* kept;         // the block's uniform values kept across barriers, as the region started
  Argument* keep;         // where a thread writes them for the next region
  Argument* lanes[3];     // lane_in, lane_arg, lane_out: shuffles lowered to the lane arrays
  ValueToValueMapTy map;
};

// The kernel's body in a function that also takes the resume point and the
// frame, and returns `exited` where the kernel returns.
void clone_kernel(Function& kernel, clone_result& out) {
  Module& module = *kernel.getParent();
  LLVMContext& context = module.getContext();
  SmallVector<Type*, 8> params(kernel.getFunctionType()->params());
  params.push_back(Type::getInt32Ty(context));
  params.push_back(PointerType::getUnqual(context));
  params.append(4, Type::getInt32Ty(context));
  params.append(5, PointerType::getUnqual(context));
  auto* type = FunctionType::get(Type::getInt32Ty(context), params, false);
  out.step = Function::Create(type, GlobalValue::InternalLinkage, kernel.getName() + ".cohort.step", module);
  auto arg = out.step->arg_begin();
  for (Argument& a : kernel.args()) {
    arg->setName(a.getName());
    out.map[&a] = &*arg++;
  }
  out.resume = &*arg++;
  out.resume->setName("resume");
  out.frame = &*arg++;
  out.frame->setName("frame");
  unsigned field = 0;
  for (const char* name : {"x", "y", "z", "row"}) {
    arg->setName(name);
    out.position[field++] = &*arg++;
  }
  out.kept = &*arg++;
  out.kept->setName("kept");
  out.keep = &*arg++;
  out.keep->setName("keep");
  field = 0;
  for (const char* name : {"lane_in", "lane_arg", "lane_out"}) {
    arg->setName(name);
    out.lanes[field++] = &*arg++;
  }
  SmallVector<ReturnInst*, 4> returns;
  CloneFunctionInto(out.step, &kernel, out.map, CloneFunctionChangeType::GlobalChanges, returns);
  out.step->setLinkage(GlobalValue::InternalLinkage);
  out.step->removeFnAttr(Attribute::NoInline);
  for (ReturnInst* ret : returns) {
    ReturnInst::Create(context, ConstantInt::get(Type::getInt32Ty(context), exited), ret->getIterator());
    ret->eraseFromParent();
  }
}

// Every local of the thread moves into its frame, from `offset` on.
std::uint64_t move_locals_to_frame(Function& step, Argument& frame, IRBuilder<>& at, std::uint64_t offset) {
  const DataLayout& layout = step.getParent()->getDataLayout();
  SmallVector<AllocaInst*, 16> locals;
  for (Instruction& inst : instructions(step))
    if (auto* local = dyn_cast<AllocaInst>(&inst)) locals.push_back(local);
  Align largest(16);
  for (AllocaInst* local : locals) {
    const std::uint64_t size = local->getAllocationSize(layout)->getFixedValue();
    const Align align = local->getAlign();
    offset = alignTo(offset, align);
    Value* slot = at.CreateInBoundsGEP(at.getInt8Ty(), &frame, at.getInt64(offset), local->getName() + ".frame");
    // Lifetime markers belong to allocas; the frame outlives each region.
    for (User* user : make_early_inc_range(local->users()))
      if (auto* marker = dyn_cast<IntrinsicInst>(user); marker && marker->isLifetimeStartOrEnd())
        marker->eraseFromParent();
    local->replaceAllUsesWith(slot);
    local->eraseFromParent();
    offset += size;
    largest = std::max(largest, align);
  }
  return alignTo(offset, largest);
}

// The yields of atomics, fences and sleeps (eligibility.cpp admits them only
// where the kernel cannot poll): a thread of a block function runs to its next
// barrier, there are no other fibers to let run.
void drop_yields(Function& step) {
  SmallVector<CallInst*, 8> yields;
  for (Instruction& inst : instructions(step))
    if (auto* call = dyn_cast<CallInst>(&inst);
        call && call->getCalledFunction() && call->getCalledFunction()->getName() == spin_yield_symbol)
      yields.push_back(call);
  for (CallInst* call : yields) call->eraseFromParent();
}

// A parameter passed in memory (byval) is a copy per call of the step; the
// thread's changes to it must outlive a barrier, so the thread's first step
// copies it into a local, which becomes a frame slot, and every use reads that.
void keep_memory_parameters(Function& step, unsigned kernel_params) {
  BasicBlock& start = step.getEntryBlock();
  IRBuilder<> at(&start, start.getFirstInsertionPt());
  const DataLayout& layout = step.getParent()->getDataLayout();
  for (unsigned i = 0; i < kernel_params; ++i) {
    Type* type = step.getParamByValType(i);
    if (!type) continue;
    Argument* parameter = step.getArg(i);
    const Align align = step.getParamAlign(i).value_or(layout.getABITypeAlign(type));
    AllocaInst* copy = at.CreateAlloca(type, nullptr, parameter->getName() + ".copy");
    copy->setAlignment(align);
    parameter->replaceAllUsesWith(copy);
    at.CreateMemCpy(copy, align, parameter, align, layout.getTypeAllocSize(type));
  }
}

// Values the same for every thread, kept across a barrier: one slot per block
// instead of one per thread. A region reads them from `kept`, as the last
// region left them, and writes them to `keep`, which the block function
// copies over `kept` between regions: every thread of a region reads what the
// region started with, while the deciding thread already writes what the next
// region will read (the others write where nobody reads: the same values).
// A region writes only the values it defines; the others stay in `keep` from
// an earlier region of the same call, or from the kept store where the call
// resumed at a grid barrier (grid_resume.hpp's restore_block). Each thread reloads a value where it resumes after a
// barrier; SSAUpdater joins the reloads with the definition. Returns the slots' bytes.
std::uint64_t keep_uniform_values(Function& step, ArrayRef<Instruction*> values, ArrayRef<BasicBlock*> resumes,
                                  Argument& kept, Argument& keep) {
  const DataLayout& layout = step.getParent()->getDataLayout();
  SmallVector<std::uint64_t, 8> offsets;
  std::uint64_t bytes = 0;
  for (Instruction* value : values) {
    bytes = alignTo(bytes, layout.getABITypeAlign(value->getType()));
    offsets.push_back(bytes);
    bytes += layout.getTypeAllocSize(value->getType());
  }
  bytes = alignTo(bytes, 16);
  if (values.empty()) return 0;
  for (unsigned i = 0; i < values.size(); ++i) {
    Instruction* value = values[i];
    BasicBlock* defined = value->getParent();
    IRBuilder<> at(isa<PHINode>(value) ? &*defined->getFirstInsertionPt() : value->getNextNode());
    at.CreateStore(value, at.CreateConstInBoundsGEP1_64(at.getInt8Ty(), &keep, offsets[i]));
    SSAUpdater update;
    update.Initialize(value->getType(), value->getName());
    update.AddAvailableValue(defined, value);
    // (A reload where the value is not live is never used, and deleted later.)
    for (BasicBlock* resume : resumes) {
      if (resume == defined) continue;  // never live into the block that defines it
      IRBuilder<> reload(resume, resume->getFirstInsertionPt());
      Value* slot = reload.CreateConstInBoundsGEP1_64(reload.getInt8Ty(), &kept, offsets[i]);
      update.AddAvailableValue(resume, reload.CreateLoad(value->getType(), slot, value->getName() + ".kept"));
    }
    SmallVector<Use*, 8> uses;
    for (Use& use : value->uses()) uses.push_back(&use);
    for (Use* use : uses) {
      auto* user = cast<Instruction>(use->getUser());
      if (user->getParent() == defined && !isa<PHINode>(user)) continue;  // after the definition, in its block
      update.RewriteUseAfterInsertions(*use);
    }
  }
  return bytes;
}

// Where a thread is about to fail the launch (a collective's mask that leaves
// it out, an atomic's misaligned address, a failed assert()), the runtime is
// told which thread it is, so that the message names it as the fiber engine's does.
void name_failing_threads(Function& step, Argument* const (&position)[4]) {
  SmallVector<CallInst*, 8> failing;
  for (Instruction& inst : instructions(step))
    if (auto* call = dyn_cast<CallInst>(&inst))
      if (Function* callee = call->getCalledFunction();
          callee && callee->isDeclaration() && callee->doesNotReturn() &&
          (callee->getName().starts_with("_ZN6cohort6detail4host") || callee->getName() == assert_fail_symbol))
        failing.push_back(call);
  if (failing.empty()) return;
  Module& module = *step.getParent();
  Type* i32 = Type::getInt32Ty(step.getContext());
  FunctionCallee enter =
      module.getOrInsertFunction(enter_thread_symbol, Type::getVoidTy(step.getContext()), i32, i32, i32, i32);
  for (CallInst* call : failing)
    IRBuilder<>(call).CreateCall(enter, {position[0], position[1], position[2], position[3]});
}

// A split block barrier becomes a block barrier at its wait, with the arrive's
// call site (the one the fiber engine compares with the other arrivals of the
// phase); the arrive does nothing (eligibility.hpp: nothing synchronizes between
// them, so every live thread arriving is every live thread reaching the wait).
// Returns the barrier calls.
SmallVector<CallInst*, 4> join_split_barriers(Module& module, ArrayRef<split_barrier> pairs, ValueToValueMapTy& map) {
  SmallVector<CallInst*, 4> joined;
  if (pairs.empty()) return joined;
  LLVMContext& context = module.getContext();
  FunctionCallee block_sync =
      module.getOrInsertFunction(block_sync_symbol, Type::getVoidTy(context), PointerType::getUnqual(context));
  for (const split_barrier& pair : pairs) {
    auto* arrive = cast<CallInst>(map[pair.arrive]);
    auto* wait = cast<CallInst>(map[pair.wait]);
    CallInst* barrier = IRBuilder<>(wait).CreateCall(block_sync, {arrive->getArgOperand(0)});
    barrier->setDebugLoc(wait->getDebugLoc());
    wait->eraseFromParent();
    arrive->eraseFromParent();
    joined.push_back(barrier);
  }
  return joined;
}

// memcpy_async's checking calls are for fibers (the runtime runs such a kernel
// there in the checking mode); in the block function each fails the launch instead.
void refuse_copy_checks(Module& module, ArrayRef<CallInst*> checks, ValueToValueMapTy& map) {
  if (checks.empty()) return;
  LLVMContext& context = module.getContext();
  FunctionCallee refuse =
      module.getOrInsertFunction(unchecked_copy_symbol, Type::getVoidTy(context), PointerType::getUnqual(context));
  cast<Function>(refuse.getCallee())->setDoesNotReturn();
  for (CallInst* check : checks) {
    auto* call = cast<CallInst>(map[check]);
    CallInst* failing = IRBuilder<>(call).CreateCall(refuse, {call->getArgOperand(call->arg_size() - 1)});
    failing->setDoesNotReturn();
    changeToUnreachable(call);
  }
}

// Where every collective is reached by whole warps (uniformity.hpp): the
// layout the proof needs, the rank alone where it suffices.
std::optional<warp_layout> warp_uniform_layout(Function& step, const clone_result& clone,
                                               ArrayRef<CallInst*> collectives) {
  Argument* others[] = {clone.position[1], clone.position[2], clone.frame};
  for (warp_layout layout : {warp_layout::ranks, warp_layout::rows, warp_layout::whole_rows}) {
    const divergence in_warp(step, warp_lanes{clone.position[0], clone.position[3], others, layout});
    if (none_of(collectives, [&](CallInst* call) { return in_warp.divergently_executed(call->getParent()); }))
      return layout;
  }
  return std::nullopt;
}

}  // namespace

step_or_refusal build_step_function(Function& kernel, ArrayRef<CallInst*> barriers, ArrayRef<CallInst*> collectives,
                                    ArrayRef<CallInst*> level_barriers, ArrayRef<split_barrier> split_barriers,
                                    ArrayRef<CallInst*> copy_checks) {
  clone_result clone;
  clone_kernel(kernel, clone);
  Function& step = *clone.step;
  SmallVector<CallInst*, 8> block_barriers;
  for (CallInst* barrier : barriers) block_barriers.push_back(cast<CallInst>(clone.map[barrier]));
  block_barriers.append(join_split_barriers(*kernel.getParent(), split_barriers, clone.map));
  refuse_copy_checks(*kernel.getParent(), copy_checks, clone.map);
  const unsigned barrier_count = block_barriers.size();
  drop_yields(step);
  if (!level_barriers.empty()) compute_thread_local_addresses_once(step);
  const bool position_read = forward_thread_position(step, clone.position);
  name_failing_threads(step, clone.position);
  if (block_barriers.empty() && collectives.empty() && level_barriers.empty()) {
    // The block's coordinates and what is computed from them alone, once per
    // block (a store through a kernel pointer would keep LICM from hoisting them).
    BasicBlock* start = &step.getEntryBlock();
    BasicBlock* entry = BasicBlock::Create(step.getContext(), "uniform", &step, start);
    BranchInst::Create(start, entry);
    const unsigned recomputed = hoist_recomputable(step, *entry, kernel.arg_size());
    return {{&step, 0, 0, position_read, recomputed}, std::nullopt};
  }

  // Barriers only where every thread of the block goes alike: every live
  // thread stops at the same barrier, which the block function then need not
  // check nor keep per thread.
  SmallVector<CallInst*, 8> calls;
  SmallVector<bool, 8> is_collective;
  for (CallInst* barrier : block_barriers) calls.push_back(barrier), is_collective.push_back(false);
  for (CallInst* collective : collectives)
    calls.push_back(cast<CallInst>(clone.map[collective])), is_collective.push_back(true);
  for (CallInst* level_barrier : level_barriers)
    calls.push_back(cast<CallInst>(clone.map[level_barrier])), is_collective.push_back(false);
  const unsigned first_level = barrier_count + collectives.size();
  const divergence divergent(step,
                             {clone.position[0], clone.position[1], clone.position[2], clone.position[3], clone.frame});
  // (Two barrier calls clang merged into one, with a phi of their call sites,
  // is a barrier reached alike whose site may differ: not uniform.)
  const bool uniform = none_of(ArrayRef(calls).take_front(barrier_count), [&](CallInst* call) {
    return divergent.divergently_executed(call->getParent()) || divergent.divergent(call->getArgOperand(0));
  });
  // A grid barrier returns to the scheduler with the block's one resume point.
  if (const std::optional<step_refusal> refused =
          refuse_level_barriers(ArrayRef(calls).drop_front(first_level), level_barriers, divergent, uniform)) {
    step.eraseFromParent();
    return {{}, refused};
  }
  SmallVector<Constant*, 4> level_sites;
  SmallVector<resume_level, 4> levels;
  for (CallInst* level_barrier : ArrayRef(calls).drop_front(first_level))
    level_sites.push_back(cast<Constant>(level_barrier->getArgOperand(0))), levels.push_back(level_of(*level_barrier));
  // A collective's groups complete between two regions: every thread of the
  // block must stop there, or, regions running per warp, every lane of each
  // warp that reaches it.
  const auto collective_calls = ArrayRef(calls).slice(barrier_count, collectives.size());
  const auto diverging =
      find_if(collective_calls, [&](CallInst* call) { return divergent.divergently_executed(call->getParent()); });
  const std::optional<warp_layout> per_warp = uniform && diverging != collective_calls.end()
                                                  ? warp_uniform_layout(step, clone, collective_calls)
                                                  : std::nullopt;
  // Regions per warp do not return to the scheduler at grid or cluster barriers (block_function.cpp).
  if (per_warp && !level_barriers.empty()) {
    const Instruction* where = collectives[diverging - collective_calls.begin()];
    step.eraseFromParent();
    return {{},
            step_refusal{"a warp or tile collective in warp-uniform control flow in a kernel with " +
                             barrier_words(level_of(*level_barriers.front())) +
                             ", not lowered yet (regions per warp do not return at grid or cluster barriers)",
                         where}};
  }
  if (per_warp)
    for (unsigned i = 0; i < collective_calls.size(); ++i)
      if (!lowerable_shuffle(*collective_calls[i])) {
        const Instruction* where = collectives[i];
        step.eraseFromParent();
        return {{},
                step_refusal{"a warp or tile collective through the fiber engine's records (cg::reduce or a scan "
                             "with an operator that holds state, a match of a value wider than 16 bytes, a tile wider "
                             "than 32, a mask "
                             "computed at run time other than a kernel parameter) in a kernel with "
                             "collectives in warp-uniform control flow",
                             where}};
      }
  for (unsigned i = barrier_count; i < first_level; ++i)
    if ((divergent.divergently_executed(calls[i]->getParent()) && !per_warp) || !uniform) {
      const Instruction* where = collectives[i - barrier_count];
      step.eraseFromParent();
      return {{},
              step_refusal{uniform ? "a warp or tile collective in thread-dependent control flow (lowered only "
                                     "where every thread of the block reaches it)"
                                   : "a warp or tile collective in a kernel with a barrier in thread-dependent "
                                     "control flow",
                           where}};
    }
  keep_memory_parameters(step, kernel.arg_size());

  // The code after each barrier starts a block of its own: a resume point.
  SmallVector<BasicBlock*, 8> resumes;
  for (CallInst* call : calls) resumes.push_back(SplitBlock(call->getParent(), call->getNextNode()));
  // Shuffles with a constant mask exchange through the lane arrays, not their records.
  // Their results, new to the divergence analysis, differ between threads.
  SmallVector<std::optional<lane_point>, 8> lane_points;
  SmallPtrSet<const Instruction*, 8> shuffled;
  for (unsigned i = 0; i < calls.size(); ++i) {
    lane_points.push_back(is_collective[i] ? lowerable_shuffle(*calls[i]) : std::nullopt);
    if (lane_points.back()) {
      lane_points.back()->uniform_arg = !divergent.divergent(shuffle_argument(*calls[i]));
      shuffled.insert(lower_shuffle(*calls[i], *lane_points.back(), *resumes[i], clone.position[0], clone.position[3],
                                    clone.lanes[0], clone.lanes[1], clone.lanes[2]));
      is_collective[i] = false;
    }
  }
  const bool any_collective = any_of(is_collective, [](bool collective) { return collective; });
  // A new entry, which will dispatch on the resume point; what every call can
  // recompute there needs no frame slot.
  LLVMContext& context = step.getContext();
  BasicBlock* start = &step.getEntryBlock();
  BasicBlock* dispatch = BasicBlock::Create(context, "dispatch", &step, start);
  BranchInst::Create(start, dispatch);
  const unsigned recomputed = hoist_recomputable(step, *dispatch, kernel.arg_size());

  // What else is live after a barrier: per block where it is uniform, else in
  // memory, which move_locals_to_frame makes the thread's own.
  const SetVector<Instruction*> live = values_live_into(step, resumes);
  SmallVector<Instruction*, 8> per_thread, per_block;
  for (Instruction* value : live)
    if (!isa<AllocaInst>(value) && value->getParent() != dispatch)
      (uniform && !divergent.divergent(value) && !shuffled.contains(value) ? per_block : per_thread).push_back(value);
  if (!level_barriers.empty() && keeps_thread_local_address(step, per_thread, per_block)) {
    step.eraseFromParent();
    return {{},
            step_refusal{"a thread-local address (shared memory's, a runtime variable's) kept across " +
                             barrier_words(level_of(*level_barriers.front())),
                         level_barriers.front()}};
  }
  for (Instruction* value : per_thread) DemoteRegToStack(*value);
  const std::uint64_t uniform_bytes = keep_uniform_values(step, per_block, resumes, *clone.kept, *clone.keep);

  // A barrier returns its resume point, and records its call site where
  // threads may differ; a collective records its call (members, operation, site).
  for (unsigned i = 0; i < calls.size(); ++i) {
    CallInst* call = calls[i];
    Instruction* branch = call->getParent()->getTerminator();
    IRBuilder<> at(branch);
    if (!uniform || is_collective[i]) at.CreateStore(call->getArgOperand(0), clone.frame);
    at.CreateRet(at.getInt32(i + 1));
    branch->eraseFromParent();
    call->eraseFromParent();
  }

  // The frame's slots are computed in the entry, which then dispatches.
  Instruction* to_start = dispatch->getTerminator();
  IRBuilder<> at(to_start);
  const std::uint64_t frame_bytes =
      move_locals_to_frame(step, *clone.frame, at, uniform && !any_collective ? 0 : site_slot_bytes);
  SwitchInst* to = at.CreateSwitch(clone.resume, start, calls.size());
  for (unsigned i = 0; i < resumes.size(); ++i) to->addCase(at.getInt32(i + 1), resumes[i]);
  to_start->eraseFromParent();
  step_function result{&step,
                       frame_bytes,
                       unsigned(per_thread.size()),
                       position_read,
                       recomputed,
                       unsigned(calls.size()),
                       uniform,
                       unsigned(per_block.size()),
                       uniform_bytes};
  result.per_warp = per_warp;
  result.collective = is_collective;
  result.lane_points = lane_points;
  result.collectives = collectives.size();
  result.level_barriers = level_barriers.size();
  for (unsigned i = 0; i < calls.size(); ++i) {
    result.level_sites.push_back(i < first_level ? nullptr : level_sites[i - first_level]);
    result.levels.push_back(i < first_level ? std::nullopt : std::optional(levels[i - first_level]));
  }
  if (!level_barriers.empty()) result.block_shared = block_shared_memory(kernel);
  return {result, std::nullopt};
}

}  // namespace cohort_loops