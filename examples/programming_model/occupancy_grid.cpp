// Sizing a cooperative launch so that
// every block is co-resident, the two ways the seed shows — one block per SM,
// and the occupancy calculator's blocks per SM times the SM count, the grid
// that fills the device — after asking the device whether it can launch
// cooperatively at all. The kernel does what needs grid.sync(): it reverses
// an array in two grid-stride passes, staging every element before reading
// any back, so each thread reads elements other blocks wrote; the output must
// be the reversed input after either launch, and the grid must be valid.
//
// 100003 elements leave the last pass short for some threads.
//
// Usage: occupancy_grid [n]   (default 100003)
#include <cstddef>
#include <cstdio>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/example_main.hpp"
#include "common/random_input.hpp"
#include "common/result_check.hpp"

namespace cg = cohort;

__global__ void my_kernel(const int* in, int* staged, int* out, unsigned n, int* valid) {
  cg::grid_group grid = cg::this_grid();
  if (grid.thread_rank() == 0) *valid = grid.is_valid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.num_threads()) staged[i] = in[i];
  grid.sync();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.num_threads()) out[i] = staged[n - 1 - i];
}

namespace {

using namespace cohort_kernels;

bool run(const char* how, int blocks, int numThreads, const std::vector<int>& values) {
  const unsigned n = static_cast<unsigned>(values.size());
  const cg::device_buffer<int> in(values);
  cg::device_buffer<int> staged(n), out(n), valid(1);
  // The seed's cudaLaunchCooperativeKernel(my_kernel, dimGrid, dimBlock, kernelArgs).
  const dim3 dimBlock(static_cast<unsigned>(numThreads), 1, 1);
  const dim3 dimGrid(static_cast<unsigned>(blocks), 1, 1);
  cg::launch_cooperative(my_kernel, {dimGrid, dimBlock}, in.data(), staged.data(), out.data(), n, valid.data());
  const std::vector<int> got = out.to_host();

  std::printf("%-28s %d blocks of %d threads\n", how, blocks, numThreads);
  result_check check(how);
  check.expect(valid.to_host()[0] == 1, "grid.is_valid() was false in a cooperative launch");
  for (unsigned i = 0; i < n; ++i)
    check.expect(got[i] == values[n - 1 - i], "out[%u] = %d, expected in[%u] = %d", i, got[i], n - 1 - i,
                 values[n - 1 - i]);
  return check.report();
}

}  // namespace

int main(int argc, char** argv) {
  const example_info info{
      "occupancy_grid: cooperative grids sized by SM count and occupancy", "[n]  (default 100003)", {100003}};
  return run_example(argc, argv, info, [](const std::vector<unsigned>& args) {
    int dev = 0;
    const long long supportsCoopLaunch = cg::get_device_attribute(cg::device_attribute::cooperative_launch, dev);
    std::printf("cooperative launch attribute: %lld\n", supportsCoopLaunch);
    if (!supportsCoopLaunch) {
      std::printf("this device cannot launch cooperatively, so grid.sync() cannot run\n");
      return false;
    }
    const cg::device_properties deviceProp = cg::get_device_properties(dev);
    const std::vector<int> values = random_ints(args[0]);

    // Number of threads my_kernel will be launched with
    int numThreads = 128;
    /// This will launch a grid that can maximally fill the GPU, on the default stream with kernel arguments
    int numBlocksPerSm = cg::max_active_blocks_per_sm(my_kernel, numThreads, 0);
    std::printf("occupancy: %d blocks of %d threads per SM, %d SMs\n", numBlocksPerSm, numThreads,
                deviceProp.multiprocessor_count);

    const bool per_sm = run("one block per SM", deviceProp.multiprocessor_count, numThreads, values);
    const bool filled =
        run("blocks per SM x SMs", deviceProp.multiprocessor_count * numBlocksPerSm, numThreads, values);
    return per_sm && filled;
  });
}
