// COHORT_CHECK=races: a catalogue of planted races between the threads of a
// block on shared memory, each asserted to be reported with its kind and both
// source lines. A line is found by the marker comment at its end.
#include <cohort/cohort.hpp>

#include <regex>

#include "race_test_support.hpp"

namespace cg = cohort;

namespace {

constexpr unsigned n = 64;

// 1. The classic: a write to shared memory, then another thread's read, with
// no __syncthreads() between them.
__global__ void missing_barrier(const int* in, int* out) {
  __shared__ int tile[n];
  const unsigned t = threadIdx.x;
  tile[t] = in[t];                              // mark:missing_barrier.write
  out[blockIdx.x * n + t] = tile[(t + 1) % n];  // mark:missing_barrier.read
}

// 2. A reduction tree with its last barriers left out (the steps below 64
// lanes were thought warp-synchronous, but 64 is two warps).
__global__ void reduction_missing_barrier(const int* in, int* out) {
  __shared__ int partial[2 * n];
  const unsigned t = threadIdx.x;
  partial[t] = in[t];
  partial[t + n] = in[t + n];
  __syncthreads();
  for (unsigned s = n; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];  // mark:reduction_missing_barrier.step
    if (s > n / 2) __syncthreads();
  }
  if (t == 0) *out = partial[0];
}

// 3. A shared buffer reused across loop iterations: the barrier after the
// reads that would protect the next iteration's writes is missing.
__global__ void buffer_reused_without_barrier(const int* in, int* out, int rounds) {
  __shared__ int buffer[n];
  const unsigned t = threadIdx.x;
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    buffer[t] = in[r * n + t];  // mark:buffer_reused.write
    __syncthreads();
    acc += buffer[(t + 1) % n];  // mark:buffer_reused.read
  }
  out[t] = acc;
}

// 4. A tiled matrix product with its barrier one statement off: before the
// loads instead of between the loads and the products.
constexpr unsigned tile_side = 8;
__global__ void tiled_matmul_barrier_misplaced(const float* a, const float* b, float* c, unsigned side) {
  __shared__ float as[tile_side][tile_side];
  __shared__ float bs[tile_side][tile_side];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0;
  for (unsigned k0 = 0; k0 < side; k0 += tile_side) {
    __syncthreads();
    as[ty][tx] = a[ty * side + k0 + tx];  // mark:matmul.load_a
    bs[ty][tx] = b[(k0 + ty) * side + tx];
    for (unsigned k = 0; k < tile_side; ++k) sum += as[ty][k] * bs[k][tx];  // mark:matmul.product
  }
  c[ty * side + tx] = sum;
}

// 5. The old warp-synchronous reduction (NVIDIA's samples before Volta):
// lanes read each other's partial sums with no __syncwarp() between steps.
__global__ void warp_reduction_without_syncwarp(const int* in, int* out) {
  __shared__ int sums[n];
  const unsigned t = threadIdx.x;
  sums[t] = in[t];
  __syncthreads();
  if (t < 32) {
    volatile int* v = sums;
    v[t] = v[t] + v[t + 32];  // mark:warp_reduction.step32
    v[t] = v[t] + v[t + 16];  // mark:warp_reduction.step16
    v[t] = v[t] + v[t + 8];
    v[t] = v[t] + v[t + 4];
    v[t] = v[t] + v[t + 2];
    v[t] = v[t] + v[t + 1];  // mark:warp_reduction.step1
  }
  if (t == 0) *out = sums[0];
}

// 6. Two threads write one word in the same interval.
__global__ void two_writers(int* out) {
  __shared__ int flag;
  const unsigned t = threadIdx.x;
  if (t == 3) flag = 1;  // mark:two_writers.first
  if (t == 5) flag = 2;  // mark:two_writers.second
  __syncthreads();
  if (t == 0) out[blockIdx.x] = flag;
}

// 7. Dynamic shared memory (extern __shared__), a missing barrier.
__global__ void dynamic_missing_barrier(const int* in, int* out) {
  int* cells = cg::dynamic_shared<int>();
  const unsigned t = threadIdx.x;
  cells[t] = in[t] * 2;       // mark:dynamic.write
  out[t] = cells[n - 1 - t];  // mark:dynamic.read
}

// 8. A lane reads its neighbour's value without __syncwarp().
__global__ void lane_exchange_without_syncwarp(const int* in, int* out) {
  __shared__ int lanes[32];
  const unsigned t = threadIdx.x;
  lanes[t] = in[t];       // mark:lane_exchange.write
  out[t] = lanes[t ^ 1];  // mark:lane_exchange.read
}

// 9. A split barrier read before its wait: the arrival alone orders nothing.
__global__ void read_between_arrive_and_wait(const int* in, int* out) {
  __shared__ int values[n];
  const cg::thread_block block = cg::this_thread_block();
  const unsigned t = block.thread_rank();
  values[t] = in[t];  // mark:split.write
  auto token = block.barrier_arrive();
  const int neighbour = values[(t + 1) % n];  // mark:split.read
  block.barrier_wait(std::move(token));
  out[t] = neighbour;
}

// 10. A tile's sync orders its own lanes only: a read of the other tile's
// value after tile.sync() races.
__global__ void tile_sync_for_other_tile(const int* in, int* out) {
  __shared__ int values[32];
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const unsigned t = threadIdx.x;
  values[t] = in[t];  // mark:tile_sync.write
  tile.sync();
  out[t] = values[t ^ 16];  // mark:tile_sync.read
}

// 11. A stencil whose halo is loaded by other threads, read before the barrier.
__global__ void stencil_halo_before_barrier(const int* in, int* out) {
  __shared__ int window[n + 2];
  const unsigned t = threadIdx.x;
  window[t + 1] = in[t + 1];  // mark:stencil.load
  if (t == 0) window[0] = in[0];
  if (t == n - 1) window[n + 1] = in[n + 1];
  out[t] = window[t] + window[t + 1] + window[t + 2];  // mark:stencil.sum
  __syncthreads();
}

// 12. A warp exchange through a byte array, unaligned 2-byte accesses that
// straddle two lanes' bytes.
__global__ void overlapping_narrow_accesses(unsigned short* out) {
  __shared__ unsigned char bytes[64];
  const unsigned t = threadIdx.x;
  bytes[t] = static_cast<unsigned char>(t);  // mark:narrow.write
  unsigned short pair;
  __builtin_memcpy(&pair, bytes + 2 * (t % 31) + 1, sizeof pair);  // mark:narrow.read
  out[t] = pair;
}

// 13. __syncwarp(mask) orders the lanes its mask names only: each half of the
// warp syncs by itself, and a lane then reads a lane of the other half.
__global__ void syncwarp_mask_too_narrow(const int* in, int* out) {
  __shared__ int lanes[32];
  const unsigned t = threadIdx.x;
  lanes[t] = in[t];  // mark:syncwarp_mask.write
  __syncwarp(t < 16 ? 0x0000FFFFu : 0xFFFF0000u);
  out[t] = lanes[(t + 8) % 32];  // mark:syncwarp_mask.read
}

class PlantedRace : public ::testing::Test {
 protected:
  cohort_test::scoped_env checks{"COHORT_CHECK", "races"};
  std::vector<int> ones = std::vector<int>(8 * n, 1);
  cg::device_buffer<int> in{ones};
  cg::device_buffer<int> out{std::vector<int>(8 * n, 0)};
};

TEST_F(PlantedRace, MissingBarrierBetweenWriteAndRead) {
  const auto e = race_test::race_error([&] { cg::launch(missing_barrier, {dim3(2), dim3(n)}, in.data(), out.data()); });
  const std::string m = e.what();
  // Thread 0 reads tile[1] before thread 1 has written it (the fiber engine
  // runs the block's threads in order): a read, then another thread's write.
  race_test::expect_race(m, "write-after-read", "missing_barrier.read", "missing_barrier.write");
  EXPECT_NE(m.find("data race in kernel `(anonymous namespace)::missing_barrier(int const*, int*)`"), std::string::npos)
      << m;
  EXPECT_NE(m.find("in block (0,0,0): thread (1,0,0) wrote at"), std::string::npos) << m;
  EXPECT_NE(m.find("thread (0,0,0) read at"), std::string::npos) << m;
  EXPECT_NE(
      m.find("offset 4 of __shared__ `(anonymous namespace)::missing_barrier(int const*, int*)::tile` (256 bytes)"),
      std::string::npos)
      << m;
  EXPECT_TRUE(std::regex_search(m, std::regex("address 0x[0-9a-f]+, offset"))) << m;
  EXPECT_EQ(race_test::distinct_races(m), 1) << m;
}

TEST_F(PlantedRace, ReductionTreeWithABarrierMissing) {
  const auto e =
      race_test::race_error([&] { cg::launch(reduction_missing_barrier, {dim3(1), dim3(n)}, in.data(), out.data()); });
  race_test::expect_race(e.what(), "write-after-read", "reduction_missing_barrier.step",
                         "reduction_missing_barrier.step");
}

TEST_F(PlantedRace, BufferReusedAcrossIterationsWithoutABarrier) {
  const auto e = race_test::race_error(
      [&] { cg::launch(buffer_reused_without_barrier, {dim3(1), dim3(n)}, in.data(), out.data(), 4); });
  race_test::expect_race(e.what(), "write-after-read", "buffer_reused.read", "buffer_reused.write");
}

TEST_F(PlantedRace, TiledMatmulWithItsBarrierBeforeTheLoads) {
  const unsigned side = 2 * tile_side;
  cg::device_buffer<float> a(std::vector<float>(side * side, 1.0f)), b(std::vector<float>(side * side, 1.0f)),
      c(std::vector<float>(side * side, 0.0f));
  const auto e = race_test::race_error([&] {
    cg::launch(tiled_matmul_barrier_misplaced, {dim3(1), dim3(tile_side, tile_side)}, a.data(), b.data(), c.data(),
               side);
  });
  race_test::expect_race(e.what(), "write-after-read", "matmul.product", "matmul.load_a");
}

TEST_F(PlantedRace, WarpSynchronousReductionWithoutSyncwarp) {
  const auto e = race_test::race_error(
      [&] { cg::launch(warp_reduction_without_syncwarp, {dim3(1), dim3(n)}, in.data(), out.data()); });
  // Lane 0 runs every step before lane 1 starts: it reads sums[1] at the
  // last step, lane 1 writes it at the first.
  race_test::expect_race(e.what(), "write-after-read", "warp_reduction.step1", "warp_reduction.step32");
  // Every pair of the six steps' lines races, one report per pair; the first ten in full.
  const std::string m = e.what();
  EXPECT_EQ(race_test::distinct_races(m), 20) << m;
  EXPECT_NE(m.find("; the first 10 in full\n"), std::string::npos) << m;
  EXPECT_NE(m.find("\n  10. "), std::string::npos) << m;
  EXPECT_EQ(m.find("\n  11. "), std::string::npos) << m;
  EXPECT_NE(m.find("\n  ... and 10 more\n"), std::string::npos) << m;
}

TEST_F(PlantedRace, TwoThreadsWriteOneWord) {
  const auto e = race_test::race_error([&] { cg::launch(two_writers, {dim3(1), dim3(n)}, out.data()); });
  race_test::expect_race(e.what(), "write-after-write", "two_writers.first", "two_writers.second");
  EXPECT_NE(std::string(e.what()).find("thread (5,0,0) wrote at"), std::string::npos) << e.what();
}

TEST_F(PlantedRace, DynamicSharedMemoryMissingBarrier) {
  const auto e = race_test::race_error(
      [&] { cg::launch(dynamic_missing_barrier, {dim3(1), dim3(n), n * sizeof(int)}, in.data(), out.data()); });
  const std::string m = e.what();
  race_test::expect_race(m, "write-after-read", "dynamic.read", "dynamic.write");
  EXPECT_NE(m.find("of dynamic shared memory"), std::string::npos) << m;
}

TEST_F(PlantedRace, LaneReadsItsNeighbourWithoutSyncwarp) {
  const auto e = race_test::race_error(
      [&] { cg::launch(lane_exchange_without_syncwarp, {dim3(1), dim3(32)}, in.data(), out.data()); });
  race_test::expect_race(e.what(), "write-after-read", "lane_exchange.read", "lane_exchange.write");
}

TEST_F(PlantedRace, SplitBarrierReadBeforeItsWait) {
  const auto e = race_test::race_error(
      [&] { cg::launch(read_between_arrive_and_wait, {dim3(1), dim3(n)}, in.data(), out.data()); });
  race_test::expect_race(e.what(), "write-after-read", "split.read", "split.write");
}

TEST_F(PlantedRace, TileSyncDoesNotOrderTheOtherTile) {
  const auto e =
      race_test::race_error([&] { cg::launch(tile_sync_for_other_tile, {dim3(1), dim3(32)}, in.data(), out.data()); });
  race_test::expect_race(e.what(), "read-after-write", "tile_sync.write", "tile_sync.read");
  // Within a tile the sync orders the write before the read: no report of that pair as read-after-write.
  EXPECT_EQ(race_test::distinct_races(e.what()), 1) << e.what();
}

TEST_F(PlantedRace, SyncwarpOrdersOnlyTheLanesOfItsMask) {
  const auto e =
      race_test::race_error([&] { cg::launch(syncwarp_mask_too_narrow, {dim3(1), dim3(32)}, in.data(), out.data()); });
  race_test::expect_race(e.what(), "write-after-read", "syncwarp_mask.read", "syncwarp_mask.write");
  // Lane 15 completes its half's sync and reads lane 23's slot before the
  // upper half has started; lane 23's write is the first to meet such a read.
  EXPECT_NE(std::string(e.what()).find("thread (23,0,0) wrote at"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("thread (15,0,0) read at"), std::string::npos) << e.what();
}

TEST_F(PlantedRace, StencilHaloReadBeforeTheBarrier) {
  const auto e = race_test::race_error(
      [&] { cg::launch(stencil_halo_before_barrier, {dim3(1), dim3(n)}, in.data(), out.data()); });
  race_test::expect_race(e.what(), "write-after-read", "stencil.sum", "stencil.load");
}

TEST_F(PlantedRace, UnalignedNarrowReadsOverlapTwoThreadsBytes) {
  cg::device_buffer<unsigned short> shorts(std::vector<unsigned short>(32, 0));
  const auto e =
      race_test::race_error([&] { cg::launch(overlapping_narrow_accesses, {dim3(1), dim3(32)}, shorts.data()); });
  race_test::expect_race(e.what(), "write-after-read", "narrow.read", "narrow.write");
}

// Instrumented kernels run unchecked, and report nothing, without the mode.
TEST(RaceChecking, IsOffWithoutCohortCheckRaces) {
  cg::device_buffer<int> in(std::vector<int>(n, 7)), out(std::vector<int>(n, 0));
  cg::launch(missing_barrier, {dim3(1), dim3(n)}, in.data(), out.data());
  // The fiber engine runs the threads in order: thread n-1 alone reads a slot already written.
  EXPECT_EQ(out.to_host()[n - 1], 7);
}

// A report names the lowest-numbered block whose threads raced, whatever the
// workers' order; every block is checked, not only the first.
TEST_F(PlantedRace, EveryBlockIsCheckedAndTheFirstIsReported) {
  const auto e = race_test::race_error([&] { cg::launch(two_writers, {dim3(8), dim3(n)}, out.data()); });
  EXPECT_NE(std::string(e.what()).find("write-after-write in block (0,0,0)"), std::string::npos) << e.what();
}

}  // namespace
