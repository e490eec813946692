// All-pairs gravitational n-body steps with float4 bodies (xyz position, w mass):
// each thread integrates one body, the block walks the bodies tile by tile
// through shared memory, and the softened interaction uses rsqrtf. The host
// integrates the same steps in double; results agree within a tolerance.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define NUM_BODIES 2048
#define BLOCK_SIZE 256
#define SOFTENING_SQUARED 0.01f
#define DT 0.01f
#define STEPS 2

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ float3 body_body_interaction(float3 ai, float4 bi, float4 bj) {
  float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
  float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + SOFTENING_SQUARED;
  float invDist = rsqrtf(distSqr);
  float s = bj.w * invDist * invDist * invDist;
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
  return ai;
}

__global__ void __launch_bounds__(BLOCK_SIZE) integrate_bodies(const float4* __restrict__ oldPos, float4* newPos,
                                                                 float4* vel, int n, float dt) {
  __shared__ float4 shPosition[BLOCK_SIZE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 myPos = oldPos[i];
  float3 acc = make_float3(0.0f, 0.0f, 0.0f);
  for (int tile = 0; tile < n / BLOCK_SIZE; tile++) {
    shPosition[threadIdx.x] = oldPos[tile * BLOCK_SIZE + threadIdx.x];
    __syncthreads();
#pragma unroll 8
    for (int j = 0; j < BLOCK_SIZE; j++) acc = body_body_interaction(acc, myPos, shPosition[j]);
    __syncthreads();
  }
  float4 v = vel[i];
  v.x += acc.x * dt;
  v.y += acc.y * dt;
  v.z += acc.z * dt;
  myPos.x += v.x * dt;
  myPos.y += v.y * dt;
  myPos.z += v.z * dt;
  newPos[i] = myPos;
  vel[i] = v;
}

int main() {
  const int n = NUM_BODIES;
  float4 *h_pos = (float4*)malloc(n * sizeof(float4)), *h_vel = (float4*)malloc(n * sizeof(float4));
  double(*ref_pos)[4] = (double(*)[4])malloc(n * sizeof(double[4]));
  double(*ref_vel)[3] = (double(*)[3])malloc(n * sizeof(double[3]));
  double(*next)[4] = (double(*)[4])malloc(n * sizeof(double[4]));
  srand(314);
  for (int i = 0; i < n; i++) {
    h_pos[i] = make_float4((float)rand() / (float)RAND_MAX * 4 - 2, (float)rand() / (float)RAND_MAX * 4 - 2,
                           (float)rand() / (float)RAND_MAX * 4 - 2, 0.5f + (float)rand() / (float)RAND_MAX);
    h_vel[i] = make_float4((float)rand() / (float)RAND_MAX - 0.5f, (float)rand() / (float)RAND_MAX - 0.5f, 0.0f, 0.0f);
    double p[4] = {h_pos[i].x, h_pos[i].y, h_pos[i].z, h_pos[i].w}, v[3] = {h_vel[i].x, h_vel[i].y, h_vel[i].z};
    for (int k = 0; k < 4; k++) ref_pos[i][k] = p[k];
    for (int k = 0; k < 3; k++) ref_vel[i][k] = v[k];
  }
  float4 *d_pos[2], *d_vel;
  CHECK(cudaMalloc((void**)&d_pos[0], n * sizeof(float4)));
  CHECK(cudaMalloc((void**)&d_pos[1], n * sizeof(float4)));
  CHECK(cudaMalloc((void**)&d_vel, n * sizeof(float4)));
  CHECK(cudaMemcpy(d_pos[0], h_pos, n * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vel, h_vel, n * sizeof(float4), cudaMemcpyHostToDevice));
  for (int s = 0; s < STEPS; s++)
    integrate_bodies<<<n / BLOCK_SIZE, BLOCK_SIZE>>>(d_pos[s & 1], d_pos[(s + 1) & 1], d_vel, n, DT);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_pos, d_pos[STEPS & 1], n * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_vel, d_vel, n * sizeof(float4), cudaMemcpyDeviceToHost));

  for (int s = 0; s < STEPS; s++) {
    for (int i = 0; i < n; i++) {
      double a[3] = {0, 0, 0};
      for (int j = 0; j < n; j++) {
        double r[3] = {ref_pos[j][0] - ref_pos[i][0], ref_pos[j][1] - ref_pos[i][1], ref_pos[j][2] - ref_pos[i][2]};
        double d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + SOFTENING_SQUARED;
        double f = ref_pos[j][3] / (d2 * sqrt(d2));
        for (int k = 0; k < 3; k++) a[k] += r[k] * f;
      }
      for (int k = 0; k < 3; k++) {
        ref_vel[i][k] += a[k] * DT;
        next[i][k] = ref_pos[i][k] + ref_vel[i][k] * DT;
      }
      next[i][3] = ref_pos[i][3];
    }
    for (int i = 0; i < n; i++)
      for (int k = 0; k < 4; k++) ref_pos[i][k] = next[i][k];
  }
  int errors = 0;
  for (int i = 0; i < n; i++) {
    float got_p[3] = {h_pos[i].x, h_pos[i].y, h_pos[i].z}, got_v[3] = {h_vel[i].x, h_vel[i].y, h_vel[i].z};
    for (int k = 0; k < 3; k++)
      if ((fabs(got_p[k] - ref_pos[i][k]) > 1e-4 || fabs(got_v[k] - ref_vel[i][k]) > 1e-3 * (1 + fabs(ref_vel[i][k]))) &&
          errors++ < 10)
        printf("body %d axis %d: pos %f vel %f, expected %f %f\n", i, k, got_p[k], got_v[k], ref_pos[i][k], ref_vel[i][k]);
  }
  cudaFree(d_pos[0]); cudaFree(d_pos[1]); cudaFree(d_vel);
  free(h_pos); free(h_vel); free(ref_pos); free(ref_vel); free(next);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
