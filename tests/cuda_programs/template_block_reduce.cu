// A templated parallel reduction in the style of libraries' hand-tuned kernels:
// the element type, the block size and whether n is a power of two are template
// parameters, each thread first adds two elements per grid-sized step, the tree
// in dynamic shared memory is unrolled on the block size, and the last warp
// finishes with __syncwarp() between each step's reads and writes. A switch on
// the thread count picks the instantiation; a second pass reduces the partials.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define MAX_BLOCKS 64

#define checkCudaErrors(val) do { cudaError_t r = (val); if (r != cudaSuccess) { \
  fprintf(stderr, "CUDA error at %s:%d \"%s\": %s\n", __FILE__, __LINE__, #val, cudaGetErrorString(r)); exit(1); } } while (0)

template <class T, unsigned int blockSize, bool nIsPow2>
__global__ void reduce_tree(const T* g_idata, T* g_odata, unsigned int n) {
  extern __shared__ __align__(sizeof(double)) unsigned char smem_raw[];
  T* sdata = reinterpret_cast<T*>(smem_raw);
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  T mySum = 0;
  while (i < n) {
    mySum += g_idata[i];
    if (nIsPow2 || i + blockSize < n) mySum += g_idata[i + blockSize];
    i += gridSize;
  }
  sdata[tid] = mySum;
  __syncthreads();
  if (blockSize >= 1024) { if (tid < 512) sdata[tid] = mySum = mySum + sdata[tid + 512]; __syncthreads(); }
  if (blockSize >= 512) { if (tid < 256) sdata[tid] = mySum = mySum + sdata[tid + 256]; __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) sdata[tid] = mySum = mySum + sdata[tid + 128]; __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) sdata[tid] = mySum = mySum + sdata[tid + 64]; __syncthreads(); }
  if (tid < 32) {
#pragma unroll
    for (unsigned int s = 32; s > 0; s >>= 1) {
      if (blockSize >= 2 * s) mySum += sdata[tid + s];
      __syncwarp();
      sdata[tid] = mySum;
      __syncwarp();
    }
  }
  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

static bool isPow2(unsigned int x) { return (x & (x - 1)) == 0; }

template <class T>
void reduce(int size, int threads, int blocks, const T* d_idata, T* d_odata) {
  dim3 dimBlock(threads, 1, 1), dimGrid(blocks, 1, 1);
  int smemSize = threads * sizeof(T);
  bool pow2 = isPow2(size) && size >= 2 * threads;  // then every thread's pair is in range
  switch (threads) {
    case 512: if (pow2) reduce_tree<T, 512, true><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
              else reduce_tree<T, 512, false><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
    case 256: if (pow2) reduce_tree<T, 256, true><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
              else reduce_tree<T, 256, false><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
    case 128: if (pow2) reduce_tree<T, 128, true><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
              else reduce_tree<T, 128, false><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
    case 64:  if (pow2) reduce_tree<T, 64, true><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
              else reduce_tree<T, 64, false><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
  }
}

template <class T>
T run(const T* h_data, int n, int threads) {
  T *d_idata, *d_odata, result;
  checkCudaErrors(cudaMalloc((void**)&d_idata, n * sizeof(T)));
  checkCudaErrors(cudaMalloc((void**)&d_odata, MAX_BLOCKS * sizeof(T)));
  checkCudaErrors(cudaMemcpy(d_idata, h_data, n * sizeof(T), cudaMemcpyHostToDevice));
  int blocks = (n + threads * 2 - 1) / (threads * 2);
  if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
  reduce<T>(n, threads, blocks, d_idata, d_odata);
  reduce<T>(blocks, 64, 1, d_odata, d_odata);  // each thread reads its partials before any is overwritten
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaMemcpy(&result, d_odata, sizeof(T), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFree(d_idata));
  checkCudaErrors(cudaFree(d_odata));
  return result;
}

int main() {
  const int sizes[] = {1 << 18, (1 << 18) - 3333, 1000};
  const int thread_counts[] = {512, 256, 128, 64};
  int errors = 0;
  srand(271828);
  for (int n : sizes) {
    int* h_int = (int*)malloc(n * sizeof(int));
    double* h_dbl = (double*)malloc(n * sizeof(double));
    long long int_ref = 0;
    double dbl_ref = 0;
    for (int i = 0; i < n; i++) {
      h_int[i] = rand() & 0xff;
      h_dbl[i] = (double)rand() / RAND_MAX;
      int_ref += h_int[i];
      dbl_ref += h_dbl[i];
    }
    for (int threads : thread_counts) {
      int gi = run<int>(h_int, n, threads);
      double gd = run<double>(h_dbl, n, threads);
      if (gi != int_ref || fabs(gd - dbl_ref) > 1e-9 * dbl_ref) {
        printf("n=%d threads=%d: int %d (expected %lld), double %.12f (expected %.12f)\n", n, threads, gi, int_ref, gd, dbl_ref);
        errors++;
      }
    }
    free(h_int);
    free(h_dbl);
  }
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
