// L2 residency control, as Ampere-and-later application code sets it up: a
// lookup table every thread reads is marked persisting in the stream's access
// policy window (cudaStreamSetAttribute with cudaStreamAttributeAccessPolicyWindow),
// part of L2 is set aside with cudaLimitPersistingL2CacheSize, a streaming
// kernel gathers through the table, and the persisting lines are released with
// cudaCtxResetPersistingL2Cache. The hints change speed only: results are checked.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TABLE 4096
#define N (1 << 20)
#define THREADS 256

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void gather_table(const int* __restrict__ table, const unsigned* __restrict__ idx, int* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = __ldg(&table[idx[i] % TABLE]) + (int)(idx[i] >> 20);
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int *h_table = (int*)malloc(TABLE * sizeof(int)), *h_out = (int*)malloc(N * sizeof(int));
  unsigned* h_idx = (unsigned*)malloc(N * sizeof(unsigned));
  for (int t = 0; t < TABLE; t++) h_table[t] = t * t - 7 * t;
  for (int i = 0; i < N; i++) h_idx[i] = (unsigned)i * 2654435761u;
  int *d_table, *d_out;
  unsigned* d_idx;
  CHECK(cudaMalloc((void**)&d_table, TABLE * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_idx, N * sizeof(unsigned)));
  CHECK(cudaMalloc((void**)&d_out, N * sizeof(int)));
  CHECK(cudaMemcpy(d_table, h_table, TABLE * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_idx, h_idx, N * sizeof(unsigned), cudaMemcpyHostToDevice));

  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  bool persisting = prop.persistingL2CacheMaxSize > 0;
  if (persisting) {
    size_t set_aside = prop.persistingL2CacheMaxSize < (int)(TABLE * sizeof(int)) ? prop.persistingL2CacheMaxSize : TABLE * sizeof(int);
    CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, set_aside));
    cudaStreamAttrValue stream_attribute = {};
    stream_attribute.accessPolicyWindow.base_ptr = (void*)d_table;
    stream_attribute.accessPolicyWindow.num_bytes = TABLE * sizeof(int);
    stream_attribute.accessPolicyWindow.hitRatio = 1.0f;
    stream_attribute.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    stream_attribute.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CHECK(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &stream_attribute));
  }
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, stream));
  for (int rep = 0; rep < 3; rep++) gather_table<<<prop.multiProcessorCount * 4, THREADS, 0, stream>>>(d_table, d_idx, d_out, N);
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpyAsync(h_out, d_out, N * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  if (persisting) {
    cudaStreamAttrValue reset = {};
    reset.accessPolicyWindow.num_bytes = 0;  // window off
    CHECK(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &reset));
    CHECK(cudaCtxResetPersistingL2Cache());
  }
  int errors = 0;
  for (int i = 0; i < N; i++) {
    int expect = h_table[h_idx[i] % TABLE] + (int)(h_idx[i] >> 20);
    if (h_out[i] != expect && errors++ < 10) printf("out[%d] = %d, expected %d\n", i, h_out[i], expect);
  }
  printf("persisting L2 %s (max %d bytes), 3 gathers in %.3f ms\n", persisting ? "used" : "not available",
         prop.persistingL2CacheMaxSize, ms);
  CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop)); CHECK(cudaStreamDestroy(stream));
  cudaFree(d_table); cudaFree(d_idx); cudaFree(d_out);
  free(h_table); free(h_idx); free(h_out);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
