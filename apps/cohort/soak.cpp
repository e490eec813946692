#include "soak.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/hash.hpp"
#include "usage_error.hpp"

namespace cohort_cli {

namespace {

// What thread `gid` publishes in phase `p`.
__host__ __device__ inline std::uint32_t published(std::uint32_t seed, unsigned long long gid, long long p) {
  using cohort_kernels::mix;
  return mix(seed ^ mix(static_cast<std::uint32_t>(gid) ^ mix(static_cast<std::uint32_t>(p))));
}

// Each phase every thread publishes a value, waits at the grid barrier, reads
// the value of a thread `p` places further on (another block, mostly) and adds
// it to its checksum, then waits again before the slots are reused. A value
// read before it was written, or after it was overwritten, breaks the sum.
__global__ void soak_kernel(std::uint32_t* slots, unsigned long long* sums, long long phases, std::uint32_t seed) {
  cohort::grid_group grid = cohort::this_grid();
  const unsigned long long gid = grid.thread_rank();
  const unsigned long long total = grid.num_threads();
  unsigned long long sum = 0;
  for (long long p = 0; p < phases; ++p) {
    slots[gid] = published(seed, gid, p);
    grid.sync();
    sum += slots[(gid + static_cast<unsigned long long>(p)) % total];
    grid.sync();
  }
  sums[gid] = sum;
}

}  // namespace

int run_soak(const soak_options& o) {
  const int most = cohort::get_device_properties().max_threads_per_block;
  if (o.threads > most)
    throw usage_error("--threads " + std::to_string(o.threads) + ": this device runs at most " + std::to_string(most) +
                      " threads per block");
  const int blocks = cohort::max_cooperative_grid(soak_kernel, o.threads);
  if (blocks <= 0) {
    std::fprintf(stderr, "cohort soak: no block of %d threads fits on an SM\n", o.threads);
    return 1;
  }
  const unsigned long long total = static_cast<unsigned long long>(blocks) * o.threads;
  std::vector<unsigned long long> expected(total, 0);
  for (long long p = 0; p < o.phases; ++p)
    for (unsigned long long g = 0; g < total; ++g)
      expected[g] += published(o.seed, (g + static_cast<unsigned long long>(p)) % total, p);
  cohort::device_buffer<std::uint32_t> slots(total);
  cohort::device_buffer<unsigned long long> sums(total);
  std::printf("soak: %d launches of %d blocks x %d threads, %lld phases (%lld grid barriers) each\n", o.launches,
              blocks, o.threads, o.phases, 2 * o.phases);
  unsigned long long wrong = 0;
  double seconds = 0;
  for (int l = 0; l < o.launches; ++l) {
    sums.fill(~0ull);
    const auto start = std::chrono::steady_clock::now();
    cohort::launch_cooperative(soak_kernel, {dim3(blocks), dim3(o.threads)}, slots.data(), sums.data(), o.phases,
                               o.seed);
    cohort::device_synchronize();
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::vector<unsigned long long> got = sums.to_host();
    for (unsigned long long g = 0; g < total; ++g) wrong += got[g] != expected[g];
  }
  const double barriers = 2.0 * static_cast<double>(o.phases) * o.launches;
  std::printf("grid barriers: %.0f in %.3f s (%.2f us each); threads with a wrong checksum: %llu of %llu\n", barriers,
              seconds, seconds / barriers * 1e6, wrong, total * static_cast<unsigned long long>(o.launches));
  return wrong == 0 ? 0 : 1;
}

}  // namespace cohort_cli
