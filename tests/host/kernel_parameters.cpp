// Kernel parameters as a GPU has them: bitwise copies of the launch's
// arguments, made without the parameter type's constructors, never
// destroyed per thread, and each thread's own to modify.
#include <gmock/gmock.h>

#include <atomic>
#include <vector>

#include <cohort/cohort.hpp>

#include "test_support.hpp"

namespace cg = cohort;

namespace {

std::atomic<int> copies{0}, destructions{0};

// Owns nothing, but counts what a resource owner would do.
struct counted {
  int value;
  explicit counted(int v) : value(v) {}
  counted(const counted& other) : value(other.value) { ++copies; }
  ~counted() { ++destructions; }
};

// Trivially copied, but destroyed non-trivially.
struct destroyed {
  int value;
  ~destroyed() { ++destructions; }
};

// Big enough to be passed in memory either way.
struct big_counted {
  int values[64];
  big_counted() {
    for (int i = 0; i < 64; ++i) values[i] = i;
  }
  big_counted(const big_counted& other) {
    for (int i = 0; i < 64; ++i) values[i] = other.values[i];
    ++copies;
  }
};

// Mixed: parameters passed in registers on either side of those passed by
// address. Each thread adds 1 to its own copies, which no other thread sees.
__global__ void sum_parameters(int before, counted c, destroyed d, double middle, big_counted big, int after,
                               int* out) {
  c.value += 1;
  d.value += 1;
  big.values[63] += 1;
  const unsigned rank = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();  // every thread has modified its copies before any reads them
  out[rank] = before + c.value + d.value + static_cast<int>(middle) + big.values[63] + after;
}

class KernelParameters : public ::testing::Test {
 protected:
  void SetUp() override {
    copies = 0;
    destructions = 0;
  }
};

// 1 + (10 + 1) + (20 + 1) + 3 + (63 + 1) + 5
constexpr int expected_sum = 105;
constexpr unsigned blocks = 4, threads = 64;

TEST_F(KernelParameters, AreCopiedOnTheHostOnlyAndNotDestroyedPerThread) {
  cg::device_buffer<int> out(blocks * threads);
  {
    const counted c(10);
    const big_counted big;
    copies = 0;
    cg::launch(sum_parameters, {dim3(blocks), dim3(threads)}, 1, c, destroyed{20}, 3.0, big, 5, out.data());
    // One copy of each into the launch's arguments (nvcc's launch makes one or more on the host).
    EXPECT_EQ(copies, 2);
  }
  // The launch's copies of c and d, the temporary d and the caller's c: never a thread's.
  EXPECT_EQ(destructions, 4);
  EXPECT_THAT(out.to_host(), ::testing::Each(expected_sum));
}

TEST_F(KernelParameters, AreCopiedBitwiseByAKernelKnownAtCompileTime) {
  cg::device_buffer<int> out(blocks * threads);
  cg::launch<sum_parameters>({dim3(blocks), dim3(threads)}, 1, counted(10), destroyed{20}, 3.0, big_counted(), 5,
                             out.data());
  EXPECT_EQ(copies, 2);
  EXPECT_EQ(destructions, 4);  // the temporaries, and the launch's own copies
  EXPECT_THAT(out.to_host(), ::testing::Each(expected_sum));
}

TEST_F(KernelParameters, OfACooperativeLaunchAreTooAndEveryThreadSeesTheArguments) {
  cg::device_buffer<int> out(blocks * threads);
  cg::launch_cooperative(sum_parameters, {dim3(blocks), dim3(threads)}, 1, counted(10), destroyed{20}, 3.0,
                         big_counted(), 5, out.data());
  EXPECT_EQ(copies, 2);
  EXPECT_EQ(destructions, 4);
  EXPECT_THAT(out.to_host(), ::testing::Each(expected_sum));
}

}  // namespace
