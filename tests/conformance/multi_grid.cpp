// Multi-device grids: a cooperative launch of one grid per device (every
// device the backend has: the host's virtual devices, COHORT_DEVICE_COUNT of
// them; the GPUs, one on a single-GPU machine as a degenerate multi-grid),
// multi_grid_group's queries, multi_grid.sync() rounds, the multi-grid as a
// thread_group, and every collective across the grids (reduce, the scans,
// their *_update and *_store forms, invoke_one and invoke_one_broadcast),
// checked element by element.
#include <cohort/cohort.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace cg = cohort;

namespace {

struct multi_view {
  unsigned long long thread_rank, num_threads;
  unsigned grid_rank, num_grids;
  int valid;
};

__device__ int term(int round, unsigned long long rank) {
  return static_cast<int>(cohort_test::mix(static_cast<unsigned>(rank * 131 + round)) % 1000) - 500;
}

// Each round every thread adds its term, the grids reduce across devices, and
// every thread keeps the sum of the rounds' totals.
__global__ void rounds_across_devices(multi_view* views, int* sums, int rounds) {
  const cg::multi_grid_group mg = cg::this_multi_grid();
  const unsigned long long g = cg::this_grid().thread_rank();
  views[g] = {mg.thread_rank(), mg.num_threads(), mg.grid_rank(), mg.num_grids(), mg.is_valid() ? 1 : 0};
  int sum = 0;
  for (int r = 0; r < rounds; ++r) {
    sum += cg::reduce(mg, term(r, mg.thread_rank()), cg::plus<int>());
    mg.sync();
  }
  sums[g] = sum;
}

struct grid_buffers {
  cg::device_buffer<multi_view> views;
  cg::device_buffer<int> sums;
};

// One launch of rounds_across_devices, not waited for.
struct rounds_launch {
  dim3 grid, block;
  int rounds;
  std::vector<std::unique_ptr<grid_buffers>> buffers;
};

// Over devices 0 to devices - 1 (every device by default).
rounds_launch launch_rounds(dim3 grid, dim3 block, int rounds, cg::multi_grid_memory memory, int devices = 0) {
  if (devices == 0) devices = cg::device_count();
  const unsigned long long per_grid = cohort_test::volume(grid) * cohort_test::volume(block);
  rounds_launch l{grid, block, rounds, {}};
  std::vector<cg::device_launch> launches;
  for (int d = 0; d < devices; ++d) {
    cg::set_device(d);
    l.buffers.push_back(std::make_unique<grid_buffers>(
        grid_buffers{cohort_test::poisoned<multi_view>(per_grid, multi_view{~0ull, 0, ~0u, 0, -1}),
                     cohort_test::poisoned<int>(per_grid, 0x7eadbeef)}));
    launches.push_back({d, {grid, block}});
  }
  cg::set_device(0);
  cg::launch_cooperative_multi_device(
      rounds_across_devices, launches,
      [&](unsigned i) { return std::tuple{l.buffers[i]->views.data(), l.buffers[i]->sums.data(), rounds}; }, memory);
  return l;
}

void check_rounds(const rounds_launch& l) {
  const int devices = static_cast<int>(l.buffers.size());
  const unsigned long long per_grid = cohort_test::volume(l.grid) * cohort_test::volume(l.block);
  const int rounds = l.rounds;
  const auto& buffers = l.buffers;
  const unsigned long long all = per_grid * static_cast<unsigned long long>(devices);
  int expected = 0;
  for (int r = 0; r < rounds; ++r)
    for (unsigned long long t = 0; t < all; ++t)
      expected += static_cast<int>(cohort_test::mix(static_cast<unsigned>(t * 131 + r)) % 1000) - 500;
  for (int d = 0; d < devices; ++d) {
    cg::set_device(d);
    const auto views = buffers[d]->views.to_host();
    const auto sums = buffers[d]->sums.to_host();
    for (unsigned long long t = 0; t < per_grid; ++t) {
      SCOPED_TRACE("grid " + std::to_string(d) + " thread " + std::to_string(t));
      ASSERT_EQ(views[t].thread_rank, d * per_grid + t);
      ASSERT_EQ(views[t].num_threads, all);
      ASSERT_EQ(views[t].grid_rank, static_cast<unsigned>(d));
      ASSERT_EQ(views[t].num_grids, static_cast<unsigned>(devices));
      ASSERT_EQ(views[t].valid, 1);
      ASSERT_EQ(sums[t], expected);
    }
  }
  cg::set_device(0);
}

void run_on_every_device(dim3 grid, dim3 block, int rounds,
                         cg::multi_grid_memory memory = cg::multi_grid_memory::automatic) {
  check_rounds(launch_rounds(grid, block, rounds, memory));
}

// The scans across every grid, and invoke_one's single call in the whole launch.
__global__ void scans_across_devices(const int* values, int* inclusive, int* exclusive, unsigned* calls,
                                     unsigned long long per_grid) {
  const cg::multi_grid_group mg = cg::this_multi_grid();
  const unsigned long long g = cg::this_grid().thread_rank();
  const int v = values[mg.grid_rank() * per_grid + g];
  inclusive[g] = cg::inclusive_scan(mg, v);
  exclusive[g] = cg::exclusive_scan(mg, v, cg::plus<int>());
  cg::invoke_one(mg, [&] { atomicAdd(calls, 1u); });
}

void scan_on_every_device(dim3 grid, dim3 block) {
  const int devices = cg::device_count();
  const unsigned long long per_grid = cohort_test::volume(grid) * cohort_test::volume(block);
  const unsigned long long all = per_grid * static_cast<unsigned long long>(devices);
  const auto values = cohort_test::random_vector<int>(all, cohort_test::test_seed(), -1000, 1000);
  struct buffers {
    cg::device_buffer<int> values, inclusive, exclusive;
    cg::device_buffer<unsigned> calls;
  };
  std::vector<std::unique_ptr<buffers>> b;
  std::vector<cg::device_launch> launches;
  for (int d = 0; d < devices; ++d) {
    cg::set_device(d);
    b.push_back(std::make_unique<buffers>(
        buffers{cg::device_buffer<int>(values), cohort_test::poisoned<int>(per_grid, -7),
                cohort_test::poisoned<int>(per_grid, -7), cohort_test::poisoned<unsigned>(1, 0)}));
    launches.push_back({d, {grid, block}});
  }
  cg::set_device(0);
  cg::launch_cooperative_multi_device(scans_across_devices, launches, [&](unsigned i) {
    return std::tuple{b[i]->values.data(), b[i]->inclusive.data(), b[i]->exclusive.data(), b[i]->calls.data(),
                      per_grid};
  });
  int prefix = 0;
  unsigned calls = 0;
  for (int d = 0; d < devices; ++d) {
    cg::set_device(d);
    const auto inc = b[d]->inclusive.to_host(), exc = b[d]->exclusive.to_host();
    calls += b[d]->calls.to_host()[0];
    for (unsigned long long t = 0; t < per_grid; ++t) {
      SCOPED_TRACE("grid " + std::to_string(d) + " thread " + std::to_string(t));
      ASSERT_EQ(exc[t], prefix);
      prefix += values[d * per_grid + t];
      ASSERT_EQ(inc[t], prefix);
    }
  }
  cg::set_device(0);
  EXPECT_EQ(calls, 1u);
}

TEST(MultiGrid, ScansAndInvokeOne) { scan_on_every_device(dim3(3), dim3(40)); }

struct broadcast_value {
  int value;
  unsigned grid;
  unsigned long long rank;
};

// The *_update and *_store forms apply the total to the multi-grid's rank 0's
// atomic or pointer (grid 0's); the scans start from its atomic's old value.
// invoke_one_broadcast hands rank 0's result to every thread.
__global__ void updates_across_devices(const int* values, int* atomics, int* stored, int* inclusive, int* exclusive,
                                       broadcast_value* broadcast, unsigned* calls, unsigned long long per_grid) {
  const cg::multi_grid_group mg = cg::this_multi_grid();
  const unsigned long long g = cg::this_grid().thread_rank();
  const int v = values[mg.grid_rank() * per_grid + g];
  cg::atomic_ref<int, cg::thread_scope_system> sum(atomics[0]), largest(atomics[1]), inc_from(atomics[2]),
      exc_from(atomics[3]), smallest(atomics[4]);
  cg::reduce_update_async(mg, sum, v, cg::plus<int>());
  cg::reduce_store_async(mg, largest, v, cg::greater<int>());
  cg::reduce_update_async(mg, smallest, v, cg::less<int>());
  cg::reduce_store_async(mg, stored, v, cg::plus<int>());
  inclusive[g] = cg::inclusive_scan_update(mg, inc_from, v);
  exclusive[g] = cg::exclusive_scan_update(mg, exc_from, v, cg::plus<int>());
  broadcast[g] = cg::invoke_one_broadcast(
      mg,
      [&](int scale) {
        atomicAdd(calls, 1u);
        return broadcast_value{v * scale, mg.grid_rank(), mg.thread_rank()};
      },
      3);
}

void updates_on_every_device(dim3 grid, dim3 block) {
  const int devices = cg::device_count();
  const unsigned long long per_grid = cohort_test::volume(grid) * cohort_test::volume(block);
  const unsigned long long all = per_grid * static_cast<unsigned long long>(devices);
  const auto values = cohort_test::random_vector<int>(all, cohort_test::test_seed(), -1000, 1000);
  const std::vector<int> initial{17, -5000, 1000, -3, 400};
  struct buffers {
    cg::device_buffer<int> values, atomics, stored, inclusive, exclusive;
    cg::device_buffer<broadcast_value> broadcast;
    cg::device_buffer<unsigned> calls;
  };
  std::vector<std::unique_ptr<buffers>> b;
  std::vector<cg::device_launch> launches;
  for (int d = 0; d < devices; ++d) {
    cg::set_device(d);
    b.push_back(std::make_unique<buffers>(
        buffers{cg::device_buffer<int>(values), cg::device_buffer<int>(initial), cohort_test::poisoned<int>(1, -7),
                cohort_test::poisoned<int>(per_grid, -7), cohort_test::poisoned<int>(per_grid, -7),
                cohort_test::poisoned<broadcast_value>(per_grid, broadcast_value{-7, ~0u, ~0ull}),
                cohort_test::poisoned<unsigned>(1, 0)}));
    launches.push_back({d, {grid, block}});
  }
  cg::set_device(0);
  cg::launch_cooperative_multi_device(updates_across_devices, launches, [&](unsigned i) {
    return std::tuple{b[i]->values.data(),    b[i]->atomics.data(),   b[i]->stored.data(), b[i]->inclusive.data(),
                      b[i]->exclusive.data(), b[i]->broadcast.data(), b[i]->calls.data(),  per_grid};
  });
  int total = 0, largest = values[0], smallest = values[0];
  for (const int v : values) {
    total += v;
    largest = std::max(largest, v);
    smallest = std::min(smallest, v);
  }
  int prefix = 0;
  unsigned calls = 0;
  for (int d = 0; d < devices; ++d) {
    cg::set_device(d);
    SCOPED_TRACE("grid " + std::to_string(d));
    const auto atomics = b[d]->atomics.to_host();
    const auto inc = b[d]->inclusive.to_host(), exc = b[d]->exclusive.to_host();
    const auto cast = b[d]->broadcast.to_host();
    calls += b[d]->calls.to_host()[0];
    if (d == 0) {
      EXPECT_EQ(atomics, (std::vector<int>{initial[0] + total, largest, initial[2] + total, initial[3] + total,
                                           std::min(initial[4], smallest)}));
      EXPECT_EQ(b[d]->stored.to_host()[0], total);
    } else {  // only the multi-grid's rank 0 applies the total
      EXPECT_EQ(atomics, initial);
      EXPECT_EQ(b[d]->stored.to_host()[0], -7);
    }
    for (unsigned long long t = 0; t < per_grid; ++t) {
      SCOPED_TRACE("thread " + std::to_string(t));
      ASSERT_EQ(exc[t], initial[3] + prefix);
      prefix += values[d * per_grid + t];
      ASSERT_EQ(inc[t], initial[2] + prefix);
      ASSERT_EQ(cast[t].value, values[0] * 3);
      ASSERT_EQ(cast[t].grid, 0u);
      ASSERT_EQ(cast[t].rank, 0ull);
    }
  }
  cg::set_device(0);
  EXPECT_EQ(calls, 1u);
}

TEST(MultiGrid, UpdateStoreAndBroadcastForms) { updates_on_every_device(dim3(2), dim3(48)); }
TEST(MultiGrid, UpdateStoreAndBroadcastFormsOnOneThreadPerGrid) { updates_on_every_device(dim3(1), dim3(1)); }

// The multi-grid through a thread_group&: its ranks and type, and its sync()
// is the multi-grid barrier, interleaved with multi-grid collectives (a sync
// that went to another barrier would leave the grids' phases apart).
__global__ void multi_grid_as_thread_group(unsigned long long* out, int* sums, int rounds) {
  cg::multi_grid_group mg = cg::this_multi_grid();
  cg::thread_group& any = mg;
  const unsigned long long g = cg::this_grid().thread_rank();
  out[g * 3] = any.thread_rank();
  out[g * 3 + 1] = any.num_threads();
  out[g * 3 + 2] = any.get_type();
  int sum = 0;
  for (int r = 0; r < rounds; ++r) {
    any.sync();
    sum += cg::reduce(mg, r + static_cast<int>(mg.grid_rank()), cg::plus<int>());
    cg::thread_group copy = mg;
    copy.sync();
  }
  sums[g] = sum;
}

TEST(MultiGrid, AMultiGridIsAThreadGroup) {
  const int devices = cg::device_count(), rounds = 8;
  const dim3 grid(2), block(40);
  const unsigned long long per_grid = 80, all = per_grid * static_cast<unsigned long long>(devices);
  struct buffers {
    cg::device_buffer<unsigned long long> out;
    cg::device_buffer<int> sums;
  };
  std::vector<std::unique_ptr<buffers>> b;
  std::vector<cg::device_launch> launches;
  for (int d = 0; d < devices; ++d) {
    cg::set_device(d);
    b.push_back(std::make_unique<buffers>(buffers{cohort_test::poisoned<unsigned long long>(per_grid * 3, ~0ull),
                                                  cohort_test::poisoned<int>(per_grid, -1)}));
    launches.push_back({d, {grid, block}});
  }
  cg::set_device(0);
  cg::launch_cooperative_multi_device(multi_grid_as_thread_group, launches, [&](unsigned i) {
    return std::tuple{b[i]->out.data(), b[i]->sums.data(), rounds};
  });
  int expected = 0;
  for (int r = 0; r < rounds; ++r)
    for (int d = 0; d < devices; ++d) expected += (r + d) * static_cast<int>(per_grid);
  for (int d = 0; d < devices; ++d) {
    cg::set_device(d);
    const auto out = b[d]->out.to_host();
    const auto sums = b[d]->sums.to_host();
    for (unsigned long long t = 0; t < per_grid; ++t) {
      SCOPED_TRACE("grid " + std::to_string(d) + " thread " + std::to_string(t));
      ASSERT_EQ(out[t * 3], d * per_grid + t);
      ASSERT_EQ(out[t * 3 + 1], all);
      ASSERT_EQ(out[t * 3 + 2], static_cast<unsigned long long>(cg::multi_grid_group_id));
      ASSERT_EQ(sums[t], expected);
    }
  }
  cg::set_device(0);
}

TEST(MultiGrid, OneBlockPerGrid) { run_on_every_device(dim3(1), dim3(64), 20); }
TEST(MultiGrid, SeveralBlocksPerGrid) { run_on_every_device(dim3(2, 2), dim3(33, 2), 10); }

// Every device of the launch reaches the first one's memory.
bool every_device_reaches_the_first() {
  for (int d = 1; d < cg::device_count(); ++d)
    if (!cg::can_access_peer(d, 0)) return false;
  return true;
}

// The barrier in each memory a launch may ask for; `peer` is refused, with
// the device that lacks peer access named, where one does.
TEST(MultiGrid, EveryBarrierMemory) {
  run_on_every_device(dim3(2), dim3(64), 12, cg::multi_grid_memory::pinned_host);
  run_on_every_device(dim3(2), dim3(64), 12, cg::multi_grid_memory::automatic);
  if (every_device_reaches_the_first()) {
    run_on_every_device(dim3(2), dim3(64), 12, cg::multi_grid_memory::peer);
  } else {
    try {
      run_on_every_device(dim3(2), dim3(64), 12, cg::multi_grid_memory::peer);
      ADD_FAILURE() << "multi_grid_memory::peer was accepted without peer access";
    } catch (const cg::error& e) {
      EXPECT_NE(std::string(e.what()).find("has no peer access to it"), std::string::npos) << e.what();
    }
  }
}

// Launches issued one after another with no synchronization between them: a
// launch's grids may start while the previous launch's grids on other devices
// are still finishing, and must find the barrier consistent.
TEST(MultiGrid, LaunchesBackToBackWithoutASynchronization) {
  for (const cg::multi_grid_memory memory : {cg::multi_grid_memory::automatic, cg::multi_grid_memory::pinned_host}) {
    SCOPED_TRACE(cg::to_string(memory));
    std::vector<rounds_launch> launches;
    for (int i = 0; i < 4; ++i) launches.push_back(launch_rounds(dim3(3), dim3(96), 5 + 3 * i, memory));
    for (const rounds_launch& l : launches) check_rounds(l);
  }
}

// Launches over different numbers of devices in turn, none waited for before
// the next: each grid count meets at words of its own, which launches of
// other counts leave alone, so none of them finds another's count there.
TEST(MultiGrid, LaunchesOverDifferentDeviceCountsInTurn) {
  const int all = cg::device_count();
  for (const cg::multi_grid_memory memory : {cg::multi_grid_memory::automatic, cg::multi_grid_memory::pinned_host}) {
    SCOPED_TRACE(cg::to_string(memory));
    std::vector<rounds_launch> launches;
    int i = 0;
    for (const int devices : {all, std::max(1, all - 1), all, 1, std::min(all, 2), all})
      launches.push_back(launch_rounds(dim3(2), dim3(64), 3 + i++, memory, devices));
    for (const rounds_launch& l : launches) check_rounds(l);
  }
}

// The decision both memories rest on: `peer` without peer access is an error
// naming both devices; `automatic` then falls back to pinned host memory.
TEST(MultiGrid, PeerMemoryWithoutPeerAccessIsRefused) {
  EXPECT_TRUE(cg::detail::multi_grid_barrier_in_peer_memory(cg::multi_grid_memory::peer, 2, -1));
  EXPECT_TRUE(cg::detail::multi_grid_barrier_in_peer_memory(cg::multi_grid_memory::automatic, 2, -1));
  EXPECT_FALSE(cg::detail::multi_grid_barrier_in_peer_memory(cg::multi_grid_memory::automatic, 2, 3));
  EXPECT_FALSE(cg::detail::multi_grid_barrier_in_peer_memory(cg::multi_grid_memory::pinned_host, 2, -1));
  try {
    cg::detail::multi_grid_barrier_in_peer_memory(cg::multi_grid_memory::peer, 2, 3);
    ADD_FAILURE() << "refused nothing";
  } catch (const cg::error& e) {
    EXPECT_EQ(e.kind(), cg::errc::invalid_configuration);
    EXPECT_NE(std::string(e.what()).find("multi_grid_memory::peer puts the barrier in device 2's memory, but device 3 "
                                         "has no peer access to it"),
              std::string::npos)
        << e.what();
  }
}

__global__ void does_nothing(int) {}

TEST(MultiGrid, ABarrierMemoryThatIsNoneOfTheThreeIsRefused) {
  const std::vector<cg::device_launch> grids{{0, {dim3(1), dim3(32)}}};
  try {
    cg::launch_cooperative_multi_device(
        does_nothing, grids, [](unsigned) { return std::tuple{0}; }, static_cast<cg::multi_grid_memory>(7));
    ADD_FAILURE() << "launched";
  } catch (const cg::error& e) {
    EXPECT_EQ(e.kind(), cg::errc::invalid_configuration);
    EXPECT_NE(std::string(e.what()).find("barrier memory 7 is not a cohort::multi_grid_memory"), std::string::npos)
        << e.what();
  }
}

__global__ void queries_outside_a_multi_device_launch(multi_view* views) {
  const cg::multi_grid_group mg = cg::this_multi_grid();
  views[cg::this_grid().thread_rank()] = {mg.thread_rank(), mg.num_threads(), mg.grid_rank(), mg.num_grids(),
                                          mg.is_valid() ? 1 : 0};
}

TEST(MultiGrid, AnOrdinaryLaunchIsOneInvalidGrid) {
  auto views = cohort_test::poisoned<multi_view>(3 * 32, multi_view{~0ull, 0, ~0u, 0, -1});
  cg::launch(queries_outside_a_multi_device_launch, {dim3(3), dim3(32)}, views.data());
  const auto got = views.to_host();
  for (unsigned t = 0; t < 3 * 32; ++t) {
    ASSERT_EQ(got[t].thread_rank, t);
    ASSERT_EQ(got[t].num_threads, 96u);
    ASSERT_EQ(got[t].grid_rank, 0u);
    ASSERT_EQ(got[t].num_grids, 1u);
    ASSERT_EQ(got[t].valid, 0);
  }
}

}  // namespace
