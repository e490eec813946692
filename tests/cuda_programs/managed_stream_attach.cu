// Unified memory with one stream per task, as task-parallel tutorials write it:
// each task's managed buffers are attached to its stream with
// cudaStreamAttachMemAsync(cudaMemAttachSingle), so the host may touch other
// tasks' buffers while kernels run; a shared read-only matrix is advised
// cudaMemAdviseSetReadMostly, and the advice is read back with
// cudaMemRangeGetAttribute. Every task computes y = M x; the host checks them all.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TASKS 8
#define DIM 128
#define NSTREAMS 4

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void matvec(const float* M, const float* x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < DIM) {
    float s = 0;
    for (int c = 0; c < DIM; c++) s += M[row * DIM + c] * x[c];
    y[row] = s;
  }
}

int main() {
  int device = 0, concurrent = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));
  float *M, *x[TASKS], *y[TASKS];
  CHECK(cudaMallocManaged((void**)&M, DIM * DIM * sizeof(float)));
  for (int i = 0; i < DIM * DIM; i++) M[i] = (float)((i * 7) % 13) - 6.0f;
#if CUDART_VERSION >= 13000
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = device;
  CHECK(cudaMemAdvise(M, DIM * DIM * sizeof(float), cudaMemAdviseSetReadMostly, loc));
#else
  CHECK(cudaMemAdvise(M, DIM * DIM * sizeof(float), cudaMemAdviseSetReadMostly, device));
#endif
  int read_mostly = 0;
  CHECK(cudaMemRangeGetAttribute(&read_mostly, sizeof(read_mostly), cudaMemRangeAttributeReadMostly, M, DIM * DIM * sizeof(float)));

  cudaStream_t streams[NSTREAMS];
  for (int s = 0; s < NSTREAMS; s++) CHECK(cudaStreamCreate(&streams[s]));
  for (int t = 0; t < TASKS; t++) {
    CHECK(cudaMallocManaged((void**)&x[t], DIM * sizeof(float), cudaMemAttachHost));
    CHECK(cudaMallocManaged((void**)&y[t], DIM * sizeof(float), cudaMemAttachHost));
  }
  for (int t = 0; t < TASKS; t++) {
    cudaStream_t st = streams[t % NSTREAMS];
    for (int c = 0; c < DIM; c++) x[t][c] = (float)((c + t) % 5);  // the host owns the buffers until attached
    CHECK(cudaStreamAttachMemAsync(st, x[t], 0, cudaMemAttachSingle));
    CHECK(cudaStreamAttachMemAsync(st, y[t], 0, cudaMemAttachSingle));
    matvec<<<(DIM + 63) / 64, 64, 0, st>>>(M, x[t], y[t]);
    CHECK(cudaGetLastError());
  }
  int errors = 0;
  for (int s = 0; s < NSTREAMS; s++) CHECK(cudaStreamSynchronize(streams[s]));  // M is global: wait for every task
  for (int t = 0; t < TASKS; t++) {
    for (int r = 0; r < DIM; r++) {
      float s = 0;
      for (int c = 0; c < DIM; c++) s += M[r * DIM + c] * x[t][c];
      if (fabsf(y[t][r] - s) > 1e-3f && errors++ < 10) printf("task %d row %d: %f, expected %f\n", t, r, y[t][r], s);
    }
  }
  printf("read-mostly advice reads back as %d (concurrent managed access: %d)\n", read_mostly, concurrent);
  if (read_mostly != 1) errors++;
  for (int s = 0; s < NSTREAMS; s++) CHECK(cudaStreamDestroy(streams[s]));
  for (int t = 0; t < TASKS; t++) { CHECK(cudaFree(x[t])); CHECK(cudaFree(y[t])); }
  CHECK(cudaFree(M));
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
