#include "eligibility.hpp"
#include "grid_resume.hpp"
#include "lane_exchange.hpp"
#include "recomputed_values.hpp"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "runtime_abi.hpp"

using namespace llvm;

namespace cohort_loops {

namespace {

// C library functions that never reach a barrier and never wait for another thread.
bool is_plain_library_function(StringRef name) {
  static const StringSet<> names = {
      "memcpy",  "memmove", "memset",    "printf",     "puts",     "abs",       "labs",      "llabs",      "sqrt",
      "sqrtf",   "cbrt",    "cbrtf",     "exp",        "expf",     "exp2",      "exp2f",     "expm1",      "expm1f",
      "log",     "logf",    "log2",      "log2f",      "log10",    "log10f",    "log1p",     "log1pf",     "pow",
      "powf",    "sin",     "sinf",      "cos",        "cosf",     "tan",       "tanf",      "asin",       "asinf",
      "acos",    "acosf",   "atan",      "atanf",      "atan2",    "atan2f",    "sinh",      "sinhf",      "cosh",
      "coshf",   "tanh",    "tanhf",     "erf",        "erff",     "erfc",      "erfcf",     "fabs",       "fabsf",
      "floor",   "floorf",  "ceil",      "ceilf",      "round",    "roundf",    "trunc",     "truncf",     "fmod",
      "fmodf",   "fmin",    "fminf",     "fmax",       "fmaxf",    "fma",       "fmaf",      "hypot",      "hypotf",
      "sincos",  "sincosf", "lround",    "lroundf",    "rint",     "rintf",     "nearbyint", "nearbyintf", "frexp",
      "frexpf",  "ldexp",   "ldexpf",    "modf",       "modff",    "scalbn",    "scalbnf",   "ilogb",      "ilogbf",
      "logb",    "logbf",   "remainder", "remainderf", "remquo",   "remquof",   "fdim",      "fdimf",      "lgamma",
      "lgammaf", "tgamma",  "tgammaf",   "exp10",      "exp10f",   "asinh",     "asinhf",    "acosh",      "acoshf",
      "atanh",   "atanhf",  "nextafter", "nextafterf", "copysign", "copysignf", "j0",        "j0f",        "j1",
      "j1f",     "y0",      "y0f",       "y1",         "y1f",      "malloc",    "free",      "calloc",     "realloc"};
  return names.contains(name);
}

// Other functions defined elsewhere that never reach a barrier and never wait for another thread:
// the clocks clock() and clock64() read, and cohort's directed-rounding intrinsics, compiled out of
// line (src/compat/rounding_intrinsics.cpp: __fsqrt_rd, __fadd_ru, __fmul_rz, __ddiv_rn, ...).
bool is_plain_runtime_function(StringRef demangled) {
  if (demangled.starts_with("std::chrono::") && demangled.ends_with("_clock::now()")) return true;
  if (!demangled.starts_with("__")) return false;
  const StringRef name = demangled.take_until([](char c) { return c == '('; });
  return name.ends_with("_rn") || name.ends_with("_rz") || name.ends_with("_ru") || name.ends_with("_rd");
}

// Why a call into cohort's runtime keeps the kernel on fibers: each is a
// synchronization point or a service the thread loops do not provide yet.
std::string runtime_call_reason(StringRef demangled) {
  auto has = [&](StringRef part) { return demangled.contains(part); };
  if (has("multi_grid")) return "a multi-grid collective, not lowered yet";
  if (has("grid_") || has("require_cooperative"))
    return "a grid collective or a split grid barrier (barrier_arrive / barrier_wait on the grid), not lowered yet";
  if (has("map_shared") || has("query_shared"))
    return "distributed shared memory (map_shared_rank / query_shared_rank), not lowered yet";
  if (has("cluster"))
    return "a cluster collective or a split cluster barrier (barrier_arrive / barrier_wait on the cluster), not "
           "lowered yet";
  if (has("converge"))
    return "coalesced_threads() or __activemask() (which lanes are converged is not defined by thread loops)";
  if (has("rendezvous") || has("collective") || has("lane") || has("tile") || has("shuffle") || has("shfl") ||
      has("vote") || has("ballot") || has("match"))
    return "a warp or tile collective (shuffle, vote, tile sync, coalesced group), not lowered yet";
  return "a call into cohort's runtime (" + demangled.str() + "), not lowered yet";
}

// A runtime function that reports a misuse and fails the launch: it never
// returns, so it reaches no barrier and waits for no thread.
bool fails_the_launch(const Function& callee, StringRef demangled) {
  return callee.doesNotReturn() && demangled.starts_with("cohort::detail::host::") &&
         (demangled.contains("::fail_") || demangled.contains("::usage_error"));
}

// An atomic or volatile access whose result is read: where it decides when a
// loop ends, a thread may be polling memory another thread writes, which in a
// thread loop would wait for a thread that only runs after it.
bool reads_shared_state(const Instruction& inst) {
  if (const auto* load = dyn_cast<LoadInst>(&inst)) return load->isAtomic() || load->isVolatile();
  if (isa<AtomicCmpXchgInst>(inst) || isa<AtomicRMWInst>(inst)) return !inst.use_empty();
  return false;
}

const Value* without_casts(const Value* v) {
  while (const auto* cast = dyn_cast<CastInst>(v)) v = cast->getOperand(0);
  return v;
}

// Whether `block` is where `loop` may end: one of its exits leads on (an exit into a failure, such as a
// misaligned atomic's report, a call that never returns, is no way for a thread to end a loop).
bool ends_loop(const Loop& loop, const BasicBlock& block) {
  return any_of(successors(&block), [&](const BasicBlock* next) {
    return !loop.contains(next) && !isa<UnreachableInst>(next->getTerminator());
  });
}

// A lock-free retry (`do { expected = old; old = atomicCAS(p, expected, f(expected)); } while (old !=
// expected)`, and cohort's own read-modify-writes): the compare-exchange expects, in its loop, what it
// last read. It fails only when another thread changed the value in between, so it ends as soon as no
// other thread intervenes: it waits for no one.
bool retries_until_it_succeeds(const AtomicCmpXchgInst& cas, const LoopInfo& loops) {
  const Loop* loop = loops.getLoopFor(cas.getParent());
  const auto* expected = dyn_cast<PHINode>(without_casts(cas.getCompareOperand()));
  if (!loop || !expected || expected->getParent() != loop->getHeader()) return false;
  for (unsigned k = 0; k < expected->getNumIncomingValues(); ++k) {
    if (!loop->contains(expected->getIncomingBlock(k))) continue;
    const auto* read = dyn_cast<ExtractValueInst>(without_casts(expected->getIncomingValue(k)));
    if (!read || read->getAggregateOperand() != &cas || read->getIndices()[0] != 0) return false;
  }
  return true;
}

// Whether a branch that leaves a loop containing `read` depends on the value it read (through the values
// computed from it; not through memory, where a value the thread stores and loads back is the same
// value, or one another thread raced with). A call that takes it may return anything: it counts.
bool decides_a_loop_exit(const Instruction& read, const LoopInfo& loops) {
  if (const auto* cas = dyn_cast<AtomicCmpXchgInst>(&read); cas && retries_until_it_succeeds(*cas, loops)) return false;
  const Loop* innermost = loops.getLoopFor(read.getParent());
  if (!innermost) return false;
  SmallVector<const Instruction*, 16> work{&read};
  SmallPtrSet<const Instruction*, 32> seen{&read};
  while (!work.empty()) {
    const Instruction* value = work.pop_back_val();
    for (const User* user : value->users()) {
      const auto* inst = dyn_cast<Instruction>(user);
      if (!inst || !seen.insert(inst).second) continue;
      if (inst->isTerminator()) {
        for (const Loop* loop = innermost; loop; loop = loop->getParentLoop())
          if (ends_loop(*loop, *inst->getParent())) return true;
        continue;
      }
      if (isa<StoreInst>(inst)) continue;  // an address computed from it, or the value kept in memory
      if (const auto* cas = dyn_cast<AtomicCmpXchgInst>(inst); cas && retries_until_it_succeeds(*cas, loops)) continue;
      if (const auto* call = dyn_cast<CallBase>(inst); call && !isa<IntrinsicInst>(call)) return true;
      work.push_back(inst);
    }
  }
  return false;
}

// Whether `loop` may be a thread waiting: how it ends depends on something read in it, a load (plain
// too: a flag polled with a fence or a sleep between the reads) or an atomic other than a lock-free
// retry. A loop that ends by its counter alone (a grid-stride loop) waits for no one, whatever atomics
// it holds.
bool may_wait(const Loop& loop, const LoopInfo& loops) {
  SmallVector<BasicBlock*, 4> exiting;
  loop.getExitingBlocks(exiting);
  SmallVector<const Value*, 16> work;
  for (const BasicBlock* block : exiting)
    if (ends_loop(loop, *block)) work.append(block->getTerminator()->op_begin(), block->getTerminator()->op_end());
  SmallPtrSet<const Value*, 32> seen;
  while (!work.empty()) {
    const auto* inst = dyn_cast<Instruction>(work.pop_back_val());
    if (!inst || !loop.contains(inst) || !seen.insert(inst).second) continue;
    if (const auto* load = dyn_cast<LoadInst>(inst);
        load && (reads_block_coordinates(*load) || reads_thread_index(*load)))
      continue;  // the same each time round (a grid-stride loop's blockDim and gridDim)
    if (isa<LoadInst>(inst) || isa<AtomicRMWInst>(inst)) return true;
    if (const auto* cas = dyn_cast<AtomicCmpXchgInst>(inst)) {
      if (!retries_until_it_succeeds(*cas, loops)) return true;
      continue;  // its inputs come from before the retry
    }
    if (const auto* call = dyn_cast<CallBase>(inst); call && !isa<IntrinsicInst>(call)) return true;
    work.append(inst->op_begin(), inst->op_end());
  }
  return false;
}

// A call where a thread meets others: a barrier of any level, a collective, a split barrier's arrive or wait.
bool synchronizes(const CallInst& call) {
  const Function* callee = call.getCalledFunction();
  if (!callee) return false;  // an indirect call, refused for itself
  const StringRef name = callee->getName();
  return name == block_sync_symbol || is_level_barrier(name) || name == rendezvous_symbol ||
         name == block_arrive_symbol || name == block_wait_symbol || lowerable_shuffle(call);
}

// Why `arrive` and the wait on its token cannot be one block barrier at the
// wait (the arrive doing nothing): on some path from the arrive the thread
// meets another synchronization (a barrier, whose phase its pending arrival
// would complete, or the arrive again: the fiber engine's "arrived twice"), or
// exits (the fiber engine then takes its arrival back). A path into a failure
// of the launch ends nowhere.
std::optional<refusal> between_arrive_and_wait(const CallInst& arrive, const CallInst& wait) {
  SmallVector<const Instruction*, 8> work{arrive.getNextNode()};
  SmallPtrSet<const BasicBlock*, 16> seen;
  while (!work.empty()) {
    for (const Instruction* inst = work.pop_back_val(); inst && inst != &wait; inst = inst->getNextNode()) {
      if (const auto* call = dyn_cast<CallInst>(inst); call && synchronizes(*call))
        return refusal{
            "a split block barrier with a barrier, a collective or another barrier_arrive between "
            "barrier_arrive and barrier_wait",
            call};
      if (isa<ReturnInst>(inst))
        return refusal{"a split block barrier where a thread may exit between barrier_arrive and barrier_wait",
                       &arrive};
      if (inst->isTerminator())
        for (const BasicBlock* next : successors(inst->getParent()))
          if (seen.insert(next).second) work.push_back(&next->front());
    }
  }
  return std::nullopt;
}

// Pairs each barrier_wait with the barrier_arrive whose token it spends: the
// wait's phase is the arrive's result itself (after SROA, the token's local is
// gone), and that is the result's one use. Anything else (a wait on a token
// already spent, an arrive without a wait, a token kept in memory) stays on
// fibers, whose runtime diagnoses the misuse.
std::optional<refusal> pair_split_barriers(ArrayRef<CallInst*> arrives, ArrayRef<CallInst*> waits,
                                           SmallVectorImpl<split_barrier>& pairs) {
  const char* unpaired =
      "a split block barrier whose token does not go from one barrier_arrive to one barrier_wait (a wait on a "
      "token already waited on, an arrive without a wait, a token kept in memory)";
  for (CallInst* wait : waits) {
    auto* arrive = dyn_cast<CallInst>(wait->getArgOperand(0));
    if (!arrive || !arrive->getCalledFunction() || arrive->getCalledFunction()->getName() != block_arrive_symbol ||
        !arrive->hasOneUse())
      return refusal{unpaired, wait};
    if (std::optional<refusal> refused = between_arrive_and_wait(*arrive, *wait)) return refused;
    pairs.push_back({arrive, wait});
  }
  for (CallInst* arrive : arrives)
    if (none_of(pairs, [&](const split_barrier& pair) { return pair.arrive == arrive; }))
      return refusal{unpaired, arrive};
  return std::nullopt;
}

class checker {
 public:
  checker(Function& kernel, FunctionAnalysisManager& functions) : kernel_(kernel), functions_(functions) {}

  eligibility run() {
    eligibility result;
    if (kernel_.hasOptNone()) {
      result.refused = refusal{"compiled without optimization (-O0); the pass needs -O1 or higher", nullptr};
      return result;
    }
    if (kernel_.isVarArg()) {
      result.refused = refusal{"a variadic kernel", nullptr};
      return result;
    }
    SetVector<Function*> reached;
    reached.insert(&kernel_);
    for (size_t i = 0; i < reached.size() && !result.refused; ++i)
      result.refused = check_function(*reached[i], reached, result);
    if (!result.refused) result.refused = pair_split_barriers(arrives_, waits_, result.split_barriers);
    // Found in a function the kernel calls: named at the kernel's call that reaches it.
    if (result.refused && result.refused->where && result.refused->where->getFunction() != &kernel_)
      result.refused->where = reached_from_.lookup(result.refused->where->getFunction());
    if (result.refused)
      result.barriers.clear(), result.collectives.clear(), result.level_barriers.clear(), result.split_barriers.clear(),
          result.copy_checks.clear();
    return result;
  }

 private:
  std::optional<refusal> check_function(Function& f, SetVector<Function*>& reached, eligibility& found) {
    LoopInfo& loops = functions_.getResult<LoopAnalysis>(f);
    const bool in_kernel = &f == &kernel_;
    // The checks for polls below look in loops; a cycle that is not one (goto
    // into a loop's body) could hide a poll from them.
    ReversePostOrderTraversal<Function*> order(&f);
    if (containsIrreducibleCFG<const BasicBlock*>(order, loops)) {
      const Instruction* located = nullptr;
      for (const Instruction& inst : instructions(f))
        if (inst.getDebugLoc()) {
          located = &inst;
          break;
        }
      return refusal{"irreducible control flow (a cycle with more than one entry)", located};
    }
    for (BasicBlock& block : f) {
      for (Instruction& inst : block) {
        if (isa<InvokeInst>(inst) || isa<CallBrInst>(inst) || inst.isEHPad())
          return refusal{"exception handling (a call with cleanup or a handler)", &inst};
        if (const auto* alloca = dyn_cast<AllocaInst>(&inst); alloca && !alloca->isStaticAlloca())
          return refusal{"a local of variable size (alloca)", &inst};
        if (const auto* alloca = dyn_cast<AllocaInst>(&inst); alloca && alloca->getAlign().value() > 64)
          return refusal{"a local aligned to more than 64 bytes (frames are 64-byte aligned)", &inst};
        if (reads_shared_state(inst) && decides_a_loop_exit(inst, loops))
          return refusal{
              "an atomic or volatile read deciding when a loop ends (it may poll memory another thread writes)", &inst};
        if (isa<FenceInst>(inst) && loops.getLoopFor(&block))
          return refusal{"a fence inside a loop (it may order a poll of memory another thread writes)", &inst};
        auto* call = dyn_cast<CallInst>(&inst);
        if (!call) continue;
        if (call->isInlineAsm()) return refusal{"inline assembly", &inst};
        Function* callee = call->getCalledFunction();
        if (!callee) return refusal{"an indirect call, which may reach a barrier", &inst};
        if (callee->isIntrinsic()) continue;
        const StringRef name = callee->getName();
        if (name == block_sync_symbol) {
          if (!in_kernel)
            return refusal{"a block barrier inside `" + demangle(f.getName()) + "`, which was not inlined", &inst};
          if (call->arg_size() != 1 || !call->getArgOperand(0)->getType()->isPointerTy())
            return refusal{"block_sync with an unexpected ABI (its source_location is not one pointer)", &inst};
          found.barriers.push_back(call);
          continue;
        }
        if (is_level_barrier(name)) {
          // A point where the block returns to the scheduler (grid_resume.hpp).
          if (!in_kernel)
            return refusal{
                barrier_words(level_of(name)) + " inside `" + demangle(f.getName()) + "`, which was not inlined",
                &inst};
          found.level_barriers.push_back(call);
          continue;
        }
        if (name == block_arrive_symbol || name == block_wait_symbol) {
          if (!in_kernel)
            return refusal{"a split block barrier inside `" + demangle(f.getName()) + "`, which was not inlined",
                           &inst};
          (name == block_arrive_symbol ? arrives_ : waits_).push_back(call);
          continue;
        }
        if (is_copy_check(*call)) {
          // Never called on loops: the runtime runs the kernel on fibers in the checking mode.
          if (!in_kernel)
            return refusal{"memcpy_async's checking mode inside `" + demangle(f.getName()) + "`, which was not inlined",
                           &inst};
          found.copy_checks.push_back(call);
          continue;
        }
        if (is_contained(level_query_symbols, name)) continue;  // the block's place in its cluster, its grid's rank
        if (name == rendezvous_symbol) {
          if (!in_kernel)
            return refusal{"a warp or tile collective inside `" + demangle(f.getName()) + "`, which was not inlined",
                           &inst};
          found.collectives.push_back(call);
          continue;
        }
        if (in_kernel && lowerable_shuffle(*call)) {  // a shuffle on the lane arrays (lane_exchange.hpp)
          found.collectives.push_back(call);
          continue;
        }
        if (name == spin_yield_symbol) {
          // An atomic's, fence's or sleep's yield: dropped from the kernel's
          // own body, which has no loop that may wait (checked here and above, per instruction).
          if (!in_kernel)
            return refusal{"atomics, fences or sleeps inside `" + demangle(f.getName()) + "`, which was not inlined",
                           &inst};
          for (const Loop* loop = loops.getLoopFor(&block); loop; loop = loop->getParentLoop())
            if (may_wait(*loop, loops))
              return refusal{
                  "atomics, fences or sleeps inside a loop that ends on something read in it (a thread may "
                  "wait there for another)",
                  &inst};
          continue;
        }
        if (name == misaligned_atomic_symbol) continue;  // fails the launch, on either engine
        if (!callee->isDeclaration()) {
          if (callee->isInterposable())
            return refusal{"a call to `" + demangle(name) + "`, which another definition may replace", &inst};
          if (reached.insert(callee)) reached_from_[callee] = in_kernel ? &inst : reached_from_.lookup(&f);
          continue;
        }
        if (is_plain_library_function(name)) continue;
        if (name == assert_fail_symbol) continue;  // a failed assert() fails the launch, on either engine
        if (name.starts_with("__cxa_")) return refusal{"exception handling (a throw or a handler)", &inst};
        const std::string demangled = demangle(name);
        if (fails_the_launch(*callee, demangled) || is_plain_runtime_function(demangled)) continue;
        if (StringRef(demangled).starts_with("cohort::")) return refusal{runtime_call_reason(demangled), &inst};
        return refusal{"a call to `" + demangled + "`, defined elsewhere, which may reach a barrier", &inst};
      }
    }
    return std::nullopt;
  }

  Function& kernel_;
  FunctionAnalysisManager& functions_;
  DenseMap<const Function*, const Instruction*> reached_from_;  // the kernel's call through which each was reached
  SmallVector<CallInst*, 4> arrives_, waits_;                   // the kernel's split block barrier calls
};

// Whether `f` calls rendezvous, a split block barrier or a memcpy_async checking
// call, itself or through functions defined here (`seen` guards against recursion).
bool reaches_collective(const Function& f, SmallPtrSetImpl<const Function*>& seen) {
  if (!seen.insert(&f).second) return false;
  for (const Instruction& inst : instructions(f))
    if (const auto* call = dyn_cast<CallInst>(&inst))
      if (const Function* callee = call->getCalledFunction()) {
        if (callee->getName() == rendezvous_symbol || callee->getName() == block_arrive_symbol ||
            callee->getName() == block_wait_symbol || is_copy_check(*call))
          return true;
        if (!callee->isDeclaration() && !callee->isInterposable() && reaches_collective(*callee, seen)) return true;
      }
  return false;
}

}  // namespace

bool inline_collective_helpers(Function& kernel) {
  bool inlined = false;
  // Rounds of inlining, each a level deeper; a bound, for recursion.
  for (unsigned round = 0; round < 16; ++round) {
    SmallVector<CallInst*, 8> calls;
    for (Instruction& inst : instructions(kernel))
      if (auto* call = dyn_cast<CallInst>(&inst))
        if (Function* callee = call->getCalledFunction(); callee && callee != &kernel && !callee->isDeclaration() &&
                                                          !callee->isInterposable() && !lowerable_shuffle(*call)) {
          SmallPtrSet<const Function*, 8> seen;
          if (reaches_collective(*callee, seen)) calls.push_back(call);
        }
    if (calls.empty()) break;
    for (CallInst* call : calls) {
      InlineFunctionInfo info;
      inlined = InlineFunction(*call, info).isSuccess() || inlined;
    }
  }
  return inlined;
}

eligibility check_eligibility(Function& kernel, FunctionAnalysisManager& functions) {
  return checker(kernel, functions).run();
}

bool is_copy_check(const CallInst& call) {
  const Function* callee = call.getCalledFunction();
  return callee && any_of(copy_check_prefixes, [&](StringRef prefix) { return callee->getName().starts_with(prefix); });
}

std::string source_line(const Instruction* where) {
  if (!where) return "";
  const DILocation* loc = where->getDebugLoc().get();
  if (!loc) return "";
  // The kernel's own line, where the instruction came from an inlined header function.
  while (const DILocation* caller = loc->getInlinedAt()) loc = caller;
  return (loc->getFilename() + ":" + Twine(loc->getLine())).str();
}

}  // namespace cohort_loops
