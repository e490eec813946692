// Launches spelled as real code spells them, each accepted by nvcc: blanks
// inside the chevrons, leading template arguments with the rest deduced,
// default arguments, 0 and NULL for pointer parameters, a kernel defined right
// after an #include <...> launched through a void*, a preprocessor conditional
// in a parameter list, the type before __shared__, and a launch in a header
// that reaches this file through another quoted header.
#include <cstdio>
#include <cstdlib>
#include <vector>
__global__ void after_include(int* out) { out[threadIdx.x] = 7; }

#include "launch_spellings_outer.h"

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t e = (call);                                                              \
    if (e != cudaSuccess) {                                                              \
      std::printf("line %d: %s: %s\n", __LINE__, #call, cudaGetErrorString(e));          \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

__global__ void fill(int* out, int value, int* also = NULL) {
  out[threadIdx.x] = value;
  if (also != NULL) also[threadIdx.x] = -value;
}

template <bool Negate, typename T>
__global__ void copy_signed(const T* in, T* out) {
  out[threadIdx.x] = Negate ? -in[threadIdx.x] : in[threadIdx.x];
}

__global__ void conditional_params(int* out,
#ifdef LAUNCH_SPELLINGS_UNDEFINED
                                   int unused,
#endif
                                   int value) {
  out[threadIdx.x] = value;
}

__global__ void type_first_shared(int* out) {
  extern float __shared__ staged[];
  staged[threadIdx.x] = static_cast<float>(threadIdx.x) * 0.5f;
  __syncthreads();
  out[threadIdx.x] = static_cast<int>(staged[blockDim.x - 1 - threadIdx.x] * 2.0f);
}

static int failures = 0;

static void expect(const char* what, const int* d, int n, int (*expected)(int)) {
  std::vector<int> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (h[i] != expected(i)) {
      std::printf("%s: element %d is %d, expected %d\n", what, i, h[i], expected(i));
      ++failures;
      return;
    }
}

int main() {
  const int n = 32;
  int *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));

  fill << < 1, n >> > (a, 3);
  expect("blanks in the chevrons", a, n, [](int) { return 3; });
  fill<<<1, n>>>(a, 4, b);
  expect("a default argument given", b, n, [](int) { return -4; });
  fill<<<1, n>>>(a, 5, 0);
  expect("0 for a pointer", a, n, [](int) { return 5; });
  fill<<<1, n>>>(a, 6, NULL);
  expect("NULL for a pointer", a, n, [](int) { return 6; });

  int* identity = nullptr;
  CHECK(cudaMalloc(&identity, n * sizeof(int)));
  std::vector<int> ramp(n);
  for (int i = 0; i < n; ++i) ramp[i] = i;
  CHECK(cudaMemcpy(identity, ramp.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  copy_signed<true><<<1, n>>>(identity, a);
  expect("leading template arguments", a, n, [](int i) { return -i; });

  void* args[] = {&a};
  CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(after_include), dim3(1), dim3(n), args, 0, 0));
  expect("a kernel right after an #include <...>", a, n, [](int) { return 7; });

  int value = 9;
  conditional_params<<<1, n>>>(a, value);
  expect("#ifdef in a parameter list", a, n, [](int) { return 9; });

  type_first_shared<<<1, n, n * sizeof(float)>>>(a);
  expect("extern float __shared__", a, n, [](int i) { return n - 1 - i; });

  launch_from_inner_header(a, n);
  expect("a launch in a header included by a header", a, n, [](int i) { return 2 * i; });

  CHECK(cudaGetLastError());
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(identity));
  std::printf(failures == 0 ? "Test passed\n" : "Test FAILED\n");
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
