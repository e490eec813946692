// The device heap: after cudaDeviceSetLimit(cudaLimitMallocHeapSize, ...), each
// thread malloc()s a scratch array whose length depends on its index, fills it,
// sums it and free()s it; and, as the programming guide shows for per-block
// buffers, thread 0 of each block allocates one buffer, publishes its pointer
// through a __shared__ variable, the block uses it, and thread 0 frees it.
// A few lines of device printf report from the first block.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCKS 32
#define THREADS 128

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void per_thread_scratch(long long* sums, int* failures) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int len = 1 + tid % 61;
  int* scratch = (int*)malloc(len * sizeof(int));
  if (scratch == NULL) { atomicAdd(failures, 1); sums[tid] = -1; return; }
  for (int k = 0; k < len; k++) scratch[k] = tid * k;
  long long s = 0;
  for (int k = 0; k < len; k++) s += scratch[k];
  sums[tid] = s;
  free(scratch);
}

__global__ void per_block_buffer(int* out, int* failures) {
  __shared__ int* block_buf;
  if (threadIdx.x == 0) {
    block_buf = (int*)malloc(blockDim.x * sizeof(int));
    if (block_buf == NULL) atomicAdd(failures, 1);
  }
  __syncthreads();
  if (block_buf == NULL) return;  // every thread sees the same pointer
  block_buf[threadIdx.x] = threadIdx.x * threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = block_buf[blockDim.x - 1 - threadIdx.x] + (int)blockIdx.x;
  if (blockIdx.x == 0 && threadIdx.x < 2) printf("block %d thread %d: buffer in use\n", blockIdx.x, threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) free(block_buf);
}

int main() {
  size_t heap = 0;
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 * 1024 * 1024));
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  const int n = BLOCKS * THREADS;
  long long* d_sums;
  int *d_out, *d_failures;
  CHECK(cudaMalloc((void**)&d_sums, n * sizeof(long long)));
  CHECK(cudaMalloc((void**)&d_out, n * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_failures, sizeof(int)));
  CHECK(cudaMemset(d_failures, 0, sizeof(int)));
  per_thread_scratch<<<BLOCKS, THREADS>>>(d_sums, d_failures);
  per_block_buffer<<<BLOCKS, THREADS>>>(d_out, d_failures);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  long long* sums = (long long*)malloc(n * sizeof(long long));
  int* out = (int*)malloc(n * sizeof(int));
  int failures = 0, errors = 0;
  CHECK(cudaMemcpy(sums, d_sums, n * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&failures, d_failures, sizeof(int), cudaMemcpyDeviceToHost));
  for (int tid = 0; tid < n; tid++) {
    long long len = 1 + tid % 61, expect = (long long)tid * (len - 1) * len / 2;
    if (sums[tid] != expect && errors++ < 10) printf("thread %d: sum %lld, expected %lld\n", tid, sums[tid], expect);
    int b = tid / THREADS, t = tid % THREADS, u = THREADS - 1 - t;
    if (out[tid] != u * u + b && errors++ < 10) printf("block %d thread %d: %d, expected %d\n", b, t, out[tid], u * u + b);
  }
  printf("heap limit %zu bytes, %d allocation failures\n", heap, failures);
  cudaFree(d_sums); cudaFree(d_out); cudaFree(d_failures);
  free(sums); free(out);
  if (errors || failures || heap < 32 * 1024 * 1024) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
