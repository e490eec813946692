#include "eligibility.hpp"
#include "lane_exchange.hpp"

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
      "memcpy", "memmove", "memset", "printf",  "puts",   "abs",     "labs",  "llabs",  "sqrt",      "sqrtf",
      "cbrt",   "cbrtf",   "exp",    "expf",    "exp2",   "exp2f",   "expm1", "expm1f", "log",       "logf",
      "log2",   "log2f",   "log10",  "log10f",  "log1p",  "log1pf",  "pow",   "powf",   "sin",       "sinf",
      "cos",    "cosf",    "tan",    "tanf",    "asin",   "asinf",   "acos",  "acosf",  "atan",      "atanf",
      "atan2",  "atan2f",  "sinh",   "sinhf",   "cosh",   "coshf",   "tanh",  "tanhf",  "erf",       "erff",
      "erfc",   "erfcf",   "fabs",   "fabsf",   "floor",  "floorf",  "ceil",  "ceilf",  "round",     "roundf",
      "trunc",  "truncf",  "fmod",   "fmodf",   "fmin",   "fminf",   "fmax",  "fmaxf",  "fma",       "fmaf",
      "hypot",  "hypotf",  "sincos", "sincosf", "lround", "lroundf", "rint",  "rintf",  "nearbyint", "nearbyintf"};
  return names.contains(name);
}

// Why a call into cohort's runtime keeps the kernel on fibers: each is a
// synchronization point or a service the thread loops do not provide yet.
std::string runtime_call_reason(StringRef demangled) {
  auto has = [&](StringRef part) { return demangled.contains(part); };
  if (has("block_arrive") || has("block_wait"))
    return "a split block barrier (barrier_arrive / barrier_wait), not lowered yet";
  if (has("multi_grid")) return "a multi-grid barrier or collective, not lowered yet";
  if (has("grid_") || has("require_cooperative"))
    return "a grid collective or a split grid barrier (barrier_arrive / barrier_wait on the grid), not lowered yet";
  if (has("map_shared") || has("query_shared"))
    return "distributed shared memory (map_shared_rank / query_shared_rank), not lowered yet";
  if (has("cluster"))
    return "a cluster collective or a split cluster barrier (barrier_arrive / barrier_wait on the cluster), not "
           "lowered yet";
  if (has("copy") || has("copies") || has("memcpy")) return "memcpy_async and its waits, not lowered yet";
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

// An atomic or volatile access whose result is read: inside a loop it may be a
// thread polling memory another thread writes, which in a thread loop would
// wait for a thread that only runs after it.
bool reads_shared_state(const Instruction& inst) {
  if (const auto* load = dyn_cast<LoadInst>(&inst)) return load->isAtomic() || load->isVolatile();
  if (isa<AtomicCmpXchgInst>(inst) || isa<AtomicRMWInst>(inst)) return !inst.use_empty();
  return false;
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
    // Found in a function the kernel calls: named at the kernel's call that reaches it.
    if (result.refused && result.refused->where && result.refused->where->getFunction() != &kernel_)
      result.refused->where = reached_from_.lookup(result.refused->where->getFunction());
    if (result.refused) result.barriers.clear(), result.collectives.clear(), result.level_barriers.clear();
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
        if (reads_shared_state(inst) && loops.getLoopFor(&block))
          return refusal{"an atomic or volatile read inside a loop (it may poll memory another thread writes)", &inst};
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
        if (name == grid_sync_symbol || name == cluster_sync_symbol) {
          // A point where the block returns to the scheduler (grid_resume.hpp).
          if (!in_kernel)
            return refusal{std::string(name == grid_sync_symbol ? "a grid" : "a cluster") + " barrier inside `" +
                               demangle(f.getName()) + "`, which was not inlined",
                           &inst};
          found.level_barriers.push_back(call);
          continue;
        }
        if (is_contained(cluster_query_symbols, name)) continue;  // the block's rank and shape in its cluster
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
          // own body, which has no polling loop (checked above, per instruction).
          if (!in_kernel)
            return refusal{"atomics, fences or sleeps inside `" + demangle(f.getName()) + "`, which was not inlined",
                           &inst};
          if (loops.getLoopFor(&block))
            return refusal{"atomics, fences or sleeps inside a loop (a thread may wait there for another)", &inst};
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
        if (name.starts_with("__cxa_")) return refusal{"exception handling (a throw or a handler)", &inst};
        const std::string demangled = demangle(name);
        if (fails_the_launch(*callee, demangled)) continue;
        if (StringRef(demangled).starts_with("cohort::")) return refusal{runtime_call_reason(demangled), &inst};
        return refusal{"a call to `" + demangled + "`, defined elsewhere, which may reach a barrier", &inst};
      }
    }
    return std::nullopt;
  }

  Function& kernel_;
  FunctionAnalysisManager& functions_;
  DenseMap<const Function*, const Instruction*> reached_from_;  // the kernel's call through which each was reached
};

// Whether `f` calls rendezvous, itself or through functions defined here
// (`seen` guards against recursion).
bool reaches_collective(const Function& f, SmallPtrSetImpl<const Function*>& seen) {
  if (!seen.insert(&f).second) return false;
  for (const Instruction& inst : instructions(f))
    if (const auto* call = dyn_cast<CallInst>(&inst))
      if (const Function* callee = call->getCalledFunction()) {
        if (callee->getName() == rendezvous_symbol) return true;
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

std::string source_line(const Instruction* where) {
  if (!where) return "";
  const DILocation* loc = where->getDebugLoc().get();
  if (!loc) return "";
  // The kernel's own line, where the instruction came from an inlined header function.
  while (const DILocation* caller = loc->getInlinedAt()) loc = caller;
  return (loc->getFilename() + ":" + Twine(loc->getLine())).str();
}

}  // namespace cohort_loops
