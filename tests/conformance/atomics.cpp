// CUDA's atomic functions, hammered from every thread of several blocks, with
// exact expected results.
#include <cohort/cohort.hpp>

#include "test_support.hpp"

namespace cg = cohort;

namespace {

struct counters {
  int add, sub, min, max, and_bits, or_bits, xor_bits, exch_seen, cas_winners;
  unsigned inc, dec;
  unsigned long long add64;
  float addf;
  double addd;
};

__global__ void hammer(counters* c, const int* values) {
  const unsigned long long id = cg::this_grid().thread_rank();
  const int v = values[id];
  atomicAdd(&c->add, v);
  atomicSub(&c->sub, v);
  atomicMin(&c->min, v);
  atomicMax(&c->max, v);
  atomicAnd(&c->and_bits, ~(1 << (id % 31)));
  atomicOr(&c->or_bits, 1 << (id % 31));
  atomicXor(&c->xor_bits, v);
  atomicExch(&c->exch_seen, 1);
  if (atomicCAS(&c->cas_winners, 0, static_cast<int>(id) + 1) == 0) atomicAdd(&c->add64, 1000000ull);
  atomicInc(&c->inc, 9u);
  atomicDec(&c->dec, 9u);
  atomicAdd(&c->add64, static_cast<unsigned long long>(v));
  atomicAdd(&c->addf, 1.0f);
  atomicAdd(&c->addd, 0.5);
}

TEST(Atomics, ExactUnderContention) {
  const unsigned blocks = 6, threads = 96, n = blocks * threads;
  const auto values = cohort_test::random_vector<int>(n, cohort_test::test_seed(), -1000, 1000);
  cg::device_buffer<int> d_values(values);
  counters init{};
  init.min = 1 << 30;
  init.max = -(1 << 30);
  init.and_bits = -1;
  init.dec = 3;
  cg::device_buffer<counters> c(std::vector<counters>{init});
  cg::launch(hammer, {dim3(blocks), dim3(threads)}, c.data(), d_values.data());
  const counters got = c.to_host()[0];
  long long sum = 0;
  int mn = values[0], mx = values[0], x = 0;
  for (int v : values) {
    sum += v;
    mn = std::min(mn, v);
    mx = std::max(mx, v);
    x ^= v;
  }
  EXPECT_EQ(got.add, sum);
  EXPECT_EQ(got.sub, -sum);
  EXPECT_EQ(got.min, mn);
  EXPECT_EQ(got.max, mx);
  EXPECT_EQ(got.and_bits, static_cast<int>(0x80000000u));
  EXPECT_EQ(got.or_bits, 0x7FFFFFFF);
  EXPECT_EQ(got.xor_bits, x);
  EXPECT_EQ(got.exch_seen, 1);
  EXPECT_GE(got.cas_winners, 1);
  EXPECT_LE(got.cas_winners, static_cast<int>(n));
  EXPECT_EQ(got.inc, n % 10);                 // wraps to 0 after 9
  EXPECT_EQ(got.dec, (3 + 10 * n - n) % 10);  // from 3, wrapping to 9 below 0
  EXPECT_EQ(got.add64, static_cast<unsigned long long>(1000000 + sum));
  EXPECT_EQ(got.addf, static_cast<float>(n));
  EXPECT_EQ(got.addd, 0.5 * n);
}

}  // namespace
