// The Julia set of c = -0.8 + 0.156i on a DIM x DIM bitmap: a small complex
// number struct with __device__ operators, one thread per pixel on a 2-D grid
// of single-thread blocks as the textbook launches it, an RGBA pixel as uchar4.
// The host draws the same set; iterating z^2 + c is chaotic at the set's edge,
// where a fused multiply-add can tip a pixel, so a few differing pixels are allowed.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define DIM 256
#define MAX_ITER 200

#define HANDLE_ERROR(err) do { cudaError_t e_ = (err); if (e_ != cudaSuccess) { \
  printf("%s in %s at line %d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(EXIT_FAILURE); } } while (0)

struct cuComplex {
  float r, i;
  __device__ cuComplex(float a, float b) : r(a), i(b) {}
  __device__ float magnitude2(void) { return r * r + i * i; }
  __device__ cuComplex operator*(const cuComplex& a) { return cuComplex(r * a.r - i * a.i, i * a.r + r * a.i); }
  __device__ cuComplex operator+(const cuComplex& a) { return cuComplex(r + a.r, i + a.i); }
};

__device__ int julia(int x, int y) {
  const float scale = 1.5f;
  float jx = scale * (float)(DIM / 2 - x) / (DIM / 2);
  float jy = scale * (float)(DIM / 2 - y) / (DIM / 2);
  cuComplex c(-0.8f, 0.156f);
  cuComplex a(jx, jy);
  for (int i = 0; i < MAX_ITER; i++) {
    a = a * a + c;
    if (a.magnitude2() > 1000) return 0;
  }
  return 1;
}

__global__ void kernel(uchar4* ptr) {
  int x = blockIdx.x;
  int y = blockIdx.y;
  int offset = x + y * gridDim.x;
  int juliaValue = julia(x, y);
  ptr[offset] = make_uchar4((unsigned char)(255 * juliaValue), 0, 0, 255);
}

static int julia_cpu(int x, int y) {
  const float scale = 1.5f;
  float jx = scale * (float)(DIM / 2 - x) / (DIM / 2), jy = scale * (float)(DIM / 2 - y) / (DIM / 2);
  float ar = jx, ai = jy;
  for (int i = 0; i < MAX_ITER; i++) {
    float nr = ar * ar - ai * ai - 0.8f, ni = ai * ar + ar * ai + 0.156f;
    ar = nr;
    ai = ni;
    if (ar * ar + ai * ai > 1000) return 0;
  }
  return 1;
}

int main(void) {
  uchar4* bitmap = (uchar4*)malloc(DIM * DIM * sizeof(uchar4));
  uchar4* dev_bitmap;
  HANDLE_ERROR(cudaMalloc((void**)&dev_bitmap, DIM * DIM * sizeof(uchar4)));
  dim3 grid(DIM, DIM);
  kernel<<<grid, 1>>>(dev_bitmap);
  HANDLE_ERROR(cudaGetLastError());
  HANDLE_ERROR(cudaMemcpy(bitmap, dev_bitmap, DIM * DIM * sizeof(uchar4), cudaMemcpyDeviceToHost));
  int differ = 0, inside = 0, bad_alpha = 0;
  for (int y = 0; y < DIM; y++)
    for (int x = 0; x < DIM; x++) {
      uchar4 p = bitmap[x + y * DIM];
      int expect = julia_cpu(x, y);
      inside += p.x == 255;
      if ((p.x == 255) != (expect == 1)) differ++;
      if (p.w != 255 || p.y != 0 || p.z != 0 || (p.x != 0 && p.x != 255)) bad_alpha++;
    }
  printf("%d pixels in the set, %d differ from the host's\n", inside, differ);
  HANDLE_ERROR(cudaFree(dev_bitmap));
  free(bitmap);
  if (bad_alpha || differ > DIM * DIM / 200 || inside < 1000) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
