// The warp-synchronous pattern NVIDIA's dxtc sample computes its colour sums
// with (CudaMath.h's colorSums): each of a tile's 16 threads adds another's
// element, sums[i] += sums[i ^ k], with the tile synchronized between steps
// but not between a step's reads and its writes. A GPU runs the 16 lanes of
// one warp through the statement together, so every read precedes every
// write; the host backend runs a tile's threads one after another between
// its synchronizations, so a thread reads a sum another has already updated.
// A data race that cohort does not support, by decision (docs/cuda-compat.md,
// "Warp-synchronous code without __syncwarp()"): this is its reproducer, and
// the fix (the step's reads, a sync, then its writes) gives the GPU's answer.
#include <cooperative_groups.h>

#include "runtime_test_support.hpp"

namespace cg = cooperative_groups;

namespace {

constexpr int lanes = 16;

__global__ void butterfly_sums(int* out, bool reads_then_sync) {
  __shared__ int sums[lanes];
  cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), lanes);
  const int idx = threadIdx.x;
  if (idx >= lanes) return;
  sums[idx] = idx + 1;
  cg::sync(tile);
  for (int k = lanes / 2; k > 0; k >>= 1) {
    if (reads_then_sync) {
      const int other = sums[idx ^ k];
      cg::sync(tile);
      sums[idx] += other;
    } else {
      sums[idx] += sums[idx ^ k];  // dxtc's form: correct only in lockstep
    }
    cg::sync(tile);
  }
  out[idx] = sums[idx];
}

class WarpSynchronous : public FreshDevice {
 protected:
  void SetUp() override { ASSERT_EQ(cudaMallocManaged(&out, lanes * sizeof(int)), cudaSuccess); }
  int* out = nullptr;
};

TEST_F(WarpSynchronous, ReadsSeparatedFromWritesGiveTheGpusSums) {
  butterfly_sums<<<1, 64>>>(out, true);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < lanes; ++i) EXPECT_EQ(out[i], lanes * (lanes + 1) / 2) << "lane " << i;
}

// dxtc's form on the host: of each pair of threads a step couples, the one
// that runs second reads the first's updated sum, so some lanes end wrong
// (which ones depends on the order the scheduler runs them in).
TEST_F(WarpSynchronous, LockstepReadsAreNotEmulated) {
  butterfly_sums<<<1, 64>>>(out, false);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  int gpu_answers = 0;
  for (int i = 0; i < lanes; ++i) gpu_answers += out[i] == lanes * (lanes + 1) / 2;
  EXPECT_LT(gpu_answers, lanes) << "every lane has the GPU's sum: the host now runs a tile's reads before its writes; "
                                   "update docs/cuda-compat.md and enable corpus.dxtc";
}

}  // namespace
