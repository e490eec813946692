// The reductions in the order the seed develops them; the sum_*
// examples run one each, `cohort bench reduce` runs them all.
#pragma once

#include <array>

#include "reduce/atomic.hpp"
#include "reduce/cooperative.hpp"
#include "reduce/shared_tree.hpp"
#include "reduce/two_pass.hpp"
#include "reduce/warp_shuffle.hpp"

namespace cohort_kernels {

inline constexpr std::array reduce_variants{sum_atomic, sum_two_pass, sum_shared_tree, sum_warp_shuffle,
                                            sum_cooperative};

}  // namespace cohort_kernels
