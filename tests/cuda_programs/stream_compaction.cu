// Stream compaction (keep the elements that pass a predicate, in order) in three
// kernels: each warp counts its survivors with __ballot_sync and __popc, a
// single block scans the per-block counts, and each thread scatters its element
// at block offset + warp offset + the survivors among the lanes below it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define N 200000
#define BLOCK_THREADS 256
#define WARPS_PER_BLOCK (BLOCK_THREADS / 32)
#define SCAN_THREADS 1024

#define CUDA_CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __host__ inline bool keep(int v) { return v % 3 == 0 || v > 900; }

__global__ void count_survivors(const int* in, int n, int* block_counts) {
  __shared__ int warp_counts[WARPS_PER_BLOCK];
  int i = blockIdx.x * BLOCK_THREADS + threadIdx.x;
  unsigned ballot = __ballot_sync(0xffffffffu, i < n && keep(in[i]));
  if ((threadIdx.x & 31) == 0) warp_counts[threadIdx.x / 32] = __popc(ballot);
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int w = 0; w < WARPS_PER_BLOCK; w++) total += warp_counts[w];
    block_counts[blockIdx.x] = total;
  }
}

// exclusive scan of up to SCAN_THREADS counts in one block (Hillis-Steele, double buffered)
__global__ void scan_counts(const int* counts, int* offsets, int nblocks, int* total) {
  __shared__ int buf[2][SCAN_THREADS];
  int t = threadIdx.x, in = 0;
  buf[0][t] = (t > 0 && t <= nblocks) ? counts[t - 1] : 0;
  __syncthreads();
  for (int d = 1; d < SCAN_THREADS; d <<= 1) {
    int out = 1 - in;
    buf[out][t] = buf[in][t] + (t >= d ? buf[in][t - d] : 0);
    __syncthreads();
    in = out;
  }
  if (t < nblocks) offsets[t] = buf[in][t];
  if (t == nblocks) *total = buf[in][t];
}

__global__ void scatter_survivors(const int* in, int n, const int* offsets, int* out) {
  __shared__ int warp_offsets[WARPS_PER_BLOCK];
  int i = blockIdx.x * BLOCK_THREADS + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  bool pred = i < n && keep(in[i]);
  unsigned ballot = __ballot_sync(0xffffffffu, pred);
  if (lane == 0) warp_offsets[warp] = __popc(ballot);
  __syncthreads();
  if (threadIdx.x == 0) {
    int run = offsets[blockIdx.x];
    for (int w = 0; w < WARPS_PER_BLOCK; w++) { int c = warp_offsets[w]; warp_offsets[w] = run; run += c; }
  }
  __syncthreads();
  if (pred) out[warp_offsets[warp] + __popc(ballot & ((1u << lane) - 1))] = in[i];
}

int main() {
  std::vector<int> h_in(N);
  srand(99);
  for (int i = 0; i < N; i++) h_in[i] = rand() % 1000;
  int nblocks = (N + BLOCK_THREADS - 1) / BLOCK_THREADS;
  if (nblocks >= SCAN_THREADS) { printf("too many blocks\n"); return 1; }
  int *d_in, *d_out, *d_counts, *d_offsets, *d_total;
  CUDA_CHECK(cudaMalloc((void**)&d_in, N * sizeof(int)));
  CUDA_CHECK(cudaMalloc((void**)&d_out, N * sizeof(int)));
  CUDA_CHECK(cudaMalloc((void**)&d_counts, nblocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc((void**)&d_offsets, nblocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc((void**)&d_total, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), N * sizeof(int), cudaMemcpyHostToDevice));

  count_survivors<<<nblocks, BLOCK_THREADS>>>(d_in, N, d_counts);
  scan_counts<<<1, SCAN_THREADS>>>(d_counts, d_offsets, nblocks, d_total);
  scatter_survivors<<<nblocks, BLOCK_THREADS>>>(d_in, N, d_offsets, d_out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  int total = 0;
  CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> h_out(N);
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, N * sizeof(int), cudaMemcpyDeviceToHost));

  std::vector<int> expected;
  for (int v : h_in)
    if (keep(v)) expected.push_back(v);
  int errors = 0;
  if (total != (int)expected.size()) {
    printf("kept %d elements, expected %zu\n", total, expected.size());
    errors++;
  } else {
    for (int i = 0; i < total; i++)
      if (h_out[i] != expected[i] && errors++ < 10) printf("out[%d] = %d, expected %d\n", i, h_out[i], expected[i]);
  }
  cudaFree(d_in); cudaFree(d_out); cudaFree(d_counts); cudaFree(d_offsets); cudaFree(d_total);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("kept %d of %d\nTest passed\n", total, N);
  return 0;
}
