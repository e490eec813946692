// Dynamic shared memory past the 48 KiB default: a launch asking for 160 KiB is
// refused until cudaFuncSetAttribute raises the kernel's limit (the device's
// opt-in maximum read with cudaDeviceGetAttribute, the kernel's own with
// cudaFuncGetAttributes). Each block then reverses a 40 K-element chunk through
// shared memory and times itself with clock64(); stream callbacks
// (cudaLaunchHostFunc, cudaStreamAddCallback) record that the stream reached them.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHUNK (40 * 1024)
#define THREADS 1024
#define BLOCKS 6

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void reverse_chunks(const int* in, int* out, long long* cycles) {
  extern __shared__ int chunk[];
  long long start = clock64();
  const int* src = in + (size_t)blockIdx.x * CHUNK;
  for (int i = threadIdx.x; i < CHUNK; i += blockDim.x) chunk[i] = src[i];
  __syncthreads();
  int* dst = out + (size_t)blockIdx.x * CHUNK;
  for (int i = threadIdx.x; i < CHUNK; i += blockDim.x) dst[i] = chunk[CHUNK - 1 - i];
  if (threadIdx.x == 0) cycles[blockIdx.x] = clock64() - start;
}

static void CUDART_CB host_func(void* data) { *(int*)data += 1; }
static void CUDART_CB stream_callback(cudaStream_t, cudaError_t status, void* data) { *(int*)data += status == cudaSuccess ? 10 : 1000; }

int main() {
  int optin = 0;
  CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  size_t smem = CHUNK * sizeof(int);
  if ((size_t)optin < smem) { printf("opt-in limit %d bytes too small; Test passed (waived)\n", optin); return 0; }
  const int n = BLOCKS * CHUNK;
  int *h_in, *h_out;
  CHECK(cudaMallocHost((void**)&h_in, n * sizeof(int)));
  CHECK(cudaMallocHost((void**)&h_out, n * sizeof(int)));
  for (int i = 0; i < n; i++) h_in[i] = i * 7 + 3;
  int *d_in, *d_out;
  long long* d_cycles;
  CHECK(cudaMalloc((void**)&d_in, n * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_out, n * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_cycles, BLOCKS * sizeof(long long)));
  CHECK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));

  int errors = 0;
  reverse_chunks<<<BLOCKS, THREADS, smem>>>(d_in, d_out, d_cycles);  // over the default limit
  cudaError_t refused = cudaGetLastError();
  if (refused == cudaSuccess) { printf("a launch with %zu bytes of dynamic shared memory was accepted\n", smem); errors++; }
  CHECK(cudaFuncSetAttribute(reverse_chunks, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, reverse_chunks));
  if (attr.maxDynamicSharedSizeBytes != (int)smem || attr.maxThreadsPerBlock < THREADS) {
    printf("attributes: %d bytes, %d threads\n", attr.maxDynamicSharedSizeBytes, attr.maxThreadsPerBlock);
    errors++;
  }
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  int reached = 0;
  reverse_chunks<<<BLOCKS, THREADS, smem, stream>>>(d_in, d_out, d_cycles);
  CHECK(cudaGetLastError());
  CHECK(cudaLaunchHostFunc(stream, host_func, &reached));
  CHECK(cudaMemcpyAsync(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamAddCallback(stream, stream_callback, &reached, 0));
  CHECK(cudaStreamSynchronize(stream));
  long long cycles[BLOCKS];
  CHECK(cudaMemcpy(cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
  for (int b = 0; b < BLOCKS; b++) {
    if (cycles[b] <= 0 && errors++ < 10) printf("block %d: %lld cycles\n", b, cycles[b]);
    for (int i = 0; i < CHUNK; i++)
      if (h_out[b * CHUNK + i] != h_in[b * CHUNK + CHUNK - 1 - i] && errors++ < 10) printf("block %d element %d: %d\n", b, i, h_out[b * CHUNK + i]);
  }
  if (reached != 11) { printf("callbacks: %d, expected 11\n", reached); errors++; }
  printf("opt-in limit %d bytes; launch without the attribute: %s; block 0 took %lld cycles\n", optin,
         cudaGetErrorName(refused), cycles[0]);
  CHECK(cudaStreamDestroy(stream));
  cudaFree(d_in); cudaFree(d_out); cudaFree(d_cycles); cudaFreeHost(h_in); cudaFreeHost(h_out);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
