// Device allocations on the host backend, tracked so that an access outside
// every live allocation is reported instead of corrupting memory.
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>

#include "cohort/errors.hpp"
#include "cohort/detail/host/memory.hpp"

namespace cohort::detail::host {

namespace {

constexpr std::size_t alignment = 256;  // what cudaMalloc guarantees

std::mutex allocations_mutex;

// start -> size. Built on first use: a program may allocate from a static initializer.
std::map<const char*, std::size_t>& allocations() {
  static std::map<const char*, std::size_t> by_start;
  return by_start;
}

std::string address(const void* p) {
  std::ostringstream s;
  s << p;
  return s.str();
}

}  // namespace

void* allocate_device(std::size_t bytes) {
  const std::size_t rounded = (std::max<std::size_t>(bytes, 1) + alignment - 1) / alignment * alignment;
  void* p = std::aligned_alloc(alignment, rounded);
  if (!p)
    throw error(errc::out_of_memory, "cannot allocate " + std::to_string(bytes) + " bytes of device memory");
  std::lock_guard lock(allocations_mutex);
  allocations()[static_cast<const char*>(p)] = bytes;
  return p;
}

void release_device(void* p) {
  if (!p) return;
  {
    std::lock_guard lock(allocations_mutex);
    if (allocations().erase(static_cast<const char*>(p)) == 0)
      throw error(errc::invalid_argument, "free_device(" + address(p) +
                                              "): not the start of a live allocation from cohort::malloc_device "
                                              "(freed twice, or never allocated there)");
  }
  std::free(p);
}

void check_device_range(const void* p, std::size_t bytes, const std::string& what) {
  if (bytes == 0) return;
  const char* begin = static_cast<const char*>(p);
  std::lock_guard lock(allocations_mutex);
  auto it = allocations().upper_bound(begin);
  if (it != allocations().begin()) {
    --it;
    const std::size_t offset = static_cast<std::size_t>(begin - it->first);
    if (offset < it->second || (offset == 0 && it->second == 0)) {
      if (offset + bytes <= it->second) return;
      throw error(errc::invalid_argument, what + ": " + std::to_string(bytes) + " bytes at offset " +
                                              std::to_string(offset) + " overrun the allocation of " +
                                              std::to_string(it->second) + " bytes at " + address(it->first));
    }
  }
  throw error(errc::invalid_argument, what + ": " + address(p) +
                                          " is not inside any live allocation from cohort::malloc_device");
}

}  // namespace cohort::detail::host
