// cohort's loops pass: clang -O2 -fpass-plugin=<this> turns each eligible
// kernel (`__global__` under clang annotates it) into a block function that
// loops over the block's threads between barriers, and registers it with the
// host runtime; the others stay on fibers, and the pass says why
// (-Rpass-missed=cohort-loops; -Rpass=cohort-loops for those lowered).
// Design: docs/loops-engine.md.
#include <optional>
#include <vector>

#include "block_function.hpp"
#include "eligibility.hpp"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "registration.hpp"
#include "runtime_abi.hpp"
#include "step_function.hpp"

using namespace llvm;

namespace cohort_loops {

namespace {

constexpr const char* pass_name = "cohort-loops";

// The kernels defined in this module: the functions annotated by `__global__`.
std::vector<Function*> annotated_kernels(Module& module) {
  std::vector<Function*> kernels;
  GlobalVariable* annotations = module.getGlobalVariable("llvm.global.annotations");
  if (!annotations || !annotations->hasInitializer()) return kernels;
  auto* entries = dyn_cast<ConstantArray>(annotations->getInitializer());
  if (!entries) return kernels;
  for (Value* entry : entries->operands()) {
    auto* fields = dyn_cast<ConstantStruct>(entry);
    if (!fields || fields->getNumOperands() < 2) continue;
    auto* function = dyn_cast<Function>(fields->getOperand(0)->stripPointerCasts());
    auto* text = dyn_cast<GlobalVariable>(fields->getOperand(1)->stripPointerCasts());
    if (!function || function->isDeclaration() || !text || !text->hasInitializer()) continue;
    auto* bytes = dyn_cast<ConstantDataSequential>(text->getInitializer());
    if (!bytes || !bytes->isCString() || bytes->getAsCString() != kernel_annotation) continue;
    if (std::find(kernels.begin(), kernels.end(), function) == kernels.end()) kernels.push_back(function);
  }
  return kernels;
}

// After inline_collective_helpers: the helpers' locals into registers and
// their code folded into the kernel's, as the inliner's own pipeline would.
// "N grid barrier(s), " in the remark, where the kernel has any of `level`'s.
std::string level_count(const step_function& step, resume_level level, const char* words) {
  const auto n = count(step.levels, std::optional(level));
  return n ? std::to_string(n) + words : std::string();
}

void tidy_after_inlining(Function& kernel, FunctionAnalysisManager& functions) {
  functions.invalidate(kernel, PreservedAnalyses::none());
  FunctionPassManager tidy;
  tidy.addPass(SROAPass(SROAOptions::ModifyCFG));
  tidy.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  tidy.addPass(InstCombinePass());
  tidy.addPass(SimplifyCFGPass());
  functions.invalidate(kernel, tidy.run(kernel, functions));
}

struct lower_kernels : PassInfoMixin<lower_kernels> {
  PreservedAnalyses run(Module& module, ModuleAnalysisManager& modules) {
    const std::vector<Function*> kernels = annotated_kernels(module);
    if (kernels.empty()) return PreservedAnalyses::all();
    FunctionAnalysisManager& functions = modules.getResult<FunctionAnalysisManagerModuleProxy>(module).getManager();
    std::vector<kernel_outcome> outcomes;
    for (Function* kernel : kernels) {
      OptimizationRemarkEmitter remarks(kernel);
      const std::string name = demangle(kernel->getName());
      if (inline_collective_helpers(*kernel)) tidy_after_inlining(*kernel, functions);
      eligibility verdict = check_eligibility(*kernel, functions);
      std::optional<step_or_refusal> built;
      if (!verdict.refused) {
        built = build_step_function(*kernel, verdict.barriers, verdict.collectives, verdict.level_barriers,
                                    verdict.split_barriers, verdict.copy_checks);
        if (built->refused) verdict.refused = refusal{built->refused->reason, built->refused->where};
      }
      if (verdict.refused) {
        std::string reason = verdict.refused->reason;
        if (const std::string line = source_line(verdict.refused->where); !line.empty()) reason += " at " + line;
        remarks.emit([&] {
          if (verdict.refused->where)
            return OptimizationRemarkMissed(pass_name, "StaysOnFibers", verdict.refused->where)
                   << "kernel `" << name << "` stays on the fiber engine: " << reason;
          return OptimizationRemarkMissed(pass_name, "StaysOnFibers", kernel->getSubprogram(), &kernel->getEntryBlock())
                 << "kernel `" << name << "` stays on the fiber engine: " << reason;
        });
        outcomes.push_back({kernel, nullptr, name, reason});
        continue;
      }
      const step_function& step = built->step;
      unsigned in_rounds = 0;
      Function* block = build_block_function(*kernel, step, functions, in_rounds);
      remarks.emit([&] {
        return OptimizationRemark(pass_name, "Lowered", kernel->getSubprogram(), &kernel->getEntryBlock())
               << "kernel `" << name
               << "` runs on the loops engine: " << ore::NV("Barriers", unsigned(verdict.barriers.size()))
               << " barrier(s), "
               << (verdict.split_barriers.empty()
                       ? ""
                       : std::to_string(verdict.split_barriers.size()) + " split barrier(s), ")
               << level_count(step, grid_level, " grid barrier(s), ")
               << level_count(step, cluster_level, " cluster barrier(s), ")
               << level_count(step, multi_grid_level, " multi-grid barrier(s), ")
               << ore::NV("Collectives", step.collectives) << " warp or tile collective(s) ("
               << ore::NV("OnLaneArrays",
                          unsigned(count_if(step.lane_points, [](const auto& p) { return p.has_value(); })))
               << " on the lane arrays), a frame of " << ore::NV("FrameBytes", step.frame_bytes)
               << " bytes per thread (" << ore::NV("FrameValues", step.frame_values) << " values kept across barriers, "
               << ore::NV("BlockValues", step.block_values) << " uniform ones kept once per block, "
               << ore::NV("Recomputed", step.recomputed) << " recomputed at each resume)"
               << (verdict.copy_checks.empty() ? "" : "; memcpy_async on fibers under COHORT_CHECK=memcpy")
               << (step.barriers == 0 ? ""
                   : step.per_warp    ? "; collectives in warp-uniform control flow: regions per warp"
                   : step.uniform     ? "; barriers in block-uniform control flow: one resume point per block"
                                      : "; a barrier in thread-dependent control flow: a resume point per thread")
               << (step.per_warp == warp_layout::rows         ? " (where every warp lies in one row of threadIdx.x)"
                   : step.per_warp == warp_layout::whole_rows ? " (where blockDim.x is a multiple of 32)"
                                                              : "");
      });
      if (in_rounds > 0)
        remarks.emit([&] {
          return OptimizationRemark(pass_name, "InRounds", kernel->getSubprogram(), &kernel->getEntryBlock())
                 << "kernel `" << name << "`: " << ore::NV("InRounds", in_rounds)
                 << " thread loop(s) run their per-thread loop in rounds (iteration k of every thread, then k + 1)";
        });
      std::uint32_t levels = 0;
      for (const std::optional<resume_level>& level : step.levels)
        if (level) levels |= 1u << *level;
      outcomes.push_back({kernel, block, name, "", levels, step.per_warp, !verdict.copy_checks.empty()});
    }
    emit_registrations(module, outcomes);
    return PreservedAnalyses::none();
  }
};

}  // namespace

}  // namespace cohort_loops

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "cohort-loops", "1", [](PassBuilder& builder) {
            // After inlining and simplification (a kernel's helpers, __syncthreads() and
            // threadIdx are inlined by then), before the vectorizer sees the thread loops.
            builder.registerOptimizerEarlyEPCallback(
                [](ModulePassManager& passes, OptimizationLevel) { passes.addPass(cohort_loops::lower_kernels()); });
            // opt -passes=cohort-loops, for inspecting the pass on IR.
            builder.registerPipelineParsingCallback(
                [](StringRef name, ModulePassManager& passes, ArrayRef<PassBuilder::PipelineElement>) {
                  if (name != "cohort-loops") return false;
                  passes.addPass(cohort_loops::lower_kernels());
                  return true;
                });
          }};
}
