// The analyses a rewrite of one thread loop reads (prefix_split.cpp,
// row_versions.cpp), built together over the block function; the rewrites keep
// the dominator tree and loop info up to date as they change the loop.
#pragma once

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

namespace cohort_loops {

struct loop_analyses {
  explicit loop_analyses(llvm::Function& block)
      : dominators(block),
        loops(dominators),
        library_info(llvm::Triple(block.getParent()->getTargetTriple())),
        library(library_info, &block),
        assumptions(block),
        scev(block, library, assumptions, dominators, loops) {}

  llvm::DominatorTree dominators;
  llvm::LoopInfo loops;
  llvm::TargetLibraryInfoImpl library_info;
  llvm::TargetLibraryInfo library;
  llvm::AssumptionCache assumptions;
  llvm::ScalarEvolution scev;
};

}  // namespace cohort_loops
