// The device functions of the Cooperative Groups programming model's examples,
// as NVIDIA's guide writes them (comments included), once: the examples in
// examples/programming_model run them in self-checking programs,
// and the conformance suite (tests/conformance/collectives_model_examples.cpp,
// collectives_update.cpp, warp_coalesced.cpp) checks them on both backends.
// Two changes to the guide's code, both said where they are made.
#pragma once

#include <cmath>

#include <cohort/cohort.hpp>

namespace model_functions {

namespace cg = cohort;

// The discovery pattern rewritten with Cooperative Groups.
inline __device__ int atomicAggInc(int* p) {
  cg::coalesced_group g = cg::coalesced_threads();
  int prev = 0;  // the guide leaves it unset but for the leader, whose value the shuffle gives everyone
  if (g.thread_rank() == 0) {
    prev = atomicAdd(p, g.num_threads());
  }
  prev = g.thread_rank() + g.shfl(prev, 0);
  return prev;
}

// The same with invoke_one_broadcast.
template <cg::thread_scope Scope>
__device__ unsigned int atomicAddOneRelaxed(cg::atomic<unsigned int, Scope>& atomic) {
  auto g = cg::coalesced_threads();
  auto prev =
      cg::invoke_one_broadcast(g, [&]() { return atomic.fetch_add(g.num_threads(), cg::memory_order_relaxed); });
  return prev + g.thread_rank();
}

/// Calculate approximate standard deviation of integers in vec
inline __device__ int std_dev(const cg::thread_block_tile<32>& tile, const int* vec, int length) {
  int thread_sum = 0;

  // calculate average first
  for (int i = tile.thread_rank(); i < length; i += tile.num_threads()) {
    thread_sum += vec[i];
  }
  // cg::plus<int> allows cg::reduce() to know it can use hardware acceleration for addition
  int avg = cg::reduce(tile, thread_sum, cg::plus<int>()) / length;

  int thread_diffs_sum = 0;
  for (int i = tile.thread_rank(); i < length; i += tile.num_threads()) {
    int diff = vec[i] - avg;
    thread_diffs_sum += diff * diff;
  }

  // temporarily use floats to calculate the square root
  float diff_sum = static_cast<float>(cg::reduce(tile, thread_diffs_sum, cg::plus<int>())) / length;

  return static_cast<int>(sqrtf(diff_sum));
}

/// The following example accepts input in *A and outputs a result into *sum
/// It spreads the data equally within the block
inline __device__ void block_reduce(const int* A, int count, cg::atomic<int, cg::thread_scope_block>& total_sum) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int thread_sum = 0;

  // Stride loop over all values, each thread accumulates its part of the array.
  for (int i = block.thread_rank(); i < count; i += block.size()) {
    thread_sum += A[i];
  }

  // reduce thread sums across the tile, add the result to the atomic
  // cg::plus<int> allows cg::reduce() to know it can use hardware acceleration for addition
  cg::reduce_update_async(tile, total_sum, thread_sum, cg::plus<int>());

  // synchronize the block, to ensure all async reductions are ready
  block.sync();
}

// Put data from input into output only if it passes test_fn predicate
// (The guide gives each thread count / num_threads elements, rounded down,
// which leaves the last count % num_threads elements unread; rounding up, as
// the min() clamps that follow expect, covers them.)
template <typename Group, typename Data, typename TyFn>
__device__ int stream_compaction(Group& g, Data* input, int count, TyFn&& test_fn, Data* output) {
  int per_thread = (count + g.num_threads() - 1) / g.num_threads();
  int thread_start = min(g.thread_rank() * per_thread, count);
  int my_count = min(per_thread, count - thread_start);

  // get all passing items from my part of the input
  //  into a contagious part of the array and count them.
  int i = thread_start;
  while (i < my_count + thread_start) {
    if (test_fn(input[i])) {
      i++;
    } else {
      my_count--;
      input[i] = input[my_count + thread_start];
    }
  }

  // scan over counts from each thread to calculate my starting
  //  index in the output
  int my_idx = cg::exclusive_scan(g, my_count);

  for (i = 0; i < my_count; ++i) {
    output[my_idx + i] = input[thread_start + i];
  }
  // return the total number of items in the output
  return g.shfl(my_idx + my_count, g.num_threads() - 1);
}

// Dynamic buffer allocation with exclusive_scan_update.
// Buffer partitioning is static to make the example easier to follow,
// but any arbitrary dynamic allocation scheme can be implemented by replacing this function.
inline __device__ int calculate_buffer_space_needed(cg::thread_block_tile<32>& tile) {
  return tile.thread_rank() % 2 + 1;
}

inline __device__ int my_thread_data(int i) { return i; }

// The guide's kernel body, up to its last sync; `buffer` is its extern
// __shared__ array. Returns the calling thread's offset in the buffer.
inline __device__ int allocate_buffer(int* buffer, cg::atomic<int, cg::thread_scope_block>& buffer_used) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  buffer_used = 0;
  block.sync();

  // each thread calculates buffer size it needs
  int buf_needed = calculate_buffer_space_needed(tile);

  // scan over the needs of each thread, result for each thread is an offset
  // of that thread's part of the buffer. buffer_used is atomically updated with
  // the sum of all thread's inputs, to correctly offset other tile's allocations
  int buf_offset = cg::exclusive_scan_update(tile, buffer_used, buf_needed);

  // each thread fills its own part of the buffer with thread specific data
  for (int i = 0; i < buf_needed; ++i) {
    buffer[buf_offset + i] = my_thread_data(i);
  }

  block.sync();
  // buffer_used now holds total amount of memory allocated
  // buffer is {0, 0, 1, 0, 0, 1 ...};
  return buf_offset;
}

}  // namespace model_functions
