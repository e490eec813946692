// A 7-point 3-D stencil (Anext = c1 * (sum of the six neighbours) - c0 * A0) over
// a volume, the benchmark way: a 2-D block marches along z, keeping the planes
// below and above in registers and the current plane, with its halo, in shared
// memory. Boundary cells keep their values; the host runs the same sweeps.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define NX 60
#define NY 64
#define NZ 48
#define BX 16
#define BY 8
#define ITERATIONS 3
#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + (_nx) * ((_j) + (_ny) * (_k)))

#define CHECK(x) do { cudaError_t st = (x); if (st != cudaSuccess) { \
  printf("%s:%d: %s returned %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(st)); exit(1); } } while (0)

__global__ void block2D_reg_tiling(float c0, float c1, const float* A0, float* Anext, int nx, int ny, int nz) {
  __shared__ float sh[BY + 2][BX + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = blockIdx.x * BX + tx, j = blockIdx.y * BY + ty;
  bool active = i < nx && j < ny;
  float bottom = active ? A0[Index3D(nx, ny, i, j, 0)] : 0.0f;
  float current = active ? A0[Index3D(nx, ny, i, j, 1)] : 0.0f;
  for (int k = 1; k < nz - 1; k++) {
    float top = active ? A0[Index3D(nx, ny, i, j, k + 1)] : 0.0f;
    __syncthreads();  // everyone is done reading the previous plane
    sh[ty + 1][tx + 1] = current;
    if (tx == 0) sh[ty + 1][0] = (i > 0 && j < ny) ? A0[Index3D(nx, ny, i - 1, j, k)] : 0.0f;
    if (tx == BX - 1) sh[ty + 1][BX + 1] = (i + 1 < nx && j < ny) ? A0[Index3D(nx, ny, i + 1, j, k)] : 0.0f;
    if (ty == 0) sh[0][tx + 1] = (j > 0 && i < nx) ? A0[Index3D(nx, ny, i, j - 1, k)] : 0.0f;
    if (ty == BY - 1) sh[BY + 1][tx + 1] = (j + 1 < ny && i < nx) ? A0[Index3D(nx, ny, i, j + 1, k)] : 0.0f;
    __syncthreads();
    if (active && i > 0 && i < nx - 1 && j > 0 && j < ny - 1)
      Anext[Index3D(nx, ny, i, j, k)] = (top + bottom + sh[ty + 1][tx + 2] + sh[ty + 1][tx] + sh[ty + 2][tx + 1] +
                                         sh[ty][tx + 1]) * c1 - current * c0;
    bottom = current;
    current = top;
  }
}

int main() {
  const int size = NX * NY * NZ;
  const float c0 = 1.0f / 6.0f, c1 = 1.0f / 6.0f / 6.0f;
  float *h_A0 = (float*)malloc(size * sizeof(float)), *ref[2], *h_out = (float*)malloc(size * sizeof(float));
  ref[0] = (float*)malloc(size * sizeof(float));
  ref[1] = (float*)malloc(size * sizeof(float));
  srand(3);
  for (int i = 0; i < size; i++) h_A0[i] = ref[0][i] = ref[1][i] = (float)(rand() % 1000) / 100.0f;

  float *d_A0, *d_Anext;
  CHECK(cudaMalloc((void**)&d_A0, size * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_Anext, size * sizeof(float)));
  CHECK(cudaMemcpy(d_A0, h_A0, size * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_Anext, d_A0, size * sizeof(float), cudaMemcpyDeviceToDevice));  // the boundary
  dim3 block(BX, BY, 1), grid((NX + BX - 1) / BX, (NY + BY - 1) / BY, 1);
  for (int t = 0; t < ITERATIONS; t++) {
    block2D_reg_tiling<<<grid, block>>>(c0, c1, d_A0, d_Anext, NX, NY, NZ);
    float* tmp = d_A0; d_A0 = d_Anext; d_Anext = tmp;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_out, d_A0, size * sizeof(float), cudaMemcpyDeviceToHost));

  int src = 0;
  for (int t = 0; t < ITERATIONS; t++, src = 1 - src) {
    float *a = ref[src], *b = ref[1 - src];
    for (int k = 1; k < NZ - 1; k++)
      for (int j = 1; j < NY - 1; j++)
        for (int i = 1; i < NX - 1; i++)
          b[Index3D(NX, NY, i, j, k)] =
              (a[Index3D(NX, NY, i, j, k + 1)] + a[Index3D(NX, NY, i, j, k - 1)] + a[Index3D(NX, NY, i + 1, j, k)] +
               a[Index3D(NX, NY, i - 1, j, k)] + a[Index3D(NX, NY, i, j + 1, k)] + a[Index3D(NX, NY, i, j - 1, k)]) * c1 -
              a[Index3D(NX, NY, i, j, k)] * c0;
  }
  int errors = 0;
  for (int i = 0; i < size; i++)
    if (fabsf(h_out[i] - ref[src][i]) > 1e-4f * (1.0f + fabsf(ref[src][i])) && errors++ < 10)
      printf("cell %d: %f, expected %f\n", i, h_out[i], ref[src][i]);
  cudaFree(d_A0); cudaFree(d_Anext);
  free(h_A0); free(ref[0]); free(ref[1]); free(h_out);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
