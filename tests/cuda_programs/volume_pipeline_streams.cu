// A small volume-processing pipeline that uses the runtime the way older
// application code does: a host buffer it already owns, page-locked in place with
// cudaHostRegister and checked with cudaPointerGetAttributes; filter weights
// copied into part of a __constant__ array with cudaMemcpyToSymbolAsync and an
// offset; two streams ordered by an event (cudaStreamWaitEvent); 3-D thread
// blocks; a table of kernels launched through <<<>>> and one through
// cudaLaunchKernel; a refused launch configuration recovered from; and
// cudaDeviceReset at the end.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define NX 48
#define NY 40
#define NZ 24
#define VOL (NX * NY * NZ)

#define CUDA_SAFE_CALL(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__constant__ float c_weights[8];  // [0..3] scale/offset pairs, [4..7] filter weights

typedef void (*pointwise_kernel)(float*, int);

__global__ void scale_kernel(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * c_weights[0] + c_weights[1];
}
__global__ void square_kernel(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * v[i];
}

__global__ void smooth_z(const float* in, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= NX || y >= NY || z >= NZ) return;
  int zm = z > 0 ? z - 1 : z, zp = z < NZ - 1 ? z + 1 : z;
  out[(z * NY + y) * NX + x] = c_weights[4] * in[(zm * NY + y) * NX + x] + c_weights[5] * in[(z * NY + y) * NX + x] +
                               c_weights[6] * in[(zp * NY + y) * NX + x];
}

int main() {
  std::vector<float> volume(VOL), result(VOL);
  for (int i = 0; i < VOL; i++) volume[i] = (float)((i * 31) % 97) / 97.0f;
  std::vector<float> original = volume;
  CUDA_SAFE_CALL(cudaHostRegister(volume.data(), VOL * sizeof(float), cudaHostRegisterDefault));
  CUDA_SAFE_CALL(cudaHostRegister(result.data(), VOL * sizeof(float), cudaHostRegisterDefault));
  cudaPointerAttributes attr;
  CUDA_SAFE_CALL(cudaPointerGetAttributes(&attr, volume.data()));
  int errors = 0;
  if (attr.type != cudaMemoryTypeHost) { printf("registered memory has type %d\n", (int)attr.type); errors++; }

  float *d_a, *d_b;
  CUDA_SAFE_CALL(cudaMalloc((void**)&d_a, VOL * sizeof(float)));
  CUDA_SAFE_CALL(cudaMalloc((void**)&d_b, VOL * sizeof(float)));
  CUDA_SAFE_CALL(cudaPointerGetAttributes(&attr, d_a));
  if (attr.type != cudaMemoryTypeDevice) { printf("cudaMalloc memory has type %d\n", (int)attr.type); errors++; }
  cudaStream_t upload, compute;
  cudaEvent_t uploaded;
  CUDA_SAFE_CALL(cudaStreamCreate(&upload));
  CUDA_SAFE_CALL(cudaStreamCreate(&compute));
  CUDA_SAFE_CALL(cudaEventCreateWithFlags(&uploaded, cudaEventDisableTiming | cudaEventBlockingSync));
  const float scale[2] = {2.0f, -0.5f}, filter[3] = {0.25f, 0.5f, 0.25f};
  CUDA_SAFE_CALL(cudaMemcpyToSymbolAsync(c_weights, scale, sizeof(scale), 0, cudaMemcpyHostToDevice, upload));
  CUDA_SAFE_CALL(cudaMemcpyToSymbolAsync(c_weights, filter, sizeof(filter), 4 * sizeof(float), cudaMemcpyHostToDevice, upload));
  CUDA_SAFE_CALL(cudaMemsetAsync(d_b, 0, VOL * sizeof(float), upload));
  CUDA_SAFE_CALL(cudaMemcpyAsync(d_a, volume.data(), VOL * sizeof(float), cudaMemcpyHostToDevice, upload));
  CUDA_SAFE_CALL(cudaEventRecord(uploaded, upload));
  CUDA_SAFE_CALL(cudaStreamWaitEvent(compute, uploaded, 0));

  pointwise_kernel table[2] = {scale_kernel, square_kernel};
  for (int k = 0; k < 2; k++) table[k]<<<(VOL + 255) / 256, 256, 0, compute>>>(d_a, VOL);
  dim3 block(16, 4, 4), grid((NX + 15) / 16, (NY + 3) / 4, (NZ + 3) / 4);
  void* args[] = {(void*)&d_a, (void*)&d_b};
  CUDA_SAFE_CALL(cudaFuncSetCacheConfig(smooth_z, cudaFuncCachePreferL1));
  CUDA_SAFE_CALL(cudaLaunchKernel((const void*)smooth_z, grid, block, args, 0, compute));
  dim3 too_big(32, 32, 2);  // 2048 threads: refused, and not sticky
  smooth_z<<<grid, too_big, 0, compute>>>(d_a, d_b);
  cudaError_t refused = cudaGetLastError();
  if (refused == cudaSuccess) { printf("a block of 2048 threads was accepted\n"); errors++; }
  CUDA_SAFE_CALL(cudaMemcpyAsync(result.data(), d_b, VOL * sizeof(float), cudaMemcpyDeviceToHost, compute));
  CUDA_SAFE_CALL(cudaStreamSynchronize(compute));
  if (cudaStreamQuery(compute) != cudaSuccess || cudaEventQuery(uploaded) != cudaSuccess) { printf("work still pending\n"); errors++; }

  for (int z = 0; z < NZ; z++)
    for (int y = 0; y < NY; y++)
      for (int x = 0; x < NX; x++) {
        float v[3];
        int zs[3] = {z > 0 ? z - 1 : z, z, z < NZ - 1 ? z + 1 : z};
        for (int k = 0; k < 3; k++) {
          float s = original[(zs[k] * NY + y) * NX + x] * scale[0] + scale[1];
          v[k] = s * s;
        }
        float expect = filter[0] * v[0] + filter[1] * v[1] + filter[2] * v[2];
        float got = result[(z * NY + y) * NX + x];
        if (fabsf(got - expect) > 1e-5f * (1.0f + fabsf(expect)) && errors++ < 10) printf("(%d,%d,%d): %f, expected %f\n", x, y, z, got, expect);
      }
  printf("refused launch: %s\n", cudaGetErrorName(refused));
  CUDA_SAFE_CALL(cudaEventDestroy(uploaded));
  CUDA_SAFE_CALL(cudaStreamDestroy(upload));
  CUDA_SAFE_CALL(cudaStreamDestroy(compute));
  CUDA_SAFE_CALL(cudaHostUnregister(volume.data()));
  CUDA_SAFE_CALL(cudaHostUnregister(result.data()));
  CUDA_SAFE_CALL(cudaFree(d_a));
  CUDA_SAFE_CALL(cudaFree(d_b));
  CUDA_SAFE_CALL(cudaDeviceReset());
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
