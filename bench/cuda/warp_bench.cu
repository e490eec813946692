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

enum class impl { cohort, nvidia };
enum class op { tile_sync, shfl, shfl_up, shfl_down, shfl_xor, reduce_int, reduce_float, scan_int, block_reduce };

constexpr unsigned block_threads = 256;

// One operation of kind O on `v`, by cohort (a tile of 32, or the block).
template <op O, class T>
__device__ T cohort_step(T v, int i) {
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<32>(block);
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
    return cg::reduce(tile, v, cg::plus<T>()) + v;
  } else if constexpr (O == op::scan_int) {
    return cg::inclusive_scan(tile, v, cg::plus<T>()) + 1;
  } else {
    return cg::reduce(block, v, cg::plus<T>()) + v;
  }
}

// The same with NVIDIA's cooperative_groups (CUB for the block reduce).
template <op O, class T>
__device__ T nvidia_step(T v, int i) {
  const ncg::thread_block block = ncg::this_thread_block();
  const auto tile = ncg::tiled_partition<32>(block);
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
    return ncg::reduce(tile, v, ncg::plus<T>()) + v;
  } else if constexpr (O == op::scan_int) {
    return ncg::inclusive_scan(tile, v, ncg::plus<T>()) + 1;
  } else {
    using reducer = cub::BlockReduce<T, block_threads>;
    __shared__ typename reducer::TempStorage storage;
    __shared__ T total;
    const T sum = reducer(storage).Sum(v);
    if (threadIdx.x == 0) total = sum;
    __syncthreads();  // the total reaches every thread, and the storage may be reused
    return total + v;
  }
}

template <impl I, op O, class T>
__global__ void loop(int iterations, T* sink) {
  T v = static_cast<T>(threadIdx.x % 7 + 1);
  for (int i = 0; i < iterations; ++i) {
    if constexpr (I == impl::cohort)
      v = cohort_step<O>(v, i);
    else
      v = nvidia_step<O>(v, i);
  }
  if (v == static_cast<T>(0x1234567)) *sink = v;  // keeps the loop; never true in practice
}

constexpr int iterations = 20000;

template <op O, class T>
void measure(std::vector<row>& rows, const char* name) {
  const cg::device_properties p = cg::get_device_properties();
  const int per_sm = std::min(cg::max_active_blocks_per_sm(loop<impl::cohort, O, T>, block_threads),
                              cg::max_active_blocks_per_sm(loop<impl::nvidia, O, T>, block_threads));
  const unsigned blocks = static_cast<unsigned>(per_sm * p.multiprocessor_count);
  cg::device_buffer<T> sink(1);
  const cg::launch_config cfg{dim3(blocks), dim3(block_threads)};
  const auto ours = [&] { cg::launch(loop<impl::cohort, O, T>, cfg, iterations, sink.data()); };
  const auto theirs = [&] { cg::launch(loop<impl::nvidia, O, T>, cfg, iterations, sink.data()); };
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
