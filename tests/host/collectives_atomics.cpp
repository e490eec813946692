// The *_update collectives on the host take any atomic shaped like
// cuda::atomic_ref (docs/collectives.md, "Atomic references"): cohort's own,
// and std::atomic_ref and std::atomic, which lack fetch_min/fetch_max and
// take the compare-exchange path for them.
#include <atomic>
#include <cohort/cohort.hpp>

#include "test_support.hpp"

namespace cg = cohort;

namespace {

__global__ void std_atomics(int* counter, int* least, std::atomic<int>* owned, int* offsets) {
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const int v = static_cast<int>(threadIdx.x % 7) - 3;
  offsets[threadIdx.x] = cg::exclusive_scan_update(tile, std::atomic_ref<int>(*counter), 1);
  cg::reduce_update_async(tile, std::atomic_ref<int>(*least), v, cg::less<int>());
  cg::reduce_update_async(tile, *owned, v, cg::plus<int>());
}

TEST(CollectiveAtomics, StdAtomicRefAndStdAtomic) {
  cg::device_buffer<int> counter(std::vector<int>{100}), least(std::vector<int>{0}), offsets(64);
  cg::device_buffer<std::atomic<int>> owned(1);
  owned.data()->store(0);  // device memory starts uninitialized
  cg::launch(std_atomics, {dim3(1), dim3(64)}, counter.data(), least.data(), owned.data(), offsets.data());
  EXPECT_EQ(counter.to_host()[0], 164);
  EXPECT_EQ(least.to_host()[0], -3);
  int sum = 0;
  for (unsigned t = 0; t < 64; ++t) sum += static_cast<int>(t % 7) - 3;
  EXPECT_EQ(owned.data()->load(), sum);
  const auto o = offsets.to_host();
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ((o[t] - 100) % 16, static_cast<int>(t % 16)) << "thread " << t;
}

}  // namespace
