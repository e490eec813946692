// A ray tracer of spheres seen from above, the textbook way: the spheres live in
// __constant__ memory (cudaMemcpyToSymbol), every pixel of a 2-D grid of 16 x 16
// blocks casts an orthographic ray and keeps the nearest hit, shaded by how
// squarely the ray meets the surface; cudaEvent timing around the kernel.
// Sphere centres and radii are whole numbers, so hits agree exactly with the host.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define DIM 256
#define SPHERES 20
#define INF 2e10f
#define rnd(x) (x * rand() / (float)RAND_MAX)

#define HANDLE_ERROR(err) do { cudaError_t e_ = (err); if (e_ != cudaSuccess) { \
  printf("%s in %s at line %d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(EXIT_FAILURE); } } while (0)

struct Sphere {
  float r, b, g;
  float radius;
  float x, y, z;
  __host__ __device__ float hit(float ox, float oy, float* n) const {
    float dx = ox - x;
    float dy = oy - y;
    if (dx * dx + dy * dy < radius * radius) {
      float dz = sqrtf(radius * radius - dx * dx - dy * dy);
      *n = dz / sqrtf(radius * radius);
      return dz + z;
    }
    return -INF;
  }
};

__constant__ Sphere s[SPHERES];

__global__ void kernel(unsigned char* ptr) {
  int x = threadIdx.x + blockIdx.x * blockDim.x;
  int y = threadIdx.y + blockIdx.y * blockDim.y;
  int offset = x + y * blockDim.x * gridDim.x;
  float ox = (x - DIM / 2), oy = (y - DIM / 2);
  float r = 0, g = 0, b = 0, maxz = -INF;
  for (int i = 0; i < SPHERES; i++) {
    float n;
    float t = s[i].hit(ox, oy, &n);
    if (t > maxz) {
      float fscale = n;
      r = s[i].r * fscale;
      g = s[i].g * fscale;
      b = s[i].b * fscale;
      maxz = t;
    }
  }
  ptr[offset * 4 + 0] = (int)(r * 255);
  ptr[offset * 4 + 1] = (int)(g * 255);
  ptr[offset * 4 + 2] = (int)(b * 255);
  ptr[offset * 4 + 3] = 255;
}

int main(void) {
  cudaEvent_t start, stop;
  HANDLE_ERROR(cudaEventCreate(&start));
  HANDLE_ERROR(cudaEventCreate(&stop));
  HANDLE_ERROR(cudaEventRecord(start, 0));
  unsigned char* dev_bitmap;
  HANDLE_ERROR(cudaMalloc((void**)&dev_bitmap, DIM * DIM * 4));
  Sphere* temp_s = (Sphere*)malloc(sizeof(Sphere) * SPHERES);
  srand(1234);
  for (int i = 0; i < SPHERES; i++) {
    temp_s[i].r = rnd(1.0f);
    temp_s[i].g = rnd(1.0f);
    temp_s[i].b = rnd(1.0f);
    temp_s[i].x = floorf(rnd(256.0f)) - 128;
    temp_s[i].y = floorf(rnd(256.0f)) - 128;
    temp_s[i].z = floorf(rnd(256.0f)) - 128;
    temp_s[i].radius = floorf(rnd(60.0f)) + 10;
  }
  HANDLE_ERROR(cudaMemcpyToSymbol(s, temp_s, sizeof(Sphere) * SPHERES));
  dim3 grids(DIM / 16, DIM / 16);
  dim3 threads(16, 16);
  kernel<<<grids, threads>>>(dev_bitmap);
  HANDLE_ERROR(cudaGetLastError());
  unsigned char* bitmap = (unsigned char*)malloc(DIM * DIM * 4);
  HANDLE_ERROR(cudaMemcpy(bitmap, dev_bitmap, DIM * DIM * 4, cudaMemcpyDeviceToHost));
  HANDLE_ERROR(cudaEventRecord(stop, 0));
  HANDLE_ERROR(cudaEventSynchronize(stop));
  float elapsedTime;
  HANDLE_ERROR(cudaEventElapsedTime(&elapsedTime, start, stop));
  printf("Time to generate: %3.1f ms\n", elapsedTime);

  int errors = 0, lit = 0;
  for (int y = 0; y < DIM; y++)
    for (int x = 0; x < DIM; x++) {
      float ox = (float)(x - DIM / 2), oy = (float)(y - DIM / 2), rgb[3] = {0, 0, 0}, maxz = -INF;
      for (int i = 0; i < SPHERES; i++) {
        float n, t = temp_s[i].hit(ox, oy, &n);
        if (t > maxz) { rgb[0] = temp_s[i].r * n; rgb[1] = temp_s[i].g * n; rgb[2] = temp_s[i].b * n; maxz = t; }
      }
      const unsigned char* p = &bitmap[(x + y * DIM) * 4];
      lit += maxz > -INF;
      for (int c = 0; c < 3; c++)
        if (abs((int)p[c] - (int)(rgb[c] * 255)) > 1 && errors++ < 10)
          printf("pixel (%d,%d) channel %d: %d, expected %d\n", x, y, c, p[c], (int)(rgb[c] * 255));
      if (p[3] != 255 && errors++ < 10) printf("pixel (%d,%d): alpha %d\n", x, y, p[3]);
    }
  printf("%d of %d pixels hit a sphere\n", lit, DIM * DIM);
  HANDLE_ERROR(cudaEventDestroy(start));
  HANDLE_ERROR(cudaEventDestroy(stop));
  HANDLE_ERROR(cudaFree(dev_bitmap));
  free(temp_s);
  free(bitmap);
  if (errors || lit == 0) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
