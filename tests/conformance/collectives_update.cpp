// The *_update and *_store forms with many groups hitting one atomic at once:
// tiles, coalesced groups and blocks across several blocks allocate from one
// counter with exclusive_scan_update / inclusive_scan_update (the ranges must
// tile the counter's range exactly), fold every value into one atomic with
// reduce_update_async for every operator (the dedicated atomic and the
// compare-exchange path), and store totals with reduce_store_async; the
// programming model's examples (block_reduce, allocate_buffer,
// atomicAddOneRelaxed) run as written.
#include <algorithm>

#include "collectives_common.hpp"
#include "programming_model/model_functions.hpp"

namespace cg = cohort;

namespace {

constexpr unsigned blocks = 6, threads = 200, total = blocks * threads;

// Each thread asks for `need` slots: every group's scan starts from what
// the counter held when it got there.
template <class G>
__device__ void allocate(const G& group, int* counter, int need, int* first, int* last) {
  *first = cg::exclusive_scan_update(group, cg::atomic_ref<int>(*counter), need);
  *last = cg::inclusive_scan_update(group, cg::atomic_ref<int>(counter[1]), need, cg::plus<int>());
}

__global__ void many_groups_allocate(const int* need, int* counters, int* first, int* last) {
  const cg::thread_block block = cg::this_thread_block();
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned n = total;
  allocate(cg::tiled_partition<32>(block), counters, need[g], first + g, last + g);
  allocate(cg::tiled_partition<8>(block), counters + 2, need[g], first + n + g, last + n + g);
  if (threadIdx.x % 5 != 2)
    allocate(cg::coalesced_threads(), counters + 4, need[g], first + 2 * n + g, last + 2 * n + g);
  allocate(block, counters + 6, need[g], first + 3 * n + g, last + 3 * n + g);
}

TEST(UpdateCollectives, ManyGroupsAllocateFromOneCounter) {
  std::vector<int> need(total);
  for (unsigned g = 0; g < total; ++g) need[g] = static_cast<int>(coll_test::mix(g) % 4);  // zeros too
  cg::device_buffer<int> d_need(need), counters(std::vector<int>{7, 7, 7, 7, 7, 7, 7, 7}), first(4 * total),
      last(4 * total);
  cg::launch(many_groups_allocate, {dim3(blocks), dim3(threads)}, d_need.data(), counters.data(), first.data(),
             last.data());
  const auto c = counters.to_host();
  const auto f = first.to_host(), l = last.to_host();
  for (unsigned kind = 0; kind < 4; ++kind) {
    int asked = 0;
    std::vector<std::pair<int, int>> taken, ended;  // [first, first + need) and (last - need, last]
    for (unsigned g = 0; g < total; ++g) {
      if (kind == 2 && g % threads % 5 == 2) continue;  // not in the branch
      asked += need[g];
      taken.push_back({f[kind * total + g], f[kind * total + g] + need[g]});
      ended.push_back({l[kind * total + g] - need[g], l[kind * total + g]});
    }
    SCOPED_TRACE(testing::Message() << "group kind " << kind);
    EXPECT_EQ(c[2 * kind], 7 + asked);
    EXPECT_EQ(c[2 * kind + 1], 7 + asked);
    for (auto* ranges : {&taken, &ended}) {
      std::sort(ranges->begin(), ranges->end());
      int next = 7;
      for (const auto& [from, to] : *ranges) {
        ASSERT_EQ(from, next) << "the ranges handed out must follow each other without gap or overlap";
        next = to;
      }
      EXPECT_EQ(next, 7 + asked);
    }
  }
}

// Every tile of 32 of every block folds its values into one atomic.
template <class T, class Op>
__global__ void fold_into_one(const T* in, T* result) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  cg::reduce_update_async(tile, cg::atomic_ref<T>(*result), in[blockIdx.x * blockDim.x + threadIdx.x], Op());
}

template <class T, class Op>
void check_fold_into_one() {
  const std::vector<T> in = coll_test::inputs<T>(total, 3);
  const T start = coll_test::value_of<T>(99);
  cg::device_buffer<T> d_in(in), result(std::vector<T>{start});
  cg::launch(fold_into_one<T, Op>, {dim3(blocks), dim3(threads)}, d_in.data(), result.data());
  T expected = start;
  for (const T& v : in) expected = Op{}(expected, v);
  EXPECT_EQ(result.to_host()[0], expected);
}

// Not one of cohort's operators: the update goes through compare-exchange.
struct wrapping_add {
  __host__ __device__ unsigned operator()(unsigned a, unsigned b) const { return a + b; }
};

TEST(UpdateCollectives, ReduceUpdateAsyncWithEveryOperator) {
  check_fold_into_one<int, cg::plus<int>>();
  check_fold_into_one<int, cg::less<int>>();
  check_fold_into_one<int, cg::greater<int>>();
  check_fold_into_one<int, cg::bit_and<int>>();
  check_fold_into_one<int, cg::bit_or<int>>();
  check_fold_into_one<int, cg::bit_xor<int>>();
  check_fold_into_one<unsigned, cg::plus<unsigned>>();
  check_fold_into_one<unsigned, cg::bit_xor<unsigned>>();
  check_fold_into_one<unsigned, wrapping_add>();
  check_fold_into_one<long long, cg::plus<long long>>();
  check_fold_into_one<long long, cg::less<long long>>();
  check_fold_into_one<unsigned long long, cg::bit_or<unsigned long long>>();
  check_fold_into_one<float, cg::plus<float>>();
  check_fold_into_one<float, cg::greater<float>>();
  check_fold_into_one<double, cg::plus<double>>();
  check_fold_into_one<double, cg::less<double>>();
}

// Stores: each tile its total through a pointer of its own; every tile into one atomic.
__global__ void store_totals(const int* in, int* per_tile, int* shared_total) {
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  cg::reduce_store_async(tile, per_tile + blockIdx.x * tile.meta_group_size() + tile.meta_group_rank(), in[g],
                         cg::plus<int>());
  cg::reduce_store_async(tile, cg::atomic_ref<int>(*shared_total), in[g], cg::plus<int>());
}

TEST(UpdateCollectives, ReduceStoreAsyncToPointersAndAnAtomic) {
  const unsigned per_block = (threads + 15) / 16, tiles = blocks * per_block;  // the last of a block has 8
  const std::vector<int> in = coll_test::inputs<int>(total, 4);
  cg::device_buffer<int> d_in(in), per_tile(tiles), shared_total(1);
  cg::launch(store_totals, {dim3(blocks), dim3(threads)}, d_in.data(), per_tile.data(), shared_total.data());
  const auto got = per_tile.to_host();
  std::vector<int> totals(tiles);
  for (unsigned g = 0; g < total; ++g) totals[g / threads * per_block + g % threads / 16] += in[g];
  EXPECT_EQ(got, totals);
  EXPECT_NE(std::find(totals.begin(), totals.end(), shared_total.to_host()[0]), totals.end())
      << "the atomic holds the total some tile stored";
}

// A block-wide sum from tile reductions into a block-scope atomic.
__global__ void seed_block_reduce(const int* A, int count, int* out) {
  __shared__ cg::atomic<int, cg::thread_scope_block> total_sum;
  if (threadIdx.x == 0) total_sum = 0;
  __syncthreads();
  model_functions::block_reduce(A, count, total_sum);
  if (threadIdx.x == 0) *out = total_sum.load();
}

TEST(UpdateCollectives, SeedBlockReduce) {
  const int count = 10007;
  const std::vector<int> in = coll_test::inputs<int>(count, 6);
  cg::device_buffer<int> d_in(in), out(1);
  cg::launch(seed_block_reduce, {dim3(1), dim3(160)}, d_in.data(), count, out.data());
  long long expected = 0;
  for (int v : in) expected += v;
  EXPECT_EQ(out.to_host()[0], expected);
}

// Dynamic buffer allocation with exclusive_scan_update.
__global__ void seed_buffer_allocation(int* result, int* used) {
  int* buffer = cg::dynamic_shared<int>();  // the seed: extern __shared__ int buffer[];
  __shared__ cg::atomic<int, cg::thread_scope_block> buffer_used;

  model_functions::allocate_buffer(buffer, buffer_used);
  auto block = cg::this_thread_block();
  for (int i = block.thread_rank(); i < buffer_used; i += block.size()) result[i] = buffer[i];
  if (block.thread_rank() == 0) *used = buffer_used;
}

TEST(UpdateCollectives, SeedDynamicBufferAllocation) {
  const unsigned n = 128, space = n / 2 * 3;
  cg::device_buffer<int> result(space), used(1);
  cg::launch(seed_buffer_allocation, {dim3(1), dim3(n), space * sizeof(int)}, result.data(), used.data());
  EXPECT_EQ(used.to_host()[0], static_cast<int>(space));
  // Tiles allocate in whatever order they reach the counter; each thread's
  // part is {0} or {0, 1}, so the buffer is a sequence of those.
  const auto got = result.to_host();
  for (unsigned i = 0; i < space; ++i)
    ASSERT_TRUE(got[i] == 0 || (got[i] == 1 && i > 0 && got[i - 1] == 0)) << "buffer[" << i << "] = " << got[i];
  EXPECT_EQ(std::count(got.begin(), got.end(), 1), static_cast<long>(n / 2));
}

// A warp-aggregated atomic increment with invoke_one_broadcast.
__global__ void seed_aggregated_increment(const int* take, unsigned* tickets, unsigned* count) {
  __shared__ cg::atomic<unsigned, cg::thread_scope_block> counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  if (take[threadIdx.x]) tickets[threadIdx.x] = model_functions::atomicAddOneRelaxed(counter);
  __syncthreads();
  if (threadIdx.x == 0) *count = counter.load();
}

TEST(UpdateCollectives, SeedAggregatedIncrement) {
  const unsigned n = 192;
  std::vector<int> take(n);
  for (unsigned t = 0; t < n; ++t) take[t] = coll_test::mix(t) % 3 != 0;
  cg::device_buffer<int> d_take(take);
  auto tickets = cohort_test::poisoned<unsigned>(n, ~0u);
  cg::device_buffer<unsigned> count(1);
  cg::launch(seed_aggregated_increment, {dim3(1), dim3(n)}, d_take.data(), tickets.data(), count.data());
  const auto got = tickets.to_host();
  std::vector<unsigned> handed;
  for (unsigned t = 0; t < n; ++t)
    if (take[t])
      handed.push_back(got[t]);
    else
      ASSERT_EQ(got[t], ~0u);
  std::sort(handed.begin(), handed.end());
  for (unsigned i = 0; i < handed.size(); ++i) ASSERT_EQ(handed[i], i) << "every ticket is handed out once";
  EXPECT_EQ(count.to_host()[0], handed.size());
}

}  // namespace
