// What a GPU's kernel threads do that the host backend's fibers cannot, and
// how a CUDA program is told: a launch from a kernel (dynamic parallelism) is
// a fault of the launch that ran it; a stack size set by the program is refused
// with the environment variable that sets it.
#include <string>

#include "runtime_test_support.hpp"

namespace {

class KernelThreads : public FreshDevice {};

__global__ void adds_one(int* a) { a[threadIdx.x] += 1; }

__global__ void launches_a_kernel(int* a) {
  if (threadIdx.x == 0) {
    adds_one<<<1, 32>>>(a);
    a[32] = 1;  // not reached: the refused launch stopped the thread
  }
}

// Not an error code that the kernel could ignore and the host never see: the
// outer launch fails with a sticky cudaErrorLaunchFailure, as it does for any
// usage error inside a kernel, and the program's results are not silently wrong.
TEST_F(KernelThreads, ALaunchFromAKernelIsAStickyLaunchFailureOfTheOuterLaunch) {
  int* a = nullptr;
  ASSERT_EQ(cudaMallocManaged(&a, 33 * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemset(a, 0, 33 * sizeof(int)), cudaSuccess);
  testing::internal::CaptureStderr();
  launches_a_kernel<<<1, 32>>>(a);
  const std::string printed = testing::internal::GetCapturedStderr();
  const std::string refusal =
      "kernel code threw in kernel `(anonymous namespace)::launches_a_kernel(int*)`, block (0,0,0), thread (0,0,0): "
      "a kernel launched a kernel: the host backend does not support dynamic parallelism; launch from host code";
  EXPECT_EQ(detail_of(cudaErrorLaunchFailure), refusal);
  EXPECT_EQ(printed, "cohort: kernel fault (cudaErrorLaunchFailure): " + refusal + "\n");
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);  // sticky
  EXPECT_EQ(a[0], 0);
  EXPECT_EQ(a[32], 0);
}

// The device-side runtime API (dynamic parallelism's cudaDeviceSynchronize,
// cudaMalloc, ...) does not exist on the host backend: a call from kernel code
// fails the launch that ran it, naming the call, rather than returning
// cudaSuccess having done nothing the kernel could rely on.
__global__ void synchronizes_the_device(int* a) {
  if (threadIdx.x == 0) {
    a[0] = static_cast<int>(cudaDeviceSynchronize());
    a[1] = 1;  // not reached
  }
}
__global__ void allocates(int* a) {
  if (threadIdx.x == 0) {
    void* p = nullptr;
    a[0] = static_cast<int>(cudaMalloc(&p, 64));
    a[1] = 1;  // not reached
  }
}

TEST_F(KernelThreads, DeviceSideRuntimeCallsFailTheLaunchNamingTheCall) {
  int* a = nullptr;
  ASSERT_EQ(cudaMallocManaged(&a, 2 * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemset(a, 0, 2 * sizeof(int)), cudaSuccess);
  testing::internal::CaptureStderr();
  synchronizes_the_device<<<1, 32>>>(a);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  EXPECT_EQ(detail_of(cudaErrorLaunchFailure),
            "kernel code threw in kernel `(anonymous namespace)::synchronizes_the_device(int*)`, block (0,0,0), "
            "thread (0,0,0): cudaDeviceSynchronize called in a kernel: the host backend has no device-side runtime "
            "API (dynamic parallelism); call it from host code");
  EXPECT_EQ(a[1], 0);
  ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
  ASSERT_EQ(cudaMallocManaged(&a, 2 * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemset(a, 0, 2 * sizeof(int)), cudaSuccess);
  testing::internal::CaptureStderr();
  allocates<<<1, 32>>>(a);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  EXPECT_NE(detail_of(cudaErrorLaunchFailure)
                .find("cudaMalloc called in a kernel: the host backend has no "
                      "device-side runtime API (dynamic parallelism)"),
            std::string::npos)
      << detail_of(cudaErrorLaunchFailure);
  EXPECT_EQ(a[1], 0);
}

// A launch by address with no argument array (or a null entry in it), for a
// kernel that takes parameters, is refused as CUDA's runtime refuses it, not a
// crash reading through the null pointer.
__global__ void takes_two(int* a, int b) { a[threadIdx.x] = b; }

TEST_F(KernelThreads, ALaunchByAddressWithNullArgumentsIsAnInvalidValue) {
  EXPECT_EQ(cudaLaunchKernel(reinterpret_cast<const void*>(&takes_two), dim3(1), dim3(1), nullptr, 0, nullptr),
            cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaLaunchKernel: args is null, but the kernel at " +
                                                  address_text(reinterpret_cast<const void*>(&takes_two)) +
                                                  " takes 2 parameters: pass an array with a pointer to each argument");
  int* a = nullptr;
  ASSERT_EQ(cudaMalloc(&a, sizeof(int)), cudaSuccess);
  void* args[] = {&a, nullptr};
  EXPECT_EQ(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(&takes_two), dim3(1), dim3(1), args, 0, nullptr),
            cudaErrorInvalidValue);
  EXPECT_NE(detail_of(cudaErrorInvalidValue).find("cudaLaunchCooperativeKernel: args[1] is null"), std::string::npos);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // a refused call, not a fault
}

// Fibers' stacks are sized once, from COHORT_STACK_SIZE (default 128 KiB):
// a stack size they already have is granted and reads back; a larger one is
// refused naming the variable, and the limit reads as before.
TEST_F(KernelThreads, AStackSizeTheFibersHaveIsGrantedALargerOneIsRefusedWithTheVariableThatSetsIt) {
  size_t granted = 0, after = 0;
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitStackSize, 8 * 1024), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetLimit(&granted, cudaLimitStackSize), cudaSuccess);
  EXPECT_EQ(granted, size_t{8 * 1024});
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitStackSize, 200 * 1024), cudaErrorUnsupportedLimit);
  EXPECT_STREQ(cudaGetErrorName(cudaErrorUnsupportedLimit), "cudaErrorUnsupportedLimit");
  EXPECT_EQ(std::string(cudaGetErrorString(cudaErrorUnsupportedLimit)),
            "limit is not supported on this architecture (cohort: cudaDeviceSetLimit(cudaLimitStackSize, 204800): "
            "the host backend's kernel threads have 131072 bytes of stack each, sized from the environment once, "
            "not from the program: start the program with COHORT_STACK_SIZE at 204800 bytes or more (a K/M/G "
            "suffix allowed; default 128K, at least 16K))");
  EXPECT_EQ(cudaGetLastError(), cudaErrorUnsupportedLimit);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // a refused call, not a fault
  ASSERT_EQ(cudaDeviceGetLimit(&after, cudaLimitStackSize), cudaSuccess);
  EXPECT_EQ(after, granted);
  size_t heap = 0;
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20), cudaSuccess);  // other limits are recorded
  ASSERT_EQ(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize), cudaSuccess);
  EXPECT_EQ(heap, size_t{16} << 20);
}

}  // namespace
