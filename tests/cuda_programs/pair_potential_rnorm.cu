// Per-particle Lennard-Jones energies with a cutoff, written with CUDA's vector
// norm functions: norm3df for the distance test, rnorm3df for the inverse
// distance, and rhypotf for the 2-D projection a trajectory analysis also
// wants. One thread per particle loops over the others, reading positions
// through __ldg as float4. The host sums the same pairs in double.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define NPART 1024
#define THREADS 128
#define CUTOFF 2.5f

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void lj_energy(const float4* __restrict__ pos, float* energy, float* inv_xy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = __ldg(&pos[i]);
  float e = 0.0f, sum_inv_xy = 0.0f;
  for (int j = 0; j < n; j++) {
    if (j == i) continue;
    float4 q = __ldg(&pos[j]);
    float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    sum_inv_xy += rhypotf(dx, dy);
    if (norm3df(dx, dy, dz) >= CUTOFF) continue;
    float inv_r = rnorm3df(dx, dy, dz);
    float inv_r2 = inv_r * inv_r, inv_r6 = inv_r2 * inv_r2 * inv_r2;
    e += 4.0f * (inv_r6 * inv_r6 - inv_r6);
  }
  energy[i] = 0.5f * e;
  inv_xy[i] = sum_inv_xy;
}

int main() {
  float4* h_pos = (float4*)malloc(NPART * sizeof(float4));
  srand(2357);
  int side = 11;  // a jittered lattice: no two particles closer than ~0.8
  for (int i = 0; i < NPART; i++) {
    float jx = (float)rand() / (float)RAND_MAX * 0.2f - 0.1f, jy = (float)rand() / (float)RAND_MAX * 0.2f - 0.1f;
    float jz = (float)rand() / (float)RAND_MAX * 0.2f - 0.1f;
    h_pos[i] = make_float4((i % side) * 1.1f + jx, (i / side % side) * 1.1f + jy, (i / (side * side)) * 1.1f + jz, 0.0f);
  }
  float4* d_pos;
  float *d_energy, *d_inv;
  CHECK(cudaMalloc((void**)&d_pos, NPART * sizeof(float4)));
  CHECK(cudaMalloc((void**)&d_energy, NPART * sizeof(float)));
  CHECK(cudaMalloc((void**)&d_inv, NPART * sizeof(float)));
  CHECK(cudaMemcpy(d_pos, h_pos, NPART * sizeof(float4), cudaMemcpyHostToDevice));
  lj_energy<<<(NPART + THREADS - 1) / THREADS, THREADS>>>(d_pos, d_energy, d_inv, NPART);
  CHECK(cudaGetLastError());
  float *energy = (float*)malloc(NPART * sizeof(float)), *inv = (float*)malloc(NPART * sizeof(float));
  CHECK(cudaMemcpy(energy, d_energy, NPART * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(inv, d_inv, NPART * sizeof(float), cudaMemcpyDeviceToHost));
  int errors = 0;
  double total = 0;
  for (int i = 0; i < NPART; i++) {
    double e = 0, e_abs = 0, s = 0, borderline = 0;
    for (int j = 0; j < NPART; j++) {
      if (j == i) continue;
      double dx = (double)h_pos[j].x - h_pos[i].x, dy = (double)h_pos[j].y - h_pos[i].y, dz = (double)h_pos[j].z - h_pos[i].z;
      s += 1.0 / sqrt(dx * dx + dy * dy);
      double r = sqrt(dx * dx + dy * dy + dz * dz), r6 = pow(r, -6.0);
      if (fabs(r - CUTOFF) < 1e-4) borderline += fabs(4 * (r6 * r6 - r6));  // the device may round either way
      if (r >= CUTOFF) continue;
      e += 4 * (r6 * r6 - r6);
      e_abs += 4 * (r6 * r6 + r6);
    }
    e *= 0.5;
    total += e;
    if (fabs(energy[i] - e) > 1e-4 * e_abs + 0.5 * borderline + 1e-6 && errors++ < 10) printf("particle %d: energy %f, expected %f\n", i, energy[i], e);
    if (fabs(inv[i] - s) > 1e-4 * s && errors++ < 10) printf("particle %d: sum 1/r_xy %f, expected %f\n", i, inv[i], s);
  }
  printf("total energy %f\n", total);
  cudaFree(d_pos); cudaFree(d_energy); cudaFree(d_inv);
  free(h_pos); free(energy); free(inv);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
