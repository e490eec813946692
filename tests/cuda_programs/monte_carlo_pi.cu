// Estimating pi by Monte Carlo: every thread runs its own xorshift generator
// seeded from its global index, throws points on a 2^15 x 2^15 integer grid and
// counts those inside the quarter circle; warps add their counts with
// __reduce_add_sync, blocks through shared memory, and one 64-bit atomicAdd per
// block. Integer arithmetic makes the count exact, so the host reproduces it.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCKS 64
#define THREADS 256
#define SAMPLES_PER_THREAD 512
#define GRID_BITS 15
#define R2 ((1ull << GRID_BITS) * (1ull << GRID_BITS))

#define CUDA_CALL(x) do { if ((x) != cudaSuccess) { \
  printf("Error at %s:%d\n", __FILE__, __LINE__); return EXIT_FAILURE; } } while (0)

__host__ __device__ inline unsigned xorshift32(unsigned& state) {
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return state;
}

__host__ __device__ inline unsigned count_inside(unsigned seed) {
  unsigned state = seed * 2654435761u + 12345u, inside = 0;
  for (int s = 0; s < SAMPLES_PER_THREAD; s++) {
    unsigned long long x = xorshift32(state) >> (32 - GRID_BITS), y = xorshift32(state) >> (32 - GRID_BITS);
    inside += x * x + y * y < R2;
  }
  return inside;
}

__global__ void monte_carlo(unsigned long long* total) {
  __shared__ unsigned warp_sums[THREADS / 32];
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned inside = count_inside(tid);
  unsigned warp_sum = __reduce_add_sync(0xffffffffu, inside);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = warp_sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long block_sum = 0;
    for (int w = 0; w < THREADS / 32; w++) block_sum += warp_sums[w];
    atomicAdd(total, block_sum);
  }
}

int main() {
  unsigned long long* d_total;
  unsigned long long total = 0, expected = 0;
  CUDA_CALL(cudaMalloc((void**)&d_total, sizeof(unsigned long long)));
  CUDA_CALL(cudaMemset(d_total, 0, sizeof(unsigned long long)));
  cudaEvent_t start, stop;
  CUDA_CALL(cudaEventCreate(&start));
  CUDA_CALL(cudaEventCreate(&stop));
  CUDA_CALL(cudaEventRecord(start));
  monte_carlo<<<BLOCKS, THREADS>>>(d_total);
  CUDA_CALL(cudaEventRecord(stop));
  CUDA_CALL(cudaGetLastError());
  CUDA_CALL(cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost));
  CUDA_CALL(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CALL(cudaEventElapsedTime(&ms, start, stop));
  for (unsigned t = 0; t < BLOCKS * THREADS; t++) expected += count_inside(t);
  const double samples = (double)BLOCKS * THREADS * SAMPLES_PER_THREAD;
  double pi = 4.0 * total / samples;
  printf("pi ~ %.6f from %.0f samples in %.2f ms (host count %llu, device %llu)\n", pi, samples, ms, expected, total);
  CUDA_CALL(cudaFree(d_total));
  if (total != expected || fabs(pi - 3.14159265) > 0.01) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
