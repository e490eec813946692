// Warp-level groups and collectives, cohort against NVIDIA's
// cooperative_groups in one process on one device: tile sync, each shuffle,
// tile reduce of int (redux.sync on sm_80+) and of float, tile scan, and a
// block reduce (NVIDIA's CG has none: its rival is CUB's BlockReduce with the
// total shared through shared memory, which is what a kernel writes to give
// every thread the total). Each measurement is one launch running the
// operation in a dependent loop on every thread of a full device, timed with
// CUDA events; after warm-up launches the two implementations are timed
// alternately and the median is kept. The ratio table comes last. Values and
// shuffle sources differ from lane to lane, so that no compiler can prove a
// shuffle moves a warp-uniform value and drop it.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

#include "rival_timing.hpp"

#include <algorithm>
#include <cohort/cohort.hpp>
#include <cstdio>
#include <cstdlib>
#include <cub/block/block_reduce.cuh>
#include <string>
#include <vector>

namespace cg = cohort;
namespace ncg = cooperative_groups;

namespace {

using namespace rival_timing;

enum class op { tile_sync, shfl, shfl_up, shfl_down, shfl_xor, reduce_int, reduce_float, scan_int, block_reduce };

constexpr unsigned block_threads = 256;

// The two implementations behind one interface, so that one step serves both.
struct cohort_api {
  __device__ static cg::thread_block block() { return cg::this_thread_block(); }
  __device__ static auto warp(const cg::thread_block& b) { return cg::tiled_partition<32>(b); }
  template <class G, class T>
  __device__ static T sum(const G& g, T v) {
    return cg::reduce(g, v, cg::plus<T>());
  }
  template <class G, class T>
  __device__ static T scan(const G& g, T v) {
    return cg::inclusive_scan(g, v, cg::plus<T>());
  }
  template <class T>
  __device__ static T block_sum(T v) {
    return sum(block(), v);
  }
};

// NVIDIA's cooperative_groups, and CUB for the block reduce.
struct nvidia_api {
  __device__ static ncg::thread_block block() { return ncg::this_thread_block(); }
  __device__ static auto warp(const ncg::thread_block& b) { return ncg::tiled_partition<32>(b); }
  template <class G, class T>
  __device__ static T sum(const G& g, T v) {
    return ncg::reduce(g, v, ncg::plus<T>());
  }
  template <class G, class T>
  __device__ static T scan(const G& g, T v) {
    return ncg::inclusive_scan(g, v, ncg::plus<T>());
  }
  template <class T>
  __device__ static T block_sum(T v) {
    using reducer = cub::BlockReduce<T, block_threads>;
    __shared__ typename reducer::TempStorage storage;
    __shared__ T total;
    const T sum = reducer(storage).Sum(v);
    if (threadIdx.x == 0) total = sum;
    __syncthreads();  // the total reaches every thread, and the storage may be
                      // reused
    return total;
  }
};

// One operation of kind O on `v`, through Api (a tile of 32, or the block).
template <class Api, op O, class T>
__device__ T step(T v, int i) {
  const auto tile = Api::warp(Api::block());
  if constexpr (O == op::tile_sync) {
    tile.sync();
    return v * 3 + 1;
  } else if constexpr (O == op::shfl) {
    return tile.shfl(v, (threadIdx.x + static_cast<unsigned>(i)) & 31u) + 1;
  } else if constexpr (O == op::shfl_up) {
    return tile.shfl_up(v, 1) + v;
  } else if constexpr (O == op::shfl_down) {
    return tile.shfl_down(v, 1) + v;
  } else if constexpr (O == op::shfl_xor) {
    return tile.shfl_xor(v, 5) + v;
  } else if constexpr (O == op::reduce_int || O == op::reduce_float) {
    return Api::sum(tile, v) + v;
  } else if constexpr (O == op::scan_int) {
    return Api::scan(tile, v) + 1;
  } else {
    return Api::block_sum(v) + v;
  }
}

template <class Api, op O, class T>
__global__ void loop(int iterations, T* sink) {
  T v = static_cast<T>(threadIdx.x % 7 + 1);
  for (int i = 0; i < iterations; ++i) v = step<Api, O>(v, i);
  if (v == static_cast<T>(0x1234567)) *sink = v;  // keeps the loop; never true in practice
}

constexpr int iterations = 20000;

template <op O, class T>
void measure(std::vector<row>& rows, const char* name) {
  const cg::device_properties p = cg::get_device_properties();
  const int per_sm = std::min(cg::max_active_blocks_per_sm(loop<cohort_api, O, T>, block_threads),
                              cg::max_active_blocks_per_sm(loop<nvidia_api, O, T>, block_threads));
  const unsigned blocks = static_cast<unsigned>(per_sm * p.multiprocessor_count);
  cg::device_buffer<T> sink(1);
  const cg::launch_config cfg{dim3(blocks), dim3(block_threads)};
  const auto ours = [&] { cg::launch(loop<cohort_api, O, T>, cfg, iterations, sink.data()); };
  const auto theirs = [&] { cg::launch(loop<nvidia_api, O, T>, cfg, iterations, sink.data()); };
  const auto [per_ours, per_theirs] = race(ours, theirs, iterations, 1e6);
  rows.push_back({name, blocks, block_threads, per_ours, per_theirs, "ns"});
  print_row(rows.back());
}

void run() {
  const cg::device_properties p = cg::get_device_properties();
  print_device(p);
  std::vector<row> rows;
  measure<op::tile_sync, int>(rows, "tile<32> sync");
  measure<op::shfl, int>(rows, "tile<32> shfl int");
  measure<op::shfl_up, int>(rows, "tile<32> shfl_up int");
  measure<op::shfl_down, int>(rows, "tile<32> shfl_down int");
  measure<op::shfl_xor, int>(rows, "tile<32> shfl_xor int");
  measure<op::shfl, double>(rows, "tile<32> shfl double");
  measure<op::reduce_int, int>(rows, "tile<32> reduce int (redux)");
  measure<op::reduce_float, float>(rows, "tile<32> reduce float");
  measure<op::scan_int, int>(rows, "tile<32> inclusive_scan int");
  measure<op::block_reduce, int>(rows, "block<256> reduce int (CUB)");
  measure<op::block_reduce, float>(rows, "block<256> reduce float (CUB)");

  print_table(p, "per operation", rows);
}

}  // namespace

int main() { return rival_timing::main_of("cohort_bench_cuda_warp", run); }
