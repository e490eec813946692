// Device memory of the host-callable whole-array algorithms: one buffer per
// use, device and stream (launches on one stream run one after another, so they
// may share it; launches on two streams may run at once, so they must not),
// kept for the life of the process and grown when a larger array needs it.
// Each launch on a buffer gets the next epoch, which is how the scan's tile
// records tell this launch's entries from an earlier one's without clearing.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <tuple>

#include "cohort/detail/cuda/runtime/runtime_check.hpp"
#include "cohort/launch/device_queries.hpp"
#include "cohort/launch/launch_config.hpp"

namespace cohort::detail::gpu {

// What a buffer is for: a reduction's arrival count and block totals must
// not share memory with a scan's tile records, whose epochs only tell
// records apart from earlier records.
enum class scratch_use { reduce, scan };

struct array_scratch {
  void* data;
  unsigned epoch;
};

// Largest epoch a tile record's 31-bit tag holds.
inline constexpr unsigned last_epoch = (1u << 31) - 1;

inline array_scratch scratch_for(scratch_use use, stream_t stream, std::size_t bytes) {
  struct buffer {
    void* data = nullptr;
    std::size_t bytes = 0;
    unsigned next_epoch = 1;
  };
  static std::mutex mutex;
  static std::map<std::tuple<scratch_use, int, stream_t>, buffer> buffers;
  const int device = cohort::get_device();
  const std::lock_guard lock(mutex);
  buffer& b = buffers[{use, device, stream}];
  if (b.bytes < bytes) {
    if (b.data) gpu::check(cudaFree(b.data), "device algorithm scratch (free)");
    b = buffer{};
    gpu::check(cudaMalloc(&b.data, bytes), "device algorithm scratch (allocation)");
    gpu::check(cudaMemset(b.data, 0, bytes), "device algorithm scratch (clearing)");
    b.bytes = bytes;
  } else if (b.next_epoch > last_epoch) {
    gpu::check(cudaMemsetAsync(b.data, 0, b.bytes, stream), "device algorithm scratch (clearing)");
    b.next_epoch = 1;
  }
  return {b.data, b.next_epoch++};
}

// Blocks of `threads` that fit on the device at once: the grid of a
// persistent kernel. Cached per kernel and device (the occupancy query costs
// more than the launch).
template <class Kernel>
int resident_blocks(Kernel kernel, int threads) {
  static std::mutex mutex;
  static std::map<int, int> by_device;
  const int device = cohort::get_device();
  const std::lock_guard lock(mutex);
  auto [it, fresh] = by_device.try_emplace(device, 0);
  if (fresh) {
    int per_sm = 0;
    gpu::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0),
               "device algorithm occupancy");
    it->second = per_sm * properties_of(device).multiprocessor_count;
  }
  return it->second;
}

// A launch of `kernel`, cooperative when its blocks wait for each other.
template <class... P, class... A>
void launch_array_kernel(void (*kernel)(P...), unsigned blocks, unsigned threads, stream_t stream, bool cooperative,
                         A... args) {
  void* addresses[] = {static_cast<void*>(&args)...};
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeCooperative;
  attribute.val.cooperative = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.stream = stream;
  config.attrs = cooperative ? &attribute : nullptr;
  config.numAttrs = cooperative ? 1 : 0;
  gpu::check(cudaLaunchKernelExC(&config, reinterpret_cast<const void*>(kernel), addresses), "device algorithm launch");
}

}  // namespace cohort::detail::gpu
