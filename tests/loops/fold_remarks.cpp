// The loops pass's remark on tiles' cg::reduce and scans (the test
// loops_fold_remarks): three with a stateless operator and a vote on the lane
// arrays, one with an operator that holds state through the records.
#include <cohort/cohort.hpp>

namespace cg = cohort;

__global__ void remark_tile_folds(const int* in, int* out) {
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const int v = in[threadIdx.x];
  const int offset = in[0];
  out[4 * threadIdx.x] = cg::reduce(tile, v, cg::plus<int>());
  out[4 * threadIdx.x + 1] = cg::inclusive_scan(tile, v, cg::greater<int>());
  out[4 * threadIdx.x + 2] = cg::exclusive_scan(tile, v, [](int a, int b) { return a - b; });
  out[4 * threadIdx.x + 3] = cg::reduce(tile, v, [offset](int a, int b) { return a + b + offset; }) + tile.any(v > 0);
}
