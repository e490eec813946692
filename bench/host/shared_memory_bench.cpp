// Shared memory on the host: the cost per thread of kernels that live in it.
// A tree reduction through a static __shared__ array (8 block barriers per
// block of 256), the same through dynamic shared memory, and many small
// barrier-free blocks that each fill and read a __shared__ tile (what a
// block's start and end cost where every block touches shared memory). Used
// to check that guarding shared memory (docs/host-backend.md, "Shared memory
// between guard zones") left these paths as fast as they were.
#include <benchmark/benchmark.h>

#include <cohort/cohort.hpp>

namespace cg = cohort;

namespace {

constexpr unsigned threads = 256;

__global__ void reduce_static(const float* in, float* out) {
  __shared__ float partial[threads];
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * threads + t];
  __syncthreads();
  for (unsigned s = threads / 2; s > 0; s /= 2) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

__global__ void reduce_dynamic(const float* in, float* out) {
  float* partial = cg::dynamic_shared<float>();
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * threads + t];
  __syncthreads();
  for (unsigned s = threads / 2; s > 0; s /= 2) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

// No barrier: each thread writes its slot and reads its neighbour's (its
// own block's earlier thread, which has run): blocks run as plain loops.
__global__ void small_blocks_touch_shared(const float* in, float* out) {
  __shared__ float tile[64];
  const unsigned t = threadIdx.x;
  tile[t] = in[blockIdx.x * 64 + t];
  out[blockIdx.x * 64 + t] = tile[t == 0 ? 0 : t - 1];
}

void per_thread(benchmark::State& state, unsigned long long count) {
  state.counters["ns_per_thread"] = benchmark::Counter(static_cast<double>(state.iterations() * count),
                                                       benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_TreeReductionStaticShared(benchmark::State& state) {
  const unsigned blocks = 1024;
  cg::device_buffer<float> in(blocks * threads), out(blocks);
  in.fill(1.0f);
  for (auto _ : state) cg::launch(reduce_static, {dim3(blocks), dim3(threads)}, in.data(), out.data());
  per_thread(state, 1ull * blocks * threads);
}
BENCHMARK(BM_TreeReductionStaticShared)->Unit(benchmark::kMillisecond);

void BM_TreeReductionDynamicShared(benchmark::State& state) {
  const unsigned blocks = 1024;
  cg::device_buffer<float> in(blocks * threads), out(blocks);
  in.fill(1.0f);
  for (auto _ : state)
    cg::launch(reduce_dynamic, {dim3(blocks), dim3(threads), threads * sizeof(float)}, in.data(), out.data());
  per_thread(state, 1ull * blocks * threads);
}
BENCHMARK(BM_TreeReductionDynamicShared)->Unit(benchmark::kMillisecond);

void BM_SmallBlocksTouchingShared(benchmark::State& state) {
  const unsigned blocks = 1 << 14;
  cg::device_buffer<float> in(blocks * 64), out(blocks * 64);
  in.fill(1.0f);
  for (auto _ : state) cg::launch(small_blocks_touch_shared, {dim3(blocks), dim3(64)}, in.data(), out.data());
  per_thread(state, 1ull * blocks * 64);
}
BENCHMARK(BM_SmallBlocksTouchingShared)->Unit(benchmark::kMillisecond);

}  // namespace
