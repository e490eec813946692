// The lifetime of queued work: a kernel waits, on a non-blocking stream, for
// a flag that the host raises later, while the program destroys the stream,
// frees memory on it or resets the device. The work still runs to its end,
// nothing it uses is released under it, and the arguments it was launched
// with are the ones it sees.
#include <chrono>
#include <thread>

#include <cuda/atomic>

#include "runtime_test_support.hpp"

namespace {

class StreamWork : public FreshDevice {
 protected:
  void SetUp() override {
    ASSERT_EQ(cudaMallocHost(&flag, sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMallocHost(&out, sizeof(int)), cudaSuccess);
    *flag = 0;
    *out = 0;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  }
  void TearDown() override {
    if (raiser.joinable()) raiser.join();
    if (stream != nullptr) cudaStreamDestroy(stream);
    cudaFreeHost(flag);
    cudaFreeHost(out);
    FreshDevice::TearDown();
  }
  // The flag goes up from another host thread, after the caller has gone on to its next call.
  void raise_flag_soon() {
    raiser = std::thread([f = flag] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      __atomic_store_n(f, 1, __ATOMIC_RELEASE);
    });
  }

  int* flag = nullptr;
  int* out = nullptr;
  cudaStream_t stream = nullptr;
  std::thread raiser;
};

struct settings {
  int value;
  int copies;
};

__global__ void wait_then_write(int* flag, int* out, settings s) {
  while (cuda::atomic_ref<int, cuda::thread_scope_system>(*flag).load(cuda::memory_order_acquire) == 0) {
  }
  *out = s.value * s.copies;
}

__global__ void wait_then_store(int* flag, int* device_memory, int* out) {
  while (cuda::atomic_ref<int, cuda::thread_scope_system>(*flag).load(cuda::memory_order_acquire) == 0) {
  }
  device_memory[0] = 5;
  *out = device_memory[0];
}

TEST_F(StreamWork, ADestroyedStreamFinishesItsWork) {
  wait_then_write<<<1, 1, 0, stream>>>(flag, out, settings{6, 7});
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);  // returns at once, as CUDA's does
  stream = nullptr;
  EXPECT_EQ(*out, 0);
  raise_flag_soon();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(*out, 42);
}

TEST_F(StreamWork, AQueuedLaunchKeepsTheArgumentsOfItsCall) {
  settings s{6, 7};
  wait_then_write<<<1, 1, 0, stream>>>(flag, out, s);
  s.value = 100;  // as conjugateGradientMultiDeviceCG changes its launch's argument for the next device
  void* args[] = {&flag, &out, &s};
  ASSERT_EQ(cudaLaunchKernel(wait_then_write, dim3(1), dim3(1), args, 0, stream), cudaSuccess);
  s.value = 1;
  raise_flag_soon();
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(*out, 700);
}

TEST_F(StreamWork, FreeAsyncReleasesTheMemoryWhenTheStreamReachesIt) {
  int* memory = nullptr;
  ASSERT_EQ(cudaMalloc(&memory, 1 << 20), cudaSuccess);
  size_t free_before = 0, free_queued = 0, free_after = 0, total = 0;
  wait_then_store<<<1, 1, 0, stream>>>(flag, memory, out);
  ASSERT_EQ(cudaMemGetInfo(&free_before, &total), cudaSuccess);
  ASSERT_EQ(cudaFreeAsync(memory, stream), cudaSuccess);
  ASSERT_EQ(cudaMemGetInfo(&free_queued, &total), cudaSuccess);
  EXPECT_EQ(free_queued, free_before);  // the kernel before the free still uses it
  raise_flag_soon();
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  ASSERT_EQ(cudaMemGetInfo(&free_after, &total), cudaSuccess);
  EXPECT_GT(free_after, free_before);
  EXPECT_EQ(*out, 5);
}

// Pageable memory as CUDA's copies treat it: a source is read at the call,
// a destination written before the call returns (the stream waited for).
TEST_F(StreamWork, AnAsyncCopyReadsAPageableSourceAtTheCall) {
  int* memory = nullptr;
  ASSERT_EQ(cudaMalloc(&memory, sizeof(int)), cudaSuccess);
  wait_then_write<<<1, 1, 0, stream>>>(flag, out, settings{1, 1});
  int pageable = 77;
  ASSERT_EQ(cudaMemcpyAsync(memory, &pageable, sizeof(int), cudaMemcpyHostToDevice, stream), cudaSuccess);
  pageable = 0;  // reused at once, as a program may
  ASSERT_EQ(cudaMemcpyAsync(out, memory, sizeof(int), cudaMemcpyDeviceToHost, stream), cudaSuccess);  // pinned
  EXPECT_EQ(cudaStreamQuery(stream), cudaErrorNotReady);
  raise_flag_soon();
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(*out, 77);
  cudaFree(memory);
}

TEST_F(StreamWork, AnAsyncCopyIntoPageableMemoryReturnsWhenItIsDone) {
  wait_then_write<<<1, 1, 0, stream>>>(flag, out, settings{6, 7});
  int pageable = 0;
  raise_flag_soon();
  ASSERT_EQ(cudaMemcpyAsync(&pageable, out, sizeof(int), cudaMemcpyDefault, stream), cudaSuccess);
  EXPECT_EQ(pageable, 42);
}

TEST_F(StreamWork, ResetWaitsForTheDevicesWork) {
  int* memory = nullptr;
  ASSERT_EQ(cudaMalloc(&memory, sizeof(int)), cudaSuccess);
  wait_then_store<<<1, 1, 0, stream>>>(flag, memory, out);
  raise_flag_soon();
  ASSERT_EQ(cudaDeviceReset(), cudaSuccess);  // frees `memory`, once the kernel is done with it
  EXPECT_EQ(*out, 5);
}

// A graph's copy and memset nodes are synchronous calls made on the stream's
// own thread: behind queued work on a blocking stream they must not wait for
// the legacy stream, which would wait for the graph itself (simpleCudaGraphs hung so).
TEST_F(StreamWork, AGraphsCopyAndMemsetNodesRunBehindQueuedWork) {
  cudaStream_t blocking = nullptr;
  ASSERT_EQ(cudaStreamCreate(&blocking), cudaSuccess);
  int* memory = nullptr;
  ASSERT_EQ(cudaMalloc(&memory, 2 * sizeof(int)), cudaSuccess);
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaGraphCreate(&graph, 0), cudaSuccess);
  cudaMemsetParams fill{};
  fill.dst = memory + 1;
  fill.value = 9;
  fill.elementSize = sizeof(int);
  fill.width = 1;
  fill.height = 1;
  cudaGraphNode_t memset_node = nullptr, copy_node = nullptr;
  ASSERT_EQ(cudaGraphAddMemsetNode(&memset_node, graph, nullptr, 0, &fill), cudaSuccess);
  ASSERT_EQ(cudaGraphAddMemcpyNode1D(&copy_node, graph, &memset_node, 1, memory, out, sizeof(int), cudaMemcpyDefault),
            cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);

  wait_then_write<<<1, 1, 0, blocking>>>(flag, out, settings{6, 7});
  ASSERT_EQ(cudaGraphLaunch(exec, blocking), cudaSuccess);
  raise_flag_soon();
  ASSERT_EQ(cudaStreamSynchronize(blocking), cudaSuccess);
  int copied[2] = {0, 0};
  ASSERT_EQ(cudaMemcpy(copied, memory, sizeof(copied), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(copied[0], 42);
  EXPECT_EQ(copied[1], 9);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaFree(memory);
  cudaStreamDestroy(blocking);
}

// CUDA does not permit runtime calls in a host function; a synchronization
// there is refused with cudaErrorNotPermitted instead of waiting for itself.
TEST_F(StreamWork, ASynchronizationInAHostFunctionIsRefused) {
  struct observed {
    cudaError_t stream_sync = cudaSuccess;
    cudaError_t device_sync = cudaSuccess;
  } seen;
  wait_then_write<<<1, 1, 0, stream>>>(flag, out, settings{1, 1});
  ASSERT_EQ(cudaLaunchHostFunc(
                stream,
                [](void* p) {
                  auto* o = static_cast<observed*>(p);
                  o->stream_sync = cudaStreamSynchronize(nullptr);
                  o->device_sync = cudaDeviceSynchronize();
                },
                &seen),
            cudaSuccess);
  raise_flag_soon();
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(seen.stream_sync, cudaErrorNotPermitted);
  EXPECT_EQ(seen.device_sync, cudaErrorNotPermitted);
  cudaGetLastError();  // the refusals are not sticky
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

}  // namespace
