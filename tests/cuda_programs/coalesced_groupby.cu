// Cooperative-groups partitions in data-dependent code: a filter that reserves
// output slots with one atomicAdd per coalesced group (coalesced_threads() inside
// the divergent branch, the base broadcast with shfl), a group-by that splits
// each warp tile by key with labeled_partition and reduces each part, and
// dynamic tiled_partition(block, 8) groups summing through shared memory.
#include <algorithm>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define N 100000
#define KEYS 8
#define THREADS 256

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__device__ int reserve_slot(int* counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int base = 0;
  if (active.thread_rank() == 0) base = atomicAdd(counter, (int)active.num_threads());
  return active.shfl(base, 0) + (int)active.thread_rank();
}

__global__ void filter_positive(const int* src, int n, int* dst, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && src[i] > 0) dst[reserve_slot(count)] = src[i];
}

__global__ void group_by_key(const int* keys, const int* vals, int n, int* sums, int* counts) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int key = i < n ? keys[i] : KEYS;  // past the end: a key of its own, never stored
  int val = i < n ? vals[i] : 0;
  cg::coalesced_group same_key = cg::labeled_partition(tile, key);
  int sum = cg::reduce(same_key, val, cg::plus<int>());
  if (same_key.thread_rank() == 0 && key < KEYS) {
    atomicAdd(&sums[key], sum);
    atomicAdd(&counts[key], (int)same_key.size());
  }
}

__global__ void sums_of_eight(const int* vals, int n, int* out) {
  __shared__ int s[THREADS];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group g8 = cg::tiled_partition(block, 8);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? vals[i] : 0;
  g8.sync();
  if (g8.thread_rank() == 0) {
    int sum = 0;
    for (int k = 0; k < 8; k++) sum += s[threadIdx.x + k];
    if (i < n) out[i / 8] = sum;
  }
}

int main() {
  std::vector<int> h_src(N), h_keys(N);
  srand(12);
  for (int i = 0; i < N; i++) {
    h_src[i] = rand() % 201 - 100;
    h_keys[i] = (rand() % 3 == 0) ? 3 : rand() % KEYS;  // skewed keys: groups of many sizes
  }
  int *d_src, *d_keys, *d_dst, *d_count, *d_sums, *d_counts, *d_eights;
  CHECK(cudaMalloc((void**)&d_src, N * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_keys, N * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_dst, N * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_count, sizeof(int)));
  CHECK(cudaMalloc((void**)&d_sums, KEYS * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_counts, KEYS * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_eights, (N / 8) * sizeof(int)));
  CHECK(cudaMemcpy(d_src, h_src.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_keys, h_keys.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_count, 0, sizeof(int)));
  CHECK(cudaMemset(d_sums, 0, KEYS * sizeof(int)));
  CHECK(cudaMemset(d_counts, 0, KEYS * sizeof(int)));
  int blocks = (N + THREADS - 1) / THREADS;
  filter_positive<<<blocks, THREADS>>>(d_src, N, d_dst, d_count);
  group_by_key<<<blocks, THREADS>>>(d_keys, d_src, N, d_sums, d_counts);
  sums_of_eight<<<blocks, THREADS>>>(d_src, N, d_eights);
  CHECK(cudaGetLastError());
  int count, sums[KEYS], counts[KEYS];
  std::vector<int> eights(N / 8), kept;
  CHECK(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(eights.data(), d_eights, (N / 8) * sizeof(int), cudaMemcpyDeviceToHost));
  if (count >= 0 && count <= N) {
    kept.resize(count);
    CHECK(cudaMemcpy(kept.data(), d_dst, count * sizeof(int), cudaMemcpyDeviceToHost));
  }

  int errors = 0;
  std::vector<int> expect_kept;
  int ref_sums[KEYS] = {0}, ref_counts[KEYS] = {0};
  for (int i = 0; i < N; i++) {
    if (h_src[i] > 0) expect_kept.push_back(h_src[i]);
    ref_sums[h_keys[i]] += h_src[i];
    ref_counts[h_keys[i]]++;
  }
  std::sort(kept.begin(), kept.end());  // the filter's order depends on the schedule
  std::sort(expect_kept.begin(), expect_kept.end());
  if (kept != expect_kept) { printf("filter: %d kept, expected %zu (or different values)\n", count, expect_kept.size()); errors++; }
  for (int k = 0; k < KEYS; k++)
    if (sums[k] != ref_sums[k] || counts[k] != ref_counts[k]) {
      printf("key %d: sum %d count %d, expected %d %d\n", k, sums[k], counts[k], ref_sums[k], ref_counts[k]);
      errors++;
    }
  for (int g = 0; g < N / 8; g++) {
    int s = 0;
    for (int k = 0; k < 8; k++) s += h_src[8 * g + k];
    if (eights[g] != s && errors++ < 10) printf("group %d: %d, expected %d\n", g, eights[g], s);
  }
  cudaFree(d_src); cudaFree(d_keys); cudaFree(d_dst); cudaFree(d_count); cudaFree(d_sums); cudaFree(d_counts); cudaFree(d_eights);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
