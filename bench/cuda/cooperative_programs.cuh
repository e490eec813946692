// The kernels of the two whole cooperative programs of
// bench/cuda/programs_bench.cu, each written once over a small API struct and
// built with cohort (cohort_api) and with NVIDIA's cooperative_groups
// (nvidia_api): a conjugate-gradient solver and a repeated reduction. The
// benchmark times them; tests/cuda checks that cohort's build of each fits as
// many blocks as NVIDIA's (the registers a grid.sync() costs decide it).
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <cohort/cohort.hpp>

namespace cooperative_programs {

namespace cg = cohort;
namespace ncg = cooperative_groups;

// The two implementations behind one interface, so that each program is written once.
struct cohort_api {
  __device__ static cg::grid_group grid() { return cg::this_grid(); }
  __device__ static auto warp() { return cg::tiled_partition<32>(cg::this_thread_block()); }
  template <class W, class T>
  __device__ static T sum(const W& w, T v) {
    return cg::reduce(w, v, cg::plus<T>());
  }
  template <class T>
  __device__ static void add(T* total, T v) {
    cg::atomic_ref<T, cg::thread_scope_device>(*total).fetch_add(v, cg::memory_order_relaxed);
  }
};

struct nvidia_api {
  __device__ static ncg::grid_group grid() { return ncg::this_grid(); }
  __device__ static auto warp() { return ncg::tiled_partition<32>(ncg::this_thread_block()); }
  template <class W, class T>
  __device__ static T sum(const W& w, T v) {
    return ncg::reduce(w, v, ncg::plus<T>());
  }
  template <class T>
  __device__ static void add(T* total, T v) {
    atomicAdd(total, v);
  }
};

// Adds the block's values of `v` to `*total`: a tile reduce per warp, a tile
// reduce of the warps' sums, one grid atomic per block. Every caller reaches a
// grid.sync (which begins with the block's barrier) before `partial` is
// written again.
template <class Api>
__device__ void add_block_sum(double v, double* total) {
  __shared__ double partial[32];
  const auto warp = Api::warp();
  v = Api::sum(warp, v);
  if (warp.thread_rank() == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    double t = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0;
    t = Api::sum(warp, t);
    if (threadIdx.x == 0) Api::add(total, t);
  }
}

// ---- (a) conjugate gradient

constexpr unsigned solver_threads = 512;

struct csr {
  const int* row_start;  // rows + 1 entries
  const int* column;
  const float* value;
  int rows;
};

// x = A^-1 b approximately, from x = 0: `iterations` of CG. dots holds,
// zeroed before the launch, r.r of iteration k at 2k and p.Ap at 2k + 1.
template <class Api>
__global__ void __launch_bounds__(solver_threads)
    conjugate_gradient(csr a, const float* b, float* x, float* r, float* p, float* ap, double* dots, int iterations) {
  const auto grid = Api::grid();
  const unsigned first = static_cast<unsigned>(grid.thread_rank());
  const unsigned stride = static_cast<unsigned>(grid.num_threads());
  const unsigned n = static_cast<unsigned>(a.rows);
  double local = 0;
  for (unsigned i = first; i < n; i += stride) {
    const float bi = b[i];
    x[i] = 0;
    r[i] = bi;
    p[i] = bi;
    local += static_cast<double>(bi) * bi;
  }
  add_block_sum<Api>(local, &dots[0]);
  grid.sync();
  for (int k = 0; k < iterations; ++k) {
    local = 0;
    for (unsigned i = first; i < n; i += stride) {
      float s = 0;
      for (int e = a.row_start[i]; e < a.row_start[i + 1]; ++e) s += a.value[e] * p[a.column[e]];
      ap[i] = s;
      local += static_cast<double>(p[i]) * s;
    }
    add_block_sum<Api>(local, &dots[2 * k + 1]);
    grid.sync();
    const float alpha = static_cast<float>(dots[2 * k] / dots[2 * k + 1]);
    local = 0;
    for (unsigned i = first; i < n; i += stride) {
      x[i] += alpha * p[i];
      const float ri = r[i] - alpha * ap[i];
      r[i] = ri;
      local += static_cast<double>(ri) * ri;
    }
    add_block_sum<Api>(local, &dots[2 * k + 2]);
    grid.sync();
    const float beta = static_cast<float>(dots[2 * k + 2] / dots[2 * k]);
    for (unsigned i = first; i < n; i += stride) p[i] = r[i] + beta * p[i];
    grid.sync();  // the next product reads its neighbours' p
  }
}

// ---- (b) repeated reduction

constexpr unsigned reduce_threads = 256;

// sums[k] (zeroed before the launch) receives the sum of the n4 float4s of
// `in`, for each of `repetitions`.
template <class Api>
__global__ void __launch_bounds__(reduce_threads)
    repeated_sum(const float4* in, unsigned n4, double* sums, int repetitions) {
  const auto grid = Api::grid();
  const unsigned first = static_cast<unsigned>(grid.thread_rank());
  const unsigned stride = static_cast<unsigned>(grid.num_threads());
  for (int k = 0; k < repetitions; ++k) {
    float local = 0;
    for (unsigned i = first; i < n4; i += stride) {
      const float4 v = in[i];
      local += (v.x + v.y) + (v.z + v.w);
    }
    add_block_sum<Api>(local, &sums[k]);
    grid.sync();
  }
}

}  // namespace cooperative_programs
