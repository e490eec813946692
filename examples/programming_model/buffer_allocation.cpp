// Dynamic buffer allocation with exclusive_scan_update. Each
// thread needs 1 or 2 slots of a shared buffer; the scan over its tile of 32
// gives each thread its offset, and the tile's total is added to a block-scope
// atomic whose old value offsets the whole tile, so tiles that reach the
// atomic in any order get disjoint runs. Each block exports its buffer, its
// threads' offsets and the atomic's final value, which must show: the atomic
// holds the sum of the needs, every thread's run is {0} or {0, 1} as the seed
// says ("buffer is {0, 0, 1, 0, 0, 1 ...}"), a tile's runs follow each other
// in rank order, and the runs of all tiles cover the buffer exactly once.
//
// Blocks of 100 threads end in a tile of 4.
//
// Usage: buffer_allocation [blocks] [threads]   (default 3 100)
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/example_main.hpp"
#include "common/result_check.hpp"
#include "programming_model/model_functions.hpp"

namespace cg = cohort;

// The seed's kernel, exporting what it built: block b's buffer to
// buffers[b * capacity, ...), each thread's offset, the atomic's final value.
__global__ void kernel(int* buffers, int capacity, int* offsets, int* used) {
  int* buffer = cg::dynamic_shared<int>();  // the seed: __shared__ extern int buffer[];
  __shared__ cg::atomic<int, cg::thread_scope_block> buffer_used;

  const int buf_offset = model_functions::allocate_buffer(buffer, buffer_used);
  auto block = cg::this_thread_block();
  const int total = buffer_used.load();
  for (int i = block.thread_rank(); i < min(total, capacity); i += block.size())
    buffers[blockIdx.x * capacity + i] = buffer[i];
  offsets[blockIdx.x * blockDim.x + threadIdx.x] = buf_offset;
  if (block.thread_rank() == 0) used[blockIdx.x] = total;
}

int main(int argc, char** argv) {
  using namespace cohort_kernels;
  const example_info info{"buffer_allocation: exclusive_scan_update hands out buffer space",
                          "[blocks] [threads]  (defaults 3 100)",
                          {3, 100}};
  return run_example(argc, argv, info, [](const std::vector<unsigned>& args) {
    const unsigned blocks = args[0], threads = args[1];
    std::vector<int> need(threads);
    for (unsigned t = 0; t < threads; ++t) need[t] = static_cast<int>(t % 32 % 2 + 1);
    int capacity = 0;
    for (const int n : need) capacity += n;

    cg::device_buffer<int> buffers(std::size_t{blocks} * static_cast<unsigned>(capacity));
    cg::device_buffer<int> offsets(std::size_t{blocks} * threads), used(blocks);
    cg::launch(kernel, {dim3(blocks), dim3(threads), static_cast<std::size_t>(capacity) * sizeof(int)}, buffers.data(),
               capacity, offsets.data(), used.data());
    const std::vector<int> buffer = buffers.to_host(), offset = offsets.to_host(), total = used.to_host();

    std::printf("launch  %ux%u, a buffer of %d ints per block\n", blocks, threads, capacity);
    result_check check("allocations");
    for (unsigned b = 0; b < blocks; ++b) {
      check.expect(total[b] == capacity, "block %u allocated %d ints, its threads need %d", b, total[b], capacity);
      const int* buf = buffer.data() + std::size_t{b} * static_cast<unsigned>(capacity);
      const int* off = offset.data() + std::size_t{b} * threads;
      std::vector<int> owners(static_cast<std::size_t>(capacity), 0);
      for (unsigned t = 0; t < threads; ++t) {
        const bool inside = off[t] >= 0 && off[t] + need[t] <= capacity;
        if (!check.expect(inside, "block %u thread %u got offset %d for %d ints of %d", b, t, off[t], need[t],
                          capacity))
          continue;
        for (int i = 0; i < need[t]; ++i) {
          ++owners[static_cast<std::size_t>(off[t] + i)];
          check.expect(buf[off[t] + i] == i, "block %u thread %u: buffer[%d] = %d, expected %d", b, t, off[t] + i,
                       buf[off[t] + i], i);
        }
        if (t % 32 != 0)
          check.expect(off[t] == off[t - 1] + need[t - 1],
                       "block %u thread %u: offset %d does not follow rank %u's %d + %d in its tile", b, t, off[t],
                       t % 32 - 1, off[t - 1], need[t - 1]);
      }
      const auto once = std::count(owners.begin(), owners.end(), 1);
      check.expect(once == capacity, "block %u: %ld of %d buffer slots allocated exactly once", b,
                   static_cast<long>(once), capacity);
    }
    return check.report();
  });
}
