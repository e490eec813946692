// Votes on tiles of every size: any, all, and ballot, whose mask has bit r
// for rank r (unsigned up to 32 threads, unsigned long long for 64,
// cohort::lane_mask<N> beyond), including partial last tiles.
#include "warp_common.hpp"

namespace cg = cohort;
using warp_test::mix;
using warp_test::place_in_tile;

namespace {

// A ballot as 64-bit words, whatever its type.
template <class Mask>
__device__ unsigned long long word_of(const Mask& m, unsigned i) {
  if constexpr (sizeof(Mask) <= 8)
    return i == 0 ? static_cast<unsigned long long>(m) : 0ull;
  else
    return m.word(i);
}

constexpr unsigned words = 16;  // a ballot of 1024 ranks

// mode 0: random predicates; 1: everyone true; 2: everyone false; 3: only rank 0.
template <unsigned N>
__global__ void __launch_bounds__(1024)
    votes(unsigned salt, unsigned mode, int* any_out, int* all_out, unsigned long long* ballot_out) {
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<N>(block);
  const unsigned t = block.thread_rank();
  const int pred = mode == 0   ? static_cast<int>(mix(t + salt) % 3 == 0) * static_cast<int>(mix(t) % 7 + 1)
                   : mode == 1 ? 5
                   : mode == 2 ? 0
                               : static_cast<int>(tile.thread_rank() == 0);
  any_out[t] = tile.any(pred);
  all_out[t] = tile.all(pred);
  const auto ballot = tile.ballot(pred);
  static_assert(sizeof(ballot) * 8 >= N, "a ballot has a bit for every rank");
  for (unsigned i = 0; i < words; ++i) ballot_out[t * words + i] = i < (N + 63) / 64 ? word_of(ballot, i) : 0ull;
}

bool predicate(unsigned t, unsigned salt, unsigned mode, unsigned rank) {
  switch (mode) {
    case 0:
      return mix(t + salt) % 3 == 0;
    case 1:
      return true;
    case 2:
      return false;
    default:
      return rank == 0;
  }
}

class TileVotes : public ::testing::TestWithParam<unsigned> {};

TEST_P(TileVotes, AnyAllAndBallotInRankSpace) {
  const unsigned threads = GetParam();
  const unsigned salt = static_cast<unsigned>(cohort_test::test_seed());
  for (unsigned mode = 0; mode < 4; ++mode) {
    warp_test::for_each_tile_size([&](auto size) {
      constexpr unsigned n = decltype(size)::value;
      auto any_out = cohort_test::poisoned<int>(threads, -1), all_out = cohort_test::poisoned<int>(threads, -1);
      auto ballot_out = cohort_test::poisoned<unsigned long long>(threads * words, 0xDEADBEEFull);
      cg::launch(votes<n>, {dim3(1), dim3(threads)}, salt, mode, any_out.data(), all_out.data(), ballot_out.data());
      const auto any = any_out.to_host(), all = all_out.to_host();
      const auto ballot = ballot_out.to_host();
      for (unsigned t = 0; t < threads; ++t) {
        const auto p = place_in_tile(t, n, threads);
        unsigned long long expected[words] = {};
        bool some = false, every = true;
        for (unsigned r = 0; r < p.count; ++r) {
          const bool v = predicate(p.base + r, salt, mode, r);
          some = some || v;
          every = every && v;
          if (v) expected[r / 64] |= 1ull << (r % 64);
        }
        SCOPED_TRACE(testing::Message() << "tile " << n << ", mode " << mode << ", thread " << t << ", salt " << salt);
        ASSERT_EQ(any[t] != 0, some);
        ASSERT_EQ(all[t] != 0, every);
        for (unsigned i = 0; i < words; ++i) ASSERT_EQ(ballot[t * words + i], expected[i]) << "word " << i;
      }
    });
  }
}

INSTANTIATE_TEST_SUITE_P(BlockSizes, TileVotes, ::testing::Values(1024u, 300u, 40u));

// A ballot of a wide tile is a lane_mask: test(), count() and the operators
// agree with the ranks that voted.
__global__ void wide_ballot(unsigned* out) {
  const auto tile = cg::tiled_partition<256>(cg::this_thread_block());
  const unsigned r = tile.thread_rank();
  const cg::lane_mask<256> odd = tile.ballot(r % 2 == 1), low = tile.ballot(r < 100);
  out[cg::this_thread_block().thread_rank()] = (odd & low).count() * 1000000u + (odd | low).count() * 1000u +
                                               static_cast<unsigned>(odd.test(r)) * 10u +
                                               static_cast<unsigned>((~odd).test(r));
}

TEST(TileVotes, WideBallotIsALaneMask) {
  auto out = cohort_test::poisoned<unsigned>(512, 0xDEADBEEF);
  cg::launch(wide_ballot, {dim3(1), dim3(512)}, out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < 512; ++t) {
    const unsigned r = t % 256;
    ASSERT_EQ(got[t], 50u * 1000000u + 178u * 1000u + (r % 2) * 10u + (1 - r % 2)) << t;
  }
}

}  // namespace
