// The runtime calls of device queries, stream attributes, L2 residency hints,
// unified memory's read-back and occupancy that real programs make: each
// answer checked, each refusal triggered and its code and message asserted.
#include <cstring>
#include <iterator>
#include <string>
#include <utility>

#include "runtime_test_support.hpp"

namespace {

// The message's start, for messages that go on with the details of this machine.
bool starts(const std::string& text, const std::string& start) { return text.rfind(start, 0) == 0; }

class StreamAttributes : public FreshDevice {
 protected:
  void SetUp() override { ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess); }
  void TearDown() override {
    cudaStreamDestroy(stream);
    FreshDevice::TearDown();
  }
  cudaStream_t stream = nullptr;
};

TEST_F(StreamAttributes, AccessPolicyWindowIsRecordedAndReadBack) {
  int table[64];
  cudaStreamAttrValue value = {};
  value.accessPolicyWindow = {table, sizeof table, 0.5f, cudaAccessPropertyPersisting, cudaAccessPropertyStreaming};
  ASSERT_EQ(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value), cudaSuccess);
  cudaStreamAttrValue read = {};
  ASSERT_EQ(cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &read), cudaSuccess);
  EXPECT_EQ(read.accessPolicyWindow.base_ptr, table);
  EXPECT_EQ(read.accessPolicyWindow.num_bytes, sizeof table);
  EXPECT_EQ(read.accessPolicyWindow.hitRatio, 0.5f);
  EXPECT_EQ(read.accessPolicyWindow.hitProp, cudaAccessPropertyPersisting);
  EXPECT_EQ(read.accessPolicyWindow.missProp, cudaAccessPropertyStreaming);
  // The default stream has attributes of its own.
  ASSERT_EQ(cudaStreamGetAttribute(0, cudaStreamAttributeAccessPolicyWindow, &read), cudaSuccess);
  EXPECT_EQ(read.accessPolicyWindow.num_bytes, 0u);
  value.syncPolicy = cudaSyncPolicyYield;
  ASSERT_EQ(cudaStreamSetAttribute(0, cudaStreamAttributeSynchronizationPolicy, &value), cudaSuccess);
  ASSERT_EQ(cudaStreamGetAttribute(cudaStreamLegacy, cudaStreamAttributeSynchronizationPolicy, &read), cudaSuccess);
  EXPECT_EQ(read.syncPolicy, cudaSyncPolicyYield);
  value.syncPolicy = cudaSyncPolicyAuto;
  ASSERT_EQ(cudaStreamSetAttribute(0, cudaStreamAttributeSynchronizationPolicy, &value), cudaSuccess);
}

TEST_F(StreamAttributes, WindowsCudaRefusesAreRefused) {
  int table[64];
  cudaStreamAttrValue value = {};
  value.accessPolicyWindow = {table, 1u << 30, 1.0f, cudaAccessPropertyPersisting, cudaAccessPropertyNormal};
  EXPECT_EQ(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaStreamSetAttribute: the access policy window's num_bytes, 1073741824, is over the device's maximum of "
            "134213632 bytes (cudaDeviceProp::accessPolicyMaxWindowSize)");
  value.accessPolicyWindow.num_bytes = sizeof table;
  value.accessPolicyWindow.hitRatio = 1.5f;
  EXPECT_EQ(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaStreamSetAttribute: the access policy window's hitRatio, 1.500000, is not between 0 and 1");
  value.accessPolicyWindow.hitRatio = 1.0f;
  value.accessPolicyWindow.hitProp = static_cast<cudaAccessProperty>(7);
  EXPECT_EQ(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaStreamSetAttribute: the access policy window's hitProp (7) or "
            "missProp (0) is not a cudaAccessProperty");
  value.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
  value.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
  EXPECT_EQ(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaStreamSetAttribute: the access policy window's missProp is cudaAccessPropertyPersisting; CUDA takes "
            "cudaAccessPropertyNormal or cudaAccessPropertyStreaming there");
  cudaStreamAttrValue read = {};
  ASSERT_EQ(cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &read), cudaSuccess);
  EXPECT_EQ(read.accessPolicyWindow.num_bytes, 0u) << "a refused window is not recorded";

  value.syncPolicy = static_cast<cudaSynchronizationPolicy>(0);
  EXPECT_EQ(cudaStreamSetAttribute(stream, cudaStreamAttributeSynchronizationPolicy, &value), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaStreamSetAttribute: 0 is not a cudaSynchronizationPolicy (1 to 4)");
  for (const char* call : {"cudaStreamSetAttribute", "cudaStreamGetAttribute"}) {
    const cudaError_t e = std::string(call) == "cudaStreamSetAttribute"
                              ? cudaStreamSetAttribute(stream, cudaLaunchAttributeCooperative, &value)
                              : cudaStreamGetAttribute(stream, cudaLaunchAttributeCooperative, &read);
    EXPECT_EQ(e, cudaErrorInvalidValue);
    EXPECT_EQ(detail_of(cudaErrorInvalidValue),
              std::string(call) +
                  ": attribute 2 is not a stream's; a stream has cudaStreamAttributeAccessPolicyWindow "
                  "(1), cudaStreamAttributeSynchronizationPolicy (3) and cudaStreamAttributePriority (8)");
  }
  EXPECT_EQ(cudaStreamSetAttribute(stream, cudaStreamAttributePriority, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaStreamSetAttribute: null result");
}

// A launch's window is checked as a stream's is.
__global__ void empty_kernel() {}

TEST_F(StreamAttributes, LaunchTakesAWindowAndAPriority) {
  int table[64];
  cudaLaunchAttribute attributes[2] = {};
  attributes[0].id = cudaLaunchAttributeAccessPolicyWindow;
  attributes[0].val.accessPolicyWindow = {table, sizeof table, 1.0f, cudaAccessPropertyPersisting,
                                          cudaAccessPropertyStreaming};
  attributes[1].id = cudaLaunchAttributePriority;
  attributes[1].val.priority = -3;
  cudaLaunchConfig_t config = {dim3(1), dim3(32), 0, stream, attributes, 2};
  ASSERT_EQ(cudaLaunchKernelExC(&config, (const void*)empty_kernel, nullptr), cudaSuccess);
  attributes[0].val.accessPolicyWindow.hitRatio = -1.0f;
  EXPECT_EQ(cudaLaunchKernelExC(&config, (const void*)empty_kernel, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaLaunchKernelEx: the access policy window's hitRatio, -1.000000, is not between 0 and 1");
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
}

TEST_F(StreamAttributes, PriorityFlagsAndDevice) {
  int least = 1, greatest = 1;
  ASSERT_EQ(cudaDeviceGetStreamPriorityRange(&least, &greatest), cudaSuccess);
  EXPECT_EQ(least, 0);
  EXPECT_EQ(greatest, -5);
  cudaStream_t urgent;
  ASSERT_EQ(cudaStreamCreateWithPriority(&urgent, cudaStreamNonBlocking, -100), cudaSuccess);
  int priority = 1;
  unsigned flags = 7;
  int device = -1;
  ASSERT_EQ(cudaStreamGetPriority(urgent, &priority), cudaSuccess);
  EXPECT_EQ(priority, greatest) << "clamped into the range, as CUDA does";
  ASSERT_EQ(cudaStreamGetFlags(urgent, &flags), cudaSuccess);
  EXPECT_EQ(flags, unsigned{cudaStreamNonBlocking});
  ASSERT_EQ(cudaStreamGetDevice(urgent, &device), cudaSuccess);
  EXPECT_EQ(device, 0);
  cudaStreamAttrValue value = {};
  value.priority = 3;
  ASSERT_EQ(cudaStreamSetAttribute(urgent, cudaStreamAttributePriority, &value), cudaSuccess);
  ASSERT_EQ(cudaStreamGetPriority(urgent, &priority), cudaSuccess);
  EXPECT_EQ(priority, least);
  ASSERT_EQ(cudaStreamGetFlags(cudaStreamPerThread, &flags), cudaSuccess);
  EXPECT_EQ(flags, 0u);
  ASSERT_EQ(cudaStreamGetPriority(0, &priority), cudaSuccess);
  EXPECT_EQ(priority, 0);
  ASSERT_EQ(cudaStreamDestroy(urgent), cudaSuccess);
  EXPECT_EQ(cudaStreamGetPriority(urgent, &priority), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(detail_of(cudaErrorInvalidResourceHandle), "cudaStreamGetPriority: stream " + address_text(urgent) +
                                                           " was not created by cudaStreamCreate or was destroyed");
  EXPECT_EQ(cudaStreamGetFlags(stream, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaStreamGetFlags: null result");
  EXPECT_EQ(cudaStreamGetDevice(stream, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaStreamGetDevice: null result");
}

TEST_F(StreamAttributes, EventRecordWithFlags) {
  cudaEvent_t event;
  ASSERT_EQ(cudaEventCreate(&event), cudaSuccess);
  EXPECT_EQ(cudaEventRecordWithFlags(event, stream, cudaEventRecordDefault), cudaSuccess);
  EXPECT_EQ(cudaEventRecordWithFlags(event, stream, cudaEventRecordExternal), cudaSuccess);
  EXPECT_EQ(cudaEventSynchronize(event), cudaSuccess);
  EXPECT_EQ(cudaEventRecordWithFlags(event, stream, 2), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaEventRecordWithFlags: flags 2 are not cudaEventRecordDefault (0) or cudaEventRecordExternal (1)");
  ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
  EXPECT_EQ(cudaEventRecordWithFlags(event, stream, cudaEventRecordExternal), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(detail_of(cudaErrorStreamCaptureUnsupported),
            "cudaEventRecordWithFlags: cudaEventRecordExternal in a stream capture (an external event node) is not "
            "supported on the host backend; record the event without the flag");
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
  cudaGraphDestroy(graph);
  EXPECT_EQ(cudaEventDestroy(event), cudaSuccess);
}

class Limits : public FreshDevice {};

TEST_F(Limits, PersistingL2SetAsideWithinTheMaximum) {
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  EXPECT_EQ(prop.accessPolicyMaxWindowSize, 134213632);
  EXPECT_EQ(prop.persistingL2CacheMaxSize, prop.l2CacheSize / 4 * 3);
  int attribute = -1;
  ASSERT_EQ(cudaDeviceGetAttribute(&attribute, cudaDevAttrMaxPersistingL2CacheSize, 0), cudaSuccess);
  EXPECT_EQ(attribute, prop.persistingL2CacheMaxSize);
  if (prop.persistingL2CacheMaxSize == 0) GTEST_SKIP() << "this host's L2 size is unknown";
  size_t value = 1;
  ASSERT_EQ(cudaDeviceGetLimit(&value, cudaLimitPersistingL2CacheSize), cudaSuccess);
  EXPECT_EQ(value, 0u);
  ASSERT_EQ(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, prop.persistingL2CacheMaxSize), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetLimit(&value, cudaLimitPersistingL2CacheSize), cudaSuccess);
  EXPECT_EQ(value, size_t(prop.persistingL2CacheMaxSize));
  const size_t too_much = size_t(prop.persistingL2CacheMaxSize) + 1;
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, too_much), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, " + std::to_string(too_much) + "): more than the " +
                std::to_string(prop.persistingL2CacheMaxSize) +
                " bytes that may be set aside (cudaDeviceProp::persistingL2CacheMaxSize)");
  EXPECT_EQ(cudaCtxResetPersistingL2Cache(), cudaSuccess);
  ASSERT_EQ(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0), cudaSuccess);
}

TEST_F(Limits, LimitsTheHostDoesNotHaveAreRefused) {
  size_t value = 0;
  ASSERT_EQ(cudaDeviceGetLimit(&value, cudaLimitMaxL2FetchGranularity), cudaSuccess);
  EXPECT_EQ(value, 64u);
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 256), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 256): the granularity is between 0 and 128 bytes");
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4096), cudaErrorUnsupportedLimit);
  EXPECT_EQ(detail_of(cudaErrorUnsupportedLimit),
            "cudaDeviceSetLimit: limit 4 is a limit of dynamic parallelism (launches from kernels), which the host "
            "backend does not have");
  EXPECT_EQ(cudaDeviceGetLimit(&value, cudaLimitDevRuntimeSyncDepth), cudaErrorUnsupportedLimit);
  EXPECT_EQ(detail_of(cudaErrorUnsupportedLimit),
            "cudaDeviceGetLimit: limit 3 is a limit of dynamic parallelism (launches from kernels), which the host "
            "backend does not have");
  EXPECT_EQ(cudaDeviceGetLimit(&value, static_cast<cudaLimit>(42)), cudaErrorUnsupportedLimit);
  EXPECT_EQ(detail_of(cudaErrorUnsupportedLimit), "cudaDeviceGetLimit: limit 42 is not a cudaLimit");
  EXPECT_EQ(cudaDeviceGetLimit(nullptr, cudaLimitStackSize), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaDeviceGetLimit: null value");
}

// cudaDeviceReset gives the device back the limits it started with.
TEST_F(Limits, ResetRestoresTheDefaults) {
  const std::pair<cudaLimit, size_t> changes[] = {{cudaLimitStackSize, 8 << 10},
                                                  {cudaLimitPrintfFifoSize, 4 << 20},
                                                  {cudaLimitMallocHeapSize, 64 << 20},
                                                  {cudaLimitMaxL2FetchGranularity, 32}};
  size_t defaults[std::size(changes)] = {};
  for (std::size_t i = 0; i < std::size(changes); ++i) {
    ASSERT_EQ(cudaDeviceGetLimit(&defaults[i], changes[i].first), cudaSuccess);
    ASSERT_NE(defaults[i], changes[i].second);
    ASSERT_EQ(cudaDeviceSetLimit(changes[i].first, changes[i].second), cudaSuccess);
  }
  ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
  for (std::size_t i = 0; i < std::size(changes); ++i) {
    size_t value = 0;
    ASSERT_EQ(cudaDeviceGetLimit(&value, changes[i].first), cudaSuccess);
    EXPECT_EQ(value, defaults[i]) << "limit " << changes[i].first;
  }
}

TEST_F(Limits, SharedMemoryBankConfiguration) {
  cudaSharedMemConfig config = cudaSharedMemBankSizeDefault;
  ASSERT_EQ(cudaDeviceGetSharedMemConfig(&config), cudaSuccess);
  EXPECT_EQ(config, cudaSharedMemBankSizeFourByte);
  ASSERT_EQ(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetSharedMemConfig(&config), cudaSuccess);
  EXPECT_EQ(config, cudaSharedMemBankSizeEightByte);
  ASSERT_EQ(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeDefault), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetSharedMemConfig(&config), cudaSuccess);
  EXPECT_EQ(config, cudaSharedMemBankSizeFourByte);
  EXPECT_EQ(cudaDeviceSetSharedMemConfig(static_cast<cudaSharedMemConfig>(3)), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaDeviceSetSharedMemConfig: 3 is not a cudaSharedMemConfig (0 to 2)");
  EXPECT_EQ(cudaDeviceGetSharedMemConfig(nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaDeviceGetSharedMemConfig: null config");
}

class DeviceIdentity : public FreshDevice {};

TEST_F(DeviceIdentity, PciBusIdsNameTheirDevice) {
  char id[32];
  ASSERT_EQ(cudaDeviceGetPCIBusId(id, sizeof id, 0), cudaSuccess);
  EXPECT_STREQ(id, "0000:00:00.0");
  int device = -1;
  for (const char* form : {"0000:00:00.0", "0000:00:00", "00:00.0", "0:0:0.0"}) {
    device = -1;
    EXPECT_EQ(cudaDeviceGetByPCIBusId(&device, form), cudaSuccess) << form;
    EXPECT_EQ(device, 0) << form;
  }
  char short_id[5];
  ASSERT_EQ(cudaDeviceGetPCIBusId(short_id, sizeof short_id, 0), cudaSuccess);
  EXPECT_STREQ(short_id, "0000") << "cut to the buffer, as CUDA does";
  EXPECT_EQ(cudaDeviceGetPCIBusId(id, 0, 0), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaDeviceGetPCIBusId: a null buffer or a length of 0; pass a buffer of 13 characters or more");
  EXPECT_EQ(cudaDeviceGetPCIBusId(id, sizeof id, 9), cudaErrorInvalidDevice);
  EXPECT_TRUE(starts(detail_of(cudaErrorInvalidDevice), "cudaDeviceGetPCIBusId: device 9 does not exist"));
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&device, "bus zero"), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaDeviceGetByPCIBusId: \"bus zero\" is not a PCI address; write it domain:bus:device.function in hex, "
            "as cudaDeviceGetPCIBusId gives it (\"0000:00:00.0\")");
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&device, "0000:00:00.0 "), cudaErrorInvalidValue) << "trailing text";
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&device, "0000:3b:00.0"), cudaErrorInvalidDevice);
  EXPECT_TRUE(starts(detail_of(cudaErrorInvalidDevice),
                     "cudaDeviceGetByPCIBusId: no device is at \"0000:3b:00.0\"; the host backend's devices are at "
                     "0000:00:00.0 to "));
  EXPECT_EQ(cudaDeviceGetByPCIBusId(nullptr, "0000:00:00.0"), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaDeviceGetByPCIBusId: a null device or bus id");
}

TEST_F(DeviceIdentity, PeerAttributes) {
  int value = -1;
  EXPECT_EQ(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 0), cudaErrorInvalidDevice);
  EXPECT_EQ(detail_of(cudaErrorInvalidDevice),
            "cudaDeviceGetP2PAttribute: source and destination are both device 0; a peer is another device");
  EXPECT_EQ(cudaDeviceGetP2PAttribute(&value, static_cast<cudaDeviceP2PAttr>(9), 0, 0), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaDeviceGetP2PAttribute: 9 is not a cudaDeviceP2PAttr (1 to 5)");
  EXPECT_EQ(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 9), cudaErrorInvalidDevice);
  EXPECT_TRUE(starts(detail_of(cudaErrorInvalidDevice), "cudaDeviceGetP2PAttribute: device 9 does not exist"));
  EXPECT_EQ(cudaDeviceGetP2PAttribute(nullptr, cudaDevP2PAttrAccessSupported, 0, 1), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaDeviceGetP2PAttribute: null value");
}

TEST_F(DeviceIdentity, TextureLimitsAgreeWithTheirAttributes) {
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  const std::pair<cudaDeviceAttr, int> expected[] = {
      {cudaDevAttrMaxTexture1DWidth, prop.maxTexture1D},
      {cudaDevAttrMaxTexture2DHeight, prop.maxTexture2D[1]},
      {cudaDevAttrMaxTexture3DDepth, prop.maxTexture3D[2]},
      {cudaDevAttrMaxTexture2DLayeredLayers, prop.maxTexture2DLayered[2]},
      {cudaDevAttrMaxSurface2DWidth, prop.maxSurface2D[0]},
      {cudaDevAttrMaxTexture2DLinearPitch, prop.maxTexture2DLinear[2]},
      {cudaDevAttrSurfaceAlignment, static_cast<int>(prop.surfaceAlignment)},
      {cudaDevAttrMaxAccessPolicyWindowSize, prop.accessPolicyMaxWindowSize},
  };
  for (const auto& [attribute, value] : expected) {
    int read = -1;
    ASSERT_EQ(cudaDeviceGetAttribute(&read, attribute, 0), cudaSuccess) << attribute;
    EXPECT_EQ(read, value) << attribute;
  }
  EXPECT_EQ(prop.maxTexture1D, 131072);
  EXPECT_EQ(prop.maxTexture3D[0], 16384);
}

__global__ void uses_dynamic_shared(int* out) {
  extern __shared__ int dynamic[];
  dynamic[threadIdx.x] = 1;
  *out = dynamic[0];
}

class Occupancy : public FreshDevice {};

// The answer is the most dynamic shared memory with which numBlocks blocks fit.
TEST_F(Occupancy, AvailableDynamicSharedMemoryIsTheMostThatFits) {
  size_t bytes = 0;
  ASSERT_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, uses_dynamic_shared, 1, 128), cudaSuccess);
  cudaFuncAttributes attributes;
  ASSERT_EQ(cudaFuncGetAttributes(&attributes, uses_dynamic_shared), cudaSuccess);
  EXPECT_EQ(bytes, size_t(attributes.maxDynamicSharedSizeBytes)) << "one block: the kernel's limit";
  ASSERT_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, uses_dynamic_shared, 8, 128), cudaSuccess);
  int blocks = 0;
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, uses_dynamic_shared, 128, bytes), cudaSuccess);
  EXPECT_GE(blocks, 8);
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, uses_dynamic_shared, 128, bytes + 1024),
            cudaSuccess);
  EXPECT_LT(blocks, 8);
  ASSERT_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, uses_dynamic_shared, 1000, 1024), cudaSuccess);
  EXPECT_EQ(bytes, 0u) << "a thousand blocks of 1024 threads never fit";
  EXPECT_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, uses_dynamic_shared, 0, 128), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaOccupancyAvailableDynamicSMemPerBlock: numBlocks 0 and blockSize 128 must both be positive");
  EXPECT_EQ(cudaOccupancyAvailableDynamicSMemPerBlock(nullptr, uses_dynamic_shared, 1, 128), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaOccupancyAvailableDynamicSMemPerBlock: a null argument");
}

class ManagedRanges : public FreshDevice {
 protected:
  void SetUp() override { ASSERT_EQ(cudaMallocManaged(&managed, bytes), cudaSuccess); }
  static constexpr size_t bytes = 4096;
  char* managed = nullptr;
  int read(cudaMemRangeAttribute attribute, const void* p, size_t count) {
    int value = -7;
    EXPECT_EQ(cudaMemRangeGetAttribute(&value, 4, attribute, p, count), cudaSuccess)
        << detail_of(cudaErrorInvalidValue);
    return value;
  }
};

constexpr cudaMemLocation device_0{cudaMemLocationTypeDevice, 0};
constexpr cudaMemLocation host{cudaMemLocationTypeHost, 0};

TEST_F(ManagedRanges, AdviceReadsBackOverTheWholeRange) {
  EXPECT_EQ(read(cudaMemRangeAttributeReadMostly, managed, bytes), 0);
  ASSERT_EQ(cudaMemAdvise(managed, bytes / 2, cudaMemAdviseSetReadMostly, device_0), cudaSuccess);
  EXPECT_EQ(read(cudaMemRangeAttributeReadMostly, managed, bytes / 2), 1);
  EXPECT_EQ(read(cudaMemRangeAttributeReadMostly, managed, bytes), 0) << "half the range is not advised";
  EXPECT_EQ(read(cudaMemRangeAttributeReadMostly, managed + 16, 32), 1);
  ASSERT_EQ(cudaMemAdvise(managed, bytes, cudaMemAdviseSetReadMostly, device_0), cudaSuccess);
  EXPECT_EQ(read(cudaMemRangeAttributeReadMostly, managed, bytes), 1);
  ASSERT_EQ(cudaMemAdvise(managed + 100, 100, cudaMemAdviseUnsetReadMostly, device_0), cudaSuccess);
  EXPECT_EQ(read(cudaMemRangeAttributeReadMostly, managed, bytes), 0);
  EXPECT_EQ(read(cudaMemRangeAttributeReadMostly, managed + 200, bytes - 200), 1);

  EXPECT_EQ(read(cudaMemRangeAttributePreferredLocation, managed, bytes), cudaInvalidDeviceId);
  ASSERT_EQ(cudaMemAdvise(managed, bytes, cudaMemAdviseSetPreferredLocation, device_0), cudaSuccess);
  EXPECT_EQ(read(cudaMemRangeAttributePreferredLocation, managed, bytes), 0);
  EXPECT_EQ(read(cudaMemRangeAttributePreferredLocationType, managed, bytes), cudaMemLocationTypeDevice);
  EXPECT_EQ(read(cudaMemRangeAttributePreferredLocationId, managed, bytes), 0);
  ASSERT_EQ(cudaMemAdvise(managed, 64, cudaMemAdviseSetPreferredLocation, host), cudaSuccess);
  EXPECT_EQ(read(cudaMemRangeAttributePreferredLocation, managed, 64), cudaCpuDeviceId);
  EXPECT_EQ(read(cudaMemRangeAttributePreferredLocation, managed, bytes), cudaInvalidDeviceId) << "mixed";
  EXPECT_EQ(read(cudaMemRangeAttributePreferredLocationType, managed, bytes), cudaMemLocationTypeInvalid);

  int accessed_by[3] = {7, 7, 7};
  ASSERT_EQ(cudaMemAdvise(managed, bytes, cudaMemAdviseSetAccessedBy, device_0), cudaSuccess);
  ASSERT_EQ(cudaMemAdvise(managed, 64, cudaMemAdviseSetAccessedBy, host), cudaSuccess);
  ASSERT_EQ(cudaMemRangeGetAttribute(accessed_by, sizeof accessed_by, cudaMemRangeAttributeAccessedBy, managed, bytes),
            cudaSuccess);
  EXPECT_EQ(accessed_by[0], 0);
  EXPECT_EQ(accessed_by[1], cudaInvalidDeviceId) << "the host is advised for part of the range only";
  EXPECT_EQ(accessed_by[2], cudaInvalidDeviceId);
  ASSERT_EQ(cudaMemRangeGetAttribute(accessed_by, sizeof accessed_by, cudaMemRangeAttributeAccessedBy, managed, 64),
            cudaSuccess);
  EXPECT_EQ(accessed_by[0], cudaCpuDeviceId);
  EXPECT_EQ(accessed_by[1], 0);

  EXPECT_EQ(read(cudaMemRangeAttributeLastPrefetchLocation, managed, bytes), cudaInvalidDeviceId);
  ASSERT_EQ(cudaMemPrefetchAsync(managed, bytes, cudaCpuDeviceId), cudaSuccess);
  EXPECT_EQ(read(cudaMemRangeAttributeLastPrefetchLocation, managed, bytes), cudaCpuDeviceId);
  EXPECT_EQ(read(cudaMemRangeAttributeLastPrefetchLocationType, managed, bytes), cudaMemLocationTypeHost);
  ASSERT_EQ(cudaMemPrefetchAsync(managed, bytes, 0), cudaSuccess);
  EXPECT_EQ(read(cudaMemRangeAttributeLastPrefetchLocationId, managed, bytes), 0);

  // Several at once.
  int read_mostly = -1, preferred = -1;
  void* data[] = {&read_mostly, &preferred};
  size_t sizes[] = {4, 4};
  cudaMemRangeAttribute attributes[] = {cudaMemRangeAttributeReadMostly, cudaMemRangeAttributePreferredLocation};
  ASSERT_EQ(cudaMemRangeGetAttributes(data, sizes, attributes, 2, managed + 200, 100), cudaSuccess);
  EXPECT_EQ(read_mostly, 1);
  EXPECT_EQ(preferred, 0);
}

TEST_F(ManagedRanges, FreedMemoryForgetsItsAdvice) {
  ASSERT_EQ(cudaMemAdvise(managed, bytes, cudaMemAdviseSetReadMostly, device_0), cudaSuccess);
  ASSERT_EQ(cudaFree(managed), cudaSuccess);
  char* again = nullptr;
  ASSERT_EQ(cudaMallocManaged(&again, bytes), cudaSuccess);
  if (again != managed) GTEST_SKIP() << "the allocator gave another address";
  EXPECT_EQ(read(cudaMemRangeAttributeReadMostly, again, bytes), 0);
}

TEST_F(ManagedRanges, QueriesCudaRefusesAreRefused) {
  int value = 0;
  EXPECT_EQ(cudaMemRangeGetAttribute(&value, 8, cudaMemRangeAttributeReadMostly, managed, bytes),
            cudaErrorInvalidValue);
  EXPECT_EQ(
      detail_of(cudaErrorInvalidValue),
      "cudaMemRangeGetAttribute(cudaMemRangeAttributeReadMostly): dataSize is 8; this attribute is 32 bits: pass 4");
  EXPECT_EQ(cudaMemRangeGetAttribute(&value, 6, cudaMemRangeAttributeAccessedBy, managed, bytes),
            cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaMemRangeGetAttribute(cudaMemRangeAttributeAccessedBy): dataSize is 6; this attribute is a list of "
            "32-bit device numbers: pass a non-zero multiple of 4");
  EXPECT_EQ(cudaMemRangeGetAttribute(&value, 4, static_cast<cudaMemRangeAttribute>(9), managed, bytes),
            cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaMemRangeGetAttribute: attribute 9 is not a cudaMemRangeAttribute (1 to 8)");
  EXPECT_EQ(cudaMemRangeGetAttribute(nullptr, 4, cudaMemRangeAttributeReadMostly, managed, bytes),
            cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaMemRangeGetAttribute(cudaMemRangeAttributeReadMostly): null data");
  void* device = nullptr;
  ASSERT_EQ(cudaMalloc(&device, 64), cudaSuccess);
  EXPECT_EQ(cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributeReadMostly, device, 64), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaMemRangeGetAttribute(cudaMemRangeAttributeReadMostly): " + address_text(device) +
                " is device memory from cudaMalloc, not managed memory; allocate it with cudaMallocManaged");
  EXPECT_EQ(cudaMemRangeGetAttribute(&value, 4, cudaMemRangeAttributeReadMostly, managed, 2 * bytes),
            cudaErrorInvalidValue);
  EXPECT_NE(detail_of(cudaErrorInvalidValue).find("runs past the end of its allocation of 4096 bytes"),
            std::string::npos);
  EXPECT_EQ(cudaMemRangeGetAttributes(nullptr, nullptr, nullptr, 0, managed, bytes), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaMemRangeGetAttributes: null data, dataSizes or attributes, or numAttributes 0; pass one entry per "
            "attribute in each array");
}

TEST_F(ManagedRanges, AttachmentsCudaTakesAndRefuses) {
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  EXPECT_EQ(cudaStreamAttachMemAsync(stream, managed), cudaSuccess);
  EXPECT_EQ(cudaStreamAttachMemAsync(stream, managed, bytes, cudaMemAttachHost), cudaSuccess);
  EXPECT_EQ(cudaStreamAttachMemAsync(0, managed, 0, cudaMemAttachGlobal), cudaSuccess);
  static char pageable[256];
  EXPECT_EQ(cudaStreamAttachMemAsync(stream, pageable, sizeof pageable), cudaSuccess);

  EXPECT_EQ(cudaStreamAttachMemAsync(stream, managed, 0, 3), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaStreamAttachMemAsync: flags 3 are not one of cudaMemAttachGlobal, "
            "cudaMemAttachHost or cudaMemAttachSingle");
  EXPECT_EQ(cudaStreamAttachMemAsync(0, managed), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaStreamAttachMemAsync: cudaMemAttachSingle to the NULL stream, which is not one stream but every "
            "stream's; attach to a stream you created, or pass cudaMemAttachGlobal");
  EXPECT_EQ(cudaStreamAttachMemAsync(stream, managed + 64, 0), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaStreamAttachMemAsync: " + address_text(managed + 64) +
                " + 0 bytes is part of the managed allocation "
                "of 4096 bytes at " +
                address_text(managed) + "; attach the whole allocation (its start, and length 0 or its size)");
  EXPECT_EQ(cudaStreamAttachMemAsync(stream, managed, 64), cudaErrorInvalidValue);
  EXPECT_EQ(cudaStreamAttachMemAsync(stream, pageable, 0), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaStreamAttachMemAsync: " + address_text(pageable) +
                " is system memory, which takes a length; pass the length in bytes (0 means a whole managed "
                "allocation)");
  void* device = nullptr;
  ASSERT_EQ(cudaMalloc(&device, 64), cudaSuccess);
  EXPECT_EQ(cudaStreamAttachMemAsync(stream, device), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaStreamAttachMemAsync: " + address_text(device) +
                " is device memory from cudaMalloc, not managed memory; allocate it with cudaMallocManaged");
  EXPECT_EQ(cudaStreamAttachMemAsync(stream, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue), "cudaStreamAttachMemAsync: null devPtr; pass managed memory");
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  EXPECT_EQ(cudaStreamAttachMemAsync(stream, managed), cudaErrorInvalidResourceHandle);
}

// __isShared and friends, on the worker's own stack (a block that never
// waits) and on fibers (threads that wait at a barrier).
__global__ void classifies(unsigned* out, const int* global, bool wait) {
  __shared__ int tile[4];
  extern __shared__ int dynamic[];
  int local = static_cast<int>(threadIdx.x);
  if (wait) __syncthreads();
  if (threadIdx.x != 1) return;
  out[0] = __isShared(tile);
  out[1] = __isShared(dynamic + 3);
  out[2] = __isShared(global);
  out[3] = __isGlobal(global);
  out[4] = __isLocal(&local);
  out[5] = __isGlobal(&local);
  out[6] = __isShared(&local);
  out[7] = __isGlobal(tile);
  out[8] = __cvta_shared_to_generic(__cvta_generic_to_shared(tile)) == tile;
  out[9] = __cvta_global_to_generic(__cvta_generic_to_global(global)) == global;
}

// __constant__ variables, which cohort-cxx registers where they are defined:
// constant, not global, as on the GPU.
__constant__ float coefficients[4];
__constant__ int offsets[2] = {1, 2}, scale = 3;

__global__ void classifies_constants(unsigned* out, const int* global) {
  int local = 0;
  out[0] = __isConstant(coefficients);
  out[1] = __isConstant(coefficients + 3);
  out[2] = __isConstant(&offsets[1]);
  out[3] = __isConstant(&scale);
  out[4] = __isGlobal(&scale);
  out[5] = __isConstant(global);
  out[6] = __isConstant(&local);
  out[7] = __cvta_constant_to_generic(__cvta_generic_to_constant(&scale)) == &scale;
}

class StateSpaces : public FreshDevice {};

TEST_F(StateSpaces, ConstantVariablesAreTold) {
  unsigned* out = nullptr;
  int* global = nullptr;
  ASSERT_EQ(cudaMallocManaged(&out, 8 * sizeof(unsigned)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&global, sizeof(int)), cudaSuccess);
  classifies_constants<<<1, 1>>>(out, global);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const unsigned expected[8] = {1, 1, 1, 1, 0, 0, 0, 1};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], expected[i]) << "answer " << i;
  EXPECT_EQ(__isConstant(&offsets[0]), 1u) << "host code asks too";
  int on_host = 0;
  EXPECT_EQ(__isConstant(&on_host), 0u);
}

TEST_F(StateSpaces, SharedLocalAndGlobalAddressesAreTold) {
  unsigned* out = nullptr;
  int* global = nullptr;
  ASSERT_EQ(cudaMallocManaged(&out, 10 * sizeof(unsigned)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&global, sizeof(int)), cudaSuccess);
  for (const bool wait : {false, true}) {
    classifies<<<2, 32, 64>>>(out, global, wait);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const unsigned expected[10] = {1, 1, 0, 1, 1, 0, 0, 0, 1, 1};
    for (int i = 0; i < 10; ++i) EXPECT_EQ(out[i], expected[i]) << "answer " << i << (wait ? " on a fiber" : "");
  }
  int on_host = 0;
  EXPECT_EQ(__isShared(&on_host), 0u) << "outside a kernel every address is global";
  EXPECT_EQ(__isGlobal(&on_host), 1u);
  EXPECT_EQ(__isLocal(&on_host), 0u);
}

}  // namespace
