// k-means clustering as the GPU benchmarks split it: the device assigns every
// point to its nearest centroid (centroids in __constant__ memory, points as
// float4) and counts how many points changed cluster; the host recomputes the
// centroids. Coordinates are small integers and centroids are rounded to 1/16,
// so every distance is exact and the host's assignment must match bit for bit.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define NPOINTS 16384
#define NCLUSTERS 8
#define THREADS 256
#define MAX_ITER 30

#define CUDA_CALL(x) do { if ((x) != cudaSuccess) { \
  printf("Error at %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(cudaGetLastError())); exit(1); } } while (0)

__constant__ float4 c_clusters[NCLUSTERS];

__global__ void assign_points(const float4* __restrict__ points, int* membership, int* changed, int n) {
  __shared__ int block_changed;
  if (threadIdx.x == 0) block_changed = 0;
  __syncthreads();
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n) {
    float4 p = __ldg(&points[gid]);
    int best = 0;
    float best_dist = 3.4e38f;
    for (int k = 0; k < NCLUSTERS; k++) {
      float dx = p.x - c_clusters[k].x, dy = p.y - c_clusters[k].y;
      float dz = p.z - c_clusters[k].z, dw = p.w - c_clusters[k].w;
      float dist = dx * dx + dy * dy + dz * dz + dw * dw;
      if (dist < best_dist) { best_dist = dist; best = k; }
    }
    if (membership[gid] != best) {
      atomicAdd(&block_changed, 1);
      membership[gid] = best;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && block_changed) atomicAdd(changed, block_changed);
}

static void update_centroids(const float4* pts, const int* member, float4* clusters) {
  double sum[NCLUSTERS][4] = {};
  int count[NCLUSTERS] = {};
  for (int i = 0; i < NPOINTS; i++) {
    int k = member[i];
    sum[k][0] += pts[i].x; sum[k][1] += pts[i].y; sum[k][2] += pts[i].z; sum[k][3] += pts[i].w;
    count[k]++;
  }
  for (int k = 0; k < NCLUSTERS; k++) {
    if (count[k] == 0) continue;
    float* c = &clusters[k].x;
    for (int d = 0; d < 4; d++) c[d] = floorf((float)(sum[k][d] / count[k]) * 16.0f + 0.5f) / 16.0f;
  }
}

int main() {
  float4* h_points = (float4*)malloc(NPOINTS * sizeof(float4));
  int* h_member = (int*)malloc(NPOINTS * sizeof(int));
  int* ref_member = (int*)malloc(NPOINTS * sizeof(int));
  srand(123);
  for (int i = 0; i < NPOINTS; i++) {
    int blob = rand() % NCLUSTERS;  // points gather around NCLUSTERS blobs
    // One statement per draw: a call's arguments are evaluated in no set order (g++ last to first,
    // which these follow; clang first to last), and another order gives other points.
    int w = rand() % 8;
    int z = rand() % 64;
    int y = rand() % 16;
    int x = rand() % 16;
    h_points[i] = make_float4((float)(blob * 7 + x), (float)((blob * 13) % 40 + y), (float)z,
                              (float)((blob * 5) % 32 + w));
    ref_member[i] = -1;
  }
  float4 clusters[NCLUSTERS];
  for (int k = 0; k < NCLUSTERS; k++) clusters[k] = h_points[k * 97];

  float4* d_points;
  int *d_member, *d_changed;
  CUDA_CALL(cudaMalloc((void**)&d_points, NPOINTS * sizeof(float4)));
  CUDA_CALL(cudaMalloc((void**)&d_member, NPOINTS * sizeof(int)));
  CUDA_CALL(cudaMalloc((void**)&d_changed, sizeof(int)));
  CUDA_CALL(cudaMemcpy(d_points, h_points, NPOINTS * sizeof(float4), cudaMemcpyHostToDevice));
  CUDA_CALL(cudaMemset(d_member, 0xff, NPOINTS * sizeof(int)));  // -1: no cluster yet

  int iter = 0, changed = 0, errors = 0;
  do {
    CUDA_CALL(cudaMemcpyToSymbol(c_clusters, clusters, sizeof(clusters)));
    CUDA_CALL(cudaMemset(d_changed, 0, sizeof(int)));
    assign_points<<<(NPOINTS + THREADS - 1) / THREADS, THREADS>>>(d_points, d_member, d_changed, NPOINTS);
    CUDA_CALL(cudaGetLastError());
    CUDA_CALL(cudaMemcpy(h_member, d_member, NPOINTS * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CALL(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
    int ref_changed = 0;  // the same assignment on the host, from the same centroids
    for (int i = 0; i < NPOINTS; i++) {
      int best = 0;
      float best_dist = 3.4e38f;
      for (int k = 0; k < NCLUSTERS; k++) {
        float dx = h_points[i].x - clusters[k].x, dy = h_points[i].y - clusters[k].y;
        float dz = h_points[i].z - clusters[k].z, dw = h_points[i].w - clusters[k].w;
        float dist = dx * dx + dy * dy + dz * dz + dw * dw;
        if (dist < best_dist) { best_dist = dist; best = k; }
      }
      if (best != ref_member[i]) { ref_changed++; ref_member[i] = best; }
      if (h_member[i] != best && errors++ < 10) printf("iteration %d, point %d: cluster %d, expected %d\n", iter, i, h_member[i], best);
    }
    if (changed != ref_changed && errors++ < 10) printf("iteration %d: %d changed, expected %d\n", iter, changed, ref_changed);
    update_centroids(h_points, h_member, clusters);
    iter++;
  } while (changed > 0 && iter < MAX_ITER && errors == 0);
  printf("%d iterations\n", iter);
  cudaFree(d_points); cudaFree(d_member); cudaFree(d_changed);
  free(h_points); free(h_member); free(ref_member);
  if (errors || changed > 0) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
