// NVIDIA's <cooperative_groups.h> as the oracle: the same kernel asks cohort
// and NVIDIA every question about thread_block, grid_group and thread_group,
// and the answers must agree element by element, over 1-D, 2-D and 3-D odd
// shapes, in cooperative and plain launches. Then the same multi-round
// computation synchronized by NVIDIA's grid.sync() and by cohort's must give
// identical results (and the CPU's).
#include <cooperative_groups.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cohort/cohort.hpp>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "test_support.hpp"

namespace cg = cohort;
namespace ncg = cooperative_groups;

namespace {

// The questions, in the order both implementations answer them.
const char* const question_names[] = {"block.thread_rank",
                                      "block.num_threads",
                                      "block.size",
                                      "block.group_index.x",
                                      "block.group_index.y",
                                      "block.group_index.z",
                                      "block.thread_index.x",
                                      "block.thread_index.y",
                                      "block.thread_index.z",
                                      "block.dim_threads.x",
                                      "block.dim_threads.y",
                                      "block.dim_threads.z",
                                      "block.group_dim.x",
                                      "block.group_dim.y",
                                      "block.group_dim.z",
                                      "grid.is_valid",
                                      "grid.thread_rank",
                                      "grid.block_rank",
                                      "grid.cluster_rank",
                                      "grid.num_threads",
                                      "grid.num_blocks",
                                      "grid.num_clusters",
                                      "grid.size",
                                      "grid.dim_blocks.x",
                                      "grid.dim_blocks.y",
                                      "grid.dim_blocks.z",
                                      "grid.dim_clusters.x",
                                      "grid.dim_clusters.y",
                                      "grid.dim_clusters.z",
                                      "grid.block_index.x",
                                      "grid.block_index.y",
                                      "grid.block_index.z",
                                      "grid.cluster_index.x",
                                      "grid.cluster_index.y",
                                      "grid.cluster_index.z",
                                      "grid.group_dim.x",
                                      "grid.group_dim.y",
                                      "grid.group_dim.z",
                                      "erased(block).thread_rank",
                                      "erased(block).num_threads",
                                      "erased(block).size",
                                      "erased(grid).thread_rank",
                                      "erased(grid).num_threads",
                                      "erased(grid).size",
                                      "thread_rank(block)",
                                      "group_size(block)",
                                      "thread_rank(grid)",
                                      "group_size(grid)"};
constexpr int questions = sizeof(question_names) / sizeof(question_names[0]);

template <class Block, class Grid, class Erased>
__device__ void answer(unsigned long long* a, const Block& block, const Grid& grid) {
  int i = 0;
  auto put = [&](unsigned long long v) { a[i++] = v; };
  auto put3 = [&](dim3 d) {
    put(d.x);
    put(d.y);
    put(d.z);
  };
  put(block.thread_rank());
  put(block.num_threads());
  put(block.size());
  put3(block.group_index());
  put3(block.thread_index());
  put3(block.dim_threads());
  put3(block.group_dim());
  put(grid.is_valid());
  put(grid.thread_rank());
  put(grid.block_rank());
  put(grid.cluster_rank());
  put(grid.num_threads());
  put(grid.num_blocks());
  put(grid.num_clusters());
  put(grid.size());
  put3(grid.dim_blocks());
  put3(grid.dim_clusters());
  put3(grid.block_index());
  put3(grid.cluster_index());
  put3(grid.group_dim());
  const Erased erased_block = block;
  put(erased_block.thread_rank());
  if constexpr (std::is_same_v<Erased, cg::thread_group>) {
    put(erased_block.num_threads());
    put(erased_block.size());
    const Erased erased_grid = grid;
    put(erased_grid.thread_rank());
    put(erased_grid.num_threads());
    put(erased_grid.size());
  } else {
    // NVIDIA's thread_group declares num_threads() but defines only size(); and a grid_group
    // erased to a thread_group loses its type (the workspace pointer overwrites the type bits
    // in its union), answering 0 for everything. The typed grid's answers stand in for them.
    put(erased_block.size());
    put(erased_block.size());
    put(grid.thread_rank());
    put(grid.num_threads());
    put(grid.size());
  }
}

__global__ void ask_both(unsigned long long* ours, unsigned long long* theirs) {
  const unsigned long long me = cg::this_grid().thread_rank();
  unsigned long long* a = ours + me * questions;
  unsigned long long* b = theirs + me * questions;
  const cg::thread_block cb = cg::this_thread_block();
  const cg::grid_group cgrid = cg::this_grid();
  answer<cg::thread_block, cg::grid_group, cg::thread_group>(a, cb, cgrid);
  a[questions - 4] = cg::thread_rank(cb);
  a[questions - 3] = cg::group_size(cb);
  a[questions - 2] = cg::thread_rank(cgrid);
  a[questions - 1] = cg::group_size(cgrid);
  const ncg::thread_block nb = ncg::this_thread_block();
  const ncg::grid_group ngrid = ncg::this_grid();
  answer<ncg::thread_block, ncg::grid_group, ncg::thread_group>(b, nb, ngrid);
  b[questions - 4] = ncg::thread_rank(nb);
  b[questions - 3] = ncg::group_size(nb);
  b[questions - 2] = ncg::thread_rank(ngrid);
  b[questions - 1] = ncg::group_size(ngrid);
}

struct shape {
  dim3 grid, block;
};

std::string describe(const shape& s) {
  return "grid " + cg::detail::to_string(s.grid) + " block " + cg::detail::to_string(s.block);
}

void PrintTo(const shape& s, std::ostream* os) { *os << describe(s); }

class OracleQueries : public ::testing::TestWithParam<shape> {};

void compare_queries(const shape& s, bool cooperative) {
  const std::size_t threads = cohort_test::volume(s.grid) * cohort_test::volume(s.block);
  auto ours = cohort_test::poisoned<unsigned long long>(threads * questions, 0xA5A5A5A5A5A5A5A5ull);
  auto theirs = cohort_test::poisoned<unsigned long long>(threads * questions, 0x5A5A5A5A5A5A5A5Aull);
  if (cooperative)
    cg::launch_cooperative(ask_both, {s.grid, s.block}, ours.data(), theirs.data());
  else
    cg::launch(ask_both, {s.grid, s.block}, ours.data(), theirs.data());
  const auto a = ours.to_host(), b = theirs.to_host();
  for (std::size_t t = 0; t < threads; ++t)
    for (int q = 0; q < questions; ++q)
      ASSERT_EQ(a[t * questions + q], b[t * questions + q])
          << describe(s) << (cooperative ? " cooperative" : " plain") << ", thread " << t << ", " << question_names[q];
}

TEST_P(OracleQueries, AgreeInAPlainLaunch) { compare_queries(GetParam(), false); }
TEST_P(OracleQueries, AgreeInACooperativeLaunch) { compare_queries(GetParam(), true); }

INSTANTIATE_TEST_SUITE_P(Shapes, OracleQueries,
                         ::testing::Values(shape{dim3(1), dim3(1)}, shape{dim3(7), dim3(128)},
                                           shape{dim3(3), dim3(1024)}, shape{dim3(4, 3), dim3(16, 8)},
                                           shape{dim3(5, 3, 2), dim3(33, 3, 3)}, shape{dim3(2, 2, 3), dim3(7, 5, 3)},
                                           shape{dim3(1, 1, 9), dim3(1, 1, 64)},
                                           shape{dim3(13, 1, 1), dim3(1, 33, 1)}));

// A computation whose every round reads what other blocks wrote in the round
// before: out-of-block neighbours at strides that cross block boundaries.
template <bool Nvidia>
__global__ void rounds_of_mixing(unsigned* a, unsigned* b, int rounds, bool split) {
  const unsigned long long n = cg::grid_group::num_threads();
  const unsigned long long i = cg::grid_group::thread_rank();
  for (int r = 0; r < rounds; ++r) {
    const unsigned* in = r % 2 ? b : a;
    unsigned* out = r % 2 ? a : b;
    const unsigned left = in[(i + n - 1 - 97ull * r % n) % n], right = in[(i + 1 + 31ull * r) % n];
    out[i] = in[i] * 2654435761u + (left ^ (right >> 3)) + static_cast<unsigned>(r);
    if constexpr (Nvidia) {
      const ncg::grid_group grid = ncg::this_grid();
      if (split) {
        auto token = grid.barrier_arrive();
        grid.barrier_wait(std::move(token));
      } else {
        grid.sync();
      }
    } else {
      const cg::grid_group grid = cg::this_grid();
      if (split) {
        auto token = grid.barrier_arrive();
        grid.barrier_wait(std::move(token));
      } else {
        grid.sync();
      }
    }
  }
}

std::vector<unsigned> mix_on_cpu(std::vector<unsigned> a, int rounds) {
  const std::size_t n = a.size();
  std::vector<unsigned> b(n);
  for (int r = 0; r < rounds; ++r) {
    const auto& in = r % 2 ? b : a;
    auto& out = r % 2 ? a : b;
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned left = in[(i + n - 1 - 97ull * r % n) % n], right = in[(i + 1 + 31ull * r) % n];
      out[i] = in[i] * 2654435761u + (left ^ (right >> 3)) + static_cast<unsigned>(r);
    }
  }
  return rounds % 2 ? b : a;
}

template <bool Nvidia>
std::vector<unsigned> mix_on_gpu(const shape& s, const std::vector<unsigned>& input, int rounds, bool split) {
  cg::device_buffer<unsigned> a(input);
  auto b = cohort_test::poisoned<unsigned>(input.size(), 0xDEADBEEF);
  cg::launch_cooperative(rounds_of_mixing<Nvidia>, {s.grid, s.block}, a.data(), b.data(), rounds, split);
  return rounds % 2 ? b.to_host() : a.to_host();
}

void compare_mixing(const shape& s, bool announce) {
  const std::size_t n = cohort_test::volume(s.grid) * cohort_test::volume(s.block);
  const auto input = cohort_test::random_vector<unsigned>(n, cohort_test::test_seed(), 1, 0xFFFFFFFFu);
  for (const bool split : {false, true}) {
    for (const int rounds : {1, 2, 57}) {
      // Printed before each launch, so that a barrier that hangs is named by the last line.
      if (announce) std::printf("[ oracle ] %s, %d rounds%s\n", describe(s).c_str(), rounds, split ? ", split" : "");
      std::fflush(stdout);
      const auto expected = mix_on_cpu(input, rounds);
      const auto nvidia = mix_on_gpu<true>(s, input, rounds, split);
      const auto cohort = mix_on_gpu<false>(s, input, rounds, split);
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(nvidia[i], expected[i]) << describe(s) << ": NVIDIA differs from the CPU at " << i;
        ASSERT_EQ(cohort[i], nvidia[i]) << describe(s) << (split ? " split" : "") << ", " << rounds
                                        << " rounds: cohort differs from NVIDIA at element " << i;
      }
    }
  }
}

class OracleGridSync : public ::testing::TestWithParam<shape> {};

TEST_P(OracleGridSync, SameResultsAsNvidia) { compare_mixing(GetParam(), false); }

INSTANTIATE_TEST_SUITE_P(Shapes, OracleGridSync,
                         ::testing::Values(shape{dim3(1), dim3(33)}, shape{dim3(5, 3, 2), dim3(33, 3, 3)},
                                           shape{dim3(9, 7), dim3(32, 4)}, shape{dim3(3, 5, 7), dim3(8, 4, 2)}));

// As many blocks as both kernels can have resident at once.
TEST(OracleFullOccupancy, SameResultsAsNvidia) {
  for (const int threads : {128, 256}) {
    const int blocks = std::min(cg::max_cooperative_grid(rounds_of_mixing<false>, threads),
                                cg::max_cooperative_grid(rounds_of_mixing<true>, threads));
    compare_mixing(shape{dim3(static_cast<unsigned>(blocks)), dim3(static_cast<unsigned>(threads))}, true);
  }
}

}  // namespace
