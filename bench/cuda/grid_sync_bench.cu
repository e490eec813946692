// Block and grid barriers, cohort against NVIDIA's cooperative_groups, in one
// process on one device. Each measurement is one launch running a barrier in a
// loop, timed with CUDA events; after warm-up launches the two implementations
// are timed alternately and the median is kept. The ratio table comes last.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "rival_timing.hpp"

#include <algorithm>
#include <cohort/cohort.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace cg = cohort;
namespace ncg = cooperative_groups;

namespace {

using namespace rival_timing;

enum class impl { cohort, cohort_fresh_handle, cohort_fallback, nvidia };

template <impl I>
__global__ void grid_sync_loop(int iterations) {
  if constexpr (I == impl::cohort) {
    const cg::grid_group grid = cg::this_grid();
    for (int i = 0; i < iterations; ++i) grid.sync();
  } else if constexpr (I == impl::cohort_fresh_handle) {
    // As many kernels write it: a handle per call (NVIDIA's costs nothing to make).
    for (int i = 0; i < iterations; ++i) cg::this_grid().sync();
  } else if constexpr (I == impl::cohort_fallback) {
    // cohort's path for a launch that found the slot pool full: NVIDIA's protocol on the driver's word.
    const cg::detail::gpu::grid_barrier barrier =
        cg::detail::gpu::nvidia_protocol_barrier(cg::detail::gpu::grid_workspace());
    for (int i = 0; i < iterations; ++i) barrier.sync();
  } else {
    const ncg::grid_group grid = ncg::this_grid();
    for (int i = 0; i < iterations; ++i) grid.sync();
  }
}

template <impl I>
__global__ void block_sync_loop(int iterations, unsigned* sink) {
  unsigned acc = threadIdx.x;
  for (int i = 0; i < iterations; ++i) {
    acc = acc * 3u + 1u;  // keeps the loop a loop of barriers with a little work between them
    if constexpr (I == impl::cohort)
      cg::this_thread_block().sync();
    else
      ncg::this_thread_block().sync();
  }
  if (acc == 0x12345678u) *sink = acc;
}

template <impl Ours>
void grid_row(std::vector<row>& rows, const std::string& name, int per_sm, unsigned threads) {
  const int sms = cg::get_device_properties().multiprocessor_count;
  const int fit = std::min(cg::max_cooperative_grid(grid_sync_loop<Ours>, static_cast<int>(threads)),
                           cg::max_cooperative_grid(grid_sync_loop<impl::nvidia>, static_cast<int>(threads)));
  const int wanted = per_sm > 0 ? per_sm * sms : fit;
  if (wanted > fit) {
    std::printf("skipped %s: %d blocks of %u threads are not co-resident (at most %d)\n", name.c_str(), wanted, threads,
                fit);
    return;
  }
  const cg::launch_config cfg{dim3(static_cast<unsigned>(wanted)), dim3(threads)};
  const int iterations = 2000;
  const auto [ours, theirs] =
      race([&] { cg::launch_cooperative(grid_sync_loop<Ours>, cfg, iterations); },
           [&] { cg::launch_cooperative(grid_sync_loop<impl::nvidia>, cfg, iterations); }, iterations, 1000.0);
  rows.push_back({name, static_cast<unsigned>(wanted), threads, ours, theirs, "us"});
  print_row(rows.back());
}

void block_row(std::vector<row>& rows, const std::string& name, int per_sm, unsigned threads) {
  const unsigned blocks = static_cast<unsigned>(per_sm * cg::get_device_properties().multiprocessor_count);
  cg::device_buffer<unsigned> sink(1);
  const cg::launch_config cfg{dim3(blocks), dim3(threads)};
  const int iterations = 100000;
  const auto [ours, theirs] =
      race([&] { cg::launch(block_sync_loop<impl::cohort>, cfg, iterations, sink.data()); },
           [&] { cg::launch(block_sync_loop<impl::nvidia>, cfg, iterations, sink.data()); }, iterations, 1e6);
  rows.push_back({name, blocks, threads, ours, theirs, "ns"});
  print_row(rows.back());
}

__global__ void probe_workspace(unsigned long long* out) {
  cg::detail::gpu::driver_workspace* ws = cg::detail::gpu::grid_workspace();
  out[0] = ws ? ws->size : 0;
  out[1] = ws && cg::detail::gpu::find_slot(ws, 0) != nullptr;
}

void run() {
  const cg::device_properties p = cg::get_device_properties();
  print_device(p);
  cg::device_buffer<unsigned long long> probe(2);
  cg::launch_cooperative(probe_workspace, {dim3(1), dim3(1)}, probe.data());
  const auto workspace = probe.to_host();
  std::printf("driver grid workspace: size field %llu; cohort barrier slot: %s\n", workspace[0],
              workspace[1] ? "found (split counters past the flat limit)" : "pool full (fallback path)");

  std::vector<row> rows;
  block_row(rows, "block sync 1/SM x1024", 1, 1024);
  block_row(rows, "block sync 8/SM x256", 8, 256);
  grid_row<impl::cohort>(rows, "grid.sync 1/SM x256", 1, 256);
  grid_row<impl::cohort>(rows, "grid.sync 2/SM x1024", 2, 1024);
  grid_row<impl::cohort>(rows, "grid.sync 4/SM x256", 4, 256);
  grid_row<impl::cohort>(rows, "grid.sync full occupancy x256", 0, 256);
  grid_row<impl::cohort>(rows, "grid.sync 12/SM x128", 12, 128);
  grid_row<impl::cohort>(rows, "grid.sync 16/SM x128", 16, 128);
  grid_row<impl::cohort>(rows, "grid.sync full occupancy x64", 0, 64);
  grid_row<impl::cohort_fresh_handle>(rows, "this_grid().sync() 1/SM x256", 1, 256);
  grid_row<impl::cohort_fresh_handle>(rows, "this_grid().sync() 16/SM x128", 16, 128);
  grid_row<impl::cohort_fallback>(rows, "grid.sync fallback path 16/SM x128", 16, 128);

  print_table(p, "per barrier", rows);
}

}  // namespace

int main() { return rival_timing::main_of("cohort_bench_cuda", run); }
