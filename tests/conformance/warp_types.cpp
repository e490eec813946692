// The shuffle family moves any trivially copyable type of up to 32 bytes
// (1, 2, 4, 8, 12, 16 and 32 bytes, bool, a padded struct, a complex
// number), bit for bit, on tiles of every kind of width.
#include <memory>

#include "warp_common.hpp"

namespace cg = cohort;
using warp_test::place_in_tile;

namespace {

template <class T, unsigned N>
__global__ void shuffle_type(const unsigned* args, unsigned arg_count, T* out) {
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<N>(block);
  const unsigned t = block.thread_rank(), threads = block.num_threads();
  const T v = warp_test::value_of<T>(t, N);
  for (unsigned k = 0; k < arg_count; ++k) {
    T* o = out + static_cast<size_t>(k) * 4 * threads + t;
    o[0] = tile.shfl(v, args[k]);
    o[threads] = tile.shfl_up(v, args[k]);
    o[2 * threads] = tile.shfl_down(v, args[k]);
    o[3 * threads] = tile.shfl_xor(v, args[k] % N);
  }
}

template <class T, unsigned N>
void check_type(unsigned threads) {
  std::vector<unsigned> args;
  for (unsigned a = 0; a <= N && a <= 40; ++a) args.push_back(a);
  if (N > 40) args.insert(args.end(), {N / 2, N - 1, N});
  cg::device_buffer<unsigned> d_args(args);
  const size_t count = args.size() * 4 * threads;
  cg::device_buffer<T> out(count);
  cg::launch(shuffle_type<T, N>, {dim3(1), dim3(threads)}, d_args.data(), static_cast<unsigned>(args.size()),
             out.data());
  const std::unique_ptr<T[]> got(new T[count]);  // not a vector: vector<bool> has no T*
  cg::copy_to_host(got.get(), out.data(), count);
  for (unsigned k = 0; k < args.size(); ++k) {
    for (unsigned t = 0; t < threads; ++t) {
      const auto p = place_in_tile(t, N, threads);
      const auto expect = [&](unsigned src) { return warp_test::value_of<T>(p.base + src, N); };
      const T* o = &got[static_cast<size_t>(k) * 4 * threads + t];
      SCOPED_TRACE(testing::Message() << sizeof(T) << "-byte type, tile " << N << ", argument " << args[k]
                                      << ", thread " << t);
      ASSERT_TRUE(warp_test::same_bytes(o[0], expect(warp_test::tile_shfl_source(p.rank, args[k], N, p.count))));
      ASSERT_TRUE(warp_test::same_bytes(o[threads], expect(warp_test::shfl_up_source(p.rank, args[k], p.count))));
      ASSERT_TRUE(warp_test::same_bytes(o[2 * threads], expect(warp_test::shfl_down_source(p.rank, args[k], p.count))));
      ASSERT_TRUE(
          warp_test::same_bytes(o[3 * threads], expect(warp_test::shfl_xor_source(p.rank, args[k] % N, p.count))));
    }
  }
}

template <class T>
class ShuffledTypes : public ::testing::Test {};

using exchanged_types = ::testing::Types<bool, unsigned char, short, int, float, double, long long, warp_test::bytes12,
                                         warp_test::bytes16, warp_test::bytes32, warp_test::mixed>;
TYPED_TEST_SUITE(ShuffledTypes, exchanged_types);

TYPED_TEST(ShuffledTypes, MoveBitForBitOnTilesOfEveryWidth) {
  check_type<TypeParam, 1>(64);
  check_type<TypeParam, 2>(64);
  check_type<TypeParam, 8>(96);
  check_type<TypeParam, 32>(128);
  check_type<TypeParam, 64>(256);
  check_type<TypeParam, 256>(512);
}

// match_any and match_all compare values bit for bit, for every type size.
template <class T, unsigned N>
__global__ void match_type(unsigned kinds, unsigned long long* any_out, unsigned long long* all_out) {
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<N>(block);
  const unsigned t = block.thread_rank();
  // `kinds` distinct values per tile; kinds == 1 makes every member agree.
  const T v = warp_test::value_of<T>(block.thread_rank() / N * 1000 + warp_test::mix(t) % kinds, 7);
  int pred = -1;
  any_out[t] = tile.match_any(v);
  all_out[t] = tile.match_all(v, pred) | (static_cast<unsigned long long>(pred) << 63);
}

template <class T, unsigned N>
void check_match(unsigned threads, unsigned kinds) {
  cg::device_buffer<unsigned long long> any_out(threads), all_out(threads);
  cg::launch(match_type<T, N>, {dim3(1), dim3(threads)}, kinds, any_out.data(), all_out.data());
  const auto any = any_out.to_host(), all = all_out.to_host();
  const auto value = [&](unsigned t) { return warp_test::value_of<T>(t / N * 1000 + warp_test::mix(t) % kinds, 7); };
  for (unsigned t = 0; t < threads; ++t) {
    const auto p = place_in_tile(t, N, threads);
    unsigned long long same = 0;
    bool everyone = true;
    for (unsigned r = 0; r < p.count; ++r) {
      if (warp_test::same_bytes(value(p.base + r), value(t))) same |= 1ull << r;
      everyone = everyone && warp_test::same_bytes(value(p.base + r), value(p.base));
    }
    SCOPED_TRACE(testing::Message() << sizeof(T) << "-byte type, tile " << N << ", thread " << t);
    ASSERT_EQ(any[t], same);
    const unsigned long long all_ranks = p.count == 64 ? ~0ull : (1ull << p.count) - 1;
    ASSERT_EQ(all[t], everyone ? all_ranks | (1ull << 63) : 0ull);
  }
}

TYPED_TEST(ShuffledTypes, MatchComparesBitForBit) {
  for (unsigned kinds : {1u, 2u, 5u}) {
    check_match<TypeParam, 4>(64, kinds);
    check_match<TypeParam, 32>(96, kinds);
  }
}

}  // namespace
