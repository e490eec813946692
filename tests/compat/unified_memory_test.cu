// cudaMemPrefetchAsync and cudaMemAdvise: hints that succeed for what CUDA 13
// takes (managed memory, pageable host memory, a device or the host) and are
// refused with CUDA's codes for what it refuses (the codes seen on an H200).
#include <string>
#include <vector>

#include "runtime_test_support.hpp"

namespace {

class UnifiedMemory : public FreshDevice {
 protected:
  void SetUp() override { ASSERT_EQ(cudaMallocManaged(&managed, bytes), cudaSuccess); }
  static constexpr size_t bytes = 4096;
  float* managed = nullptr;
};

constexpr cudaMemLocation device_0{cudaMemLocationTypeDevice, 0};
constexpr cudaMemLocation host{cudaMemLocationTypeHost, 0};

__managed__ int managed_counts[4];

__global__ void adds(int n, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] += x[i];
}

// "An Even Easier Introduction to CUDA", with CUDA 12's form of the prefetch.
TEST_F(UnifiedMemory, TutorialPrefetchesThenAdds) {
  constexpr int n = 1 << 10;
  float *x, *y;
  ASSERT_EQ(cudaMallocManaged(&x, n * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMallocManaged(&y, n * sizeof(float)), cudaSuccess);
  for (int i = 0; i < n; ++i) x[i] = 1.0f, y[i] = 2.0f;
  int device = -1;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  EXPECT_EQ(cudaMemPrefetchAsync(x, n * sizeof(float), device, 0), cudaSuccess);
  EXPECT_EQ(cudaMemPrefetchAsync(y, n * sizeof(float), device), cudaSuccess);
  adds<<<4, 256>>>(n, x, y);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaMemPrefetchAsync(y, n * sizeof(float), cudaCpuDeviceId), cudaSuccess);
  for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], 3.0f) << i;
}

TEST_F(UnifiedMemory, HintsCudaTakesSucceed) {
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  std::vector<float> pageable(16);  // the device reaches pageable memory (cudaDevAttrPageableMemoryAccess)
  for (const cudaMemLocation to :
       {device_0, host, cudaMemLocation{cudaMemLocationTypeHost, 77}, cudaMemLocation{cudaMemLocationTypeHostNuma, 0},
        cudaMemLocation{cudaMemLocationTypeHostNumaCurrent, 0}}) {
    EXPECT_EQ(cudaMemPrefetchAsync(managed, bytes, to, 0, stream), cudaSuccess) << to.type;
    EXPECT_EQ(cudaMemPrefetchAsync(managed + 1, 100, to, 0), cudaSuccess) << to.type;
    EXPECT_EQ(cudaMemPrefetchAsync(managed_counts, sizeof managed_counts, to, 0), cudaSuccess) << to.type;
    EXPECT_EQ(cudaMemPrefetchAsync(pageable.data(), 64, to, 0), cudaSuccess) << to.type;
  }
  for (const cudaMemoryAdvise advice :
       {cudaMemAdviseSetReadMostly, cudaMemAdviseUnsetReadMostly, cudaMemAdviseSetPreferredLocation,
        cudaMemAdviseUnsetPreferredLocation, cudaMemAdviseSetAccessedBy, cudaMemAdviseUnsetAccessedBy}) {
    EXPECT_EQ(cudaMemAdvise(managed, bytes, advice, device_0), cudaSuccess) << advice;
    EXPECT_EQ(cudaMemAdvise(managed + 3, 10, advice, host), cudaSuccess) << advice;
    EXPECT_EQ(cudaMemAdvise(managed, bytes, advice, 0), cudaSuccess) << advice;  // CUDA 12's form
    EXPECT_EQ(cudaMemAdvise(managed, bytes, advice, cudaCpuDeviceId), cudaSuccess) << advice;
  }
  // Advice that ignores its location takes a device that does not exist, as CUDA does.
  EXPECT_EQ(cudaMemAdvise(managed, bytes, cudaMemAdviseSetReadMostly, 5), cudaSuccess);
  EXPECT_EQ(cudaMemAdvise(managed, bytes, cudaMemAdviseSetPreferredLocation,
                          cudaMemLocation{cudaMemLocationTypeHostNumaCurrent, 0}),
            cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TEST_F(UnifiedMemory, PrefetchRefusesWhatCudaRefuses) {
  const std::string at = address_text(managed);
  cudaStream_t destroyed;
  ASSERT_EQ(cudaStreamCreate(&destroyed), cudaSuccess);
  ASSERT_EQ(cudaStreamDestroy(destroyed), cudaSuccess);
  EXPECT_EQ(cudaMemPrefetchAsync(managed, bytes, device_0, 0, destroyed), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(detail_of(cudaErrorInvalidResourceHandle), "cudaMemPrefetchAsync: stream " + address_text(destroyed) +
                                                           " was not created by cudaStreamCreate or was destroyed");
  EXPECT_EQ(cudaMemPrefetchAsync(managed, bytes, device_0, 1), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaMemPrefetchAsync: flags 1 are not 0; CUDA defines none yet, pass 0");
  EXPECT_EQ(cudaMemPrefetchAsync(managed, 0, device_0, 0), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaMemPrefetchAsync: the range " + at +
                                                  " + 0 bytes is null or empty; pass managed memory and its size in "
                                                  "bytes");
  EXPECT_EQ(cudaMemPrefetchAsync(nullptr, bytes, device_0, 0), cudaErrorInvalidValue);
  EXPECT_NE(detail_of(cudaErrorInvalidValue).find("+ 4096 bytes is null or empty"), std::string::npos);
  EXPECT_EQ(cudaMemPrefetchAsync(managed, bytes + 1, device_0, 0), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaMemPrefetchAsync: the range " + at +
                                                  " + 4097 bytes runs past the end of its allocation of 4096 bytes "
                                                  "at " +
                                                  at);
  EXPECT_EQ(cudaMemPrefetchAsync(managed, bytes, cudaMemLocation{cudaMemLocationTypeDevice, 5}, 0),
            cudaErrorInvalidDevice);
  EXPECT_EQ(detail_of(cudaErrorInvalidDevice)
                .rfind("cudaMemPrefetchAsync: device 5 does not exist; the host backend "
                       "has ",
                       0),
            0u)
      << detail_of(cudaErrorInvalidDevice);
  EXPECT_EQ(cudaMemPrefetchAsync(managed, bytes, cudaInvalidDeviceId), cudaErrorInvalidDevice);  // CUDA 12's form
  EXPECT_EQ(detail_of(cudaErrorInvalidDevice).rfind("cudaMemPrefetchAsync: device -2 does not exist", 0), 0u);
  EXPECT_EQ(cudaMemPrefetchAsync(managed, bytes, cudaMemLocation{cudaMemLocationTypeHostNuma, 999}, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaMemPrefetchAsync: host NUMA node 999 does not exist; pass one "
            "that /sys/devices/system/node lists, or cudaMemLocationTypeHost");
  EXPECT_EQ(cudaMemPrefetchAsync(managed, bytes, cudaMemLocation{cudaMemLocationTypeInvalid, 0}, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaMemPrefetchAsync: location type 0 is not a cudaMemLocationType; "
            "pass cudaMemLocationTypeDevice and a device number, or "
            "cudaMemLocationTypeHost");
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // refusals, not faults
}

// Memory the runtime handed out as device or pinned memory is not managed memory.
TEST_F(UnifiedMemory, HintsRefuseMemoryThatIsNotManaged) {
  float *device, *pinned;
  ASSERT_EQ(cudaMalloc(&device, bytes), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&pinned, bytes), cudaSuccess);
  EXPECT_EQ(cudaMemPrefetchAsync(device, bytes, device_0, 0), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaMemPrefetchAsync: " + address_text(device) +
                                                  " is device memory from cudaMalloc, not managed memory; allocate "
                                                  "it with cudaMallocManaged");
  EXPECT_EQ(cudaMemAdvise(pinned, bytes, cudaMemAdviseSetReadMostly, device_0), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaMemAdvise(cudaMemAdviseSetReadMostly): " + address_text(pinned) +
                                                  " is pinned host memory from cudaMallocHost, not managed memory; "
                                                  "allocate it with cudaMallocManaged");
  EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
}

// A symbol the runtime knows may be a __managed__ variable: it cannot tell
// one from a __device__ variable, so it takes both.
TEST_F(UnifiedMemory, HintsTakeSymbols) {
  void* symbol = nullptr;
  ASSERT_EQ(cudaGetSymbolAddress(&symbol, managed_counts), cudaSuccess);
  EXPECT_EQ(cudaMemAdvise(symbol, sizeof managed_counts, cudaMemAdviseSetAccessedBy, host), cudaSuccess);
  EXPECT_EQ(cudaMemPrefetchAsync(symbol, sizeof managed_counts, device_0, 0), cudaSuccess);
  EXPECT_EQ(cudaMemPrefetchAsync(symbol, sizeof managed_counts + 1, device_0, 0), cudaErrorInvalidValue);
  EXPECT_NE(detail_of(cudaErrorInvalidValue).find("runs past the end of its allocation of 16 bytes"), std::string::npos)
      << detail_of(cudaErrorInvalidValue);
}

TEST_F(UnifiedMemory, AdviceRefusesWhatCudaRefuses) {
  for (const int advice : {0, 7}) {
    EXPECT_EQ(cudaMemAdvise(managed, bytes, static_cast<cudaMemoryAdvise>(advice), device_0), cudaErrorInvalidValue);
    EXPECT_EQ(detail_of(cudaErrorInvalidValue),
              "cudaMemAdvise: advice " + std::to_string(advice) +
                  " is not a cudaMemoryAdvise; pass one of cudaMemAdviseSetReadMostly (1) to "
                  "cudaMemAdviseUnsetAccessedBy (6)");
  }
  EXPECT_EQ(cudaMemAdvise(managed, bytes, cudaMemAdviseSetReadMostly, cudaMemLocation{cudaMemLocationTypeInvalid, 0}),
            cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue)
                .rfind("cudaMemAdvise(cudaMemAdviseSetReadMostly): location type 0 is not "
                       "a cudaMemLocationType",
                       0),
            0u);
  // A device that does not exist is an invalid value here, not an invalid device.
  EXPECT_EQ(cudaMemAdvise(managed, bytes, cudaMemAdviseSetPreferredLocation, 5), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue)
                .rfind("cudaMemAdvise(cudaMemAdviseSetPreferredLocation): device 5 does "
                       "not exist; the host backend has ",
                       0),
            0u)
      << detail_of(cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemAdvise(managed, bytes, cudaMemAdviseUnsetAccessedBy, cudaMemLocation{cudaMemLocationTypeDevice, -1}),
            cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue)
                .rfind("cudaMemAdvise(cudaMemAdviseUnsetAccessedBy): device -1 does not "
                       "exist",
                       0),
            0u);
  EXPECT_EQ(cudaMemAdvise(managed, bytes, cudaMemAdviseSetAccessedBy, cudaMemLocation{cudaMemLocationTypeHostNuma, 0}),
            cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaMemAdvise(cudaMemAdviseSetAccessedBy): a host NUMA node is not a "
            "processor; pass cudaMemLocationTypeDevice and a device number, or "
            "cudaMemLocationTypeHost");
  EXPECT_EQ(cudaMemAdvise(managed, bytes, cudaMemAdviseSetPreferredLocation,
                          cudaMemLocation{cudaMemLocationTypeHostNuma, 999}),
            cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue)
                .rfind("cudaMemAdvise(cudaMemAdviseSetPreferredLocation): host NUMA node "
                       "999 does not exist",
                       0),
            0u);
  EXPECT_EQ(cudaMemAdvise(managed, 2 * bytes, cudaMemAdviseSetReadMostly, device_0), cudaErrorInvalidValue);
  EXPECT_NE(detail_of(cudaErrorInvalidValue).find("runs past the end of its allocation of 4096 bytes"),
            std::string::npos);
}

__global__ void faults() { __trap(); }

// After a kernel fault the hints return it, as every call CUDA refuses then does.
TEST_F(UnifiedMemory, HintsReturnAStickyFault) {
  testing::internal::CaptureStderr();
  faults<<<1, 1>>>();
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(cudaMemPrefetchAsync(managed, bytes, device_0, 0), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaMemAdvise(managed, bytes, cudaMemAdviseSetReadMostly, device_0), cudaErrorLaunchFailure);
}

}  // namespace
