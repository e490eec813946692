// A program that returns from main with work still queued: a kernel waiting
// for a flag that a kernel on another stream raises after a delay, a copy and
// a host function behind it, streams and events never destroyed. The host
// backend runs the work to its end before the process's static objects are
// destroyed, and exits cleanly: the check below, made by a static object's
// destructor, sees the host function's mark; the exit status is its verdict.
#include <cstdio>
#include <cstdlib>
#include <cuda/atomic>

namespace {

int* copied = nullptr;  // pinned: a copy into pageable memory would wait for the kernel before returning
bool drained = false;

struct verdict_at_exit {
  ~verdict_at_exit() {
    if (!drained || copied == nullptr || *copied != 42) {
      std::printf("exit_with_pending_work: at exit, the host function ran: %d, the copy read %d\n", drained,
                  copied == nullptr ? -1 : *copied);
      std::fflush(stdout);
      std::_Exit(1);
    }
    std::printf("exit_with_pending_work: PASS\n");
  }
} verdict;

}  // namespace

__global__ void wait_then_write(int* flag, int* data) {
  while (cuda::atomic_ref<int, cuda::thread_scope_system>(*flag).load(cuda::memory_order_acquire) == 0) {
  }
  *data = 42;
}

__global__ void raise_later(int* flag) {
  const long long start = clock64();
  while (clock64() - start < 20000000) {  // 20 ms at the host's clock rate: main has returned by then
  }
  cuda::atomic_ref<int, cuda::thread_scope_system>(*flag).store(1, cuda::memory_order_release);
}

void CUDART_CB mark_drained(void*) { drained = true; }

int main() {
  int *flag, *data;
  if (cudaMallocHost(&flag, sizeof(int)) != cudaSuccess || cudaMallocHost(&copied, sizeof(int)) != cudaSuccess ||
      cudaMalloc(&data, sizeof(int)) != cudaSuccess)
    return 2;
  *flag = 0;
  *copied = -1;
  cudaStream_t waiting, raising;
  cudaStreamCreateWithFlags(&waiting, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&raising, cudaStreamNonBlocking);
  cudaEvent_t done;
  cudaEventCreate(&done);
  wait_then_write<<<1, 1, 0, waiting>>>(flag, data);
  cudaMemcpyAsync(copied, data, sizeof(int), cudaMemcpyDeviceToHost, waiting);
  cudaLaunchHostFunc(waiting, mark_drained, nullptr);
  cudaEventRecord(done, waiting);
  raise_later<<<1, 1, 0, raising>>>(flag);
  return cudaGetLastError() == cudaSuccess ? 0 : 3;
}
