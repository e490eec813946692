// A failed assert() in a kernel: as on a GPU, the launch's next
// synchronization returns a sticky cudaErrorAssert, and the assertion with its
// block and thread is printed (by cohort, once).
#include <string>

#include "runtime_test_support.hpp"

// Last, so that assert() is live whatever the build type (Release defines NDEBUG).
#undef NDEBUG
#include <cassert>

namespace {

class KernelAssert : public FreshDevice {};

__global__ void scale_checked(float* a, int n, int bad) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i != bad);
  if (i < n) a[i] *= 2.0f;
}

TEST_F(KernelAssert, AFailedAssertionIsAStickyCudaErrorAssertNamingItsThread) {
  float* a = nullptr;
  ASSERT_EQ(cudaMalloc(&a, 1024 * sizeof(float)), cudaSuccess);
  testing::internal::CaptureStderr();
  scale_checked<<<4, 256>>>(a, 1024, 3 * 256 + 17);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorAssert);
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_NE(printed.find("cohort: kernel fault (cudaErrorAssert): assertion `i != bad` failed in kernel `"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("block (3,0,0), thread (17,0,0), at "), std::string::npos) << printed;
  EXPECT_NE(detail_of(cudaErrorAssert).find("kernel_assert_test.cu:18"), std::string::npos)
      << detail_of(cudaErrorAssert);
  // Sticky, as CUDA's: every later call that meets it returns it, until a reset.
  float* next = nullptr;
  EXPECT_EQ(cudaMalloc(&next, 16), cudaErrorAssert);
  EXPECT_EQ(cudaGetLastError(), cudaErrorAssert);
  EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&next, 16), cudaSuccess);
  EXPECT_EQ(cudaFree(next), cudaSuccess);
}

// Launches failing one after the other are one fault, reported once: the first.
TEST_F(KernelAssert, LaunchesFailingOneAfterTheOtherAreOneFault) {
  float* a = nullptr;
  ASSERT_EQ(cudaMalloc(&a, 64 * 128 * sizeof(float)), cudaSuccess);
  testing::internal::CaptureStderr();
  scale_checked<<<64, 128>>>(a, 64 * 128, -1);  // no thread fails
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int bad = 0; bad < 64 * 128; bad += 997) scale_checked<<<64, 128>>>(a, 64 * 128, bad);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorAssert);
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed.find("cohort: kernel fault"), printed.rfind("cohort: kernel fault")) << printed;
}

}  // namespace
