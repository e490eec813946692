// The same kernels on the loops engine and on fibers, one process, one worker
// (main.cpp): the seed-style tree reduction of 2^22 floats (blocks of 256 and
// 1024: 8 and 10 barriers a block) and saxpy over 2^22 floats, a plain loop
// over the same data the floor; the block reduction with warp shuffles (warp 0
// alone, in warp-uniform control flow, sums the warps' sums); 64 bare block barriers per block; 64 warp
// shuffles per lane; 64 rounds of a warp reduction and a ballot per lane, and
// of two tile shuffles; the cooperative grid-sync reduction of 2^22 floats and
// 64 bare grid barriers, every co-resident block; the multi-grid reduction of
// 2^22 floats over 2 and 4 virtual devices and 64 bare multi-grid barriers; 64 rounds of two cluster
// barriers and an exchange in clusters of 2, 4 and 8 blocks; memcpy_async
// double-buffered over 2^22 floats and 64 split block barriers per thread.
// Results in docs/measurements/*-loops-engine.md.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <vector>

#include "async_kernels.hpp"
#include "cohort/host/engine.hpp"
#include "cohort/host/settings.hpp"
#include "cohort/host/statistics.hpp"
#include "cohort/memory/device_buffer.hpp"
#include "reduce_kernels.hpp"

namespace {

constexpr unsigned elements = 1u << 22;

std::vector<float> inputs() {
  std::mt19937 gen(42);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(elements);
  for (float& x : v) x = d(gen);
  return v;
}

void use_engine(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  cohort::host::set_engine_mode(mode);
  if (cohort::host::last_launch_statistics().ran_on != expected)
    state.SkipWithError("the launch ran on the other engine");
}

void reduce_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned block = static_cast<unsigned>(state.range(0));
  cohort::device_buffer<float> in(inputs()), out(elements / block);
  cohort::host::set_engine_mode(mode);
  loops_bench::tree_reduce(in.data(), out.data(), elements / block, block);
  use_engine(state, mode, expected);
  for (auto _ : state) {
    loops_bench::tree_reduce(in.data(), out.data(), elements / block, block);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * elements);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}

void BM_TreeReduce_Loops(benchmark::State& state) {
  reduce_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_TreeReduce_Fibers(benchmark::State& state) {
  reduce_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

void warp_reduce_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned block = static_cast<unsigned>(state.range(0));
  cohort::device_buffer<float> in(inputs()), out(elements / block);
  cohort::host::set_engine_mode(mode);
  loops_bench::warp_block_reduce(in.data(), out.data(), elements / block, block);
  use_engine(state, mode, expected);
  for (auto _ : state) {
    loops_bench::warp_block_reduce(in.data(), out.data(), elements / block, block);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * elements);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}

void BM_WarpBlockReduce_Loops(benchmark::State& state) {
  warp_reduce_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_WarpBlockReduce_Fibers(benchmark::State& state) {
  warp_reduce_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

// Lane 0's sum of 32 values as __shfl_down_sync by 16, 8, ..., 1 adds them.
float warp_sum_of(float* lanes) {
  for (unsigned offset = 16; offset > 0; offset /= 2)
    for (unsigned lane = 0; lane < offset; ++lane) lanes[lane] += lanes[lane + offset];
  return lanes[0];
}

// The same sums as a plain loop: per block, each warp's in the shuffles' order, then the warps' sums.
void BM_WarpBlockReduce_PlainLoop(benchmark::State& state) {
  const unsigned block = static_cast<unsigned>(state.range(0));
  const std::vector<float> in = inputs();
  std::vector<float> out(elements / block);
  float lanes[32], warp_sums[32];
  for (auto _ : state) {
    for (unsigned b = 0; b < elements / block; ++b) {
      for (unsigned w = 0; w < block / 32; ++w) {
        std::copy_n(in.begin() + b * block + w * 32, 32, lanes);
        warp_sums[w] = warp_sum_of(lanes);
      }
      std::fill(warp_sums + block / 32, warp_sums + 32, 0.0f);
      out[b] = warp_sum_of(warp_sums);
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * elements);
}

// The same sums as a plain loop: per block of `block` elements, added in the tree's order.
void BM_TreeReduce_PlainLoop(benchmark::State& state) {
  const unsigned block = static_cast<unsigned>(state.range(0));
  const std::vector<float> in = inputs();
  std::vector<float> partial(block), out(elements / block);
  for (auto _ : state) {
    for (unsigned b = 0; b < elements / block; ++b) {
      std::copy_n(in.begin() + b * block, block, partial.begin());
      for (unsigned s = block / 2; s > 0; s >>= 1)
        for (unsigned t = 0; t < s; ++t) partial[t] += partial[t + s];
      out[b] = partial[0];
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * elements);
}

void saxpy_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  cohort::device_buffer<float> x(inputs()), y(inputs());
  cohort::host::set_engine_mode(mode);
  loops_bench::saxpy(elements, 0.5f, x.data(), y.data(), 256);
  use_engine(state, mode, expected);
  for (auto _ : state) {
    loops_bench::saxpy(elements, 0.5f, x.data(), y.data(), 256);
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * elements);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}

void BM_Saxpy_Loops(benchmark::State& state) {
  saxpy_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_Saxpy_Fibers(benchmark::State& state) {
  saxpy_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}
void BM_Saxpy_PlainLoop(benchmark::State& state) {
  std::vector<float> x = inputs(), y = inputs();
  for (auto _ : state) {
    for (unsigned i = 0; i < elements; ++i) y[i] = 0.5f * x[i] + y[i];
    benchmark::DoNotOptimize(y.data());
  }
  state.SetItemsProcessed(state.iterations() * elements);
}

// The cost of a block barrier per thread: 64 barriers in blocks of 256 or
// 1024 threads, 16 blocks; the counter is nanoseconds per thread and barrier.
void barriers_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned block = static_cast<unsigned>(state.range(0));
  constexpr unsigned rounds = 64, blocks = 16;
  cohort::device_buffer<unsigned> out(blocks);
  cohort::host::set_engine_mode(mode);
  loops_bench::barriers(rounds, out.data(), blocks, block);
  use_engine(state, mode, expected);
  for (auto _ : state) loops_bench::barriers(rounds, out.data(), blocks, block);
  state.counters["ns_per_thread_barrier"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * rounds * blocks * block,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_Barrier_Loops(benchmark::State& state) {
  barriers_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_Barrier_Fibers(benchmark::State& state) {
  barriers_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

// The cost of a warp shuffle per lane: 64 __shfl_xor_sync per lane in blocks
// of 32, 256 or 1024 threads, 16 blocks; the counter is nanoseconds per lane and shuffle.
void butterfly_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned block = static_cast<unsigned>(state.range(0));
  constexpr unsigned rounds = 64, blocks = 16;
  cohort::device_buffer<int> out(blocks * block);
  cohort::host::set_engine_mode(mode);
  loops_bench::butterfly(rounds, out.data(), blocks, block);
  use_engine(state, mode, expected);
  for (auto _ : state) loops_bench::butterfly(rounds, out.data(), blocks, block);
  state.counters["ns_per_lane_shuffle"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * rounds * blocks * block,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_Shuffle_Loops(benchmark::State& state) {
  butterfly_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_Shuffle_Fibers(benchmark::State& state) {
  butterfly_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

// The cooperative grid-sync reduction of 2^range(1) floats in blocks of
// range(0), as many blocks as can be co-resident: on fibers every block has
// an OS thread of its own; on loops the grid runs in two phases on the
// workers. Wall time, and the CPU time of the whole process: the blocks run
// on other threads than the benchmark's.
void grid_reduce_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned block = static_cast<unsigned>(state.range(0));
  const unsigned n = 1u << state.range(1);
  const unsigned blocks = loops_bench::cooperative_blocks(block);
  std::vector<float> values = inputs();
  values.resize(n);
  cohort::device_buffer<float> in(values), partial(blocks), out(1);
  cohort::host::set_engine_mode(mode);
  loops_bench::grid_sync_reduce(in.data(), partial.data(), out.data(), n, blocks, block);
  use_engine(state, mode, expected);
  for (auto _ : state) {
    loops_bench::grid_sync_reduce(in.data(), partial.data(), out.data(), n, blocks, block);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.counters["blocks"] = blocks;
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_GridSyncReduce_Loops(benchmark::State& state) {
  grid_reduce_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_GridSyncReduce_Fibers(benchmark::State& state) {
  grid_reduce_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

// The cost of a grid barrier: 64 grid.sync() in every co-resident block of
// `block` threads; the counter is microseconds per grid barrier (wall time).
void grid_syncs_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned block = static_cast<unsigned>(state.range(0));
  const unsigned blocks = loops_bench::cooperative_blocks(block);
  constexpr unsigned rounds = 64;
  cohort::device_buffer<unsigned> out(blocks);
  cohort::host::set_engine_mode(mode);
  loops_bench::grid_syncs(rounds, out.data(), blocks, block);
  use_engine(state, mode, expected);
  for (auto _ : state) loops_bench::grid_syncs(rounds, out.data(), blocks, block);
  state.counters["us_per_grid_sync"] = benchmark::Counter(static_cast<double>(state.iterations()) * rounds * 1e-6,
                                                          benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["blocks"] = blocks;
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_GridSync_Loops(benchmark::State& state) {
  grid_syncs_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_GridSync_Fibers(benchmark::State& state) {
  grid_syncs_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

// A multi-device launch: one grid of as many blocks of Arg(0) threads as can
// be co-resident on each of Arg(1) virtual devices (COHORT_DEVICE_COUNT set to
// 4 here). On fibers every block of every grid has an OS thread of its own; on
// loops the grids run in phases on the workers. Wall time, and the CPU time of
// the whole process.
unsigned multi_grid_blocks(unsigned block) {
  if (setenv("COHORT_DEVICE_COUNT", "4", 1) == 0) cohort::host::reload_settings();
  return loops_bench::cooperative_blocks(block);
}

// The multi-grid reduction of 2^22 floats (every grid sums its part, a grid
// barrier, every grid's sum, a multi-grid barrier, the total).
void multi_grid_reduce_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned block = static_cast<unsigned>(state.range(0)), devices = static_cast<unsigned>(state.range(1));
  const unsigned blocks = multi_grid_blocks(block);
  cohort::device_buffer<float> in(inputs()), partial(devices * blocks), grid_sums(devices), out(1);
  cohort::host::set_engine_mode(mode);
  const auto run = [&] {
    loops_bench::multi_grid_reduce(in.data(), partial.data(), grid_sums.data(), out.data(), elements, devices, blocks,
                                   block);
  };
  run();
  use_engine(state, mode, expected);
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * elements);
  state.counters["blocks"] = devices * blocks;
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_MultiGridReduce_Loops(benchmark::State& state) {
  multi_grid_reduce_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_MultiGridReduce_Fibers(benchmark::State& state) {
  multi_grid_reduce_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

// The cost of a multi-grid barrier: 64 multi_grid.sync() in every block; the
// counter is microseconds per multi-grid barrier (wall time).
void multi_grid_syncs_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned block = static_cast<unsigned>(state.range(0)), devices = static_cast<unsigned>(state.range(1));
  const unsigned blocks = multi_grid_blocks(block);
  constexpr unsigned rounds = 64;
  cohort::device_buffer<unsigned> out(devices * blocks);
  cohort::host::set_engine_mode(mode);
  loops_bench::multi_grid_syncs(rounds, out.data(), devices, blocks, block);
  use_engine(state, mode, expected);
  for (auto _ : state) loops_bench::multi_grid_syncs(rounds, out.data(), devices, blocks, block);
  state.counters["us_per_multi_grid_sync"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * rounds * 1e-6,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["blocks"] = devices * blocks;
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_MultiGridSync_Loops(benchmark::State& state) {
  multi_grid_syncs_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_MultiGridSync_Fibers(benchmark::State& state) {
  multi_grid_syncs_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

// The cost of a cluster barrier: 64 rounds of two cluster.sync() and an
// exchange with the next block of the cluster, 64 blocks of Arg(0) threads in
// clusters of Arg(1); the counter is nanoseconds per thread and cluster barrier
// (wall time), and microseconds per cluster barrier of the whole grid.
void cluster_syncs_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned block = static_cast<unsigned>(state.range(0)), cluster = static_cast<unsigned>(state.range(1));
  constexpr unsigned rounds = 64, blocks = 64, barriers = 2 * rounds;
  std::vector<float> values = inputs();
  values.resize(blocks * block);
  cohort::device_buffer<float> data(values);
  cohort::host::set_engine_mode(mode);
  loops_bench::cluster_exchange(rounds, data.data(), blocks, block, cluster);
  use_engine(state, mode, expected);
  for (auto _ : state) loops_bench::cluster_exchange(rounds, data.data(), blocks, block, cluster);
  const double syncs = static_cast<double>(state.iterations()) * barriers;
  state.counters["ns_per_thread_sync"] =
      benchmark::Counter(syncs * blocks * block, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["us_per_grid_wide_sync"] =
      benchmark::Counter(syncs * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_ClusterSync_Loops(benchmark::State& state) {
  cluster_syncs_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_ClusterSync_Fibers(benchmark::State& state) {
  cluster_syncs_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

// A warp reduction and a ballot per lane and round (64 rounds, 16 blocks), with
// a constant mask (the lane arrays) or the mask read from memory (the records); the
// counter is nanoseconds per lane and operation.
void warp_votes_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected,
                   bool records) {
  const unsigned block = static_cast<unsigned>(state.range(0));
  constexpr unsigned rounds = 64, blocks = 16;
  cohort::device_buffer<int> out(blocks * block);
  cohort::host::set_engine_mode(mode);
  loops_bench::warp_votes(rounds, out.data(), blocks, block, records);
  use_engine(state, mode, expected);
  for (auto _ : state) loops_bench::warp_votes(rounds, out.data(), blocks, block, records);
  state.counters["ns_per_lane_operation"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 2 * rounds * blocks * block,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_WarpVotes_Loops(benchmark::State& state) {
  warp_votes_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops, false);
}
void BM_WarpVotes_LoopsRecords(benchmark::State& state) {
  warp_votes_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops, true);
}
void BM_WarpVotes_Fibers(benchmark::State& state) {
  warp_votes_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers, false);
}

// A tile's shfl_xor and shfl_down per thread and round (64 rounds, 16 blocks of
// 1024, tiles of Arg threads); the counter is nanoseconds per thread and shuffle.
void tile_shuffles_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned tile = static_cast<unsigned>(state.range(0));
  constexpr unsigned rounds = 64, blocks = 16, block = 1024;
  cohort::device_buffer<int> out(blocks * block);
  cohort::host::set_engine_mode(mode);
  loops_bench::tile_shuffles(rounds, out.data(), blocks, block, tile);
  use_engine(state, mode, expected);
  for (auto _ : state) loops_bench::tile_shuffles(rounds, out.data(), blocks, block, tile);
  state.counters["ns_per_thread_shuffle"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 2 * rounds * blocks * block,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_TileShuffles_Loops(benchmark::State& state) {
  tile_shuffles_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_TileShuffles_Fibers(benchmark::State& state) {
  tile_shuffles_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

// A tile's cg::reduce and inclusive_scan per thread and round (64 rounds, 16 blocks
// of 1024, tiles of Arg threads), with cohort::plus (the lane arrays) or plus
// holding state (the records); the counter is nanoseconds per thread and operation.
void tile_folds_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected,
                   bool records) {
  const unsigned tile = static_cast<unsigned>(state.range(0));
  constexpr unsigned rounds = 64, blocks = 16, block = 1024;
  cohort::device_buffer<int> out(blocks * block);
  cohort::host::set_engine_mode(mode);
  loops_bench::tile_folds(rounds, out.data(), blocks, block, tile, records);
  use_engine(state, mode, expected);
  for (auto _ : state) loops_bench::tile_folds(rounds, out.data(), blocks, block, tile, records);
  state.counters["ns_per_thread_operation"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 2 * rounds * blocks * block,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_TileFolds_Loops(benchmark::State& state) {
  tile_folds_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops, false);
}
void BM_TileFolds_LoopsRecords(benchmark::State& state) {
  tile_folds_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops, true);
}
void BM_TileFolds_Fibers(benchmark::State& state) {
  tile_folds_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers, false);
}

// A tile's ballot, any and all per thread and round (64 rounds, 16 blocks of
// 1024, tiles of Arg threads); the counter is nanoseconds per thread and vote.
void tile_votes_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned tile = static_cast<unsigned>(state.range(0));
  constexpr unsigned rounds = 64, blocks = 16, block = 1024;
  cohort::device_buffer<int> out(blocks * block);
  cohort::host::set_engine_mode(mode);
  loops_bench::tile_votes(rounds, out.data(), blocks, block, tile);
  use_engine(state, mode, expected);
  for (auto _ : state) loops_bench::tile_votes(rounds, out.data(), blocks, block, tile);
  state.counters["ns_per_thread_vote"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 3 * rounds * blocks * block,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_TileVotes_Loops(benchmark::State& state) {
  tile_votes_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_TileVotes_Fibers(benchmark::State& state) {
  tile_votes_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

// A __match_any_sync and a __match_all_sync per lane and round (64 rounds, 16 blocks of 1024), with a constant
// mask (the lane arrays) or the mask read from memory (the records); the counter is nanoseconds per lane and match.
void warp_matches_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected,
                     bool records) {
  constexpr unsigned rounds = 64, blocks = 16, block = 1024;
  cohort::device_buffer<int> out(blocks * block);
  cohort::host::set_engine_mode(mode);
  loops_bench::warp_matches(rounds, out.data(), blocks, block, records);
  use_engine(state, mode, expected);
  for (auto _ : state) loops_bench::warp_matches(rounds, out.data(), blocks, block, records);
  state.counters["ns_per_lane_match"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 2 * rounds * blocks * block,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_WarpMatches_Loops(benchmark::State& state) {
  warp_matches_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops, false);
}
void BM_WarpMatches_LoopsRecords(benchmark::State& state) {
  warp_matches_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops, true);
}
void BM_WarpMatches_Fibers(benchmark::State& state) {
  warp_matches_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers, false);
}

// A tile's match_any and match_all per thread and round (64 rounds, 16 blocks of
// 1024, tiles of Arg threads); the counter is nanoseconds per thread and match.
void tile_matches_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned tile = static_cast<unsigned>(state.range(0));
  constexpr unsigned rounds = 64, blocks = 16, block = 1024;
  cohort::device_buffer<int> out(blocks * block);
  cohort::host::set_engine_mode(mode);
  loops_bench::tile_matches(rounds, out.data(), blocks, block, tile);
  use_engine(state, mode, expected);
  for (auto _ : state) loops_bench::tile_matches(rounds, out.data(), blocks, block, tile);
  state.counters["ns_per_thread_match"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 2 * rounds * blocks * block,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_TileMatches_Loops(benchmark::State& state) {
  tile_matches_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_TileMatches_Fibers(benchmark::State& state) {
  tile_matches_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

// Double-buffered memcpy_async over 2^22 floats, blocks of Arg(0) threads each
// streaming 16 chunks of 4 × Arg(0) floats: the copies, waits and block barriers.
void copy_stages_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned block = static_cast<unsigned>(state.range(0)), blocks = elements / (16 * 4 * block);
  cohort::device_buffer<float> in(inputs()), out(blocks * block);
  cohort::host::set_engine_mode(mode);
  loops_bench::copy_stages(in.data(), out.data(), elements, blocks, block);
  use_engine(state, mode, expected);
  for (auto _ : state) {
    loops_bench::copy_stages(in.data(), out.data(), elements, blocks, block);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * elements);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_CopyStages_Loops(benchmark::State& state) {
  copy_stages_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_CopyStages_Fibers(benchmark::State& state) {
  copy_stages_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

// 64 split block barriers (barrier_arrive, a thread's own work, barrier_wait)
// per thread, 16 blocks of Arg(0); the counter is nanoseconds per thread and barrier.
void split_barriers_on(benchmark::State& state, cohort::host::engine_mode mode, cohort::host::engine expected) {
  const unsigned block = static_cast<unsigned>(state.range(0));
  constexpr unsigned rounds = 64, blocks = 16;
  cohort::device_buffer<unsigned> out(blocks * block);
  cohort::host::set_engine_mode(mode);
  loops_bench::split_barriers(rounds, out.data(), blocks, block);
  use_engine(state, mode, expected);
  for (auto _ : state) loops_bench::split_barriers(rounds, out.data(), blocks, block);
  state.counters["ns_per_thread_barrier"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * rounds * blocks * block,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  cohort::host::set_engine_mode(cohort::host::engine_mode::automatic);
}
void BM_SplitBarrier_Loops(benchmark::State& state) {
  split_barriers_on(state, cohort::host::engine_mode::automatic, cohort::host::engine::loops);
}
void BM_SplitBarrier_Fibers(benchmark::State& state) {
  split_barriers_on(state, cohort::host::engine_mode::fibers, cohort::host::engine::fibers);
}

double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }
double max_of(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }

#define LOOPS_BENCH(name) \
  BENCHMARK(name)->Unit(benchmark::kMillisecond)->ComputeStatistics("min", min_of)->ComputeStatistics("max", max_of)

LOOPS_BENCH(BM_TreeReduce_Loops)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_TreeReduce_Fibers)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_TreeReduce_PlainLoop)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_WarpBlockReduce_Loops)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_WarpBlockReduce_Fibers)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_WarpBlockReduce_PlainLoop)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_Saxpy_Loops);
LOOPS_BENCH(BM_Saxpy_Fibers);
LOOPS_BENCH(BM_Saxpy_PlainLoop);
LOOPS_BENCH(BM_Barrier_Loops)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_Barrier_Fibers)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_Shuffle_Loops)->Arg(32)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_Shuffle_Fibers)->Arg(32)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_GridSyncReduce_Loops)->Args({256, 16})->Args({256, 22})->MeasureProcessCPUTime()->UseRealTime();
LOOPS_BENCH(BM_GridSyncReduce_Fibers)->Args({256, 16})->Args({256, 22})->MeasureProcessCPUTime()->UseRealTime();
LOOPS_BENCH(BM_GridSync_Loops)->Arg(32)->Arg(256)->MeasureProcessCPUTime()->UseRealTime();
LOOPS_BENCH(BM_GridSync_Fibers)->Arg(32)->Arg(256)->MeasureProcessCPUTime()->UseRealTime();
LOOPS_BENCH(BM_MultiGridReduce_Loops)->Args({256, 2})->Args({256, 4})->MeasureProcessCPUTime()->UseRealTime();
LOOPS_BENCH(BM_MultiGridReduce_Fibers)->Args({256, 2})->Args({256, 4})->MeasureProcessCPUTime()->UseRealTime();
LOOPS_BENCH(BM_MultiGridSync_Loops)->Args({32, 2})->Args({256, 4})->MeasureProcessCPUTime()->UseRealTime();
LOOPS_BENCH(BM_MultiGridSync_Fibers)->Args({32, 2})->Args({256, 4})->MeasureProcessCPUTime()->UseRealTime();
LOOPS_BENCH(BM_ClusterSync_Loops)
    ->Args({256, 4})
    ->Args({1024, 2})
    ->Args({32, 8})
    ->MeasureProcessCPUTime()
    ->UseRealTime();
LOOPS_BENCH(BM_ClusterSync_Fibers)
    ->Args({256, 4})
    ->Args({1024, 2})
    ->Args({32, 8})
    ->MeasureProcessCPUTime()
    ->UseRealTime();
LOOPS_BENCH(BM_WarpVotes_Loops)->Arg(32)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_WarpVotes_LoopsRecords)->Arg(32)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_WarpVotes_Fibers)->Arg(32)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_TileShuffles_Loops)->Arg(8)->Arg(32);
LOOPS_BENCH(BM_TileShuffles_Fibers)->Arg(8)->Arg(32);
LOOPS_BENCH(BM_TileFolds_Loops)->Arg(8)->Arg(32);
LOOPS_BENCH(BM_TileFolds_LoopsRecords)->Arg(8)->Arg(32);
LOOPS_BENCH(BM_TileFolds_Fibers)->Arg(8)->Arg(32);
LOOPS_BENCH(BM_TileVotes_Loops)->Arg(8)->Arg(32);
LOOPS_BENCH(BM_TileVotes_Fibers)->Arg(8)->Arg(32);
LOOPS_BENCH(BM_WarpMatches_Loops);
LOOPS_BENCH(BM_WarpMatches_LoopsRecords);
LOOPS_BENCH(BM_WarpMatches_Fibers);
LOOPS_BENCH(BM_TileMatches_Loops)->Arg(8)->Arg(32);
LOOPS_BENCH(BM_TileMatches_Fibers)->Arg(8)->Arg(32);
LOOPS_BENCH(BM_CopyStages_Loops)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_CopyStages_Fibers)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_SplitBarrier_Loops)->Arg(256)->Arg(1024);
LOOPS_BENCH(BM_SplitBarrier_Fibers)->Arg(256)->Arg(1024);

}  // namespace
