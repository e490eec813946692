// Block-local LSD radix sort of key/value pairs, one bit per pass: each thread
// holds one pair in shared memory; a pass splits the block by the bit, counting
// the zeros with __syncthreads_count and ranking each thread among the zeros
// below it with __ballot_sync and __popc. Each block sorts its own segment; the
// host compares with a sort by key and input position (radix sort is stable, so
// the values agree).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <tuple>
#include <vector>

#define SORT_THREADS 512
#define SEGMENTS 24
#define KEY_BITS 16

#define CUDA_CHECK(err) do { cudaError_t e_ = (err); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(EXIT_FAILURE); } } while (0)

__global__ void block_radix_sort(unsigned* keys, unsigned* values) {
  __shared__ unsigned s_keys[SORT_THREADS];
  __shared__ unsigned s_vals[SORT_THREADS];
  __shared__ int warp_zeros[SORT_THREADS / 32];
  int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  int base = blockIdx.x * SORT_THREADS;
  s_keys[tid] = keys[base + tid];
  s_vals[tid] = values[base + tid];
  __syncthreads();
  for (int bit = 0; bit < KEY_BITS; bit++) {
    unsigned key = s_keys[tid], val = s_vals[tid];
    int is_one = (key >> bit) & 1;
    unsigned zeros_in_warp = __ballot_sync(0xffffffffu, !is_one);
    if (lane == 0) warp_zeros[warp] = __popc(zeros_in_warp);
    int total_zeros = __syncthreads_count(!is_one);
    int zeros_before = __popc(zeros_in_warp & ((1u << lane) - 1));
    for (int w = 0; w < warp; w++) zeros_before += warp_zeros[w];
    int pos = is_one ? total_zeros + (tid - zeros_before) : zeros_before;
    __syncthreads();  // every thread has read its pair and the warp counts
    s_keys[pos] = key;
    s_vals[pos] = val;
    __syncthreads();
  }
  keys[base + tid] = s_keys[tid];
  values[base + tid] = s_vals[tid];
}

int main() {
  const int n = SEGMENTS * SORT_THREADS;
  std::vector<unsigned> h_keys(n), h_vals(n);
  srand(8086);
  for (int i = 0; i < n; i++) {
    h_keys[i] = rand() % (i < n / 2 ? (1 << KEY_BITS) : 64);  // the second half has many equal keys
    h_vals[i] = i;
  }
  unsigned *d_keys, *d_vals;
  CUDA_CHECK(cudaMalloc((void**)&d_keys, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc((void**)&d_vals, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_keys, h_keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_vals, h_vals.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  block_radix_sort<<<SEGMENTS, SORT_THREADS>>>(d_keys, d_vals);
  CUDA_CHECK(cudaGetLastError());
  std::vector<unsigned> out_keys(n), out_vals(n);
  CUDA_CHECK(cudaMemcpy(out_keys.data(), d_keys, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(out_vals.data(), d_vals, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  int errors = 0;
  for (int s = 0; s < SEGMENTS; s++) {
    std::vector<std::tuple<unsigned, int, unsigned>> seg;  // key, input position, value
    for (int i = s * SORT_THREADS; i < (s + 1) * SORT_THREADS; i++) seg.push_back({h_keys[i], i, h_vals[i]});
    std::sort(seg.begin(), seg.end());
    for (int k = 0; k < SORT_THREADS; k++) {
      int i = s * SORT_THREADS + k;
      const unsigned key = std::get<0>(seg[k]), value = std::get<2>(seg[k]);
      if ((out_keys[i] != key || out_vals[i] != value) && errors++ < 10)
        printf("segment %d, %d: (%u, %u), expected (%u, %u)\n", s, k, out_keys[i], out_vals[i], key, value);
    }
  }
  cudaFree(d_keys); cudaFree(d_vals);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
