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
