// Thread-block clusters through CUDA's names: a kernel declared with
// __cluster_dims__, and one launched with cudaLaunchKernelEx and
// cudaLaunchAttributeClusterDimension (2-D clusters); each block reads its
// cluster neighbours' shared memory through map_shared_rank between
// cluster.sync()s, and reports block_rank, num_blocks, dim_blocks and
// block_index; cudaOccupancyMaxActiveClusters and cudaDevAttrClusterLaunch.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int kThreads = 64;

// Each block fills its shared array with (block id * 1000 + thread), then
// sums, per thread, the same element of every block of its cluster.
__device__ void exchange(int* out, int* shape) {
  __shared__ int mine[kThreads];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned block_id = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  mine[threadIdx.x] = (int)block_id * 1000 + (int)threadIdx.x;
  cluster.sync();
  int sum = 0;
  for (unsigned r = 0; r < cluster.num_blocks(); ++r) sum += *cluster.map_shared_rank(&mine[threadIdx.x], r);
  cluster.sync();  // no block leaves while another reads its shared memory
  out[block_id * kThreads + threadIdx.x] = sum;
  if (threadIdx.x == 0) {
    const dim3 d = cluster.dim_blocks(), i = cluster.block_index();
    int* s = shape + block_id * 6;
    s[0] = (int)cluster.block_rank();
    s[1] = (int)cluster.num_blocks();
    s[2] = (int)(d.x * 100 + d.y * 10 + d.z);
    s[3] = (int)(i.x * 100 + i.y * 10 + i.z);
    s[4] = (int)cluster.num_threads();
    s[5] = (int)cluster.thread_rank();
  }
}

__global__ void __cluster_dims__(2, 1, 1) fixed_clusters(int* out, int* shape) { exchange(out, shape); }
__global__ void launched_clusters(int* out, int* shape) { exchange(out, shape); }

// What the launch must give, from the grid and cluster shapes alone.
static int check(const char* what, dim3 grid, dim3 cluster, const std::vector<int>& out, const std::vector<int>& shape) {
  int errors = 0;
  const unsigned per_cluster = cluster.x * cluster.y * cluster.z;
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x) {
        const unsigned id = x + grid.x * (y + grid.y * z);
        const dim3 in(x % cluster.x, y % cluster.y, z % cluster.z);
        const dim3 first(x - in.x, y - in.y, z - in.z);
        const unsigned rank = in.x + cluster.x * (in.y + cluster.y * in.z);
        int id_sum = 0;
        for (unsigned c = 0; c < cluster.z; ++c)
          for (unsigned b = 0; b < cluster.y; ++b)
            for (unsigned a = 0; a < cluster.x; ++a)
              id_sum += (int)((first.x + a) + grid.x * ((first.y + b) + grid.y * (first.z + c)));
        const int want_shape[6] = {(int)rank, (int)per_cluster, (int)(cluster.x * 100 + cluster.y * 10 + cluster.z),
                                   (int)(in.x * 100 + in.y * 10 + in.z), (int)(per_cluster * kThreads),
                                   (int)(rank * kThreads)};
        for (int k = 0; k < 6; ++k)
          if (shape[id * 6 + k] != want_shape[k] && errors++ < 8)
            std::printf("%s: block %u, field %d: %d, expected %d\n", what, id, k, shape[id * 6 + k], want_shape[k]);
        for (int t = 0; t < kThreads; ++t) {
          const int want = id_sum * 1000 + (int)per_cluster * t;
          if (out[id * kThreads + t] != want && errors++ < 8)
            std::printf("%s: block %u thread %d: %d, expected %d\n", what, id, t, out[id * kThreads + t], want);
        }
      }
  return errors;
}

int main() {
  int cluster_launch = 0;
  CHECK(cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, 0));
  if (!cluster_launch) {
    std::printf("FAILED: the device reports no cluster launch\n");
    return 1;
  }
  const int max_blocks = 64;
  int *out, *shape;
  CHECK(cudaMalloc(&out, max_blocks * kThreads * sizeof(int)));
  CHECK(cudaMalloc(&shape, max_blocks * 6 * sizeof(int)));
  std::vector<int> h_out(max_blocks * kThreads), h_shape(max_blocks * 6);
  int errors = 0;

  // __cluster_dims__(2, 1, 1) on an ordinary launch.
  const dim3 grid1(8, 1, 1);
  fixed_clusters<<<grid1, kThreads>>>(out, shape);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_out.data(), out, h_out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_shape.data(), shape, h_shape.size() * sizeof(int), cudaMemcpyDeviceToHost));
  errors += check("__cluster_dims__(2, 1, 1)", grid1, dim3(2, 1, 1), h_out, h_shape);

  // 2 x 2 clusters through cudaLaunchKernelEx.
  const dim3 grid2(4, 4, 2), cluster2(2, 2, 1);
  cudaLaunchConfig_t config = {};
  config.gridDim = grid2;
  config.blockDim = dim3(kThreads);
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = cluster2.x;
  attribute[0].val.clusterDim.y = cluster2.y;
  attribute[0].val.clusterDim.z = cluster2.z;
  config.attrs = attribute;
  config.numAttrs = 1;
  int clusters = 0;
  CHECK(cudaOccupancyMaxActiveClusters(&clusters, launched_clusters, &config));
  if (clusters < 1) std::printf("cudaOccupancyMaxActiveClusters: %d\n", clusters), ++errors;
  CHECK(cudaLaunchKernelEx(&config, launched_clusters, out, shape));
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_out.data(), out, h_out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_shape.data(), shape, h_shape.size() * sizeof(int), cudaMemcpyDeviceToHost));
  errors += check("cudaLaunchAttributeClusterDimension 2x2x1", grid2, cluster2, h_out, h_shape);

  CHECK(cudaFree(out));
  CHECK(cudaFree(shape));
  if (errors) {
    std::printf("FAILED: %d mismatches\n", errors);
    return 1;
  }
  std::printf("clusters: ok (up to %d clusters of 2x2 blocks at once)\n", clusters);
  return 0;
}
