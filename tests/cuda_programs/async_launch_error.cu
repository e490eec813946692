// A kernel that faults after its launch has returned: the launch succeeds,
// the fault is the error of the next call that synchronizes with it, and
// then of every call (sticky); the work queued behind the kernel does not
// run, a host function and a callback included (as an H200 with CUDA 13 and
// driver 580 does: neither is called). CUDA's documentation of such errors
// says the process must end to use CUDA again, so nothing after the fault is
// expected to work: on the H200, cudaDeviceReset returned cudaSuccess and the
// next cudaMalloc cudaErrorDevicesUnavailable.
#include <cuda/atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

__global__ void wait_then_trap(int* flag) {
  while (cuda::atomic_ref<int, cuda::thread_scope_system>(*flag).load(cuda::memory_order_acquire) == 0) {
  }
  __trap();
}

void CUDART_CB count_call(void* calls) { ++*static_cast<int*>(calls); }

void CUDART_CB keep_status(cudaStream_t, cudaError_t status, void* kept) { *static_cast<cudaError_t*>(kept) = status; }

int main() {
  int* flag;
  CHECK(cudaMallocHost(&flag, sizeof(int)));
  *flag = 0;
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  wait_then_trap<<<1, 1, 0, stream>>>(flag);
  const cudaError_t launched = cudaGetLastError();
  int host_function_calls = 0;
  cudaError_t callback_status = cudaErrorUnknown;
  CHECK(cudaLaunchHostFunc(stream, count_call, &host_function_calls));
  CHECK(cudaStreamAddCallback(stream, keep_status, &callback_status, 0));
  __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
  const cudaError_t synchronized = cudaStreamSynchronize(stream);
  std::printf("launch: %s; synchronize: %s\n", cudaGetErrorName(launched), cudaGetErrorString(synchronized));
  if (launched != cudaSuccess || synchronized != cudaErrorLaunchFailure) {
    std::printf("expected the launch to succeed and the synchronization to report cudaErrorLaunchFailure\n");
    return 1;
  }
#ifndef __CUDACC__  // the host backend: cohort's message names the cause
  if (std::strstr(cudaGetErrorString(synchronized), "__trap() called in a kernel") == nullptr) {
    std::printf("the synchronization's message does not say what the kernel did\n");
    return 1;
  }
#endif
  if (host_function_calls != 0 || callback_status != cudaErrorUnknown) {  // not called: the status is as set above
    std::printf("after the fault: the host function ran %d times, the callback's status is %s\n", host_function_calls,
                cudaGetErrorName(callback_status));
    return 1;
  }
  void* p = nullptr;
  if (cudaMalloc(&p, 16) != cudaErrorLaunchFailure) {
    std::printf("the fault is not sticky\n");
    return 1;
  }
  std::printf("async_launch_error: PASS\n");
  return 0;
}
