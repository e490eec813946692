// All-pairs shortest paths by Floyd-Warshall: one launch per intermediate vertex
// k over a 2-D grid of 16 x 16 blocks; each block stages the pieces of row k and
// column k it needs in shared memory. Integer weights, INF for no edge; the
// host runs the triple loop and compares every distance.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define V 128
#define BLOCK 16
#define INF 0x3fffffff

#define CHECK(call) do { cudaError_t e = call; if (e != cudaSuccess) { \
  printf("CUDA error %d (%s) at %s:%d\n", (int)e, cudaGetErrorName(e), __FILE__, __LINE__); exit(1); } } while (0)

__global__ void fw_relax(int* dist, int n, int k) {
  __shared__ int row_k[BLOCK];
  __shared__ int col_k[BLOCK];
  int j = blockIdx.x * BLOCK + threadIdx.x;
  int i = blockIdx.y * BLOCK + threadIdx.y;
  if (threadIdx.y == 0 && j < n) row_k[threadIdx.x] = dist[k * n + j];
  if (threadIdx.x == 0 && i < n) col_k[threadIdx.y] = dist[i * n + k];
  __syncthreads();
  if (i < n && j < n) {
    int through = col_k[threadIdx.y] + row_k[threadIdx.x];  // both at most INF: no overflow
    if (through < dist[i * n + j]) dist[i * n + j] = through;
  }
}

int main() {
  int* h_dist = (int*)malloc(V * V * sizeof(int));
  int* ref = (int*)malloc(V * V * sizeof(int));
  srand(60);
  for (int i = 0; i < V; i++)
    for (int j = 0; j < V; j++) {
      int w = (i == j) ? 0 : (rand() % 100 < 2 ? 1 + rand() % 50 : INF);  // sparse: 2% edges
      h_dist[i * V + j] = ref[i * V + j] = w;
    }
  int* d_dist;
  CHECK(cudaMalloc((void**)&d_dist, V * V * sizeof(int)));
  CHECK(cudaMemcpy(d_dist, h_dist, V * V * sizeof(int), cudaMemcpyHostToDevice));
  dim3 threads(BLOCK, BLOCK), blocks((V + BLOCK - 1) / BLOCK, (V + BLOCK - 1) / BLOCK);
  for (int k = 0; k < V; k++) fw_relax<<<blocks, threads>>>(d_dist, V, k);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_dist, d_dist, V * V * sizeof(int), cudaMemcpyDeviceToHost));
  for (int k = 0; k < V; k++)
    for (int i = 0; i < V; i++)
      for (int j = 0; j < V; j++)
        if (ref[i * V + k] + ref[k * V + j] < ref[i * V + j]) ref[i * V + j] = ref[i * V + k] + ref[k * V + j];
  int errors = 0, unreachable = 0;
  for (int i = 0; i < V * V; i++) {
    unreachable += ref[i] >= INF;
    if (h_dist[i] != ref[i] && errors++ < 10) printf("dist(%d,%d) = %d, expected %d\n", i / V, i % V, h_dist[i], ref[i]);
  }
  printf("%d unreachable pairs\n", unreachable);
  cudaFree(d_dist);
  free(h_dist); free(ref);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
