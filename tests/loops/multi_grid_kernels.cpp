// Kernels with multi-grid barriers (multi_grid_kernels.hpp). Built by clang with the loops pass.
#include "multi_grid_kernels.hpp"

#include <cohort/cohort.hpp>
#include <memory>
#include <tuple>

namespace cg = cohort;

namespace {

__global__ void multi_grid_reduce_kernel(const unsigned* in, unsigned* partials, unsigned* grid_sums, unsigned* out,
                                         unsigned rounds) {
  __shared__ unsigned values[1024];
  const cg::multi_grid_group mg = cg::this_multi_grid();
  const cg::grid_group grid = cg::this_grid();
  const unsigned g = mg.grid_rank(), grids = mg.num_grids();
  const unsigned i = (g * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  for (unsigned r = 0; r < rounds; ++r) {
    values[threadIdx.x] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned s = 0;
      for (unsigned k = 0; k < blockDim.x; ++k) s += values[k];
      partials[g * gridDim.x + blockIdx.x] = s;
    }
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      unsigned s = 0;
      for (unsigned b = 0; b < gridDim.x; ++b) s += partials[g * gridDim.x + b];
      grid_sums[g] = s;
    }
    mg.sync();
    unsigned total = 0;
    for (unsigned k = 0; k < grids; ++k) total += grid_sums[k];
    v = v * 3 + total % 1000 + threadIdx.x;
    mg.sync();  // every thread has read the round's sums before the next round writes
  }
  out[i] = v;
}

__global__ void multi_grid_left_kernel(int* out, unsigned leaving_grid, unsigned leaver) {
  const cg::multi_grid_group mg = cg::this_multi_grid();
  mg.sync();
  if (mg.grid_rank() == leaving_grid && blockIdx.x == leaver) return;
  mg.sync();  // multi_grid_left_line
  out[0] = 1;
}
__global__ void multi_grid_grid_left_kernel(int* out, unsigned leaver) {
  if (cg::this_multi_grid().grid_rank() == 0 && blockIdx.x == leaver) return;
  cg::this_grid().sync();  // multi_grid_grid_left_line
  cg::this_multi_grid().sync();
  out[0] = 1;
}
__global__ void multi_grid_crossed_kernel(int* out) {
  if (blockIdx.x == 0)
    cg::this_grid().sync();  // multi_grid_crossed_grid_line
  else
    cg::this_multi_grid().sync();  // multi_grid_crossed_line
  out[0] = 1;
}
__global__ void multi_grid_cooperative_kernel(int* out) {
  out[blockIdx.x] = 1;
  cg::this_multi_grid().sync();  // multi_grid_cooperative_line
}

__global__ void multi_grid_thread_ranks_kernel(unsigned long long* out) {
  const cg::multi_grid_group mg = cg::this_multi_grid();
  out[mg.thread_rank()] = mg.thread_rank() * 3 + mg.num_threads();
}
__global__ void multi_grid_count_kernel(int* out) {
  const cg::multi_grid_group mg = cg::this_multi_grid();
  out[mg.thread_rank()] = cg::reduce(mg, 1, cg::plus<int>());
}

std::vector<cg::device_launch> on_devices(unsigned devices, cg::launch_config config) {
  std::vector<cg::device_launch> v;
  for (unsigned d = 0; d < devices; ++d) v.push_back({static_cast<int>(d), config});
  return v;
}

}  // namespace

namespace loops_tests {

const unsigned multi_grid_left_line = 47, multi_grid_grid_left_line = 52, multi_grid_crossed_grid_line = 58,
               multi_grid_crossed_line = 60, multi_grid_cooperative_line = 65;

namespace {

std::vector<unsigned> reduce_launch(const std::vector<unsigned>& in, unsigned devices, cg::launch_config config,
                                    unsigned rounds) {
  const unsigned blocks = config.grid.x;
  cg::device_buffer<unsigned> din(in), partials(devices * blocks), grid_sums(devices), dout(in.size());
  cg::launch_cooperative_multi_device(multi_grid_reduce_kernel, on_devices(devices, config), [&](unsigned) {
    return std::tuple{din.data(), partials.data(), grid_sums.data(), dout.data(), rounds};
  });
  return dout.to_host();
}

}  // namespace

std::vector<unsigned> multi_grid_reduce(const std::vector<unsigned>& in, unsigned devices, unsigned blocks,
                                        unsigned block, unsigned rounds) {
  return reduce_launch(in, devices, {dim3(blocks), dim3(block)}, rounds);
}
engine_choice multi_grid_reduce_engine() { return cohort::host::engine_for(multi_grid_reduce_kernel); }

std::vector<unsigned> multi_grid_reduce_in_clusters(const std::vector<unsigned>& in, unsigned devices, unsigned blocks,
                                                    unsigned block, unsigned rounds, unsigned cluster) {
  cg::launch_config config{dim3(blocks), dim3(block)};
  config.cluster = dim3(cluster);
  return reduce_launch(in, devices, config, rounds);
}

void multi_grid_barrier_left(unsigned devices, unsigned blocks, unsigned block, unsigned leaving_grid,
                             unsigned leaver) {
  cg::device_buffer<int> out(1);
  cg::launch_cooperative_multi_device(multi_grid_left_kernel, on_devices(devices, {dim3(blocks), dim3(block)}),
                                      [&](unsigned) { return std::tuple{out.data(), leaving_grid, leaver}; });
}

void multi_grid_grid_barrier_left(unsigned devices, unsigned blocks, unsigned block, unsigned leaver) {
  cg::device_buffer<int> out(1);
  cg::launch_cooperative_multi_device(multi_grid_grid_left_kernel, on_devices(devices, {dim3(blocks), dim3(block)}),
                                      [&](unsigned) { return std::tuple{out.data(), leaver}; });
}

void multi_grid_levels_crossed(unsigned devices, unsigned blocks, unsigned block) {
  cg::device_buffer<int> out(1);
  cg::launch_cooperative_multi_device(multi_grid_crossed_kernel, on_devices(devices, {dim3(blocks), dim3(block)}),
                                      [&](unsigned) { return std::tuple{out.data()}; });
}

void multi_grid_barrier_cooperative(unsigned blocks, unsigned block) {
  cg::device_buffer<int> out(blocks);
  cg::launch_cooperative(multi_grid_cooperative_kernel, {dim3(blocks), dim3(block)}, out.data());
}
void multi_grid_barrier_not_cooperative(unsigned blocks, unsigned block) {
  cg::device_buffer<int> out(blocks);
  cg::launch(multi_grid_cooperative_kernel, {dim3(blocks), dim3(block)}, out.data());
}

std::vector<unsigned long long> multi_grid_thread_ranks(unsigned devices, unsigned blocks, dim3 block) {
  cg::device_buffer<unsigned long long> out(devices * blocks * block.x * block.y * block.z);
  cg::launch_cooperative_multi_device(multi_grid_thread_ranks_kernel, on_devices(devices, {dim3(blocks), dim3(block)}),
                                      [&](unsigned) { return std::tuple{out.data()}; });
  return out.to_host();
}
engine_choice multi_grid_thread_ranks_engine() { return cohort::host::engine_for(multi_grid_thread_ranks_kernel); }

std::vector<int> multi_grid_count(unsigned devices, unsigned blocks, unsigned block) {
  cg::device_buffer<int> out(devices * blocks * block);
  cg::launch_cooperative_multi_device(multi_grid_count_kernel, on_devices(devices, {dim3(blocks), dim3(block)}),
                                      [&](unsigned) { return std::tuple{out.data()}; });
  return out.to_host();
}
engine_choice multi_grid_count_engine() { return cohort::host::engine_for(multi_grid_count_kernel); }

}  // namespace loops_tests
