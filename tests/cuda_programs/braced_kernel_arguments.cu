// Kernel arguments written as braced lists, as parameter structs are often
// passed: `k<<<g, b>>>(out, {6, 7})` initializes the kernel's struct parameter
// from the list, as a function call does; also a nested struct, an empty list
// (value-initialized), a list in the middle of the arguments, a list making a
// vector type, and a literal 0 and NULL for pointer parameters.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e)); exit(1); } } while (0)

struct Scale {
  int multiplier;
  int offset;
};

struct Box {
  Scale scale;
  float bounds[2];
};

__global__ void affine(int* out, Scale s) { out[threadIdx.x] = (int)threadIdx.x * s.multiplier + s.offset; }

__global__ void clamp_scaled(const Box box, int n, float* out, const int* unused) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = (float)(i * box.scale.multiplier + box.scale.offset);
    out[i] = fminf(fmaxf(v, box.bounds[0]), box.bounds[1]);
  }
  if (unused != NULL) out[0] = -1.0f;  // never: the launch passes a null pointer
}

__global__ void store_pair(int2 pair, Scale zero, int* out) {
  out[0] = pair.x;
  out[1] = pair.y;
  out[2] = zero.multiplier + zero.offset;
}

int main() {
  const int n = 64;
  int *d_ints, h_ints[n];
  float *d_floats, h_floats[n];
  CHECK(cudaMalloc((void**)&d_ints, n * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_floats, n * sizeof(float)));
  int errors = 0;

  affine<<<1, n>>>(d_ints, {6, 7});
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_ints, d_ints, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (h_ints[i] != i * 6 + 7 && errors++ < 5) printf("affine[%d] = %d, expected %d\n", i, h_ints[i], i * 6 + 7);

  clamp_scaled<<<2, 32>>>({{3, -20}, {0.0f, 100.0f}}, n, d_floats, 0);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_floats, d_floats, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float expect = fminf(fmaxf((float)(i * 3 - 20), 0.0f), 100.0f);
    if (h_floats[i] != expect && errors++ < 5) printf("clamp[%d] = %f, expected %f\n", i, h_floats[i], expect);
  }

  store_pair<<<1, 1>>>({-4, 9}, {}, d_ints);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_ints, d_ints, 3 * sizeof(int), cudaMemcpyDeviceToHost));
  if (h_ints[0] != -4 || h_ints[1] != 9 || h_ints[2] != 0) {
    printf("store_pair: %d %d %d, expected -4 9 0\n", h_ints[0], h_ints[1], h_ints[2]);
    errors++;
  }

  CHECK(cudaFree(d_ints));
  CHECK(cudaFree(d_floats));
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
