// memcpy_async, wait and wait_prior: every form (a size in
// bytes, aligned_size_t<N>, element counts of which the smaller is copied),
// on blocks, tiles (narrower and wider than a warp) and coalesced groups,
// every misalignment of head and tail, from global to shared and global
// memory, and several stages in flight. The suite also runs in the host's
// checking mode (COHORT_CHECK=memcpy), where these correct kernels must pass
// every check.
#include <cstring>

#include "collectives_common.hpp"

namespace cg = cohort;

namespace {

constexpr unsigned span = 1024;          // bytes each group may use in shared memory
constexpr unsigned rounds = 4 * 16 * 4;  // lengths x destination offsets x source offsets

unsigned char byte_of(unsigned i) { return static_cast<unsigned char>(coll_test::mix(i) >> 3); }

std::vector<unsigned char> source_bytes(unsigned n) {
  std::vector<unsigned char> v(n);
  for (unsigned i = 0; i < n; ++i) v[i] = byte_of(i);
  return v;
}

// Every pair of head offsets (destination, source) and a few lengths: each
// group copies into its own stretch of shared memory, waits, and writes back
// the stretch, bytes around the copy included.
template <class G>
__device__ void misaligned_copies(const G& group, unsigned index, const unsigned char* src, unsigned char* smem,
                                  unsigned char* out) {
  const unsigned lengths[] = {1, 7, 33, 500};
  unsigned round = 0;
  for (unsigned length : lengths)
    for (unsigned d = 0; d < 16; ++d)
      for (unsigned s = 0; s < 16; s += 5, ++round) {
        unsigned char* mine = smem + index * span;
        for (unsigned i = group.thread_rank(); i < span; i += group.num_threads()) mine[i] = 0xAA;
        group.sync();
        cg::memcpy_async(group, mine + d, src + s + round, length);
        cg::wait(group);
        for (unsigned i = group.thread_rank(); i < 512 + 16; i += group.num_threads())
          out[(static_cast<size_t>(index) * rounds + round) * 528 + i] = mine[i];
        group.sync();
      }
}

__global__ void misaligned_block(const unsigned char* src, unsigned char* out) {
  __shared__ unsigned char smem[span];
  misaligned_copies(cg::this_thread_block(), 0, src, smem, out);
}

template <unsigned N>
__global__ void misaligned_tiles(const unsigned char* src, unsigned char* out) {
  __shared__ unsigned char smem[4 * span];
  const auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  misaligned_copies(tile, tile.meta_group_rank(), src, smem, out);
}

__global__ void misaligned_coalesced(const unsigned char* src, unsigned char* out) {
  __shared__ unsigned char smem[4 * span];
  if (threadIdx.x % 3 == 0) misaligned_copies(cg::coalesced_threads(), threadIdx.x / warpSize, src, smem, out);
}

template <class Kernel>
void check_misaligned(Kernel kernel, unsigned threads, unsigned groups) {
  const auto src = source_bytes(rounds + 16 + 512);
  cg::device_buffer<unsigned char> d_src(src);
  auto out = cohort_test::poisoned<unsigned char>(static_cast<size_t>(groups) * rounds * 528, 0x55);
  cg::launch(kernel, {dim3(1), dim3(threads)}, d_src.data(), out.data());
  const auto got = out.to_host();
  const unsigned lengths[] = {1, 7, 33, 500};
  for (unsigned g = 0; g < groups; ++g) {
    unsigned round = 0;
    for (unsigned length : lengths)
      for (unsigned d = 0; d < 16; ++d)
        for (unsigned s = 0; s < 16; s += 5, ++round)
          for (unsigned i = 0; i < 528; ++i) {
            const unsigned char expected = i >= d && i < d + length ? src[s + round + i - d] : 0xAA;
            ASSERT_EQ(got[(static_cast<size_t>(g) * rounds + round) * 528 + i], expected)
                << "group " << g << ", " << length << " bytes to offset " << d << " from offset " << s << ", byte "
                << i;
          }
  }
}

TEST(MemcpyAsync, MisalignedHeadsAndTailsOnABlock) { check_misaligned(misaligned_block, 75, 1); }
TEST(MemcpyAsync, MisalignedHeadsAndTailsOnTiles) {
  check_misaligned(misaligned_tiles<8>, 32, 4);
  check_misaligned(misaligned_tiles<128>, 300, 3);
}
TEST(MemcpyAsync, MisalignedHeadsAndTailsOnACoalescedGroup) {
  check_misaligned(misaligned_coalesced, coll_test::warp_size(), 1);
}

// Element counts: min(dst_count, src_count) elements, either side smaller;
// aligned_size_t sizes and counts.
__global__ void every_form(const double* src, double* out) {
  __align__(16) __shared__ double smem[6][64];
  const cg::thread_block block = cg::this_thread_block();
  for (unsigned i = block.thread_rank(); i < 6 * 64; i += block.size()) smem[i / 64][i % 64] = -1;
  block.sync();
  cg::memcpy_async(block, smem[0], src, 40 * sizeof(double));                          // bytes
  cg::memcpy_async(block, smem[1], src, cg::aligned_size_t<16>(48 * sizeof(double)));  // aligned bytes
  cg::memcpy_async(block, smem[2], 30, src, 50);      // the destination's count is smaller
  cg::memcpy_async(block, smem[3], 64, src + 1, 21);  // the source's is
  cg::memcpy_async(block, smem[4], cg::aligned_size_t<16>(32), src, cg::aligned_size_t<16>(40));
  cg::memcpy_async(block, out + 1000, cg::aligned_size_t<8>(10), src + 3, 12);  // global to global
  cg::wait(block);
  for (unsigned i = block.thread_rank(); i < 6 * 64; i += block.size()) out[i] = smem[i / 64][i % 64];
}

TEST(MemcpyAsync, EveryFormAndTheMinimumRule) {
  std::vector<double> src(100);
  for (unsigned i = 0; i < 100; ++i) src[i] = i * 1.5 + 0.25;
  cg::device_buffer<double> d_src(src);
  auto out = cohort_test::poisoned<double>(1100, -2.0);
  cg::launch(every_form, {dim3(1), dim3(96)}, d_src.data(), out.data());
  const auto got = out.to_host();
  const unsigned copied[6] = {40, 48, 30, 21, 32, 0};
  const unsigned from[6] = {0, 0, 0, 1, 0, 0};
  for (unsigned k = 0; k < 6; ++k)
    for (unsigned i = 0; i < 64; ++i)
      ASSERT_EQ(got[k * 64 + i], i < copied[k] ? src[from[k] + i] : -1.0) << "copy " << k << ", element " << i;
  for (unsigned i = 0; i < 11; ++i) ASSERT_EQ(got[1000 + i], i < 10 ? src[3 + i] : -2.0) << "global element " << i;
}

// Three stages in flight: wait_prior<2> lets the latest two run on; the
// oldest is complete when it returns.
__global__ void three_stages(const int* src, int chunks, long long* sums) {
  __shared__ int stage[3][96];
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  long long sum = 0;
  cg::memcpy_async(tile, stage[0], src, 96 * sizeof(int));
  cg::memcpy_async(tile, stage[1], src + 96, 96 * sizeof(int));
  for (int c = 0; c < chunks; ++c) {
    if (c + 2 < chunks) {
      cg::memcpy_async(tile, stage[(c + 2) % 3], src + (c + 2) * 96, 96 * sizeof(int));
      cg::wait_prior<2>(tile);
    } else if (c + 1 < chunks) {
      cg::wait_prior<1>(tile);
    } else {
      cg::wait(tile);
    }
    for (unsigned i = tile.thread_rank(); i < 96; i += tile.num_threads()) sum += stage[c % 3][i];
    tile.sync();  // everyone is done with this buffer before it is refilled
  }
  sums[tile.thread_rank()] = sum;
}

TEST(MemcpyAsync, WaitPriorLeavesTheLatestStagesInFlight) {
  const int chunks = 20;
  std::vector<int> src(chunks * 96);
  for (unsigned i = 0; i < src.size(); ++i) src[i] = static_cast<int>(coll_test::mix(i) % 1000);
  cg::device_buffer<int> d_src(src);
  cg::device_buffer<long long> sums(32);
  cg::launch(three_stages, {dim3(1), dim3(32)}, d_src.data(), chunks, sums.data());
  const auto got = sums.to_host();
  for (unsigned t = 0; t < 32; ++t) {
    long long expected = 0;
    for (int c = 0; c < chunks; ++c)
      for (unsigned i = t; i < 96; i += 32) expected += src[c * 96 + i];
    ASSERT_EQ(got[t], expected) << "thread " << t;
  }
}

}  // namespace
