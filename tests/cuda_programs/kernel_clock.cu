// clock64() and clock() in a kernel count cycles at the rate the device
// reports (cudaDevAttrClockRate, in kHz): a warp whose threads each spin
// until their counter has advanced by 20 ms worth of cycles takes about 20 ms
// (the threads wait together), not 32 times as long, and not forever.
#include <chrono>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

__global__ void spin_cycles(long long cycles, long long* waited64, long long* waited32) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
  const clock_t start32 = clock();
  while ((long long)(clock() - start32) < cycles / 4) {
  }
  waited64[threadIdx.x] = clock64() - start;
  waited32[threadIdx.x] = (long long)(clock() - start32);
}

int main() {
  int khz = 0;
  CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  if (khz <= 0) {
    std::printf("FAILED: clock rate %d kHz\n", khz);
    return 1;
  }
  const double seconds = 0.02;
  const long long cycles = (long long)(seconds * khz * 1000.0);
  long long *waited64, *waited32;
  CHECK(cudaMallocManaged(&waited64, 32 * sizeof(long long)));
  CHECK(cudaMallocManaged(&waited32, 32 * sizeof(long long)));
  spin_cycles<<<1, 32>>>(cycles, waited64, waited32);  // warm-up: first launch costs
  CHECK(cudaDeviceSynchronize());
  const auto begin = std::chrono::steady_clock::now();
  spin_cycles<<<1, 32>>>(cycles, waited64, waited32);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  for (int t = 0; t < 32; ++t)
    if (waited64[t] < cycles + cycles / 4 || waited32[t] < cycles / 4) {
      std::printf("FAILED: thread %d counted %lld and %lld cycles\n", t, waited64[t], waited32[t]);
      return 1;
    }
  // 1.25 x 20 ms of spinning: at least that, and not the threads one after another (32 x).
  const double expected = 1.25 * seconds;
  std::printf("spun %lld cycles at %d kHz in %.1f ms (expected %.1f ms)\n", cycles, khz, took * 1e3, expected * 1e3);
  if (took < 0.9 * expected || took > 8 * expected) {
    std::printf("FAILED: the clock does not advance at the reported rate\n");
    return 1;
  }
  CHECK(cudaFree(waited64));
  CHECK(cudaFree(waited32));
  std::printf("kernel clock: ok\n");
  return 0;
}
