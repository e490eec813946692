// A barrier-free kernel's thread loop in two versions per row of threadIdx.x,
// so that the vectorizer can take the common one. CUDA's index
// `blockIdx.x * blockDim.x + threadIdx.x` is 32-bit: as the compiler knows,
// it may wrap within a row, so its addresses are not provably consecutive
// (the vectorizer cannot bound them: "cannot identify array bounds"), and
// `if (i < n)` needs masked loads and stores. Where, for the row at hand, each
// such index does not wrap and each comparison of one with a value the same
// for the whole row holds at both ends of the row (so everywhere in it), the
// row runs a copy of the loop with those comparisons true and the indices
// widened without wrap; other rows (a partial last block) run the loop as it is.
#pragma once

namespace llvm {
class BasicBlock;
class Function;
class Value;
}  // namespace llvm

namespace cohort_loops {

// `header`: the thread loop's header, its counter x the first phi (from 0 by
// 1 to dim_x). Returns whether the loop was versioned.
bool version_rows(llvm::Function& block, llvm::BasicBlock* header, llvm::Value* dim_x);

}  // namespace cohort_loops
