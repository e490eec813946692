// NVIDIA's <cooperative_groups.h> as the oracle for the warp level and the
// collectives: the same kernel asks cohort and NVIDIA the same questions about
// tiles (1 to 128 threads), coalesced groups of random active masks and their
// partitions, and the answers must agree element by element. Every question
// stays inside what NVIDIA defines: full tiles (NVIDIA requires the block to
// be a multiple of the tile), shuffle arguments below the group's size,
// uniform sources on tiles wider than a warp, exact floating-point sums, and
// the exclusive scan of rank 0 only for plus (whose identity NVIDIA returns).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <gtest/gtest.h>

#include <cohort/cohort.hpp>
#include <cstring>
#include <random>
#include <vector>

#include "test_support.hpp"

namespace cg = cohort;
namespace ncg = cooperative_groups;

namespace {

using cohort_test::mix;

struct pair16 {
  double a;
  long long b;
};

// The two implementations behind one interface, so that one kernel body asks both.
struct cohort_api {
  static __device__ auto block() { return cg::this_thread_block(); }
  template <unsigned N, class B>
  static __device__ auto tile(const B& b) {
    return cg::tiled_partition<N>(b);
  }
  static __device__ auto coalesced() { return cg::coalesced_threads(); }
  template <class G, class T>
  static __device__ T sum(const G& g, T v) {
    return cg::reduce(g, v, cg::plus<T>());
  }
  template <class G, class T>
  static __device__ T least(const G& g, T v) {
    return cg::reduce(g, v, cg::less<T>());
  }
  template <class G, class T>
  static __device__ T most(const G& g, T v) {
    return cg::reduce(g, v, cg::greater<T>());
  }
  template <class G, class T>
  static __device__ T bits(const G& g, T v) {
    return cg::reduce(g, v, cg::bit_xor<T>()) ^ cg::reduce(g, v, cg::bit_and<T>()) ^ cg::reduce(g, v, cg::bit_or<T>());
  }
  template <class G, class T>
  static __device__ T inclusive(const G& g, T v) {
    return cg::inclusive_scan(g, v);
  }
  template <class G, class T>
  static __device__ T exclusive(const G& g, T v) {
    return cg::exclusive_scan(g, v);
  }
  template <class G, class T>
  static __device__ T running_max(const G& g, T v) {
    return cg::inclusive_scan(g, v, cg::greater<T>());
  }
  template <class G>
  static __device__ auto binary(const G& g, bool pred) {
    return cg::binary_partition(g, pred);
  }
  template <class G>
  static __device__ auto labeled(const G& g, int label) {
    return cg::labeled_partition(g, label);
  }
  template <class G>
  static __device__ auto tiles_of_4(const G& g) {
    return cg::tiled_partition(g, 4);
  }
};

struct nvidia_api {
  static __device__ auto block() { return ncg::this_thread_block(); }
  template <unsigned N, class B>
  static __device__ auto tile(const B& b) {
    return ncg::tiled_partition<N>(b);
  }
  static __device__ auto coalesced() { return ncg::coalesced_threads(); }
  template <class G, class T>
  static __device__ T sum(const G& g, T v) {
    return ncg::reduce(g, v, ncg::plus<T>());
  }
  template <class G, class T>
  static __device__ T least(const G& g, T v) {
    return ncg::reduce(g, v, ncg::less<T>());
  }
  template <class G, class T>
  static __device__ T most(const G& g, T v) {
    return ncg::reduce(g, v, ncg::greater<T>());
  }
  template <class G, class T>
  static __device__ T bits(const G& g, T v) {
    return ncg::reduce(g, v, ncg::bit_xor<T>()) ^ ncg::reduce(g, v, ncg::bit_and<T>()) ^
           ncg::reduce(g, v, ncg::bit_or<T>());
  }
  template <class G, class T>
  static __device__ T inclusive(const G& g, T v) {
    return ncg::inclusive_scan(g, v);
  }
  template <class G, class T>
  static __device__ T exclusive(const G& g, T v) {
    return ncg::exclusive_scan(g, v);
  }
  template <class G, class T>
  static __device__ T running_max(const G& g, T v) {
    return ncg::inclusive_scan(g, v, ncg::greater<T>());
  }
  template <class G>
  static __device__ auto binary(const G& g, bool pred) {
    return ncg::binary_partition(g, pred);
  }
  template <class G>
  static __device__ auto labeled(const G& g, int label) {
    return ncg::labeled_partition(g, label);
  }
  template <class G>
  static __device__ auto tiles_of_4(const G& g) {
    return ncg::tiled_partition(g, 4);
  }
};

template <class T>
__device__ unsigned long long bits_of(const T& v) {
  unsigned long long b = 0;
  memcpy(&b, &v, sizeof(T) < 8 ? sizeof(T) : 8);
  return b;
}

// ---- Tiles ----

const char* const tile_question_names[] = {"thread_rank",
                                           "num_threads",
                                           "meta_group_rank",
                                           "meta_group_size",
                                           "shfl(uniform source)",
                                           "reduce plus",
                                           "reduce less",
                                           "reduce greater",
                                           "reduce bit ops",
                                           "reduce plus float",
                                           "inclusive_scan",
                                           "exclusive_scan",
                                           "inclusive_scan greater",
                                           "any",
                                           "all",
                                           "shfl(own source)",
                                           "shfl_up",
                                           "shfl_down",
                                           "shfl_xor",
                                           "ballot",
                                           "match_any",
                                           "match_all",
                                           "match_all pred",
                                           "shfl double",
                                           "shfl 16 bytes (a)",
                                           "shfl 16 bytes (b)"};
constexpr unsigned tile_questions = sizeof(tile_question_names) / sizeof(tile_question_names[0]);
constexpr unsigned wide_tile_questions = 15;  // what NVIDIA offers tiles wider than a warp

template <class Api, unsigned N>
__device__ void ask_tile(unsigned salt, unsigned long long* a) {
  const auto tile = Api::template tile<N>(Api::block());
  const unsigned t = threadIdx.x, r = tile.thread_rank();
  const int v = static_cast<int>(mix(t + salt) % 2001) - 1000;
  const unsigned uniform_source = mix(blockIdx.x + salt) % N;
  unsigned i = 0;
  a[i++] = r;
  a[i++] = tile.num_threads();
  a[i++] = tile.meta_group_rank();
  a[i++] = tile.meta_group_size();
  a[i++] = static_cast<unsigned>(tile.shfl(v, uniform_source));
  a[i++] = static_cast<unsigned>(Api::sum(tile, v));
  a[i++] = static_cast<unsigned>(Api::least(tile, v));
  a[i++] = static_cast<unsigned>(Api::most(tile, static_cast<unsigned>(v)));
  a[i++] = Api::bits(tile, static_cast<unsigned>(v) * 2654435761u);
  a[i++] = bits_of(Api::sum(tile, static_cast<float>(v)));  // small integers: exact in any order
  a[i++] = static_cast<unsigned>(Api::inclusive(tile, v));
  a[i++] = static_cast<unsigned>(Api::exclusive(tile, v));
  a[i++] = static_cast<unsigned>(Api::running_max(tile, v));
  a[i++] = tile.any(v % 7 == 0);
  a[i++] = tile.all(v % 7 != 0);
  if constexpr (N <= 32) {
    const unsigned arg = mix(t * 3 + salt) % N;  // per member, below the tile's size
    const double d = v * 0.5;
    const pair16 p{v * 0.25, static_cast<long long>(v) << 33};
    int pred = -1;
    a[i++] = static_cast<unsigned>(tile.shfl(v, arg));
    a[i++] = static_cast<unsigned>(tile.shfl_up(v, arg));
    a[i++] = static_cast<unsigned>(tile.shfl_down(v, arg));
    a[i++] = static_cast<unsigned>(tile.shfl_xor(v, arg));
    a[i++] = tile.ballot(v & 1);
    a[i++] = tile.match_any(v % 3);
    a[i++] = tile.match_all(N == 1 ? v : v % 2, pred);
    a[i++] = static_cast<unsigned>(pred);
    a[i++] = bits_of(tile.shfl(d, arg));
    const pair16 q = tile.shfl(p, arg);
    a[i++] = bits_of(q.a);
    a[i++] = static_cast<unsigned long long>(q.b);
  }
}

template <unsigned N>
__global__ void tile_oracle(unsigned salt, unsigned long long* ours, unsigned long long* theirs) {
  const unsigned long long me = blockIdx.x * blockDim.x + threadIdx.x;
  ask_tile<cohort_api, N>(salt, ours + me * tile_questions);
  ask_tile<nvidia_api, N>(salt, theirs + me * tile_questions);
}

template <unsigned N>
void compare_tiles(unsigned threads, unsigned salt) {
  const unsigned blocks = 3, total = blocks * threads;
  const unsigned asked = N <= 32 ? tile_questions : wide_tile_questions;
  auto ours = cohort_test::poisoned<unsigned long long>(static_cast<size_t>(total) * tile_questions, 0xA5A5A5A5ull);
  auto theirs = cohort_test::poisoned<unsigned long long>(static_cast<size_t>(total) * tile_questions, 0xA5A5A5A5ull);
  cg::launch(tile_oracle<N>, {dim3(blocks), dim3(threads)}, salt, ours.data(), theirs.data());
  const auto a = ours.to_host(), b = theirs.to_host();
  for (unsigned t = 0; t < total; ++t)
    for (unsigned q = 0; q < asked; ++q)
      ASSERT_EQ(a[t * tile_questions + q], b[t * tile_questions + q])
          << "tile of " << N << ", block of " << threads << ", thread " << t << ": " << tile_question_names[q];
}

TEST(OracleTiles, EverySizeAgreesWithNvidia) {
  const unsigned salt = static_cast<unsigned>(cohort_test::test_seed());
  for (const unsigned threads : {128u, 256u}) {
    compare_tiles<1>(threads, salt);
    compare_tiles<2>(threads, salt);
    compare_tiles<4>(threads, salt);
    compare_tiles<8>(threads, salt);
    compare_tiles<16>(threads, salt);
    compare_tiles<32>(threads, salt);
    compare_tiles<64>(threads, salt);
    compare_tiles<128>(threads, salt);
  }
}

// ---- Coalesced groups and partitions ----

const char* const coalesced_question_names[] = {"thread_rank",
                                                "num_threads",
                                                "meta_group_rank",
                                                "meta_group_size",
                                                "shfl",
                                                "shfl_up",
                                                "shfl_down",
                                                "any",
                                                "all",
                                                "ballot",
                                                "match_any",
                                                "match_all",
                                                "match_all pred",
                                                "reduce plus",
                                                "reduce less",
                                                "inclusive_scan",
                                                "exclusive_scan",
                                                "binary.num_threads",
                                                "binary.thread_rank",
                                                "binary.meta_group_rank",
                                                "binary.meta_group_size",
                                                "labeled.num_threads",
                                                "labeled.thread_rank",
                                                "labeled.meta_group_rank",
                                                "labeled.meta_group_size",
                                                "labeled.shfl(v, 0)",
                                                "tiles_of_4.num_threads",
                                                "tiles_of_4.thread_rank",
                                                "tiles_of_4.meta_group_rank",
                                                "tiles_of_4.meta_group_size",
                                                "tile<16> labeled.thread_rank",
                                                "tile<16> binary.meta_group_rank"};
constexpr unsigned coalesced_questions = sizeof(coalesced_question_names) / sizeof(coalesced_question_names[0]);

template <class Api>
__device__ void ask_coalesced(unsigned long long mask, unsigned salt, unsigned long long* a) {
  const unsigned t = threadIdx.x, lane = t % 32;
  const int v = static_cast<int>(mix(t + salt) % 2001) - 1000;
  // Every lane asks about its tile of 16 first, in converged code.
  const auto sixteen = Api::template tile<16>(Api::block());
  a[30] = Api::labeled(sixteen, v % 3).thread_rank();
  a[31] = Api::binary(sixteen, v & 1).meta_group_rank();
  if (((mask >> lane) & 1) == 0) return;
  const auto g = Api::coalesced();
  const unsigned n = g.num_threads();
  const unsigned arg = mix(t * 3 + salt) % n;
  int pred = -1;
  unsigned i = 0;
  a[i++] = g.thread_rank();
  a[i++] = n;
  a[i++] = g.meta_group_rank();
  a[i++] = g.meta_group_size();
  a[i++] = static_cast<unsigned>(g.shfl(v, arg));
  a[i++] = static_cast<unsigned>(g.shfl_up(v, arg));
  a[i++] = static_cast<unsigned>(g.shfl_down(v, arg));
  a[i++] = g.any(v % 7 == 0);
  a[i++] = g.all(v % 7 != 0);
  a[i++] = g.ballot(v & 1);
  a[i++] = g.match_any(v % 3);
  a[i++] = g.match_all(n == 1 ? v : v % 2, pred);
  a[i++] = static_cast<unsigned>(pred);
  a[i++] = static_cast<unsigned>(Api::sum(g, v));
  a[i++] = static_cast<unsigned>(Api::least(g, v));
  a[i++] = static_cast<unsigned>(Api::inclusive(g, v));
  a[i++] = static_cast<unsigned>(Api::exclusive(g, v));
  const auto b = Api::binary(g, (v & 4) != 0);
  a[i++] = b.num_threads();
  a[i++] = b.thread_rank();
  a[i++] = b.meta_group_rank();
  a[i++] = b.meta_group_size();
  const auto l = Api::labeled(g, v % 5);
  a[i++] = l.num_threads();
  a[i++] = l.thread_rank();
  a[i++] = l.meta_group_rank();
  a[i++] = l.meta_group_size();
  a[i++] = static_cast<unsigned>(l.shfl(v, 0));
  const auto four = Api::tiles_of_4(g);
  a[i++] = four.num_threads();
  a[i++] = four.thread_rank();
  a[i++] = four.meta_group_rank();
  a[i++] = four.meta_group_size();
}

__global__ void coalesced_oracle(const unsigned long long* masks, unsigned salt, unsigned long long* ours,
                                 unsigned long long* theirs) {
  const unsigned long long me = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long mask = masks[me / 32];
  ask_coalesced<cohort_api>(mask, salt, ours + me * coalesced_questions);
  ask_coalesced<nvidia_api>(mask, salt, theirs + me * coalesced_questions);
}

TEST(OracleCoalesced, GroupsOfRandomMasksAndTheirPartitionsAgreeWithNvidia) {
  const unsigned threads = 256, blocks = 2, total = threads * blocks;
  std::mt19937_64 random(cohort_test::test_seed());
  for (unsigned round = 0; round < 4; ++round) {
    std::vector<unsigned long long> masks(total / 32);
    for (auto& m : masks) m = round == 0 ? 0xFFFFFFFFull : random() & 0xFFFFFFFFull;
    if (round == 2)
      for (auto& m : masks) m &= m >> 1;  // sparse
    masks[0] = 1;                         // a group of one
    cg::device_buffer<unsigned long long> d_masks(masks);
    auto ours = cohort_test::poisoned<unsigned long long>(static_cast<size_t>(total) * coalesced_questions, 77);
    auto theirs = cohort_test::poisoned<unsigned long long>(static_cast<size_t>(total) * coalesced_questions, 77);
    const unsigned salt = static_cast<unsigned>(random());
    cg::launch(coalesced_oracle, {dim3(blocks), dim3(threads)}, d_masks.data(), salt, ours.data(), theirs.data());
    const auto a = ours.to_host(), b = theirs.to_host();
    for (unsigned t = 0; t < total; ++t)
      for (unsigned q = 0; q < coalesced_questions; ++q)
        ASSERT_EQ(a[t * coalesced_questions + q], b[t * coalesced_questions + q])
            << "round " << round << ", mask 0x" << std::hex << masks[t / 32] << std::dec << ", thread " << t << ": "
            << coalesced_question_names[q];
  }
}

}  // namespace
