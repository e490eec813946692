// cohort::cudart's error semantics and checks, each error triggered and its
// code and message asserted: sticky kernel faults, non-sticky configuration
// errors, memory and handle checks, launches by address; and the device
// builtins whose results are exact.
#include <cooperative_groups.h>
#include <gtest/gtest.h>

#include <cohort/host/settings.hpp>  // reload_settings, for tests that change a COHORT_* variable

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "device_query.hpp"
#include "shared_header.cuh"

namespace cg = cooperative_groups;

namespace {

class Cudart : public ::testing::Test {
 protected:
  void TearDown() override { cudaDeviceReset(); }
};

std::string text(cudaError_t e) { return cudaGetErrorString(e); }

std::string address_text(const void* p) {
  std::ostringstream s;
  s << p;
  return s.str();
}

__global__ void syncs_grid(int* out) {
  cg::this_grid().sync();
  *out = 1;
}

__global__ void traps() { __trap(); }

__global__ void empty_kernel() {}

template <class T>
__global__ void template_kernel(T* out) {
  *out = T(7);
}

extern __shared__ int namespace_scope_shared[];

__global__ void uses_namespace_shared(int* out) {
  namespace_scope_shared[threadIdx.x] = static_cast<int>(threadIdx.x) * 2;
  __syncthreads();
  out[threadIdx.x] = namespace_scope_shared[blockDim.x - 1 - threadIdx.x];
}

__global__ void votes(int* out) {
  out[0] = __syncthreads_count(threadIdx.x % 3 == 0);
  out[1] = __syncthreads_and(threadIdx.x < 1000);
  out[2] = __syncthreads_or(threadIdx.x == 5);
  out[3] = __syncthreads_and(threadIdx.x != 5);
  atomicAdd_block(&out[4], 1);
  atomicMax_system(&out[5], static_cast<int>(threadIdx.x));
}

__device__ int device_symbol[4];

// A static initializer may allocate, as it may with CUDA's runtime.
const cudaError_t allocated_at_static_initialization = [] {
  int* p = nullptr;
  return cudaMalloc(&p, 64);
}();

// NVIDIA's semantics through <cooperative_groups.h>: a bool label is a binary
// partition (meta rank = the label), a pointer label its address; invoke_one on
// the grid needs no cooperative launch; this_thread() is meta rank 0 of 1.
__global__ void nvidia_partitions(int* out, int* const* labels) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const bool odd = warp.thread_rank() % 2 == 1;
  const bool first_is_odd_label = warp.thread_rank() == 0 || odd;  // lane 0 holds label true
  cg::coalesced_group by_bool = cg::labeled_partition(warp, first_is_odd_label);
  out[warp.thread_rank()] = static_cast<int>(by_bool.meta_group_rank() * 100 + by_bool.meta_group_size() * 10 +
                                             (by_bool.size() == (first_is_odd_label ? 17u : 15u)));
  cg::coalesced_group by_pointer = cg::labeled_partition(warp, labels[warp.thread_rank() % 3]);
  out[32 + warp.thread_rank()] = static_cast<int>(by_pointer.size());
  cg::invoke_one(cg::this_grid(), [&] { out[64] = 42; });  // no cooperative launch needed
  const cg::thread_block_tile<1> self = cg::this_thread();
  if (self.meta_group_rank() != 0 || self.meta_group_size() != 1 || self.thread_rank() != 0 || self.size() != 1)
    atomicAdd(&out[65], 1);
}

TEST_F(Cudart, KernelFaultIsStickyUntilReset) {
  int* out;
  ASSERT_EQ(cudaMalloc(&out, sizeof(int)), cudaSuccess);
  testing::internal::CaptureStderr();
  syncs_grid<<<2, 32>>>(out);
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed.rfind("cohort: kernel fault (cudaErrorLaunchFailure): ", 0), 0u) << printed;
  EXPECT_NE(printed.find("cooperative"), std::string::npos) << printed;
  // The remedy is the CUDA runtime's call, which the program knows, not cohort's.
  EXPECT_NE(printed.find("launch it with cudaLaunchCooperativeKernel (or cudaLaunchKernelEx with "
                         "cudaLaunchAttributeCooperative)"),
            std::string::npos)
      << printed;
  EXPECT_EQ(printed.find("cohort::launch_cooperative"), std::string::npos) << printed;
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  // Reading the last error resets it, as in CUDA 13; every call that meets the fault sets it again.
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorLaunchFailure);
  int* other;
  EXPECT_EQ(cudaMalloc(&other, 4), cudaErrorLaunchFailure);
  EXPECT_NE(text(cudaErrorLaunchFailure).find("unspecified launch failure (cohort: "), std::string::npos);
  EXPECT_NE(text(cudaErrorLaunchFailure).find("cooperative"), std::string::npos) << text(cudaErrorLaunchFailure);
  EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&other, 4), cudaSuccess);
}

// Lane 15 shuffles down from lane 16, which the mask leaves out (and lanes 16
// to 31 call with a mask that leaves them out): PTX leaves the values
// undefined, the host backend stops the kernel with a usage error.
__global__ void shuffles_outside_its_mask(int* out) {
  int v = static_cast<int>(threadIdx.x);
  v += __shfl_down_sync(0x0000ffffu, v, 1);
  out[threadIdx.x] = v;
}

// A usage error raised inside a kernel stops it partway, as a fault does: the
// launch reports it as a sticky launch failure that cudaDeviceSynchronize
// returns, not as a launch-time invalid value that only cudaGetLastError sees.
TEST_F(Cudart, AUsageErrorInsideAKernelIsAStickyLaunchFailure) {
  int* out;
  ASSERT_EQ(cudaMalloc(&out, 32 * sizeof(int)), cudaSuccess);
  testing::internal::CaptureStderr();
  shuffles_outside_its_mask<<<1, 32>>>(out);
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed.rfind("cohort: kernel fault (cudaErrorLaunchFailure): ", 0), 0u) << printed;
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);  // sticky
  EXPECT_NE(text(cudaErrorLaunchFailure).find("mask"), std::string::npos) << text(cudaErrorLaunchFailure);
}

TEST_F(Cudart, TrapIsALaunchFailure) {
  traps<<<1, 1>>>();
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  EXPECT_NE(text(cudaErrorLaunchFailure).find("__trap() called in a kernel"), std::string::npos)
      << text(cudaErrorLaunchFailure);
}

// The refusal names the CUDA calls that size the grid, not cohort's.
TEST_F(Cudart, CooperativeLaunchTooLargeIsNotSticky) {
  int sms = 0, per_sm = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, empty_kernel, 128, 0), cudaSuccess);
  EXPECT_EQ(cudaLaunchCooperativeKernel(empty_kernel, dim3(sms * per_sm + 1), dim3(128), nullptr),
            cudaErrorCooperativeLaunchTooLarge);
  const std::string refused = cohort::compat::error_detail(cudaErrorCooperativeLaunchTooLarge);
  EXPECT_NE(refused.find("size the grid with cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, func, 128, "
                         "0) times the device's multiProcessorCount"),
            std::string::npos)
      << refused;
  EXPECT_EQ(refused.find("max_cooperative_grid"), std::string::npos) << refused;
  EXPECT_EQ(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaLaunchCooperativeKernel(empty_kernel, dim3(sms * per_sm), dim3(128), nullptr), cudaSuccess);
}

TEST_F(Cudart, BadConfigurationIsTheLastErrorOnce) {
  empty_kernel<<<0, 32>>>();
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_STREQ(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration");
}

// As CUDA 13's runtime does on an H100: a block over the thread limit is an invalid value.
TEST_F(Cudart, OversizedBlockIsAnInvalidValueOnce) {
  empty_kernel<<<1, 4096>>>();
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_NE(std::string(cohort::compat::error_detail(cudaErrorInvalidValue)).find("4096 threads"), std::string::npos);
}

__global__ void fills_dynamic_shared(int* out) {
  extern __shared__ int words[];
  words[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) *out = words[blockDim.x - 1];
}

// A CUDA program is told of the call it makes to raise the limit, not of cohort's.
TEST_F(Cudart, SharedMemoryLimitsNameCudaFuncSetAttribute) {
  int* out;
  ASSERT_EQ(cudaMalloc(&out, sizeof(int)), cudaSuccess);
  constexpr int big = 64 * 1024;
  fills_dynamic_shared<<<1, 64, big>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_NE(text(cudaErrorInvalidValue)
                .find("raise it with cudaFuncSetAttribute(func, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536)"),
            std::string::npos)
      << text(cudaErrorInvalidValue);
  EXPECT_EQ(text(cudaErrorInvalidValue).find("set_max_dynamic_shared_memory"), std::string::npos);

  int optin = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), cudaSuccess);
  EXPECT_EQ(cudaFuncSetAttribute(fills_dynamic_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, optin + 1),
            cudaErrorInvalidValue);
  const std::string refused = cohort::compat::error_detail(cudaErrorInvalidValue);
  EXPECT_EQ(refused.rfind("cudaFuncSetAttribute: " + std::to_string(optin + 1) +
                              " bytes of dynamic shared memory plus the kernel's 0 bytes of static shared memory "
                              "exceed the device's limit of " +
                              std::to_string(optin) + " bytes per block",
                          0),
            0u)
      << refused;
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);

  ASSERT_EQ(cudaFuncSetAttribute(fills_dynamic_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, big), cudaSuccess);
  fills_dynamic_shared<<<1, 64, big>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  int result = 0;
  ASSERT_EQ(cudaMemcpy(&result, out, sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(result, 1);
}

TEST_F(Cudart, CopiesCheckTheDeviceSide) {
  int host[4] = {1, 2, 3, 4}, other[4];
  int* device;
  ASSERT_EQ(cudaMalloc(&device, sizeof host), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(other, host, sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_NE(text(cudaErrorInvalidValue).find("is not device memory"), std::string::npos) << text(cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(device, host, 2 * sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_NE(text(cudaErrorInvalidValue).find("runs past the end of its allocation of 16 bytes"), std::string::npos)
      << text(cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(device, host, sizeof host, static_cast<cudaMemcpyKind>(9)), cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(cudaMemcpy(nullptr, host, sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemset(host, 0, sizeof host), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(device, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(other, device, sizeof host, cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(other[3], 4);
  EXPECT_EQ(cudaFree(device), cudaSuccess);
  EXPECT_EQ(cudaFree(device), cudaErrorInvalidValue);
  EXPECT_NE(text(cudaErrorInvalidValue).find("already freed"), std::string::npos);
  EXPECT_EQ(cudaFreeHost(host), cudaErrorInvalidValue);
}

// A kind that contradicts what the runtime knows of a pointer is refused.
TEST_F(Cudart, CopyKindsMustMatchThePointers) {
  int host[4] = {1, 2, 3, 4}, back[4] = {};
  int *device, *other;
  ASSERT_EQ(cudaMalloc(&device, sizeof host), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&other, sizeof host), cudaSuccess);
  const std::string at = address_text(device);
  EXPECT_EQ(cudaMemcpy(back, device, sizeof host, cudaMemcpyHostToHost), cudaErrorInvalidMemcpyDirection);
  EXPECT_NE(text(cudaErrorInvalidMemcpyDirection)
                .find("cudaMemcpy(cudaMemcpyHostToHost): the source " + at +
                      " is device memory (device 0's "
                      "allocation of 16 bytes at " +
                      at +
                      "), but cudaMemcpyHostToHost says host memory; pass the "
                      "kind that matches the pointers, or cudaMemcpyDefault to have the runtime tell"),
            std::string::npos)
      << text(cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(cudaMemcpy(other, device, sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidMemcpyDirection);
  EXPECT_NE(text(cudaErrorInvalidMemcpyDirection).find("the source " + at + " is device memory"), std::string::npos);
  EXPECT_EQ(cudaMemcpy(device, other, sizeof host, cudaMemcpyDeviceToHost), cudaErrorInvalidMemcpyDirection);
  EXPECT_NE(text(cudaErrorInvalidMemcpyDirection).find("the destination " + at + " is device memory"),
            std::string::npos);
  // cudaMemcpyDefault tells the sides from the pointers, and checks the device side's range.
  EXPECT_EQ(cudaMemcpy(device, host, sizeof host, cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(other, device, sizeof host, cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(back, other, sizeof host, cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(back[2], 3);
  EXPECT_EQ(cudaMemcpy(device + 1, host, sizeof host, cudaMemcpyDefault), cudaErrorInvalidValue);
  EXPECT_NE(text(cudaErrorInvalidValue).find("runs past the end of its allocation of 16 bytes"), std::string::npos);
  EXPECT_EQ(cudaFree(device), cudaSuccess);
  EXPECT_EQ(cudaFree(other), cudaSuccess);
}

// Several virtual devices (COHORT_DEVICE_COUNT), each with its own memory.
class CudartDevices : public Cudart {
 protected:
  // The settings are read once: read again as the count is set and unset.
  void SetUp() override {
    setenv("COHORT_DEVICE_COUNT", "3", 1);
    cohort::host::reload_settings();
  }
  void TearDown() override {
    cudaSetDevice(1);
    cudaDeviceReset();
    cudaSetDevice(0);
    Cudart::TearDown();
    unsetenv("COHORT_DEVICE_COUNT");
    cohort::host::reload_settings();
  }
};

TEST_F(CudartDevices, EachDeviceHasItsOwnMemory) {
  int count = 0, current = -1;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  EXPECT_EQ(count, 3);
  size_t free0 = 0, total0 = 0, free1 = 0, total1 = 0;
  ASSERT_EQ(cudaMemGetInfo(&free0, &total0), cudaSuccess);
  ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, 1);
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 1), cudaSuccess);
  int* on1;
  ASSERT_EQ(cudaMalloc(&on1, 1 << 20), cudaSuccess);
  ASSERT_EQ(cudaMemGetInfo(&free1, &total1), cudaSuccess);
  EXPECT_EQ(total1, prop.totalGlobalMem);
  EXPECT_EQ(free1, total1 - (1 << 20));
  cudaPointerAttributes a;
  ASSERT_EQ(cudaPointerGetAttributes(&a, on1 + 5), cudaSuccess);
  EXPECT_EQ(a.type, cudaMemoryTypeDevice);
  EXPECT_EQ(a.device, 1);
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  size_t free0_after = 0;
  ASSERT_EQ(cudaMemGetInfo(&free0_after, &total0), cudaSuccess);
  EXPECT_EQ(free0_after, free0);  // device 1's allocation is not device 0's
  int* on0;
  ASSERT_EQ(cudaMalloc(&on0, 64), cudaSuccess);
  ASSERT_EQ(cudaPointerGetAttributes(&a, on0), cudaSuccess);
  EXPECT_EQ(a.device, 0);
  // cudaDeviceReset frees the current device's memory only.
  ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_EQ(cudaFree(on0), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(on1), cudaSuccess);
  EXPECT_EQ(cudaSetDevice(3), cudaErrorInvalidDevice);
  EXPECT_NE(text(cudaErrorInvalidDevice)
                .find("cudaSetDevice: device 3 does not exist; the host backend has 3 "
                      "device(s), 0..2 (COHORT_DEVICE_COUNT sets how many)"),
            std::string::npos)
      << text(cudaErrorInvalidDevice);
}

TEST_F(CudartDevices, PeerCopiesAndPeerAccess) {
  int host[4] = {5, 6, 7, 8}, back[4] = {};
  int *on0, *on2;
  ASSERT_EQ(cudaMalloc(&on0, sizeof host), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(on0, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaSetDevice(2), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&on2, sizeof host), cudaSuccess);
  ASSERT_EQ(cudaMemcpyPeer(on2, 2, on0, 0, sizeof host), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(back, on2, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back[3], 8);
  EXPECT_EQ(cudaMemcpyPeerAsync(on0, 0, on2, 2, sizeof host, 0), cudaSuccess);
  EXPECT_EQ(cudaMemcpyPeer(on2, 1, on0, 0, sizeof host), cudaErrorInvalidValue);
  EXPECT_NE(text(cudaErrorInvalidValue)
                .find("cudaMemcpyPeer: the destination " + address_text(on2) +
                      " is device 2's memory, not device "
                      "1's; pass the device it was allocated on (cudaPointerGetAttributes tells)"),
            std::string::npos)
      << text(cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyPeer(on2, 2, host, 0, sizeof host), cudaErrorInvalidValue);
  EXPECT_NE(text(cudaErrorInvalidValue).find("the source " + address_text(host) + " is not device memory"),
            std::string::npos)
      << text(cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyPeer(on2, 2, on0, 0, 2 * sizeof host), cudaErrorInvalidValue);
  EXPECT_NE(text(cudaErrorInvalidValue).find("runs past the end of its allocation of 16 bytes"), std::string::npos);
  EXPECT_EQ(cudaMemcpyPeer(on2, 7, on0, 0, sizeof host), cudaErrorInvalidDevice);
  EXPECT_NE(text(cudaErrorInvalidDevice).find("cudaMemcpyPeer: device 7 does not exist"), std::string::npos);

  int can = -1;
  ASSERT_EQ(cudaDeviceCanAccessPeer(&can, 2, 0), cudaSuccess);
  EXPECT_EQ(can, 1);
  ASSERT_EQ(cudaDeviceCanAccessPeer(&can, 2, 2), cudaSuccess);
  EXPECT_EQ(can, 0);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(0, 0), cudaSuccess);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(0, 0), cudaErrorPeerAccessAlreadyEnabled);
  EXPECT_NE(text(cudaErrorPeerAccessAlreadyEnabled).find("device 2's access to device 0 is already enabled"),
            std::string::npos);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(2, 0), cudaErrorInvalidDevice);
  EXPECT_NE(text(cudaErrorInvalidDevice).find("device 2 is the current device"), std::string::npos);
  EXPECT_EQ(cudaDeviceEnablePeerAccess(1, 4), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceDisablePeerAccess(0), cudaSuccess);
  EXPECT_EQ(cudaDeviceDisablePeerAccess(0), cudaErrorPeerAccessNotEnabled);
  EXPECT_NE(text(cudaErrorPeerAccessNotEnabled).find("device 2's access to device 0 was not enabled"),
            std::string::npos);
  EXPECT_EQ(cudaFree(on2), cudaSuccess);
  EXPECT_EQ(cudaFree(on0), cudaSuccess);
}

TEST_F(Cudart, PitchedCopies) {
  float* device;
  size_t pitch = 0;
  ASSERT_EQ(cudaMallocPitch(&device, &pitch, 10 * sizeof(float), 3), cudaSuccess);
  EXPECT_EQ(pitch, 512u);
  float host[3][10], back[3][10] = {};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 10; ++c) host[r][c] = r * 10.0f + c;
  ASSERT_EQ(cudaMemset2D(device, pitch, 0, 10 * sizeof(float), 3), cudaSuccess);
  ASSERT_EQ(cudaMemcpy2D(device, pitch, host, sizeof host[0], sizeof host[0], 3, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy2D(back, sizeof back[0], device, pitch, sizeof back[0], 3, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back[2][9], 29.0f);
  EXPECT_EQ(cudaMemcpy2D(device, pitch, host, 8, sizeof host[0], 3, cudaMemcpyHostToDevice),
            cudaErrorInvalidPitchValue);
  EXPECT_NE(text(cudaErrorInvalidPitchValue).find("wider than its pitch"), std::string::npos);
  EXPECT_EQ(cudaMemcpy2D(device, pitch, host, sizeof host[0], sizeof host[0], 4, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  EXPECT_NE(text(cudaErrorInvalidValue).find("runs past the end of its allocation"), std::string::npos);
  float* pooled;
  ASSERT_EQ(cudaMallocAsync(&pooled, 64, 0), cudaSuccess);
  EXPECT_EQ(cudaFreeAsync(pooled, 0), cudaSuccess);
}

// Pitched memsets set each row's width and leave the padding between rows and slices alone.
TEST_F(Cudart, PitchedMemsets) {
  constexpr size_t width = 10, height = 3, depth = 2;
  cudaPitchedPtr volume;
  ASSERT_EQ(cudaMalloc3D(&volume, make_cudaExtent(width, height, depth)), cudaSuccess);
  const size_t pitch = volume.pitch, slice = pitch * volume.ysize, bytes = slice * depth;
  std::vector<unsigned char> back(bytes);
  auto read_back = [&] { ASSERT_EQ(cudaMemcpy(back.data(), volume.ptr, bytes, cudaMemcpyDeviceToHost), cudaSuccess); };
  auto expect_filled = [&](size_t w, size_t h, size_t d, unsigned char value, unsigned char elsewhere) {
    for (size_t z = 0; z < depth; ++z)
      for (size_t y = 0; y < height; ++y)
        for (size_t x = 0; x < pitch; ++x)
          ASSERT_EQ(back[z * slice + y * pitch + x], x < w && y < h && z < d ? value : elsewhere) << z << y << x;
  };
  ASSERT_EQ(cudaMemset(volume.ptr, 0x11, bytes), cudaSuccess);
  ASSERT_EQ(cudaMemset3D(volume, 0x5a, make_cudaExtent(width - 3, height, depth)), cudaSuccess);
  read_back();
  expect_filled(width - 3, height, depth, 0x5a, 0x11);

  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  ASSERT_EQ(cudaMemset(volume.ptr, 0x11, bytes), cudaSuccess);
  ASSERT_EQ(cudaMemset3DAsync(volume, 0x22, make_cudaExtent(width, height - 1, 1), stream), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  read_back();
  expect_filled(width, height - 1, 1, 0x22, 0x11);
  ASSERT_EQ(cudaMemset(volume.ptr, 0x11, bytes), cudaSuccess);
  ASSERT_EQ(cudaMemset2DAsync(volume.ptr, pitch, 0x33, 4, height, stream), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  read_back();
  expect_filled(4, height, 1, 0x33, 0x11);

  // A row wider than the pitch, rows beyond a slice, and a volume past its allocation.
  EXPECT_EQ(cudaMemset2DAsync(volume.ptr, 8, 0, 10, 2, stream), cudaErrorInvalidPitchValue);
  EXPECT_NE(text(cudaErrorInvalidPitchValue).find("cudaMemset2DAsync: a row of 10 bytes is wider than the pitch 8"),
            std::string::npos);
  cudaPitchedPtr short_slices = volume;
  short_slices.ysize = 1;
  EXPECT_EQ(cudaMemset3D(short_slices, 0, make_cudaExtent(width, 2, 2)), cudaErrorInvalidValue);
  EXPECT_NE(text(cudaErrorInvalidValue)
                .find("cudaMemset3D: 2 rows of pitch " + std::to_string(pitch) + " are more than a slice of " +
                      std::to_string(pitch) + " bytes"),
            std::string::npos);
  EXPECT_EQ(cudaMemset3D(volume, 0, make_cudaExtent(width, height, depth + 1)), cudaErrorInvalidValue);
  EXPECT_NE(text(cudaErrorInvalidValue).find("runs past the end of its allocation"), std::string::npos);
  EXPECT_EQ(cudaMemset3D(volume, 0, make_cudaExtent(width, height, 0)), cudaSuccess);  // nothing to set
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  EXPECT_EQ(cudaFree(volume.ptr), cudaSuccess);
}

TEST_F(Cudart, PointerAttributes) {
  int *device, *managed, *pinned;
  ASSERT_EQ(cudaMalloc(&device, 64), cudaSuccess);
  ASSERT_EQ(cudaMallocManaged(&managed, 64), cudaSuccess);
  ASSERT_EQ(cudaMallocHost(&pinned, 64), cudaSuccess);
  cudaPointerAttributes a;
  ASSERT_EQ(cudaPointerGetAttributes(&a, device + 3), cudaSuccess);
  EXPECT_EQ(a.type, cudaMemoryTypeDevice);
  ASSERT_EQ(cudaPointerGetAttributes(&a, managed), cudaSuccess);
  EXPECT_EQ(a.type, cudaMemoryTypeManaged);
  ASSERT_EQ(cudaPointerGetAttributes(&a, pinned), cudaSuccess);
  EXPECT_EQ(a.type, cudaMemoryTypeHost);
  int local = 0;
  ASSERT_EQ(cudaPointerGetAttributes(&a, &local), cudaSuccess);
  EXPECT_EQ(a.type, cudaMemoryTypeUnregistered);
  EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
}

TEST_F(Cudart, HandlesAreChecked) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  ASSERT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle);
  empty_kernel<<<1, 1, 0, s>>>();
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);
  cudaEvent_t a, b;
  ASSERT_EQ(cudaEventCreateWithFlags(&a, cudaEventDisableTiming), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&b), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(a), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(b), cudaSuccess);
  float ms;
  EXPECT_EQ(cudaEventElapsedTime(&ms, a, b), cudaErrorInvalidResourceHandle);
  EXPECT_NE(text(cudaErrorInvalidResourceHandle).find("cudaEventDisableTiming"), std::string::npos);
  EXPECT_EQ(cudaEventDestroy(a), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(b), cudaSuccess);
  EXPECT_EQ(cudaSetDevice(1), cudaErrorInvalidDevice);
  int value;
  EXPECT_EQ(cudaDeviceGetAttribute(&value, static_cast<cudaDeviceAttr>(12345), 0), cudaErrorInvalidValue);
}

TEST_F(Cudart, LaunchByAddressNeedsAKnownKernel) {
  int* out;
  ASSERT_EQ(cudaMalloc(&out, sizeof(int)), cudaSuccess);
  void* args[] = {&out};
  EXPECT_EQ(cudaLaunchKernel((void*)template_kernel<int>, dim3(1), dim3(1), args), cudaErrorInvalidDeviceFunction);
  EXPECT_NE(text(cudaErrorInvalidDeviceFunction).find("unknown to cohort's runtime"), std::string::npos);
  template_kernel<int><<<1, 1>>>(out);  // a typed use makes it known
  EXPECT_EQ(cudaLaunchKernel((void*)template_kernel<int>, dim3(1), dim3(1), args), cudaSuccess);
  EXPECT_EQ(cudaLaunchKernel((void*)empty_kernel, dim3(1), dim3(1), nullptr), cudaSuccess);  // registered by cohort-cxx
  int got = 0;
  ASSERT_EQ(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(got, 7);
}

__global__ void cluster_sizes(int* sizes) { sizes[blockIdx.x] = (int)cooperative_groups::this_cluster().num_blocks(); }

// The cluster attribute runs clusters; a grid that is not a whole number of
// clusters is an invalid configuration whose message says which dimension.
TEST_F(Cudart, ClusterDimensionAttribute) {
  int* sizes = nullptr;
  ASSERT_EQ(cudaMallocManaged(&sizes, 4 * sizeof(int)), cudaSuccess);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(4);
  config.blockDim = dim3(32);
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = 2;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  ASSERT_EQ(cudaLaunchKernelEx(&config, cluster_sizes, sizes), cudaSuccess);
  for (int b = 0; b < 4; ++b) EXPECT_EQ(sizes[b], 2);
  config.gridDim = dim3(3);
  EXPECT_EQ(cudaLaunchKernelEx(&config, cluster_sizes, sizes), cudaErrorInvalidConfiguration);
  EXPECT_NE(
      text(cudaErrorInvalidConfiguration).find("grid dimension x = 3 is not a multiple of cluster dimension x = 2"),
      std::string::npos);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  ASSERT_EQ(cudaFree(sizes), cudaSuccess);
}

TEST_F(Cudart, Symbols) {
  const int values[4] = {1, 2, 3, 4};
  EXPECT_EQ(cudaMemcpyToSymbol(device_symbol, values, sizeof values, 4), cudaErrorInvalidValue);
  EXPECT_NE(text(cudaErrorInvalidValue).find("do not fit the symbol's 16 bytes"), std::string::npos);
  ASSERT_EQ(cudaMemcpyToSymbol(device_symbol, values, 2 * sizeof(int), 2 * sizeof(int)), cudaSuccess);
  int back[2];
  ASSERT_EQ(cudaMemcpyFromSymbol(back, device_symbol, sizeof back, 2 * sizeof(int)), cudaSuccess);
  EXPECT_EQ(back[0], 1);
  EXPECT_EQ(back[1], 2);
  size_t size = 0;
  ASSERT_EQ(cudaGetSymbolSize(&size, device_symbol), cudaSuccess);
  EXPECT_EQ(size, sizeof values);
}

TEST_F(Cudart, NamespaceScopeDynamicShared) {
  int* out;
  ASSERT_EQ(cudaMalloc(&out, 64 * sizeof(int)), cudaSuccess);
  uses_namespace_shared<<<1, 64, 64 * sizeof(int)>>>(out);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  int got[64];
  ASSERT_EQ(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(got[i], (63 - i) * 2);
}

TEST_F(Cudart, BlockVotesAndScopedAtomics) {
  int* out;
  ASSERT_EQ(cudaMalloc(&out, 6 * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemset(out, 0, 6 * sizeof(int)), cudaSuccess);
  votes<<<1, 100>>>(out);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  int got[6];
  ASSERT_EQ(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(got[0], 34);
  EXPECT_EQ(got[1], 1);
  EXPECT_EQ(got[2], 1);
  EXPECT_EQ(got[3], 0);
  EXPECT_EQ(got[4], 100);
  EXPECT_EQ(got[5], 99);
}

TEST_F(Cudart, HeadersWithLaunchesAndDynamicShared) {
  int* data;
  ASSERT_EQ(cudaMallocManaged(&data, 48 * sizeof(int)), cudaSuccess);
  for (int i = 0; i < 48; ++i) data[i] = i;
  reverse_on_device(data, 48);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < 48; ++i) EXPECT_EQ(data[i], 47 - i);
}

TEST(HostSources, ReadCudaDevicePropFields) { EXPECT_EQ(queried_warp_size(), 32); }

TEST_F(Cudart, NvidiaPartitionAndInvokeSemantics) {
  int* out;
  int** labels;
  ASSERT_EQ(cudaMallocManaged(&out, 66 * sizeof(int)), cudaSuccess);
  out[65] = 0;
  ASSERT_EQ(cudaMallocManaged(&labels, 3 * sizeof(int*)), cudaSuccess);
  static int targets[3];
  for (int i = 0; i < 3; ++i) labels[i] = &targets[i];
  nvidia_partitions<<<1, 32>>>(out, labels);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int lane = 0; lane < 32; ++lane) {
    const bool label = lane == 0 || lane % 2 == 1;
    EXPECT_EQ(out[lane], (label ? 100 : 0) + 20 + 1) << "lane " << lane;
    EXPECT_EQ(out[32 + lane], lane % 3 == 2 ? 10 : 11) << "lane " << lane;
  }
  EXPECT_EQ(out[64], 42);
  EXPECT_EQ(out[65], 0);  // this_thread(): rank 0 of 1, meta rank 0 of 1
}

TEST(StaticInitialization, MayAllocate) { EXPECT_EQ(allocated_at_static_initialization, cudaSuccess); }

TEST(DeviceBuiltins, IntegerIntrinsicsMatchPtx) {
  EXPECT_EQ(__byte_perm(0x33221100u, 0x77665544u, 0x5140u), 0x55114400u);
  EXPECT_EQ(__funnelshift_l(0x80000000u, 0x1u, 1), 0x3u);
  EXPECT_EQ(__funnelshift_r(0x2u, 0x1u, 1), 0x80000001u);
  EXPECT_EQ(__mul24(-3, 5), -15);
  EXPECT_EQ(__umulhi(0xffffffffu, 2u), 1u);
  EXPECT_EQ(__sad(3, 10, 1u), 8u);
  EXPECT_EQ(__float2int_rn(2.5f), 2);
  EXPECT_EQ(__float2int_rn(3.5f), 4);
  EXPECT_EQ(__float2int_rd(-1.5f), -2);
  EXPECT_EQ(__float2int_ru(-1.5f), -1);
  EXPECT_EQ(__float_as_int(1.0f), 0x3f800000);
  EXPECT_EQ(__saturatef(1.5f), 1.0f);
  EXPECT_EQ(__saturatef(-0.5f), 0.0f);
}

TEST(DeviceProperties, ReportComputeCapabilityNine) {
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  EXPECT_EQ(prop.major, 9);
  EXPECT_EQ(prop.minor, 0);
  EXPECT_EQ(prop.cooperativeLaunch, 1);
  int major = 0, coop = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0), cudaSuccess);
  EXPECT_EQ(major, 9);
  EXPECT_EQ(coop, 1);
#if __CUDA_ARCH__ != 900
#error "cohort-cxx defines __CUDA_ARCH__ as 900"
#endif
}

}  // namespace
