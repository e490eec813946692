// The many ways single-file CUDA programs declare and launch kernels: in an
// anonymous namespace, `static __global__` and `__global__ static`, extern "C",
// an explicit specialization of a kernel template, a non-type template
// parameter, a default argument, a namespace-qualified kernel launched from a
// static member function, launches inside a variadic macro and a launch
// configuration spread over several lines. Each kernel writes its own slice.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N 1024
#define SLICES 9

#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define LAUNCH_1D(kernel, n, ...) kernel<<<((n) + 127) / 128, 128>>>(__VA_ARGS__)

namespace {
__global__ void fill_anonymous(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}
}  // namespace

static __global__ void fill_static(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[n + i] = 2 * i;
}

__global__ static void fill_static_after(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[2 * n + i] = 3 * i;
}

extern "C" __global__ void fill_extern_c(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[3 * n + i] = 4 * i;
}

template <typename T>
__global__ void fill_template(T* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[4 * n + i] = (T)(5 * i);
}
template <>
__global__ void fill_template<int>(int* out, int n) {  // the specialization writes 6 i, not 5 i
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[4 * n + i] = 6 * i;
}

template <int Scale, int Slice>
__global__ void fill_scaled(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[Slice * n + i] = Scale * i;
}

__global__ void fill_default(int* out, int n, int scale = 8) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[6 * n + i] = scale * i;
}

namespace app {
namespace kernels {
__global__ void fill_nested(int* out, int n, int slice, int scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[slice * n + i] = scale * i;
}
}  // namespace kernels
struct Runner {
  static void run(int* out, int n) { kernels::fill_nested<<<(n + 255) / 256, 256>>>(out, n, 7, 9); }
};
}  // namespace app

int main() {
  int* d_out;
  CUDA_CHECK(cudaMalloc((void**)&d_out, SLICES * N * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_out, 0, SLICES * N * sizeof(int)));
  LAUNCH_1D(fill_anonymous, N, d_out, N);
  fill_static
      <<<dim3((N + 63) / 64, 1, 1),
         dim3(64, 1, 1),
         0>>>(d_out, N);
  fill_static_after<<<N / 32, 32, 0, 0>>>(d_out, N);
  LAUNCH_1D(fill_extern_c, N, d_out, N);
  fill_template<int><<<N / 128, 128>>>(d_out, N);
  fill_scaled<7, 5><<<N / 128, 128>>>(d_out, N);
  fill_default<<<N / 128, 128>>>(d_out, N);
  app::Runner::run(d_out, N);
  fill_scaled<(1 << 3) + 2, SLICES - 1><<<N / 128, 128>>>(d_out, N);
  CUDA_CHECK(cudaGetLastError());
  int* h_out = (int*)malloc(SLICES * N * sizeof(int));
  CUDA_CHECK(cudaMemcpy(h_out, d_out, SLICES * N * sizeof(int), cudaMemcpyDeviceToHost));
  const int scale[SLICES] = {1, 2, 3, 4, 6, 7, 8, 9, 10};
  int errors = 0;
  for (int s = 0; s < SLICES; s++)
    for (int i = 0; i < N; i++)
      if (h_out[s * N + i] != scale[s] * i && errors++ < 10) printf("slice %d element %d: %d, expected %d\n", s, i, h_out[s * N + i], scale[s] * i);
  CUDA_CHECK(cudaFree(d_out));
  free(h_out);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
