// A thread loop whose body tests `index < bound` (or <=, or the mirror),
// index = {start, +, 1} over the loop and bound the same for the whole row:
// true for a prefix of the row's threads, false for the rest. The loop is
// split there into a copy for the prefix, the comparison true, and a copy for
// the rest, the comparison false: the tree reduction's `if (tid < s)` then
// runs s threads of straight-line code (which the vectorizer takes) and an
// empty loop (which LLVM deletes), not every thread with a test. The
// opposite tests (`>=`, `>`) split the same way, and so does an unsigned
// `index == 0` or `!= 0` (`index <= 0`), after the relational ones. Where the
// index may wrap within the row, the row runs the loop as it is.
#pragma once

namespace llvm {
class Function;
}  // namespace llvm

namespace cohort_loops {

// Splits every innermost thread loop of the block function that has such a
// comparison, and each copy again at a second one. Returns how many splits.
unsigned split_thread_loops_at_prefixes(llvm::Function& block);

}  // namespace cohort_loops
