// A kernel's write just past a cudaMalloc allocation: without COHORT_CHECK=memory
// it lands in the allocation's redzone, which cudaFree checks. That cudaFree
// reports it as CUDA reports an invalid access, a sticky
// cudaErrorIllegalAddress, naming the allocation.
#include <string>

#include "runtime_test_support.hpp"

namespace {

class MemoryFault : public FreshDevice {};

__global__ void writes_one_past_the_end(float* a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] = 1.0f;
}

constexpr int floats = 1000;

float* damaged_allocation() {
  float* a = nullptr;
  EXPECT_EQ(cudaMalloc(&a, floats * sizeof(float)), cudaSuccess);
  writes_one_past_the_end<<<(floats + 255) / 256, 256>>>(a, floats);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // nothing checks the redzones until the free
  return a;
}

TEST_F(MemoryFault, TheFreeThatFindsItReturnsAStickyIllegalAddress) {
  float* a = damaged_allocation();
  const std::string at = address_text(a);
  testing::internal::CaptureStderr();
  EXPECT_EQ(cudaFree(a), cudaErrorIllegalAddress);
  const std::string printed = testing::internal::GetCapturedStderr();
  const std::string damage = "cudaFree: free_device(" + at +
                             "): the byte 0 past the end of the allocation of 4000 "
                             "bytes at " +
                             at +
                             " was overwritten: a kernel or a copy wrote outside the allocation; "
                             "run with COHORT_CHECK=memory to have the launch that did it report it";
  EXPECT_EQ(detail_of(cudaErrorIllegalAddress), damage);
  EXPECT_EQ(printed, "cohort: kernel fault (cudaErrorIllegalAddress): " + damage + "\n");  // once, as a fault
  // Sticky: every later call that CUDA refuses after a fault returns it, an allocation too.
  float* next = nullptr;
  EXPECT_EQ(cudaMalloc(&next, 16), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&next, 16), cudaSuccess);
}

// A reset ends the context and its errors, the damage its own frees find among them.
TEST_F(MemoryFault, AResetForgetsTheDamageItsFreesFind) {
  damaged_allocation();
  testing::internal::CaptureStderr();
  EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_NE(printed.find("the byte 0 past the end of the allocation of 4000 bytes"), std::string::npos) << printed;
  float* next = nullptr;
  EXPECT_EQ(cudaMalloc(&next, 16), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

// The other side of the one mapping: an allocation the device cannot hold is
// an out-of-memory error of that call alone, not a fault.
TEST_F(MemoryFault, AnAllocationOverCapacityIsAnOutOfMemoryOfThatCallAlone) {
  size_t free = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free, &total), cudaSuccess);
  float* a = nullptr;
  EXPECT_EQ(cudaMalloc(&a, total + 1), cudaErrorMemoryAllocation);
  EXPECT_EQ(
      detail_of(cudaErrorMemoryAllocation)
          .rfind("cudaMalloc: malloc_device: cannot allocate " + std::to_string(total + 1) + " bytes on device 0", 0),
      0u)
      << detail_of(cudaErrorMemoryAllocation);
  EXPECT_EQ(cudaGetLastError(), cudaErrorMemoryAllocation);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&a, 16), cudaSuccess);
}

}  // namespace
