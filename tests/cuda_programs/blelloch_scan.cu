// Work-efficient (Blelloch) exclusive prefix sum of an arbitrary-length array:
// each block scans 2 * blockDim.x elements in dynamic shared memory (extern
// __shared__, padded against bank conflicts) with an up-sweep and a down-sweep,
// saving its total; the totals are scanned by the same kernel and added back.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)
#define THREADS 256
#define ELEMENTS_PER_BLOCK (2 * THREADS)

#define gpuErrchk(ans) { gpuAssert((ans), __FILE__, __LINE__); }
inline void gpuAssert(cudaError_t code, const char* file, int line) {
  if (code != cudaSuccess) {
    fprintf(stderr, "GPUassert: %s %s %d\n", cudaGetErrorString(code), file, line);
    exit(code);
  }
}

__global__ void prescan(const int* g_idata, int* g_odata, int n, int* block_sums) {
  extern __shared__ int temp[];
  int thid = threadIdx.x;
  int base = blockIdx.x * ELEMENTS_PER_BLOCK;
  int ai = thid, bi = thid + THREADS;
  int bankOffsetA = CONFLICT_FREE_OFFSET(ai), bankOffsetB = CONFLICT_FREE_OFFSET(bi);
  temp[ai + bankOffsetA] = base + ai < n ? g_idata[base + ai] : 0;
  temp[bi + bankOffsetB] = base + bi < n ? g_idata[base + bi] : 0;
  int offset = 1;
  for (int d = ELEMENTS_PER_BLOCK >> 1; d > 0; d >>= 1) {  // up-sweep
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      temp[b] += temp[a];
    }
    offset *= 2;
  }
  if (thid == 0) {
    int last = ELEMENTS_PER_BLOCK - 1 + CONFLICT_FREE_OFFSET(ELEMENTS_PER_BLOCK - 1);
    if (block_sums) block_sums[blockIdx.x] = temp[last];
    temp[last] = 0;
  }
  for (int d = 1; d < ELEMENTS_PER_BLOCK; d *= 2) {  // down-sweep
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      int t = temp[a];
      temp[a] = temp[b];
      temp[b] += t;
    }
  }
  __syncthreads();
  if (base + ai < n) g_odata[base + ai] = temp[ai + bankOffsetA];
  if (base + bi < n) g_odata[base + bi] = temp[bi + bankOffsetB];
}

__global__ void add_block_offsets(int* data, int n, const int* offsets) {
  int i = blockIdx.x * ELEMENTS_PER_BLOCK + threadIdx.x;
  int add = offsets[blockIdx.x];
  if (i < n) data[i] += add;
  if (i + THREADS < n) data[i + THREADS] += add;
}

int main() {
  const int n = 200000;
  const int blocks = (n + ELEMENTS_PER_BLOCK - 1) / ELEMENTS_PER_BLOCK;
  if (blocks > ELEMENTS_PER_BLOCK) { printf("array too long for two levels\n"); return 1; }
  std::vector<int> h_in(n), h_out(n);
  srand(1);
  for (int i = 0; i < n; i++) h_in[i] = rand() % 10;
  int *d_in, *d_out, *d_sums, *d_sum_offsets;
  gpuErrchk(cudaMalloc((void**)&d_in, n * sizeof(int)));
  gpuErrchk(cudaMalloc((void**)&d_out, n * sizeof(int)));
  gpuErrchk(cudaMalloc((void**)&d_sums, blocks * sizeof(int)));
  gpuErrchk(cudaMalloc((void**)&d_sum_offsets, blocks * sizeof(int)));
  gpuErrchk(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  size_t shmem = (ELEMENTS_PER_BLOCK + CONFLICT_FREE_OFFSET(ELEMENTS_PER_BLOCK)) * sizeof(int);
  prescan<<<blocks, THREADS, shmem>>>(d_in, d_out, n, d_sums);
  prescan<<<1, THREADS, shmem>>>(d_sums, d_sum_offsets, blocks, NULL);
  add_block_offsets<<<blocks, THREADS>>>(d_out, n, d_sum_offsets);
  gpuErrchk(cudaPeekAtLastError());
  gpuErrchk(cudaDeviceSynchronize());
  gpuErrchk(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  int errors = 0, running = 0;
  for (int i = 0; i < n; i++) {
    if (h_out[i] != running && errors++ < 10) printf("out[%d] = %d, expected %d\n", i, h_out[i], running);
    running += h_in[i];
  }
  cudaFree(d_in); cudaFree(d_out); cudaFree(d_sums); cudaFree(d_sum_offsets);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("sum %d\nTest passed\n", running);
  return 0;
}
