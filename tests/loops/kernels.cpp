// Test kernels for the loops engine. Built by clang with the loops pass
// (tests/loops/CMakeLists.txt); each kernel's engine is the pass's decision.
#include "kernels.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include <cohort/cohort.hpp>

#include "shared_kernel.hpp"

namespace cg = cohort;

namespace {

__global__ void saxpy_kernel(unsigned n, float a, const float* x, float* y) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void tree_reduce_kernel(const float* in, float* out) {
  __shared__ float partial[1024];
  const unsigned tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

__global__ void stencil_kernel(unsigned n, const float* in, float* out) {
  __shared__ float tile[1024 + 2];
  cg::thread_block block = cg::this_thread_block();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned t = threadIdx.x + 1;
  tile[t] = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0) tile[0] = i > 0 ? in[i - 1] : 0.0f;
  if (threadIdx.x == blockDim.x - 1) tile[t + 1] = i + 1 < n ? in[i + 1] : 0.0f;
  block.sync();
  if (i < n) out[i] = tile[t - 1] + tile[t] + tile[t + 1];
}

__global__ void early_exit_kernel(unsigned n, const float* in, float* out) {
  __shared__ float values[1024];
  const unsigned first = blockIdx.x * blockDim.x;
  const unsigned i = first + threadIdx.x;
  if (i >= n) return;  // CUDA: exited threads no longer count at the barrier
  values[threadIdx.x] = in[i];
  __syncthreads();
  const unsigned live = n - first < blockDim.x ? n - first : blockDim.x;
  out[i] = values[threadIdx.x] + values[(threadIdx.x + 1) % live];
}

__global__ void reverse_3d_kernel(const int* in, int* out) {
  __shared__ int values[1024];
  const unsigned rank = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned count = blockDim.x * blockDim.y * blockDim.z;
  values[rank] = in[blockIdx.x * count + rank];
  __syncthreads();
  out[blockIdx.x * count + rank] = values[count - 1 - rank] * 2 + static_cast<int>(threadIdx.y * 100 + threadIdx.z);
}

__global__ void local_array_kernel(const float* in, float* out) {
  __shared__ float values[1024];
  float mine[4];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned k = 0; k < 4; ++k) mine[k] = in[i] * static_cast<float>(k + 1);
  values[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = mine[threadIdx.x % 4] + values[blockDim.x - 1 - threadIdx.x];
}

// C library and clock calls defined elsewhere that never wait (eligibility.cpp's lists), beside a barrier.
__global__ void library_calls_kernel(const float* in, float* out) {
  __shared__ float exponents[1024];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const auto started = std::chrono::steady_clock::now();  // what clock64() reads
  int exponent = 0;
  const float mantissa = frexpf(in[i], &exponent);
  auto* scratch = static_cast<float*>(malloc(sizeof(float)));
  *scratch = ldexpf(mantissa, exponent);  // in[i] again
  exponents[threadIdx.x] = static_cast<float>(exponent);
  __syncthreads();
  out[i] =
      *scratch + exponents[blockDim.x - 1 - threadIdx.x] + (std::chrono::steady_clock::now() < started ? 1e9f : 0.0f);
  free(scratch);
}

// Atomics in loops that end by their counters alone, which wait for no one: a histogram's atomicAdd in a
// grid-stride loop, a compaction's atomicAdd for a slot, and a maximum by a compare-and-swap retry.
__global__ void atomics_in_loops_kernel(const int* in, unsigned n, int* bins, int* kept, int* count, int* largest) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    atomicAdd(&bins[in[i] & 15], 1);
    if (in[i] % 3 == 0) kept[atomicAdd(count, 1)] = in[i];
    int old = *largest, assumed;
    do {
      assumed = old;
      old = atomicCAS(largest, assumed, in[i] > assumed ? in[i] : assumed);
    } while (assumed != old);
  }
}

__global__ void uneven_barriers_kernel(int* out) {
  int passes = 0;
  for (unsigned k = 0; k < threadIdx.x % 3; ++k) {
    __syncthreads();
    ++passes;
  }
  out[threadIdx.x] = passes * 1000 + static_cast<int>(threadIdx.x);
}

// Comparisons of row indices with values the same for the row (the pass runs
// rows where they hold throughout as a copy with them true, row_versions.hpp):
// an unsigned index that may wrap within a row, a signed one.
__global__ void row_conditions_kernel(unsigned base, unsigned limit, int lower, unsigned* out) {
  const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned i = base + k;
  const int s = static_cast<int>(k) - 7;
  unsigned v = 0;
  if (i < limit) v += 1;
  if (s > lower) v += 2;
  out[k] = v * 1000u + (i & 0xffu);
}

// A test of the thread's index true for a prefix of each row, in a kernel with
// a barrier (the pass splits such thread loops, prefix_split.hpp): unsigned
// (an index that may wrap within a row), its mirror (bound >= index), signed
// and inclusive, the opposite (index >= bound), an index equal and unequal to
// 0, and two tests in one loop (each copy split again); 2-D blocks. mode
// chooses which.
__global__ void prefix_tests_kernel(unsigned mode, unsigned base, unsigned bound, int signed_bound, unsigned* out) {
  __shared__ unsigned tile[512];
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x, n = blockDim.x * blockDim.y;
  tile[t] = t * 3;
  __syncthreads();
  unsigned v = 7;
  if (mode == 0) {
    if (base + threadIdx.x < bound) v = tile[n - 1 - t];
  } else if (mode == 1) {
    if (bound >= base + threadIdx.x) v = tile[(t + 1) % n];
  } else if (mode == 2) {
    if (static_cast<int>(threadIdx.x) - 5 <= signed_bound) v = tile[t] + 1;
  } else if (mode == 3) {
    if (base + threadIdx.x >= bound) v = tile[n - 1 - t];
  } else if (mode == 4) {
    v = base + threadIdx.x == 0 ? tile[t] + 2 : tile[(t + 1) % n];
  } else if (mode == 5) {
    if (base + threadIdx.x < bound) v = tile[n - 1 - t];
    if (threadIdx.x == 0) v += 100;
  } else {
    if (base + threadIdx.x != 0) v = tile[t] + 5;
  }
  out[blockIdx.x * n + t] = v;
}

// Barriers in block-uniform control flow only (a branch on a parameter, a loop
// counted by parameters), with uniform values live across them (r, weight)
// and per-thread ones (acc): one resume point per block. 2-D blocks.
__global__ void uniform_rounds_kernel(const int* in, int* out, unsigned rounds, int reverse) {
  __shared__ int tile[256];
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x, n = blockDim.x * blockDim.y;
  const unsigned i = blockIdx.x * n + t;
  int acc = in[i];
  int weight = static_cast<int>(rounds) * 2 + 1;
  for (unsigned r = 0; r < rounds; ++r) {
    tile[t] = acc;
    __syncthreads();
    if (reverse) {
      acc += tile[n - 1 - t] * weight;
      __syncthreads();
    } else {
      acc -= tile[(t + r + 1) % n];
      __syncthreads();
    }
    weight = weight * 3 - static_cast<int>(r);
  }
  out[i] = acc + weight;
}

__global__ void mismatched_barriers_kernel(int* out) {
  if (threadIdx.x % 2)
    __syncthreads();
  else
    __syncthreads();
  out[threadIdx.x] = 1;
}

__global__ void mismatched_barrier_loop_kernel(int* out, unsigned rounds) {
  if (threadIdx.x % 2) {
    for (unsigned k = 0; k < rounds; ++k) {
      out[threadIdx.x] += 1;
      __syncthreads();
    }
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}

__global__ void grid_sum_kernel(const int* in, int* partial, int* total) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) {
    int s = 0;
    for (unsigned k = 0; k < blockDim.x; ++k) s += in[blockIdx.x * blockDim.x + k];
    partial[blockIdx.x] = s;
  }
  grid.sync();
  if (grid.thread_rank() == 0) {
    int s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) s += partial[b];
    *total = s;
  }
}

__global__ void calls_elsewhere_kernel(const float* in, float* out) {
  float v = in[threadIdx.x];
  external_scale(&v);
  out[threadIdx.x] = v;
}

float negate(float v) { return -v; }
float twice(float v) { return 2 * v; }

__global__ void indirect_call_kernel(const float* in, float* out, float (*const* ops)(float)) {
  out[threadIdx.x] = ops[threadIdx.x % 2](in[threadIdx.x]);
}

__global__ void atomic_count_kernel(int* counter) { atomicAdd(counter, 1); }

__global__ void block_sums_atomic_kernel(const int* in, int* total) {
  __shared__ int values[1024];
  values[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (unsigned k = 0; k < blockDim.x; ++k) s += values[k];
    atomicAdd(total, s);
  }
}

__global__ void histogram_kernel(const int* in, unsigned n, int* bins, unsigned bin_count) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[static_cast<unsigned>(in[i]) % bin_count], 1);
}

// Thread 0 waits for the last thread's flag: fine on fibers (the fence lets the
// others run), a thread loop would never reach the last thread.
__global__ void fenced_spin_kernel(int* flag, int* out) {
  if (threadIdx.x == 0) {
    while (*flag == 0) __threadfence();
    out[0] = *flag;
  } else if (threadIdx.x == blockDim.x - 1) {
    __threadfence();
    *flag = 7;
  }
}

__global__ void irreducible_kernel(const int* in, int* out) {
  unsigned v = static_cast<unsigned>(in[threadIdx.x]);
  int steps = 0;
  if (v & 1) goto inside;
top:
  v += 3;
  ++steps;
inside:
  v >>= 1;
  ++steps;
  if (v > 1 && steps < 40) goto top;
  out[threadIdx.x] = static_cast<int>(v) * 100 + steps;
}

__global__ void catches_kernel(const float* in, float* out) {
  float v = in[threadIdx.x];
  try {
    if (v < 0) throw std::runtime_error("negative");
  } catch (const std::runtime_error&) {
    v = 0;
  }
  out[threadIdx.x] = v;
}

__global__ void scaled_reverse_kernel(loops_tests::scales s, const float* in, float* out) {
  float* values = cg::dynamic_shared<float>();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  values[threadIdx.x] = i < s.n ? in[i] * s.factor[threadIdx.x % 6] : 0.0f;
  __syncthreads();
  if (i < s.n) out[i] = values[blockDim.x - 1 - threadIdx.x];
}

__global__ void changed_parameter_kernel(loops_tests::scales s, const float* in, float* out) {
  __shared__ float values[1024];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s.factor[threadIdx.x % 6] += static_cast<float>(threadIdx.x);  // this thread's own copy, as on a GPU
  values[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = values[blockDim.x - 1 - threadIdx.x] * s.factor[threadIdx.x % 6];
}

template <class T>
__global__ void neighbour_sum_kernel(const T* in, T* out) {
  __shared__ T values[1024];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  values[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = values[threadIdx.x] + values[(threadIdx.x + 1) % blockDim.x];
}

constexpr unsigned tile = 8;

// Each 8 x 8 block transposes its tile in shared memory.
__global__ void transpose_tiles_kernel(const int* in, int* out, unsigned width) {
  __shared__ int t[tile][tile + 1];
  const unsigned x = blockIdx.x * tile + threadIdx.x, y = blockIdx.y * tile + threadIdx.y;
  t[threadIdx.y][threadIdx.x] = in[y * width + x];
  cg::this_thread_block().sync();
  out[y * width + x] = t[threadIdx.x][threadIdx.y] + static_cast<int>(gridDim.x * 1000);
}

__global__ void tiled_matmul_kernel(const float* a, const float* b, float* c, unsigned n, unsigned k, unsigned m) {
  __shared__ float as[tile][tile];
  __shared__ float bs[tile][tile];
  const unsigned row = blockIdx.y * tile + threadIdx.y, col = blockIdx.x * tile + threadIdx.x;
  float sum = 0.0f;
  for (unsigned t = 0; t < (k + tile - 1) / tile; ++t) {
    const unsigned ak = t * tile + threadIdx.x, bk = t * tile + threadIdx.y;
    as[threadIdx.y][threadIdx.x] = row < n && ak < k ? a[row * k + ak] : 0.0f;
    bs[threadIdx.y][threadIdx.x] = bk < k && col < m ? b[bk * m + col] : 0.0f;
    __syncthreads();
    for (unsigned i = 0; i < tile; ++i) sum += as[threadIdx.y][i] * bs[i][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < m) c[row * m + col] = sum;
}

__noinline__ __device__ float read_mine(const float* in) { return in[blockIdx.x * blockDim.x + threadIdx.x]; }

__global__ void not_inlined_reader_kernel(const float* in, float* out) {
  __shared__ float values[1024];
  values[threadIdx.x] = read_mine(in);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = values[blockDim.x - 1 - threadIdx.x] - read_mine(in);
}

__noinline__ __device__ void sync_here() { __syncthreads(); }

__global__ void barrier_in_helper_kernel(const float* in, float* out) {
  __shared__ float values[64];
  values[threadIdx.x] = in[threadIdx.x];
  sync_here();
  out[threadIdx.x] = values[blockDim.x - 1 - threadIdx.x];
}

__global__ void by_address_kernel(loops_tests::counted c, int* out) {
  c.value += static_cast<int>(threadIdx.x);  // each thread its own copy, as on a GPU
  out[threadIdx.x] = c.value;
}

std::size_t blocks_for(std::size_t n, unsigned block) { return (n + block - 1) / block; }

}  // namespace

namespace loops_tests {

std::vector<float> saxpy(float a, const std::vector<float>& x, const std::vector<float>& y, unsigned block) {
  cg::device_buffer<float> dx(x), dy(y);
  cg::launch(saxpy_kernel, {dim3(blocks_for(x.size(), block)), dim3(block)}, static_cast<unsigned>(x.size()), a,
             dx.data(), dy.data());
  return dy.to_host();
}
engine_choice saxpy_engine() { return cohort::host::engine_for(saxpy_kernel); }

std::vector<float> tree_reduce(const std::vector<float>& in, unsigned block) {
  cg::device_buffer<float> din(in), dout(in.size() / block);
  cg::launch(tree_reduce_kernel, {dim3(in.size() / block), dim3(block)}, din.data(), dout.data());
  return dout.to_host();
}
engine_choice tree_reduce_engine() { return cohort::host::engine_for(tree_reduce_kernel); }

std::vector<float> stencil(const std::vector<float>& in, unsigned block) {
  cg::device_buffer<float> din(in), dout(in.size());
  cg::launch(stencil_kernel, {dim3(blocks_for(in.size(), block)), dim3(block)}, static_cast<unsigned>(in.size()),
             din.data(), dout.data());
  return dout.to_host();
}
engine_choice stencil_engine() { return cohort::host::engine_for(stencil_kernel); }

std::vector<float> early_exit(const std::vector<float>& in, unsigned block) {
  cg::device_buffer<float> din(in), dout(std::vector<float>(in.size(), -1.0f));
  cg::launch(early_exit_kernel, {dim3(blocks_for(in.size(), block)), dim3(block)}, static_cast<unsigned>(in.size()),
             din.data(), dout.data());
  return dout.to_host();
}
engine_choice early_exit_engine() { return cohort::host::engine_for(early_exit_kernel); }

std::vector<int> reverse_3d(const std::vector<int>& in, unsigned x, unsigned y, unsigned z) {
  const unsigned blocks = static_cast<unsigned>(in.size() / (x * y * z));
  cg::device_buffer<int> din(in), dout(in.size());
  cg::launch(reverse_3d_kernel, {dim3(blocks), dim3(x, y, z)}, din.data(), dout.data());
  return dout.to_host();
}
engine_choice reverse_3d_engine() { return cohort::host::engine_for(reverse_3d_kernel); }

std::vector<float> local_array(const std::vector<float>& in, unsigned block) {
  cg::device_buffer<float> din(in), dout(in.size());
  cg::launch(local_array_kernel, {dim3(in.size() / block), dim3(block)}, din.data(), dout.data());
  return dout.to_host();
}
engine_choice local_array_engine() { return cohort::host::engine_for(local_array_kernel); }

std::vector<int> atomics_in_loops(const std::vector<int>& in) {
  const auto n = static_cast<unsigned>(in.size());
  cg::device_buffer<int> din(in), bins(std::vector<int>(16, 0)), kept(in.size()), count(std::vector<int>{0}),
      largest(std::vector<int>{-1 << 30});
  cg::launch(atomics_in_loops_kernel, {dim3(3), dim3(64)}, din.data(), n, bins.data(), kept.data(), count.data(),
             largest.data());
  // The bins, the largest value, then the kept values sorted (their order is the threads' order of arrival).
  std::vector<int> out = bins.to_host();
  out.push_back(largest.to_host()[0]);
  std::vector<int> in_order = kept.to_host();
  in_order.resize(static_cast<std::size_t>(count.to_host()[0]));
  std::sort(in_order.begin(), in_order.end());
  out.insert(out.end(), in_order.begin(), in_order.end());
  return out;
}
engine_choice atomics_in_loops_engine() { return cohort::host::engine_for(atomics_in_loops_kernel); }

std::vector<float> library_calls(const std::vector<float>& in, unsigned block) {
  cg::device_buffer<float> din(in), dout(in.size());
  cg::launch(library_calls_kernel, {dim3(in.size() / block), dim3(block)}, din.data(), dout.data());
  return dout.to_host();
}
engine_choice library_calls_engine() { return cohort::host::engine_for(library_calls_kernel); }

std::vector<int> uneven_barriers(unsigned threads) {
  cg::device_buffer<int> dout(threads);
  cg::launch(uneven_barriers_kernel, {dim3(1), dim3(threads)}, dout.data());
  return dout.to_host();
}
engine_choice uneven_barriers_engine() { return cohort::host::engine_for(uneven_barriers_kernel); }

std::vector<unsigned> prefix_tests(unsigned mode, unsigned base, unsigned bound, int signed_bound, unsigned x,
                                   unsigned y, unsigned blocks) {
  cg::device_buffer<unsigned> dout(blocks * x * y);
  cg::launch(prefix_tests_kernel, {dim3(blocks), dim3(x, y)}, mode, base, bound, signed_bound, dout.data());
  return dout.to_host();
}
engine_choice prefix_tests_engine() { return cohort::host::engine_for(prefix_tests_kernel); }

std::vector<unsigned> row_conditions(unsigned base, unsigned limit, int lower, unsigned blocks, unsigned block) {
  cg::device_buffer<unsigned> dout(blocks * block);
  cg::launch(row_conditions_kernel, {dim3(blocks), dim3(block)}, base, limit, lower, dout.data());
  return dout.to_host();
}
engine_choice row_conditions_engine() { return cohort::host::engine_for(row_conditions_kernel); }

std::vector<int> uniform_rounds(const std::vector<int>& in, unsigned x, unsigned y, unsigned rounds, bool reverse) {
  cg::device_buffer<int> din(in), dout(in.size());
  const unsigned blocks = static_cast<unsigned>(in.size()) / (x * y);
  cg::launch(uniform_rounds_kernel, {dim3(blocks), dim3(x, y)}, din.data(), dout.data(), rounds, reverse ? 1 : 0);
  return dout.to_host();
}
engine_choice uniform_rounds_engine() { return cohort::host::engine_for(uniform_rounds_kernel); }

void mismatched_barriers(unsigned threads) {
  cg::device_buffer<int> dout(threads);
  cg::launch(mismatched_barriers_kernel, {dim3(1), dim3(threads)}, dout.data());
}
void mismatched_barrier_loop(unsigned threads) {
  cg::device_buffer<int> dout(std::vector<int>(threads, 0));
  cg::launch(mismatched_barrier_loop_kernel, {dim3(1), dim3(threads)}, dout.data(), 2u);
}
engine_choice mismatched_barriers_engine() { return cohort::host::engine_for(mismatched_barriers_kernel); }

std::vector<int> grid_sum(const std::vector<int>& in, unsigned blocks, unsigned block) {
  cg::device_buffer<int> din(in), partial(blocks), total(1);
  cg::launch_cooperative(grid_sum_kernel, {dim3(blocks), dim3(block)}, din.data(), partial.data(), total.data());
  return total.to_host();
}
engine_choice grid_sum_engine() { return cohort::host::engine_for(grid_sum_kernel); }

std::vector<float> calls_elsewhere(const std::vector<float>& in) {
  cg::device_buffer<float> din(in), dout(in.size());
  cg::launch(calls_elsewhere_kernel, {dim3(1), dim3(static_cast<unsigned>(in.size()))}, din.data(), dout.data());
  return dout.to_host();
}
engine_choice calls_elsewhere_engine() { return cohort::host::engine_for(calls_elsewhere_kernel); }

std::vector<float> indirect_call(const std::vector<float>& in) {
  static float (*const ops[2])(float) = {negate, twice};
  cg::device_buffer<float> din(in), dout(in.size());
  cg::launch(indirect_call_kernel, {dim3(1), dim3(static_cast<unsigned>(in.size()))}, din.data(), dout.data(), ops);
  return dout.to_host();
}
engine_choice indirect_call_engine() { return cohort::host::engine_for(indirect_call_kernel); }

int atomic_count(unsigned threads) {
  cg::device_buffer<int> counter(std::vector<int>{0});
  cg::launch(atomic_count_kernel, {dim3(1), dim3(threads)}, counter.data());
  return counter.to_host()[0];
}
engine_choice atomic_count_engine() { return cohort::host::engine_for(atomic_count_kernel); }

int block_sums_atomic(const std::vector<int>& in, unsigned block) {
  cg::device_buffer<int> din(in), total(std::vector<int>{0});
  cg::launch(block_sums_atomic_kernel, {dim3(in.size() / block), dim3(block)}, din.data(), total.data());
  return total.to_host()[0];
}
engine_choice block_sums_atomic_engine() { return cohort::host::engine_for(block_sums_atomic_kernel); }

std::vector<int> histogram(const std::vector<int>& in, unsigned bins) {
  cg::device_buffer<int> din(in), dbins(std::vector<int>(bins, 0));
  cg::launch(histogram_kernel, {dim3(3), dim3(64)}, din.data(), static_cast<unsigned>(in.size()), dbins.data(), bins);
  return dbins.to_host();
}
engine_choice histogram_engine() { return cohort::host::engine_for(histogram_kernel); }

std::vector<int> fenced_spin(unsigned threads) {
  cg::device_buffer<int> flag(std::vector<int>{0}), out(std::vector<int>{0});
  cg::launch(fenced_spin_kernel, {dim3(1), dim3(threads)}, flag.data(), out.data());
  return out.to_host();
}
engine_choice fenced_spin_engine() { return cohort::host::engine_for(fenced_spin_kernel); }

std::vector<int> irreducible(const std::vector<int>& in) {
  cg::device_buffer<int> din(in), dout(in.size());
  cg::launch(irreducible_kernel, {dim3(1), dim3(static_cast<unsigned>(in.size()))}, din.data(), dout.data());
  return dout.to_host();
}
engine_choice irreducible_engine() { return cohort::host::engine_for(irreducible_kernel); }

std::vector<float> catches(const std::vector<float>& in) {
  cg::device_buffer<float> din(in), dout(in.size());
  cg::launch(catches_kernel, {dim3(1), dim3(static_cast<unsigned>(in.size()))}, din.data(), dout.data());
  return dout.to_host();
}
engine_choice catches_engine() { return cohort::host::engine_for(catches_kernel); }

std::vector<float> scaled_reverse(const scales& s, const std::vector<float>& in, unsigned block) {
  cg::device_buffer<float> din(in), dout(std::vector<float>(in.size(), -1.0f));
  cg::launch(scaled_reverse_kernel, {dim3(blocks_for(in.size(), block)), dim3(block), block * sizeof(float)}, s,
             din.data(), dout.data());
  return dout.to_host();
}
engine_choice scaled_reverse_engine() { return cohort::host::engine_for(scaled_reverse_kernel); }

std::vector<float> changed_parameter(const scales& s, const std::vector<float>& in, unsigned block) {
  cg::device_buffer<float> din(in), dout(in.size());
  cg::launch(changed_parameter_kernel, {dim3(in.size() / block), dim3(block)}, s, din.data(), dout.data());
  return dout.to_host();
}
engine_choice changed_parameter_engine() { return cohort::host::engine_for(changed_parameter_kernel); }

template <class T>
std::vector<T> neighbour_sum_of(const std::vector<T>& in, unsigned block) {
  cg::device_buffer<T> din(in), dout(in.size());
  cg::launch(neighbour_sum_kernel<T>, {dim3(in.size() / block), dim3(block)}, din.data(), dout.data());
  return dout.to_host();
}
std::vector<int> neighbour_sum(const std::vector<int>& in, unsigned block) { return neighbour_sum_of(in, block); }
std::vector<double> neighbour_sum(const std::vector<double>& in, unsigned block) { return neighbour_sum_of(in, block); }
engine_choice neighbour_sum_engine() { return cohort::host::engine_for(neighbour_sum_kernel<int>); }

std::vector<int> transpose_tiles(const std::vector<int>& in, unsigned width, unsigned height) {
  cg::device_buffer<int> din(in), dout(in.size());
  cg::launch(transpose_tiles_kernel, {dim3(width / tile, height / tile), dim3(tile, tile)}, din.data(), dout.data(),
             width);
  return dout.to_host();
}
engine_choice transpose_tiles_engine() { return cohort::host::engine_for(transpose_tiles_kernel); }

std::vector<float> tiled_matmul(const std::vector<float>& a, const std::vector<float>& b, unsigned n, unsigned k,
                                unsigned m) {
  cg::device_buffer<float> da(a), db(b), dc(std::vector<float>(n * m, -1.0f));
  cg::launch(tiled_matmul_kernel, {dim3((m + tile - 1) / tile, (n + tile - 1) / tile), dim3(tile, tile)}, da.data(),
             db.data(), dc.data(), n, k, m);
  return dc.to_host();
}
engine_choice tiled_matmul_engine() { return cohort::host::engine_for(tiled_matmul_kernel); }

std::vector<float> not_inlined_reader(const std::vector<float>& in, unsigned block) {
  cg::device_buffer<float> din(in), dout(in.size());
  cg::launch(not_inlined_reader_kernel, {dim3(in.size() / block), dim3(block)}, din.data(), dout.data());
  return dout.to_host();
}
engine_choice not_inlined_reader_engine() { return cohort::host::engine_for(not_inlined_reader_kernel); }

std::vector<float> saxpy_cooperative(float a, const std::vector<float>& x, const std::vector<float>& y,
                                     unsigned block) {
  cg::device_buffer<float> dx(x), dy(y);
  cg::launch_cooperative(saxpy_kernel, {dim3(blocks_for(x.size(), block)), dim3(block)},
                         static_cast<unsigned>(x.size()), a, dx.data(), dy.data());
  return dy.to_host();
}

std::vector<float> barrier_in_helper(const std::vector<float>& in) {
  cg::device_buffer<float> din(in), dout(in.size());
  cg::launch(barrier_in_helper_kernel, {dim3(1), dim3(static_cast<unsigned>(in.size()))}, din.data(), dout.data());
  return dout.to_host();
}
engine_choice barrier_in_helper_engine() { return cohort::host::engine_for(barrier_in_helper_kernel); }

std::vector<int> by_address(counted c, unsigned threads) {
  cg::device_buffer<int> dout(threads);
  cg::launch(by_address_kernel, {dim3(1), dim3(threads)}, c, dout.data());
  return dout.to_host();
}
engine_choice by_address_engine() { return cohort::host::engine_for(by_address_kernel); }

std::vector<int> shared_reverse(const std::vector<int>& in, unsigned block) {
  cg::device_buffer<int> din(in), dout(in.size());
  cg::launch(shared_reverse_kernel<int>, {dim3(in.size() / block), dim3(block)}, din.data(), dout.data());
  return dout.to_host();
}
engine_choice shared_reverse_engine() { return cohort::host::engine_for(shared_reverse_kernel<int>); }

}  // namespace loops_tests
