// `cohort bench sync`: the cost of a block barrier and of a grid barrier at
// each block size. The grid barrier is timed twice: over a block per SM, and
// over every block that can be resident (its cost grows with the count). A
// launch runs sync_iterations barriers; the same launch with none is timed
// too, and the difference over the count is the time per barrier, free of
// launch overhead.
#include <algorithm>
#include <string>

#include <cohort/cohort.hpp>

#include "bench/benches.hpp"
#include "bench/progress.hpp"
#include "common/grid_size.hpp"
#include "common/timing.hpp"
#include "usage_error.hpp"

namespace cohort_cli {

namespace cg = cohort;

// Each kernel iteration stamps a slot, syncs, and checks a neighbour's stamp,
// so the barrier is verified in the run that times it. The slots alternate
// between two arrays: a stamp is overwritten only two barriers after it was
// written, by when its reader has read it, so one barrier per iteration
// suffices.

// Thread r checks thread r + 1's stamp. Dynamic shared memory: 2 unsigned per thread.
__global__ void block_sync_kernel(unsigned* mismatches, unsigned iterations) {
  const cg::thread_block block = cg::this_thread_block();
  unsigned* stamps = cg::dynamic_shared<unsigned>();
  const unsigned rank = block.thread_rank();
  const unsigned size = block.size();
  unsigned wrong = 0;
  for (unsigned it = 1; it <= iterations; ++it) {
    unsigned* slots = stamps + (it % 2) * size;
    slots[rank] = it;
    block.sync();
    wrong += slots[(rank + 1) % size] != it ? 1 : 0;
  }
  if (wrong) atomicAdd(mismatches, wrong);
}

// Block b's thread 0 checks block b + 1's stamp. stamps: 2 unsigned per block.
__global__ void grid_sync_kernel(unsigned* stamps, unsigned* mismatches, unsigned iterations) {
  const cg::grid_group grid = cg::this_grid();
  const unsigned long long b = grid.block_rank();
  const unsigned long long blocks = grid.num_blocks();
  const bool leader = cg::this_thread_block().thread_rank() == 0;
  unsigned wrong = 0;
  for (unsigned it = 1; it <= iterations; ++it) {
    unsigned* slots = stamps + (it % 2) * blocks;
    if (leader) slots[b] = it;
    grid.sync();
    if (leader) wrong += slots[(b + 1) % blocks] != it ? 1 : 0;
  }
  if (wrong) atomicAdd(mismatches, wrong);
}

namespace {

constexpr unsigned sync_iterations = 100;

// Times launch(sync_iterations) against launch(0); mismatches counts the
// stale stamps of every run, checked before and after the timing.
template <class Launch>
result_row measure(std::string variant, unsigned threads, std::string shape, Launch launch,
                   cohort::device_buffer<unsigned>& mismatches, int repeat) {
  mismatches.fill(0);
  launch(sync_iterations);
  const unsigned first = mismatches.to_host()[0];
  result_row row{std::move(variant),
                 threads,
                 std::move(shape),
                 cohort_examples::time_us([&] { launch(sync_iterations); }, repeat),
                 false,
                 "",
                 {}};
  const double baseline_us = cohort_examples::median_of(cohort_examples::time_us([&] { launch(0); }, repeat));
  const unsigned total = mismatches.to_host()[0];
  row.verified = total == 0;
  row.check = row.verified ? "every thread saw its neighbour's stamp"
                           : std::to_string(total) + " stale stamps (" + std::to_string(first) + " in the first run)";
  const double per_sync_us =
      std::max(0.0, cohort_examples::median_of(row.samples_us) - baseline_us) / static_cast<double>(sync_iterations);
  row.metrics = {{"syncs", sync_iterations}, {"baseline_us", baseline_us}, {"ns_per_sync", per_sync_us * 1e3}};
  return row;
}

// One block per SM, all running at once: each block's barriers in parallel.
result_row measure_block_sync(unsigned threads, int repeat) {
  const unsigned blocks = static_cast<unsigned>(cohort::get_device_properties().multiprocessor_count);
  const std::size_t shared = 2 * threads * sizeof(unsigned);
  cohort::device_buffer<unsigned> mismatches(1);
  const auto launch = [&](unsigned iterations) {
    cohort::launch<block_sync_kernel>({blocks, threads, shared}, mismatches.data(), iterations);
  };
  return measure("block-sync", threads, cohort_examples::launch_text(blocks, threads), launch, mismatches, repeat);
}

result_row measure_grid_sync(std::string variant, unsigned blocks, unsigned threads, int repeat) {
  cohort::device_buffer<unsigned> stamps(2 * std::size_t{blocks});
  cohort::device_buffer<unsigned> mismatches(1);
  stamps.fill(0);
  const auto launch = [&](unsigned iterations) {
    cohort::launch_cooperative<grid_sync_kernel>({blocks, threads}, stamps.data(), mismatches.data(), iterations);
  };
  return measure(std::move(variant), threads, cohort_examples::launch_text(blocks, threads) + " cooperative", launch,
                 mismatches, repeat);
}

}  // namespace

report run_sync_bench(const bench_options& options) {
  report r{.command = "sync",
           .size_unit = "threads_per_block",
           .element = "none",
           .seed = options.seed,
           .repeat = options.repeat,
           .device = cohort::get_device_properties(),
           .columns = {{"syncs", "syncs", column::style::integer, 0, false},
                       {"baseline_us", "no-sync launch (us)", column::style::fixed, 2, false},
                       {"ns_per_sync", "ns/sync", column::style::fixed, 1}},
           .plot_key = "ns_per_sync",
           .plot_label = "time per barrier (ns)",
           .rows = {}};
  for (const std::uint64_t threads : options.sizes)
    if (threads > static_cast<std::uint64_t>(r.device.max_threads_per_block))
      throw usage_error("--sizes: " + std::to_string(threads) + " threads per block is more than this device's " +
                        std::to_string(r.device.max_threads_per_block));
  const unsigned sms = static_cast<unsigned>(r.device.multiprocessor_count);
  progress bar("sync", options.sizes.size() * 3);
  for (const std::uint64_t threads : options.sizes) {
    const unsigned t = static_cast<unsigned>(threads);
    const std::string size = std::to_string(t) + " threads";
    bar.step(size, "block-sync");
    r.rows.push_back(measure_block_sync(t, options.repeat));
    // Occupancy may hold fewer blocks than SMs (large blocks, small SMs).
    const unsigned resident =
        static_cast<unsigned>(cohort::max_cooperative_grid(grid_sync_kernel, static_cast<int>(t)));
    bar.step(size, "grid-sync-sm");
    r.rows.push_back(measure_grid_sync("grid-sync-sm", std::min(sms, resident), t, options.repeat));
    bar.step(size, "grid-sync-full");
    r.rows.push_back(measure_grid_sync("grid-sync-full", resident, t, options.repeat));
  }
  return r;
}

}  // namespace cohort_cli
