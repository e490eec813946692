// reduce and the scans on tiles of every size from 1 to 1024, in blocks whose
// size is a multiple of none of them, of all of them, and 3-D, for a
// commutative operator and a non-commutative one: partial last tiles fold
// exactly their threads, in rank order.
#include "collectives_common.hpp"

namespace cg = cohort;

namespace {

constexpr unsigned sizes = 11;  // 1, 2, 4, ..., 1024

template <unsigned N, class T, class Op>
__device__ void record_tile(const T& v, T* out, unsigned long long total, unsigned long long g) {
  const auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  constexpr unsigned k = __builtin_ctz(N);
  out[(k * 3 + 0) * total + g] = cg::reduce(tile, v, Op());
  out[(k * 3 + 1) * total + g] = cg::inclusive_scan(tile, v, Op());
  out[(k * 3 + 2) * total + g] = cg::exclusive_scan(tile, v, Op());
}

template <class T, class Op, unsigned... N>
__global__ void __launch_bounds__(1024) every_tile_size(const T* in, T* out) {
  const cg::thread_block block = cg::this_thread_block();
  const unsigned long long total = static_cast<unsigned long long>(gridDim.x) * block.size();
  const unsigned long long g = blockIdx.x * block.size() + block.thread_rank();
  const T v = in[g];
  (record_tile<N, T, Op>(v, out, total, g), ...);
}

template <class T, class Op>
void check_every_tile_size(dim3 shape) {
  const unsigned threads = warp_test::threads_of(shape), blocks = 2, total = blocks * threads;
  const std::vector<T> in = coll_test::inputs<T>(total, static_cast<unsigned>(cohort_test::test_seed()));
  cg::device_buffer<T> d_in(in);
  cg::device_buffer<T> out(sizes * 3 * total);
  cg::launch(every_tile_size<T, Op, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024>, {dim3(blocks), shape}, d_in.data(),
             out.data());
  const std::vector<T> got = out.to_host();
  for (unsigned k = 0; k < sizes; ++k) {
    const unsigned n = 1u << k;
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned base = 0; base < threads; base += n) {
        const unsigned first = b * threads + base, count = std::min(n, threads - base);
        const auto f = coll_test::fold(std::vector<T>(in.begin() + first, in.begin() + first + count), Op{});
        for (unsigned r = 0; r < count; ++r) {
          SCOPED_TRACE(testing::Message() << "tile of " << n << ", block " << b << ", thread " << base + r);
          ASSERT_TRUE(got[(k * 3 + 0) * total + first + r] == f.total) << "reduce";
          ASSERT_TRUE(got[(k * 3 + 1) * total + first + r] == f.inclusive[r]) << "inclusive_scan";
          ASSERT_TRUE(got[(k * 3 + 2) * total + first + r] == f.exclusive[r]) << "exclusive_scan";
        }
      }
  }
}

class EveryTileSize : public ::testing::TestWithParam<dim3> {};

TEST_P(EveryTileSize, PlusOverInt) { check_every_tile_size<int, cg::plus<int>>(GetParam()); }
TEST_P(EveryTileSize, MatrixProductInRankOrder) {
  check_every_tile_size<coll_test::mat2, coll_test::mat_mul>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Shapes, EveryTileSize, ::testing::Values(dim3(1024), dim3(1000), dim3(33, 3, 3), dim3(1)));

// Tiles of tiles fold their own threads.
template <unsigned M, unsigned N>
__global__ void nested_tiles(const int* in, int* out) {
  const auto parent = cg::tiled_partition<M>(cg::this_thread_block());
  const auto child = cg::tiled_partition<N>(parent);
  const unsigned t = cg::this_thread_block().thread_rank();
  out[t] = cg::inclusive_scan(child, in[t], cg::plus<int>()) * 1000 + cg::reduce(child, in[t] & 7, cg::greater<int>());
}

TEST(TileCollectives, TilesOfTiles) {
  const unsigned threads = 300;
  std::vector<int> in = coll_test::inputs<int>(threads, 5);
  cg::device_buffer<int> d_in(in), out(threads);
  cg::launch(nested_tiles<64, 16>, {dim3(1), dim3(threads)}, d_in.data(), out.data());
  const auto got = out.to_host();
  for (unsigned base = 0; base < threads; base += 16) {
    const unsigned count = std::min(16u, threads - base);
    int sum = 0, peak = -1000;
    for (unsigned r = 0; r < count; ++r) peak = std::max(peak, in[base + r] & 7);
    for (unsigned r = 0; r < count; ++r) {
      sum += in[base + r];
      ASSERT_EQ(got[base + r], sum * 1000 + peak) << "thread " << base + r;
    }
  }
}

}  // namespace
