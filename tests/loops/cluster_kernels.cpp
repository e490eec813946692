// Kernels with cluster barriers (cluster_kernels.hpp). Built by clang with the loops pass.
#include "cluster_kernels.hpp"

#include <cohort/cohort.hpp>

namespace cg = cohort;

namespace {

__global__ void cluster_rounds_kernel(const float* in, float* exchange, float* out, unsigned rounds) {
  __shared__ float mirrored[1024];
  float* scratch = cg::dynamic_shared<float>();
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
  const unsigned i = block * blockDim.x + threadIdx.x;
  // The next block of the cluster (clusters of cluster.num_blocks() × 1 blocks along x).
  const unsigned rank = cluster.block_rank(), size = cluster.num_blocks();
  const unsigned next = (block - rank + (rank + 1) % size) * blockDim.x + threadIdx.x;
  float v = in[i];
  unsigned mine = block + 1;  // the block's own, kept once per block
  mirrored[threadIdx.x] = v * 0.5f;
  scratch[threadIdx.x] = v - 1.0f;
  if (rank == 0) {  // a block barrier under a branch on the block's rank in its cluster
    scratch[threadIdx.x] += 1.0f;
    __syncthreads();
    v += scratch[blockDim.x - 1 - threadIdx.x];
  }
  for (unsigned r = 0; r < rounds; ++r) {
    exchange[i] = v;
    cluster.sync();
    const float read = exchange[next];
    __syncthreads();
    v += read * 0.25f + static_cast<float>(mine % 7u);
    cluster.sync();  // every block of the cluster has read the round's values before the next round writes
    mine = mine * 1103515245u + 12345u;
  }
  __syncthreads();
  out[i] = v + mirrored[blockDim.x - 1 - threadIdx.x] + scratch[threadIdx.x];
}

__global__ void cluster_left_kernel(int* out, unsigned leaver) {
  if (blockIdx.x == leaver) return;
  out[blockIdx.x] = 1;
  cg::this_cluster().sync();  // cluster_left_line
  out[blockIdx.x] = 2;
}

__global__ void cluster_ring_kernel(int* out) {
  __shared__ int mine;
  const cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) mine = static_cast<int>(blockIdx.x) * 3;
  cluster.sync();
  const int* next = cluster.map_shared_rank(&mine, static_cast<int>((cluster.block_rank() + 1) % cluster.num_blocks()));
  out[blockIdx.x * blockDim.x + threadIdx.x] = *next;
  cluster.sync();  // no block leaves while another reads its shared memory
}

}  // namespace

namespace loops_tests {

const unsigned cluster_left_line = 44;

std::vector<float> cluster_rounds(const std::vector<float>& in, unsigned grid_x, unsigned grid_y, unsigned block,
                                  unsigned cluster, unsigned rounds) {
  cg::device_buffer<float> din(in), exchange(in.size()), dout(in.size());
  cg::launch_config config{dim3(grid_x, grid_y), dim3(block), block * sizeof(float)};
  config.cluster = dim3(cluster);
  cg::launch(cluster_rounds_kernel, config, din.data(), exchange.data(), dout.data(), rounds);
  return dout.to_host();
}
engine_choice cluster_rounds_engine() { return cohort::host::engine_for(cluster_rounds_kernel); }

void cluster_barrier_left(unsigned blocks, unsigned block, unsigned cluster, unsigned leaver) {
  cg::device_buffer<int> out(blocks);
  cg::launch_config config{dim3(blocks), dim3(block)};
  config.cluster = dim3(cluster);
  cg::launch(cluster_left_kernel, config, out.data(), leaver);
}

std::vector<int> cluster_ring(unsigned blocks, unsigned block, unsigned cluster) {
  cg::device_buffer<int> out(blocks * block);
  cg::launch_config config{dim3(blocks), dim3(block)};
  config.cluster = dim3(cluster);
  cg::launch(cluster_ring_kernel, config, out.data());
  return out.to_host();
}
engine_choice cluster_ring_engine() { return cohort::host::engine_for(cluster_ring_kernel); }

}  // namespace loops_tests
