// Overlapping copies and kernels with streams: the input, in page-locked memory
// from cudaHostAlloc, is cut into chunks; each chunk goes to the device with
// cudaMemcpyAsync in one of NSTREAMS streams, is processed by a kernel in that
// stream and comes back with cudaMemcpyAsync. Events time the whole batch and
// one stream's work; the host checks every element after cudaStreamSynchronize.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define NSTREAMS 4
#define CHUNKS 16
#define CHUNK_ELEMS (1 << 14)
#define THREADS 128

#define CUDA_CHECK_RETURN(value) { cudaError_t _m_cudaStat = value; if (_m_cudaStat != cudaSuccess) { \
  fprintf(stderr, "Error %s at line %d in file %s\n", cudaGetErrorString(_m_cudaStat), __LINE__, __FILE__); exit(1); } }

__global__ void polynomial(const float* in, float* out, int n, float c0, float c1, float c2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = in[i];
    out[i] = c0 + x * (c1 + x * c2) + sqrtf(fabsf(x));
  }
}

int main() {
  const int total = CHUNKS * CHUNK_ELEMS;
  const size_t chunk_bytes = CHUNK_ELEMS * sizeof(float);
  float *h_in, *h_out, *d_in, *d_out;
  CUDA_CHECK_RETURN(cudaHostAlloc((void**)&h_in, total * sizeof(float), cudaHostAllocDefault));
  CUDA_CHECK_RETURN(cudaHostAlloc((void**)&h_out, total * sizeof(float), cudaHostAllocDefault));
  CUDA_CHECK_RETURN(cudaMalloc((void**)&d_in, total * sizeof(float)));
  CUDA_CHECK_RETURN(cudaMalloc((void**)&d_out, total * sizeof(float)));
  for (int i = 0; i < total; i++) h_in[i] = (float)((i * 2654435761u) % 10000) / 1000.0f - 5.0f;

  cudaStream_t streams[NSTREAMS];
  for (int s = 0; s < NSTREAMS; s++) CUDA_CHECK_RETURN(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
  cudaEvent_t start, stop, first_start, first_stop;
  CUDA_CHECK_RETURN(cudaEventCreate(&start));
  CUDA_CHECK_RETURN(cudaEventCreate(&stop));
  CUDA_CHECK_RETURN(cudaEventCreate(&first_start));
  CUDA_CHECK_RETURN(cudaEventCreate(&first_stop));
  CUDA_CHECK_RETURN(cudaEventRecord(start, 0));
  CUDA_CHECK_RETURN(cudaEventRecord(first_start, streams[0]));
  for (int c = 0; c < CHUNKS; c++) {
    cudaStream_t st = streams[c % NSTREAMS];
    int offset = c * CHUNK_ELEMS;
    CUDA_CHECK_RETURN(cudaMemcpyAsync(d_in + offset, h_in + offset, chunk_bytes, cudaMemcpyHostToDevice, st));
    polynomial<<<CHUNK_ELEMS / THREADS, THREADS, 0, st>>>(d_in + offset, d_out + offset, CHUNK_ELEMS, 1.0f, -0.5f, 0.25f);
    CUDA_CHECK_RETURN(cudaMemcpyAsync(h_out + offset, d_out + offset, chunk_bytes, cudaMemcpyDeviceToHost, st));
    if (c == CHUNKS - NSTREAMS) CUDA_CHECK_RETURN(cudaEventRecord(first_stop, streams[0]));
  }
  for (int s = 0; s < NSTREAMS; s++) CUDA_CHECK_RETURN(cudaStreamSynchronize(streams[s]));
  CUDA_CHECK_RETURN(cudaEventRecord(stop, 0));
  CUDA_CHECK_RETURN(cudaEventSynchronize(stop));
  CUDA_CHECK_RETURN(cudaGetLastError());
  float all_ms = 0, first_ms = 0;
  CUDA_CHECK_RETURN(cudaEventElapsedTime(&all_ms, start, stop));
  CUDA_CHECK_RETURN(cudaEventElapsedTime(&first_ms, first_start, first_stop));
  printf("%d chunks in %d streams: %.3f ms (stream 0: %.3f ms)\n", CHUNKS, NSTREAMS, all_ms, first_ms);

  int errors = 0;
  for (int i = 0; i < total; i++) {
    float x = h_in[i], expect = 1.0f + x * (-0.5f + x * 0.25f) + sqrtf(fabsf(x));
    if (fabsf(h_out[i] - expect) > 1e-5f * (1.0f + fabsf(expect)) && errors++ < 10)
      printf("element %d: %f, expected %f\n", i, h_out[i], expect);
  }
  if (all_ms < 0 || first_ms < 0) errors++;
  for (int s = 0; s < NSTREAMS; s++) CUDA_CHECK_RETURN(cudaStreamDestroy(streams[s]));
  cudaEventDestroy(start); cudaEventDestroy(stop); cudaEventDestroy(first_start); cudaEventDestroy(first_stop);
  cudaFreeHost(h_in); cudaFreeHost(h_out); cudaFree(d_in); cudaFree(d_out);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
