// COHORT_CHECK=races: the catalogue's second half (planted_races.cpp has the
// first 13): barriers one statement off, split-barrier misuse, plain accesses
// racing with atomics, and races on device memory, within a block and
// between the blocks of a grid. Each is asserted to be reported with its kind
// and both lines (marker comments); between blocks either access may come
// first, as the workers run the blocks.
#include <cohort/cohort.hpp>

#include <regex>

#include "race_test_support.hpp"

namespace cg = cohort;

namespace {

constexpr unsigned n = 64;

// 14. A tiled matrix product with the barrier between the loads and the
// products left out (only the one after the products kept).
constexpr unsigned tile_side = 8;
__global__ void tiled_matmul_load_barrier_missing(const float* a, const float* b, float* c, unsigned side) {
  __shared__ float as[tile_side][tile_side];
  __shared__ float bs[tile_side][tile_side];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0;
  for (unsigned k0 = 0; k0 < side; k0 += tile_side) {
    as[ty][tx] = a[ty * side + k0 + tx];  // mark:matmul_loads.load_a
    bs[ty][tx] = b[(k0 + ty) * side + tx];
    for (unsigned k = 0; k < tile_side; ++k) sum += as[ty][k] * bs[k][tx];  // mark:matmul_loads.product
    __syncthreads();
  }
  c[ty * side + tx] = sum;
}

// 15. A 1-D stencil whose halo is loaded one statement late: after the barrier.
__global__ void stencil_halo_after_barrier(const int* in, int* out) {
  __shared__ int window[n + 2];
  const unsigned t = threadIdx.x;
  window[t + 1] = in[t + 1];
  __syncthreads();
  if (t == 0) window[n + 1] = in[n + 1];  // mark:stencil_late.halo
  if (t == 0) window[0] = in[0];
  out[t] = window[t] + window[t + 1] + window[t + 2];  // mark:stencil_late.sum
}

// 16. A reduction tree without the barrier between the loads and the first step.
__global__ void reduction_first_barrier_missing(const int* in, int* out) {
  __shared__ int partial[n];
  const unsigned t = threadIdx.x;
  partial[t] = in[t];  // mark:reduction_first.load
  for (unsigned s = n / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];  // mark:reduction_first.step
    __syncthreads();
  }
  if (t == 0) *out = partial[0];
}

// 17. Device memory as a block's scratch: a missing barrier, as on shared memory.
__global__ void device_scratch_missing_barrier(const int* in, int* scratch, int* out) {
  const unsigned t = threadIdx.x, base = blockIdx.x * n;
  scratch[base + t] = in[base + t] * 2;         // mark:device_scratch.write
  out[base + t] = scratch[base + (t + 1) % n];  // mark:device_scratch.read
}

// 18. Lanes exchanging through device memory without __syncwarp().
__global__ void device_lane_exchange_without_syncwarp(const int* in, int* lanes, int* out) {
  const unsigned t = threadIdx.x;
  lanes[t] = in[t];       // mark:device_lanes.write
  out[t] = lanes[t ^ 1];  // mark:device_lanes.read
}

// 19. Blocks handing their partial sums to the last block to arrive, with
// no __threadfence() before the arrival's atomic: the count orders nothing.
__global__ void last_block_without_fence(const int* in, int* partial, unsigned* arrived, int* out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];  // mark:no_fence.write
    last = atomicAdd(arrived, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];  // mark:no_fence.read
    *out = sum;
  }
}

// 20. Each block reads its neighbour block's cells, written in the same
// kernel: the block's barrier orders its own threads only.
__global__ void neighbour_block_without_sync(const int* in, int* cells, int* out) {
  const unsigned i = blockIdx.x * n + threadIdx.x;
  cells[i] = in[i];  // mark:neighbour.write
  __syncthreads();
  out[i] = cells[(i + 1) % (gridDim.x * n)];  // mark:neighbour.read
}

// 21. Every block writes the one result.
__global__ void every_block_writes_the_result(const int* in, int* out) {
  if (threadIdx.x == 0) *out = in[blockIdx.x];  // mark:every_block.write
}

// 22. A shared counter reset by one thread while the others already add to
// it atomically: the plain write and the atomics are in one interval.
__global__ void counter_reset_racing_atomics(int* out) {
  __shared__ int count;
  const unsigned t = threadIdx.x;
  if (t == 0) count = 0;  // mark:reset.plain
  atomicAdd(&count, 1);   // mark:reset.atomic
  __syncthreads();
  if (t == 0) out[blockIdx.x] = count;
}

// 23. A plain read of a counter that other blocks increment atomically.
__global__ void plain_read_of_a_counter(unsigned* count, unsigned* out) {
  if (threadIdx.x == 0) {
    atomicAdd(count, 1u);      // mark:counter.atomic
    out[blockIdx.x] = *count;  // mark:counter.plain
  }
}

// 24. Split barrier misuse: a thread writes, between its arrival and its
// wait, what another reads before arriving.
__global__ void write_between_arrive_and_wait(const int* in, int* out) {
  __shared__ int values[n];
  const cg::thread_block block = cg::this_thread_block();
  const unsigned t = block.thread_rank();
  const int neighbour = values[(t + 1) % n];  // mark:split_write.read
  auto token = block.barrier_arrive();
  values[t] = in[t];  // mark:split_write.write
  block.barrier_wait(std::move(token));
  out[t] = neighbour;
}

// 25. A cooperative grid with its grid.sync() after the read of another
// block's cell instead of before it.
__global__ void grid_sync_after_the_read(const int* in, int* cells, int* out) {
  cg::grid_group grid = cg::this_grid();
  const unsigned i = blockIdx.x * n + threadIdx.x;
  cells[i] = in[i];                           // mark:grid_late.write
  out[i] = cells[(i + n) % (gridDim.x * n)];  // mark:grid_late.read
  grid.sync();
}

// 26. The writer fences and sets a flag, but the reader never reads the flag.
__global__ void reader_skips_the_flag(int* data, unsigned* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;  // mark:skips_flag.write
    __threadfence();
    atomicExch(flag, 1u);
  } else {
    out[0] = data[0];  // mark:skips_flag.read
  }
}

class MorePlantedRace : public ::testing::Test {
 protected:
  cohort_test::scoped_env checks{"COHORT_CHECK", "races"};
  std::vector<int> ones = std::vector<int>(8 * n, 1);
  cg::device_buffer<int> in{ones};
  cg::device_buffer<int> scratch{std::vector<int>(8 * n, 0)};
  cg::device_buffer<int> out{std::vector<int>(8 * n, 0)};
  cg::device_buffer<unsigned> counter{std::vector<unsigned>(8, 0)};
};

const std::string either_order = "read-after-write|write-after-read";

TEST_F(MorePlantedRace, TiledMatmulWithoutTheBarrierAfterTheLoads) {
  const unsigned side = 2 * tile_side;
  cg::device_buffer<float> a(std::vector<float>(side * side, 1.0f)), b(std::vector<float>(side * side, 1.0f)),
      c(std::vector<float>(side * side, 0.0f));
  const auto e = race_test::race_error([&] {
    cg::launch(tiled_matmul_load_barrier_missing, {dim3(1), dim3(tile_side, tile_side)}, a.data(), b.data(), c.data(),
               side);
  });
  // Thread (0,0) reads as[0][1] before thread (1,0) has loaded it.
  race_test::expect_race(e.what(), "write-after-read", "matmul_loads.product", "matmul_loads.load_a");
}

TEST_F(MorePlantedRace, StencilHaloLoadedAfterTheBarrier) {
  const auto e =
      race_test::race_error([&] { cg::launch(stencil_halo_after_barrier, {dim3(1), dim3(n)}, in.data(), out.data()); });
  // The threads leave the barrier last first: thread 63 reads the halo before thread 0 loads it.
  race_test::expect_race(e.what(), "write-after-read", "stencil_late.sum", "stencil_late.halo");
}

TEST_F(MorePlantedRace, ReductionTreeWithoutItsFirstBarrier) {
  const auto e = race_test::race_error(
      [&] { cg::launch(reduction_first_barrier_missing, {dim3(1), dim3(n)}, in.data(), out.data()); });
  race_test::expect_race(e.what(), "write-after-read", "reduction_first.step", "reduction_first.load");
}

TEST_F(MorePlantedRace, DeviceMemoryScratchMissingBarrier) {
  const auto e = race_test::race_error(
      [&] { cg::launch(device_scratch_missing_barrier, {dim3(2), dim3(n)}, in.data(), scratch.data(), out.data()); });
  const std::string m = e.what();
  race_test::expect_race(m, "write-after-read", "device_scratch.read", "device_scratch.write");
  EXPECT_TRUE(std::regex_search(m, std::regex("address 0x[0-9a-f]+, offset 4 of the device allocation of " +
                                              std::to_string(8 * n * sizeof(int)) + " bytes at 0x[0-9a-f]+\n")))
      << m;
  EXPECT_NE(m.find("\nput a __syncthreads() (or the warp's __syncwarp()) between the two accesses"), std::string::npos)
      << m;
  EXPECT_EQ(race_test::distinct_races(m), 1) << m;
}

TEST_F(MorePlantedRace, LanesExchangeThroughDeviceMemoryWithoutSyncwarp) {
  const auto e = race_test::race_error([&] {
    cg::launch(device_lane_exchange_without_syncwarp, {dim3(1), dim3(32)}, in.data(), scratch.data(), out.data());
  });
  race_test::expect_race(e.what(), "write-after-read", "device_lanes.read", "device_lanes.write");
}

TEST_F(MorePlantedRace, BlocksHandOverPartialsWithoutAFence) {
  const auto e = race_test::race_error([&] {
    cg::launch(last_block_without_fence, {dim3(4), dim3(n)}, in.data(), scratch.data(), counter.data(), out.data());
  });
  const std::string m = e.what();
  // The last block reads after every other has written: always in that order.
  race_test::expect_race_between_blocks(m, "read-after-write", "no_fence.write", "no_fence.read");
  EXPECT_NE(m.find("\nbetween blocks: have the writer's block __threadfence() before the atomic that sets a flag"),
            std::string::npos)
      << m;
}

TEST_F(MorePlantedRace, BlockReadsItsNeighbourBlocksCells) {
  const auto e = race_test::race_error(
      [&] { cg::launch(neighbour_block_without_sync, {dim3(4), dim3(n)}, in.data(), scratch.data(), out.data()); });
  race_test::expect_race_between_blocks(e.what(), either_order, "neighbour.write", "neighbour.read");
}

TEST_F(MorePlantedRace, EveryBlockWritesTheResult) {
  const auto e = race_test::race_error(
      [&] { cg::launch(every_block_writes_the_result, {dim3(4), dim3(n)}, in.data(), out.data()); });
  race_test::expect_race_between_blocks(e.what(), "write-after-write", "every_block.write", "every_block.write");
}

TEST_F(MorePlantedRace, PlainWriteRacesWithAtomics) {
  const auto e =
      race_test::race_error([&] { cg::launch(counter_reset_racing_atomics, {dim3(1), dim3(n)}, out.data()); });
  const std::string m = e.what();
  race_test::expect_race(m, "write-after-write", "reset.plain", "reset.atomic");
  EXPECT_NE(m.find("thread (1,0,0) atomically wrote at"), std::string::npos) << m;
  // The atomics among themselves are no race.
  EXPECT_EQ(race_test::distinct_races(m), 1) << m;
}

TEST_F(MorePlantedRace, PlainReadOfAnAtomicCounterOfOtherBlocks) {
  const auto e = race_test::race_error(
      [&] { cg::launch(plain_read_of_a_counter, {dim3(4), dim3(n)}, counter.data(), counter.data() + 4); });
  race_test::expect_race_between_blocks(e.what(), either_order, "counter.atomic", "counter.plain");
}

TEST_F(MorePlantedRace, SplitBarrierWriteBetweenArriveAndWait) {
  const auto e = race_test::race_error(
      [&] { cg::launch(write_between_arrive_and_wait, {dim3(1), dim3(n)}, in.data(), out.data()); });
  race_test::expect_race(e.what(), "write-after-read", "split_write.read", "split_write.write");
}

TEST_F(MorePlantedRace, GridSyncAfterTheReadOfAnotherBlock) {
  const auto e = race_test::race_error([&] {
    cg::launch_cooperative(grid_sync_after_the_read, {dim3(2), dim3(n)}, in.data(), scratch.data(), out.data());
  });
  race_test::expect_race_between_blocks(e.what(), either_order, "grid_late.write", "grid_late.read");
}

TEST_F(MorePlantedRace, ReaderThatSkipsTheFlag) {
  const auto e = race_test::race_error(
      [&] { cg::launch(reader_skips_the_flag, {dim3(2), dim3(n)}, scratch.data(), counter.data(), out.data()); });
  race_test::expect_race_between_blocks(e.what(), either_order, "skips_flag.write", "skips_flag.read");
}

}  // namespace
