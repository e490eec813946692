// CUDA's warp intrinsics as kernel code calls them: the __shfl*_sync family
// with every width, votes, matches and reductions under full and partial
// masks, __activemask, __syncwarp and the bit functions. Results are in lane space
// and follow PTX's rules.
#include <algorithm>
#include <bit>
#include <random>

#include "warp_common.hpp"

namespace cg = cohort;
using warp_test::mix;

namespace {

unsigned warp_size() { return static_cast<unsigned>(cg::get_device_attribute(cg::device_attribute::warp_size)); }
unsigned long long low_lanes(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

__device__ unsigned long long full_mask() { return warpSize >= 64 ? ~0ull : (1ull << warpSize) - 1; }

// Per lane: the four shuffles with operands derived from the lane, at `width`:
// negative source lanes, and deltas up to width + 1 (past the warp at width 32).
__global__ void shuffles(int width, unsigned salt, int* out) {
  const unsigned t = threadIdx.x, threads = blockDim.x;
  const int v = static_cast<int>(mix(t + salt));
  const unsigned operand = mix(t * 3 + salt);
  out[t] = __shfl_sync(full_mask(), v, static_cast<int>(operand % 200) - 100, width);
  out[threads + t] = __shfl_up_sync(full_mask(), v, operand % (width + 2), width);
  out[2 * threads + t] = __shfl_down_sync(full_mask(), v, operand % (width + 2), width);
  out[3 * threads + t] = __shfl_xor_sync(full_mask(), v, static_cast<int>(operand % warpSize), width);
}

TEST(Intrinsics, ShufflesAtEveryWidthFollowPtx) {
  const unsigned threads = 128, w = warp_size();
  const unsigned salt = static_cast<unsigned>(cohort_test::test_seed());
  for (unsigned width = 1; width <= w; width *= 2) {
    auto out = cohort_test::poisoned<int>(4 * threads, 0x5EADBEEF);
    cg::launch(shuffles, {dim3(1), dim3(threads)}, static_cast<int>(width), salt, out.data());
    const auto got = out.to_host();
    for (unsigned t = 0; t < threads; ++t) {
      const unsigned lane = t % w, warp_base = t - lane, first = lane & ~(width - 1);
      const unsigned operand = mix(t * 3 + salt);
      const auto value = [&](unsigned l) { return static_cast<int>(mix(warp_base + l + salt)); };
      const unsigned src = static_cast<unsigned>(static_cast<int>(operand % 200) - 100);
      // shfl.sync reads the low bits of the operand that name a lane (b[4:0] at
      // 32 lanes): a delta of width + 1 = 33 reads one lane away, not none.
      const unsigned delta = (operand % (width + 2)) & (w - 1), lane_mask = operand % w;
      const unsigned up = lane >= first + delta ? lane - delta : lane;
      const unsigned down = lane + delta < first + width ? lane + delta : lane;
      const unsigned xored = (lane ^ lane_mask) < first + width ? lane ^ lane_mask : lane;
      SCOPED_TRACE(testing::Message() << "width " << width << ", thread " << t);
      ASSERT_EQ(got[t], value(first + (src & (width - 1))));
      ASSERT_EQ(got[threads + t], value(up));
      ASSERT_EQ(got[2 * threads + t], value(down));
      ASSERT_EQ(got[3 * threads + t], value(xored));
    }
  }
}

template <class T>
__global__ void shuffle_type(T* out) {
  const unsigned t = threadIdx.x;
  const T v = warp_test::value_of<T>(t, 3);
  out[t] = __shfl_sync(full_mask(), v, static_cast<int>(mix(t) % warpSize));
  out[blockDim.x + t] = __shfl_down_sync(full_mask(), v, 1);
}

template <class T>
void check_shuffle_type() {
  const unsigned threads = 128, w = warp_size();
  cg::device_buffer<T> out(2 * threads);
  cg::launch(shuffle_type<T>, {dim3(1), dim3(threads)}, out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < threads; ++t) {
    const unsigned lane = t % w, base = t - lane;
    ASSERT_TRUE(warp_test::same_bytes(got[t], warp_test::value_of<T>(base + mix(t) % w, 3))) << t;
    ASSERT_TRUE(warp_test::same_bytes(got[threads + t], warp_test::value_of<T>(lane + 1 < w ? t + 1 : t, 3))) << t;
  }
}

TEST(Intrinsics, ShufflesOfEveryArithmeticType) {
  check_shuffle_type<int>();
  check_shuffle_type<unsigned>();
  check_shuffle_type<long long>();
  check_shuffle_type<unsigned long long>();
  check_shuffle_type<float>();
  check_shuffle_type<double>();
}

constexpr unsigned vote_fields = 8;

// The lanes of masks[warp] vote among themselves; the others stay out.
__global__ void votes(const unsigned long long* masks, unsigned salt, unsigned long long* out) {
  const unsigned t = threadIdx.x, lane = t % warpSize;
  const unsigned long long mask = masks[t / warpSize] & full_mask();
  if ((mask >> lane) & 1) {
    const int pred = static_cast<int>(mix(t + salt) % 3 == 0);
    const int value = static_cast<int>(mix(t + salt) % 4);
    unsigned long long* o = out + static_cast<size_t>(t) * vote_fields;
    o[0] = __ballot_sync(mask, pred);
    o[1] = static_cast<unsigned long long>(__any_sync(mask, pred));
    o[2] = static_cast<unsigned long long>(__all_sync(mask, pred));
    o[3] = __match_any_sync(mask, value);
    int all_pred = -1;
    o[4] = __match_all_sync(mask, value % 2 + 10 * static_cast<int>(salt % 2), &all_pred);
    o[5] = static_cast<unsigned long long>(all_pred);
    __syncwarp(mask);
    o[6] = __shfl_sync(mask, static_cast<unsigned long long>(lane), __ffsll(static_cast<long long>(mask)) - 1);
    o[7] = __activemask();
  }
}

TEST(Intrinsics, VotesAndMatchesUnderMasks) {
  const unsigned threads = 256, w = warp_size();
  std::mt19937_64 random(cohort_test::test_seed());
  for (unsigned round = 0; round < 3; ++round) {
    std::vector<unsigned long long> masks(threads / 32);
    for (auto& m : masks) m = round == 0 ? ~0ull : random();
    masks[0] = round == 2 ? 1ull : masks[0];
    const unsigned salt = static_cast<unsigned>(random());
    cg::device_buffer<unsigned long long> d_masks(masks);
    auto out = cohort_test::poisoned<unsigned long long>(threads * vote_fields, 0xDEADBEEFull);
    cg::launch(votes, {dim3(1), dim3(threads)}, d_masks.data(), salt, out.data());
    const auto got = out.to_host();
    for (unsigned t = 0; t < threads; ++t) {
      const unsigned lane = t % w, base = t - lane;
      const unsigned long long mask = masks[t / w] & low_lanes(w);
      const unsigned long long* o = &got[static_cast<size_t>(t) * vote_fields];
      if (((mask >> lane) & 1) == 0) {
        ASSERT_EQ(o[0], 0xDEADBEEFull);
        continue;
      }
      unsigned long long ballot = 0, same = 0;
      bool all_same = true;
      const int parity = static_cast<int>(salt % 2) * 10;
      for (unsigned l = 0; l < w; ++l) {
        if (((mask >> l) & 1) == 0) continue;
        if (mix(base + l + salt) % 3 == 0) ballot |= 1ull << l;
        if (mix(base + l + salt) % 4 == mix(t + salt) % 4) same |= 1ull << l;
        if (static_cast<int>(mix(base + l + salt) % 4 % 2) + parity !=
            static_cast<int>(mix(base + std::countr_zero(mask) + salt) % 4 % 2) + parity)
          all_same = false;
      }
      SCOPED_TRACE(testing::Message() << "round " << round << ", thread " << t);
      ASSERT_EQ(o[0], ballot);
      ASSERT_EQ(o[1], ballot != 0 ? 1u : 0u);
      ASSERT_EQ(o[2], ballot == mask ? 1u : 0u);
      ASSERT_EQ(o[3], same);
      ASSERT_EQ(o[4], all_same ? mask : 0ull);
      ASSERT_EQ(o[5], all_same ? 1u : 0u);
      ASSERT_EQ(o[6], static_cast<unsigned long long>(std::countr_zero(mask)));
      ASSERT_EQ(o[7], mask);
    }
  }
}

// sm_80's warp reductions under masks.
__global__ void reductions(const unsigned long long* masks, const unsigned* in, unsigned* out) {
  const unsigned t = threadIdx.x, lane = t % warpSize;
  const unsigned long long mask = masks[t / warpSize] & full_mask();
  if ((mask >> lane) & 1) {
    const unsigned u = in[t];
    const int i = static_cast<int>(u);
    unsigned* o = out + t * 8;
    o[0] = __reduce_add_sync(mask, u);
    o[1] = static_cast<unsigned>(__reduce_add_sync(mask, i));
    o[2] = __reduce_min_sync(mask, u);
    o[3] = static_cast<unsigned>(__reduce_min_sync(mask, i));
    o[4] = __reduce_max_sync(mask, u);
    o[5] = static_cast<unsigned>(__reduce_max_sync(mask, i));
    o[6] = __reduce_and_sync(mask, u) ^ __reduce_or_sync(mask, u);
    o[7] = __reduce_xor_sync(mask, u);
  }
}

TEST(Intrinsics, WarpReductionsUnderMasks) {
  const unsigned threads = 256, w = warp_size();
  std::mt19937_64 random(cohort_test::test_seed());
  std::vector<unsigned long long> masks(threads / 32);
  for (auto& m : masks) m = random() | random();
  masks[0] = ~0ull;
  std::vector<unsigned> in(threads);
  for (auto& v : in) v = static_cast<unsigned>(random());
  cg::device_buffer<unsigned long long> d_masks(masks);
  cg::device_buffer<unsigned> d_in(in);
  auto out = cohort_test::poisoned<unsigned>(threads * 8, 0xDEADBEEF);
  cg::launch(reductions, {dim3(1), dim3(threads)}, d_masks.data(), d_in.data(), out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < threads; ++t) {
    const unsigned lane = t % w, base = t - lane;
    const unsigned long long mask = masks[t / w] & low_lanes(w);
    if (((mask >> lane) & 1) == 0) continue;
    unsigned sum = 0, umin = ~0u, umax = 0, all = ~0u, any = 0, parity = 0;
    int imin = 0x7FFFFFFF, imax = -0x7FFFFFFF - 1;
    for (unsigned l = 0; l < w; ++l) {
      if (((mask >> l) & 1) == 0) continue;
      const unsigned v = in[base + l];
      sum += v;
      umin = std::min(umin, v);
      umax = std::max(umax, v);
      imin = std::min(imin, static_cast<int>(v));
      imax = std::max(imax, static_cast<int>(v));
      all &= v;
      any |= v;
      parity ^= v;
    }
    const unsigned* o = &got[t * 8];
    SCOPED_TRACE(testing::Message() << "thread " << t);
    ASSERT_EQ(o[0], sum);
    ASSERT_EQ(o[1], sum);
    ASSERT_EQ(o[2], umin);
    ASSERT_EQ(o[3], static_cast<unsigned>(imin));
    ASSERT_EQ(o[4], umax);
    ASSERT_EQ(o[5], static_cast<unsigned>(imax));
    ASSERT_EQ(o[6], all ^ any);
    ASSERT_EQ(o[7], parity);
  }
}

__global__ void bit_functions(const unsigned long long* in, unsigned long long* out) {
  const unsigned t = threadIdx.x;
  const unsigned long long x = in[t];
  const unsigned lo = static_cast<unsigned>(x);
  unsigned long long* o = out + t * 9;
  o[0] = static_cast<unsigned long long>(__popc(lo));
  o[1] = static_cast<unsigned long long>(__popcll(x));
  o[2] = static_cast<unsigned long long>(__ffs(static_cast<int>(lo)));
  o[3] = static_cast<unsigned long long>(__ffsll(static_cast<long long>(x)));
  o[4] = static_cast<unsigned long long>(__clz(static_cast<int>(lo)));
  o[5] = static_cast<unsigned long long>(__clzll(static_cast<long long>(x)));
  o[6] = __brev(lo);
  o[7] = __brevll(x);
  o[8] = __fns(lo, t % 32, static_cast<int>(t % 7) - 3);
}

unsigned reverse_bits(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}

unsigned nth_set(unsigned mask, unsigned base, int offset) {
  if (offset == 0) return ((mask >> base) & 1) ? base : 0xFFFFFFFFu;
  int count = offset > 0 ? offset : -offset;
  for (int pos = static_cast<int>(base); pos >= 0 && pos < 32; pos += offset > 0 ? 1 : -1)
    if (((mask >> pos) & 1) && --count == 0) return static_cast<unsigned>(pos);
  return 0xFFFFFFFFu;
}

TEST(Intrinsics, BitFunctions) {
  std::mt19937_64 random(cohort_test::test_seed());
  std::vector<unsigned long long> in(256);
  for (auto& x : in) x = random() >> (random() % 64);
  in[0] = 0;
  in[1] = ~0ull;
  in[2] = 1ull << 63;
  cg::device_buffer<unsigned long long> d_in(in);
  auto out = cohort_test::poisoned<unsigned long long>(in.size() * 9, 0xDEADBEEFull);
  cg::launch(bit_functions, {dim3(1), dim3(static_cast<unsigned>(in.size()))}, d_in.data(), out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < in.size(); ++t) {
    const unsigned long long x = in[t];
    const unsigned lo = static_cast<unsigned>(x);
    const unsigned long long* o = &got[t * 9];
    SCOPED_TRACE(testing::Message() << "0x" << std::hex << x);
    ASSERT_EQ(o[0], static_cast<unsigned long long>(std::popcount(lo)));
    ASSERT_EQ(o[1], static_cast<unsigned long long>(std::popcount(x)));
    ASSERT_EQ(o[2], lo ? static_cast<unsigned long long>(std::countr_zero(lo) + 1) : 0ull);
    ASSERT_EQ(o[3], x ? static_cast<unsigned long long>(std::countr_zero(x) + 1) : 0ull);
    ASSERT_EQ(o[4], static_cast<unsigned long long>(std::countl_zero(lo)));
    ASSERT_EQ(o[5], static_cast<unsigned long long>(std::countl_zero(x)));
    ASSERT_EQ(o[6], reverse_bits(lo));
    ASSERT_EQ(o[7],
              (static_cast<unsigned long long>(reverse_bits(lo)) << 32) | reverse_bits(static_cast<unsigned>(x >> 32)));
    ASSERT_EQ(o[8], nth_set(lo, t % 32, static_cast<int>(t % 7) - 3));
  }
}

}  // namespace
