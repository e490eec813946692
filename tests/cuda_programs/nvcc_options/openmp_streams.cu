// OpenMP host threads, each launching on a stream of its own, as multi-stream
// codes built with `nvcc -Xcompiler -fopenmp` do: cohort-cxx's compiler (the
// loops engine's clang where there is one) must find <omp.h> and link OpenMP.
#include <omp.h>

#include <cstdio>

__global__ void fill(int* out, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i;
}

int main() {
  const int chunks = 4, n = 1000;
  int* data = nullptr;
  cudaMallocManaged(&data, chunks * n * sizeof(int));
#pragma omp parallel for num_threads(2)
  for (int c = 0; c < chunks; ++c) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    fill<<<(n + 127) / 128, 128, 0, s>>>(data + c * n, n, c * 100000);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
  }
  for (int c = 0; c < chunks; ++c)
    for (int i = 0; i < n; ++i)
      if (data[c * n + i] != c * 100000 + i) {
        std::printf("chunk %d [%d]: %d\n", c, i, data[c * n + i]);
        return 1;
      }
  std::printf("openmp_streams: PASS (%d threads available)\n", omp_get_max_threads());
  return 0;
}
