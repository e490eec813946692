// Bitonic sort of 2^15 keys: one kernel sorts each 1024-key chunk in shared
// memory (every stage, alternating directions so that neighbouring chunks form
// bitonic sequences), then for each larger stage a global kernel handles the
// strides of 1024 and more and a shared-memory kernel finishes strides 512..1.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define NUM_KEYS (1 << 15)
#define SHARED_SIZE_LIMIT 1024
#define THREADS (SHARED_SIZE_LIMIT / 2)

#define checkCudaErrors(call) do { cudaError_t err = call; if (err != cudaSuccess) { \
  fprintf(stderr, "%s(%d): %s\n", __FILE__, __LINE__, cudaGetErrorString(err)); exit(EXIT_FAILURE); } } while (0)

__device__ inline void compare_swap(unsigned& a, unsigned& b, bool ascending) {
  if ((a > b) == ascending) { unsigned t = a; a = b; b = t; }
}

// Stages 2..SHARED_SIZE_LIMIT on each chunk (first_size == 2) or, with first_size == size, the
// strides below SHARED_SIZE_LIMIT of one larger stage.
__global__ void bitonic_shared(unsigned* keys, unsigned first_size, unsigned last_size) {
  __shared__ unsigned s_key[SHARED_SIZE_LIMIT];
  unsigned base = blockIdx.x * SHARED_SIZE_LIMIT;
  s_key[threadIdx.x] = keys[base + threadIdx.x];
  s_key[threadIdx.x + THREADS] = keys[base + threadIdx.x + THREADS];
  for (unsigned size = first_size; size <= last_size; size <<= 1) {
    unsigned first_stride = size / 2 < SHARED_SIZE_LIMIT / 2 ? size / 2 : SHARED_SIZE_LIMIT / 2;
    for (unsigned stride = first_stride; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));  // lower element of this thread's pair
      bool ascending = ((base + pos) & size) == 0;
      compare_swap(s_key[pos], s_key[pos + stride], ascending);
    }
  }
  __syncthreads();
  keys[base + threadIdx.x] = s_key[threadIdx.x];
  keys[base + threadIdx.x + THREADS] = s_key[threadIdx.x + THREADS];
}

__global__ void bitonic_global(unsigned* keys, unsigned size, unsigned stride) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned partner = i ^ stride;
  if (partner > i) {
    unsigned a = keys[i], b = keys[partner];
    bool ascending = (i & size) == 0;
    if ((a > b) == ascending) { keys[i] = b; keys[partner] = a; }
  }
}

int main() {
  unsigned* h_keys = (unsigned*)malloc(NUM_KEYS * sizeof(unsigned));
  unsigned* h_sorted = (unsigned*)malloc(NUM_KEYS * sizeof(unsigned));
  srand(65537);
  for (int i = 0; i < NUM_KEYS; i++) h_keys[i] = ((unsigned)rand() << 8) ^ (unsigned)rand();
  unsigned* d_keys;
  checkCudaErrors(cudaMalloc((void**)&d_keys, NUM_KEYS * sizeof(unsigned)));
  checkCudaErrors(cudaMemcpy(d_keys, h_keys, NUM_KEYS * sizeof(unsigned), cudaMemcpyHostToDevice));
  int chunks = NUM_KEYS / SHARED_SIZE_LIMIT;
  bitonic_shared<<<chunks, THREADS>>>(d_keys, 2, SHARED_SIZE_LIMIT);
  for (unsigned size = 2 * SHARED_SIZE_LIMIT; size <= NUM_KEYS; size <<= 1) {
    for (unsigned stride = size / 2; stride >= SHARED_SIZE_LIMIT; stride >>= 1)
      bitonic_global<<<NUM_KEYS / 256, 256>>>(d_keys, size, stride);
    bitonic_shared<<<chunks, THREADS>>>(d_keys, size, size);
  }
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaMemcpy(h_sorted, d_keys, NUM_KEYS * sizeof(unsigned), cudaMemcpyDeviceToHost));
  std::sort(h_keys, h_keys + NUM_KEYS);
  int errors = 0;
  for (int i = 0; i < NUM_KEYS; i++)
    if (h_sorted[i] != h_keys[i] && errors++ < 10) printf("key %d: %u, expected %u\n", i, h_sorted[i], h_keys[i]);
  checkCudaErrors(cudaFree(d_keys));
  free(h_keys); free(h_sorted);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
