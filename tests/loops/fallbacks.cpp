// Compiled by the `loops_fallback_*` tests only (tests/loops/CMakeLists.txt):
// one kernel per reason the loops pass keeps a kernel on fibers, each of
// which must be named in a compile-time remark with its line and reason.
#include <cohort/cohort.hpp>

namespace cg = cohort;

void defined_elsewhere(float* value);
__attribute__((weak)) void replaceable(float* value) { *value += 1.0f; }
__attribute__((noinline)) void sync_in_helper() { __syncthreads(); }
__attribute__((noinline)) void atomic_in_helper(int* counter) { atomicAdd(counter, 1); }

// Warp-level operations the loops engine does not lower (warp_kernels.cpp runs those it does).
__global__ void fallback_collective_divergent(float* out) {
  if (threadIdx.x < 16) out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, out[threadIdx.x], 1);
}
__global__ void fallback_collective_divergent_barrier(float* out) {
  for (unsigned k = 0; k < threadIdx.x % 3; ++k) __syncthreads();
  out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, out[threadIdx.x], 1);
}
__global__ void fallback_coalesced(unsigned* out) { out[threadIdx.x] = cg::coalesced_threads().num_threads(); }
__global__ void fallback_activemask(unsigned* out) { out[threadIdx.x] = __activemask(); }
// Recursion: inlined a level at a time, a collective is always left in a call.
float shuffle_rounds(float v, int n) { return n == 0 ? v : shuffle_rounds(v, n - 1) * __shfl_xor_sync(~0u, v, n); }
__global__ void fallback_collective_recursion(float* out, int n) { out[n] = shuffle_rounds(out[threadIdx.x], n); }

// Other levels and services.
__global__ void fallback_grid(int* out) {
  out[threadIdx.x] = 1;
  if (threadIdx.x < 16) cg::this_grid().sync();
}
__global__ void fallback_multi_grid(int* out) {
  out[threadIdx.x] = 1;
  if (threadIdx.x < 16) cg::this_multi_grid().sync();
}
__global__ void fallback_cluster(int* out) {
  out[threadIdx.x] = 1;
  if (threadIdx.x < 16) cg::this_cluster().sync();
}
__global__ void fallback_split_unpaired(int* out) {
  auto block = cg::this_thread_block();
  auto token = block.barrier_arrive();
  block.barrier_wait(std::move(token));
  block.barrier_wait(std::move(token));
}
__global__ void fallback_split_between(int* out) {
  auto block = cg::this_thread_block();
  auto token = block.barrier_arrive();
  out[threadIdx.x] = 1;
  __syncthreads();
  block.barrier_wait(std::move(token));
}
// What the pass cannot see through or split.
__global__ void fallback_elsewhere(float* out) { defined_elsewhere(out + threadIdx.x); }
__global__ void fallback_weak(float* out) { replaceable(out + threadIdx.x); }
__global__ void fallback_indirect(float* out, void (*f)(float*)) { f(out + threadIdx.x); }
__global__ void fallback_helper_barrier(float* out) {
  out[threadIdx.x] = 1.0f;
  sync_in_helper();
}
__global__ void fallback_helper_atomic(int* out) { atomic_in_helper(out); }
__global__ void fallback_asm(int* out) {
  asm volatile("" ::: "memory");
  out[threadIdx.x] = 1;
}
__global__ void fallback_throw(int* out, int n) {
  if (n < 0) throw n;
  out[threadIdx.x] = n;
}
// Waits on another thread without a barrier.
__global__ void fallback_atomic_loop(int* bins, const int* in, unsigned n) {
  while (atomicAdd(&bins[in[0] & 7], 0) < static_cast<int>(n)) continue;
}
__global__ void fallback_volatile_loop(volatile int* flag) {
  while (*flag == 0) {
  }
}
__global__ void fallback_fence_loop(int* flag, int* out) {
  for (int i = 0; i < *out; ++i) {
    __threadfence();
    flag[i] = 1;
  }
}
__global__ void fallback_sleep_loop(int* out, int n) {
  for (int i = 0; out[0] < n; ++i) {  // a flag polled, a sleep between the reads
    __nanosleep(10);
    out[threadIdx.x] += i;
  }
}
__global__ void fallback_irreducible(int* out, int n) {
  int i = out[threadIdx.x];
  if (n > 3) goto inside;
  for (; i < n; ++i) {
    out[threadIdx.x] += 2;
  inside:
    out[threadIdx.x] += 1;
  }
}
// Frames are fixed-size and 64-byte aligned.
__global__ void fallback_variable_local(int* out, unsigned n) {
  int* scratch = static_cast<int*>(__builtin_alloca(n * sizeof(int)));
  for (unsigned i = 0; i < n; ++i) scratch[i] = out[i];
  __syncthreads();
  out[threadIdx.x] = scratch[threadIdx.x % n];
}
__global__ void fallback_overaligned(int* out, unsigned k) {
  alignas(128) int local[32];
  for (int& v : local) v = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = local[k % 32];
}
__attribute__((optnone)) __global__ void fallback_unoptimized(int* out) { out[threadIdx.x] = 1; }
__global__ void fallback_try(float* out) {
  try {
    defined_elsewhere(out);
  } catch (...) {
    out[0] = 0.0f;
  }
}
__global__ void fallback_variadic(int* out, ...) { out[threadIdx.x] = 1; }

// Grid barriers the loops engine does not lower (grid_resume.hpp), and a grid collective.
__attribute__((noinline)) void grid_sync_in_helper() { cg::this_grid().sync(); }
__global__ void fallback_grid_collective(int* out) {
  out[threadIdx.x] = cg::reduce(cg::this_grid(), 1, cg::plus<int>());
}
__global__ void fallback_grid_divergent_barrier(int* out) {
  if (threadIdx.x < 16) __syncthreads();
  cg::this_grid().sync();
  out[threadIdx.x] = 1;
}
__global__ void fallback_grid_helper(int* out) {
  out[threadIdx.x] = 1;
  grid_sync_in_helper();
}
__global__ void fallback_grid_thread_local(int* out, int* table) {
  __shared__ int tile[32];
  int* where[2] = {tile, out};
  table[threadIdx.x] = where[threadIdx.x % 2] == tile;
  cg::this_grid().sync();
  where[threadIdx.x % 2][threadIdx.x % 32] = 1;
}
__global__ void fallback_grid_site(int* out, int n) {
  if (n > 0) {
    out[0] = 1;
    cg::this_grid().sync();
  } else {
    out[1] = 2;
    cg::this_grid().sync();
  }
  out[threadIdx.x] = 3;
}

// Cluster barriers and services the loops engine does not lower (grid_resume.hpp).
__attribute__((noinline)) void cluster_sync_in_helper() { cg::this_cluster().sync(); }
__global__ void fallback_cluster_helper(int* out) {
  out[threadIdx.x] = 1;
  cluster_sync_in_helper();
}
__global__ void fallback_cluster_divergent_barrier(int* out) {
  if (threadIdx.x < 16) __syncthreads();
  cg::this_cluster().sync();
  out[threadIdx.x] = 1;
}
__global__ void fallback_cluster_shared(int* out) {
  __shared__ int mine;
  mine = 1;
  cg::this_cluster().sync();
  out[threadIdx.x] = *cg::this_cluster().map_shared_rank(&mine, 0);
}
__global__ void fallback_cluster_split(int* out) {
  auto token = cg::this_cluster().barrier_arrive();
  out[threadIdx.x] = 1;
  cg::this_cluster().barrier_wait(std::move(token));
}

// Collectives in warp-uniform control flow run per warp only on the lane arrays:
// cg::reduce with an operator that holds state (through the records) may name a group past the warp.
__global__ void fallback_collective_records_per_warp(int* out) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (threadIdx.x < 64)
    out[threadIdx.x] = cg::reduce(tile, out[threadIdx.x], [k = 0](int a, int b) { return a + b + k; });
}
// Regions per warp do not return at grid or cluster barriers.
__global__ void fallback_warp_uniform_grid(int* out) {
  out[threadIdx.x] += 1;
  cg::this_grid().sync();
  if (threadIdx.x < 32) out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, out[threadIdx.x], 1);
}
__global__ void fallback_warp_uniform_cluster(int* out) {
  out[threadIdx.x] += 1;
  cg::this_cluster().sync();
  if (threadIdx.x < 32) out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, out[threadIdx.x], 1);
}
// A split block barrier an exit may cut short; an arrive without a wait; in a
// function that is not inlined (recursion); memcpy_async's checking calls likewise.
__global__ void fallback_split_exit(int* out) {
  auto block = cg::this_thread_block();
  auto token = block.barrier_arrive();
  if (out[threadIdx.x] == 0) return;
  block.barrier_wait(std::move(token));
}
__global__ void fallback_split_no_wait(int* out) {
  auto token = cg::this_thread_block().barrier_arrive();
  out[threadIdx.x] = static_cast<int>(token.arrival);
}
__device__ void split_recursion(int* out, int depth) {
  if (depth > 0) split_recursion(out, depth - 1);  // not a tail call, which clang would make a loop
  auto block = cg::this_thread_block();
  auto token = block.barrier_arrive();
  block.barrier_wait(std::move(token));
}
__global__ void fallback_split_helper(int* out) { split_recursion(out, out[0]); }
__device__ void copy_recursion(float* tile, const float* in, int depth) {
  if (depth > 0) copy_recursion(tile, in + 64, depth - 1);
  cg::memcpy_async(cg::this_thread_block(), tile, in, 64 * sizeof(float));
}
__global__ void fallback_memcpy_helper(const float* in, float* out) {
  __shared__ float tile[64];
  copy_recursion(tile, in, static_cast<int>(in[0]));
  cg::wait(cg::this_thread_block());
  out[threadIdx.x] = tile[threadIdx.x];
}

// Multi-grid barriers and services the loops engine does not lower (grid_resume.hpp).
__attribute__((noinline)) void multi_grid_sync_in_helper() { cg::this_multi_grid().sync(); }
__global__ void fallback_multi_grid_helper(int* out) {
  out[threadIdx.x] = 1;
  multi_grid_sync_in_helper();
}
__global__ void fallback_multi_grid_collective(int* out) {
  out[threadIdx.x] = cg::reduce(cg::this_multi_grid(), 1, cg::plus<int>());
}
__global__ void fallback_multi_grid_divergent_barrier(int* out) {
  if (out[threadIdx.x] == 0) __syncthreads();
  cg::this_multi_grid().sync();
}
