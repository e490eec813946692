// Reductions with warp shuffles, the way libraries write them: warpReduceSum with
// __shfl_down_sync, blockReduceSum through 32 shared slots, a grid-stride loop and
// a two-pass device reduction (per-block partials, then one block); a butterfly
// maximum with __shfl_xor_sync and atomicMax; a count with __ballot_sync/__popc;
// and a float sum finished with a floating-point atomicAdd.
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff
#define N (1 << 20)
#define THREADS 512
#define BLOCKS 64

#define cudaErrCheck(stat) { cudaErrCheck_((stat), __FILE__, __LINE__); }
void cudaErrCheck_(cudaError_t stat, const char* file, int line) {
  if (stat != cudaSuccess) {
    fprintf(stderr, "CUDA Error: %s %s %d\n", cudaGetErrorString(stat), file, line);
    exit(1);
  }
}

__inline__ __device__ int warpReduceSum(int val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) val += __shfl_down_sync(FULL_MASK, val, offset);
  return val;
}

__inline__ __device__ int warpAllMax(int val) {  // every lane ends with the maximum
  for (int mask = warpSize / 2; mask > 0; mask /= 2) val = max(val, __shfl_xor_sync(FULL_MASK, val, mask));
  return val;
}

__inline__ __device__ int blockReduceSum(int val) {
  static __shared__ int shared[32];
  int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  val = warpReduceSum(val);
  if (lane == 0) shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0;
  if (wid == 0) val = warpReduceSum(val);
  return val;
}

__global__ void deviceReduceKernel(const int* in, int* out, int n, int* max_out, unsigned* negatives) {
  int sum = 0, m = INT_MIN;
  unsigned count = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int v = in[i];
    sum += v;
    m = max(m, v);
    count += __popc(__ballot_sync(FULL_MASK, v < 0));  // n and the grid are multiples of 32: whole warps iterate
  }
  sum = blockReduceSum(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
  m = warpAllMax(m);
  if ((threadIdx.x & 31) == 0) {
    atomicMax(max_out, m);
    atomicAdd(negatives, count);
  }
}

__global__ void floatSum(const int* in, int n, float* total) {
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i] * 0.001f;
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, v);
}

int main() {
  int* h_in = (int*)malloc(N * sizeof(int));
  srand(555);
  long long ref_sum = 0;
  int ref_max = INT_MIN;
  unsigned ref_neg = 0;
  for (int i = 0; i < N; i++) {
    h_in[i] = rand() % 2001 - 1000;
    ref_sum += h_in[i];
    if (h_in[i] > ref_max) ref_max = h_in[i];
    ref_neg += h_in[i] < 0;
  }
  int *d_in, *d_partial, *d_sum, *d_max;
  unsigned* d_neg;
  float* d_fsum;
  cudaErrCheck(cudaMalloc((void**)&d_in, N * sizeof(int)));
  cudaErrCheck(cudaMalloc((void**)&d_partial, BLOCKS * sizeof(int)));
  cudaErrCheck(cudaMalloc((void**)&d_sum, sizeof(int)));
  cudaErrCheck(cudaMalloc((void**)&d_max, 2 * sizeof(int)));
  cudaErrCheck(cudaMalloc((void**)&d_neg, 2 * sizeof(unsigned)));
  cudaErrCheck(cudaMalloc((void**)&d_fsum, sizeof(float)));
  cudaErrCheck(cudaMemcpy(d_in, h_in, N * sizeof(int), cudaMemcpyHostToDevice));
  int init_max[2] = {INT_MIN, INT_MIN};
  cudaErrCheck(cudaMemcpy(d_max, init_max, sizeof init_max, cudaMemcpyHostToDevice));
  cudaErrCheck(cudaMemset(d_neg, 0, 2 * sizeof(unsigned)));
  cudaErrCheck(cudaMemset(d_fsum, 0, sizeof(float)));

  deviceReduceKernel<<<BLOCKS, THREADS>>>(d_in, d_partial, N, d_max, d_neg);
  deviceReduceKernel<<<1, 1024>>>(d_partial, d_sum, BLOCKS, d_max + 1, d_neg + 1);  // partials: 64 < 1024
  floatSum<<<BLOCKS, THREADS>>>(d_in, N, d_fsum);
  cudaErrCheck(cudaGetLastError());
  int sum, maxima[2];
  unsigned neg[2];
  float fsum;
  cudaErrCheck(cudaMemcpy(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost));
  cudaErrCheck(cudaMemcpy(maxima, d_max, sizeof maxima, cudaMemcpyDeviceToHost));
  cudaErrCheck(cudaMemcpy(neg, d_neg, sizeof neg, cudaMemcpyDeviceToHost));
  cudaErrCheck(cudaMemcpy(&fsum, d_fsum, sizeof(float), cudaMemcpyDeviceToHost));
  printf("sum %d (expected %lld), max %d (expected %d), negatives %u (expected %u), float sum %f\n", sum, ref_sum,
         maxima[0], ref_max, neg[0], ref_neg, fsum);
  bool ok = sum == ref_sum && maxima[0] == ref_max && neg[0] == ref_neg &&
            fabs(fsum - ref_sum * 0.001) <= 1e-3 * (1.0 + N * 0.001);
  cudaFree(d_in); cudaFree(d_partial); cudaFree(d_sum); cudaFree(d_max); cudaFree(d_neg); cudaFree(d_fsum);
  free(h_in);
  if (!ok) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
