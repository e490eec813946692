// The two examples of memcpy_async, wait and wait_prior, as
// written — streaming a block's elements through a small shared buffer, and
// the double-buffered version that waits on stage N-1 with wait_prior<1>
// while stage N is in flight — with the seed's "Work with local_smem" filled
// in: each thread sums its share of the stage. Both blocks' sums must be the
// sum of the elements each kernel streams.
//
// The work ends with tb.sync(): the next memcpy_async overwrites local_smem,
// so every thread must be done with it first (the seed hints as much in the
// second example; in the first, cohort's checking mode, COHORT_CHECK=memcpy,
// reports the overwrite of a buffer still being read otherwise).
//
// Usage: memcpy_async_stages [blocks]   (default 2)
#include <cohort/cohort.hpp>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace cg = cohort;

/// This example streams elementsPerThreadBlock worth of data from global memory
/// into a limited sized shared memory (elementsInShared) block to operate on.
__global__ void streaming_kernel(int* global_data, long long* sums) {
  cg::thread_block tb = cg::this_thread_block();
  const size_t elementsPerThreadBlock = 16 * 1024;
  const size_t elementsInShared = 128;
  __shared__ int local_smem[elementsInShared];
  long long sum = 0;

  size_t copy_count;
  size_t index = 0;
  while (index < elementsPerThreadBlock) {
    cg::memcpy_async(tb, local_smem, elementsInShared, global_data + index, elementsPerThreadBlock - index);
    copy_count = min(elementsInShared, elementsPerThreadBlock - index);
    cg::wait(tb);
    // Work with local_smem
    for (size_t i = tb.thread_rank(); i < copy_count; i += tb.size()) sum += local_smem[i];
    tb.sync();
    index += copy_count;
  }
  sums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/// This example streams elementsPerThreadBlock worth of data from global memory
/// into a limited sized shared memory (elementsInShared) block to operate on in
/// multiple (two) stages. As stage N is kicked off, we can wait on and operate on stage N-1.
__global__ void double_buffered_kernel(int* global_data, long long* sums) {
  cg::thread_block tb = cg::this_thread_block();
  const size_t elementsPerThreadBlock = 16 * 1024 + 64;
  const size_t elementsInShared = 128;
  __align__(16) __shared__ int local_smem[2][elementsInShared];
  int stage = 0;
  long long sum = 0;
  // First kick off an extra request
  size_t copy_count = elementsInShared;
  size_t index = copy_count;
  cg::memcpy_async(tb, local_smem[stage], elementsInShared, global_data, elementsPerThreadBlock - index);
  while (index < elementsPerThreadBlock) {
    // Now we kick off the next request...
    cg::memcpy_async(tb, local_smem[stage ^ 1], elementsInShared, global_data + index, elementsPerThreadBlock - index);
    // ... but we wait on the one before it
    cg::wait_prior<1>(tb);

    // Its now available and we can work with local_smem[stage] here
    for (size_t i = tb.thread_rank(); i < copy_count; i += tb.size()) sum += local_smem[stage][i];

    // Calculate the amount fo data that was actually copied, for the next iteration.
    copy_count = min(elementsInShared, elementsPerThreadBlock - index);
    index += copy_count;

    // A cg::sync(tb) might be needed here depending on whether
    // the work done with local_smem[stage] can release threads to race ahead or not
    cg::sync(tb);
    // Wrap to the next stage
    stage ^= 1;
  }
  cg::wait(tb);
  // The last local_smem[stage] can be handled here
  for (size_t i = tb.thread_rank(); i < copy_count; i += tb.size()) sum += local_smem[stage][i];
  sums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

namespace {

// Each block's sum, added up over its threads.
template <class Kernel>
bool run(const char* name, Kernel kernel, const cg::device_buffer<int>& data, const std::vector<int>& values,
         std::size_t elements, unsigned blocks, unsigned threads) {
  cg::device_buffer<long long> sums(static_cast<std::size_t>(blocks) * threads);
  cg::launch(kernel, {dim3(blocks), dim3(threads)}, data.data(), sums.data());
  long long expected = 0;
  for (std::size_t i = 0; i < elements; ++i) expected += values[i];
  const std::vector<long long> got = sums.to_host();
  bool ok = true;
  for (unsigned b = 0; b < blocks; ++b) {
    long long block_sum = 0;
    for (unsigned t = 0; t < threads; ++t) block_sum += got[static_cast<std::size_t>(b) * threads + t];
    ok = ok && block_sum == expected;
    std::printf("%-16s block %u streamed %zu ints: sum %lld, expected %lld\n", name, b, elements, block_sum, expected);
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const unsigned blocks = argc > 1 ? static_cast<unsigned>(std::strtoul(argv[1], nullptr, 0)) : 2;
    if (blocks == 0) {
      std::fprintf(stderr, "usage: %s [blocks]  (blocks > 0; default 2)\n", argv[0]);
      return 2;
    }
    const std::size_t elements = 16 * 1024 + 64;
    std::vector<int> values(elements);
    for (std::size_t i = 0; i < elements; ++i) values[i] = static_cast<int>((i * 2654435761u) % 1999) - 999;
    const cg::device_buffer<int> data(values);
    const unsigned threads = 96;  // not a multiple of the 128-element stage: shares are uneven
    const bool ok = run("streaming", streaming_kernel, data, values, 16 * 1024, blocks, threads) &
                    run("double-buffered", double_buffered_kernel, data, values, elements, blocks, threads);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\nFAIL\n", e.what());
    return 1;
  }
}
