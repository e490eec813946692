// Device allocations on the host backend, tracked so that an access outside
// every live allocation is reported instead of corrupting memory. Each
// allocation belongs to the virtual device current when it was made, and
// each device has its own capacity (the virtual device's
// total_global_memory): an allocation that does not fit is out of memory on
// that device, whatever the others hold. Each
// allocation is surrounded by redzones holding a known byte, checked when it
// is freed. They come from the device arena (device_arena.hpp), apart from
// the runtime's heap; under COHORT_CHECK=memory each gets its own mapping
// between PROT_NONE guard zones instead, its bytes are poisoned when allocated, and every
// allocation's redzones are checked after each launch.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include "cohort/detail/host/memory.hpp"
#include "cohort/errors.hpp"
#include "cohort/host/virtual_device.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/launch_state.hpp"
#include "launch/settings.hpp"
#include "launch/virtual_devices.hpp"
#include "memory/device_arena.hpp"
#include "memory/memory_check.hpp"
#include "memory/shared_faults.hpp"
#include "races/device_shadow.hpp"

namespace cohort::detail::host {

namespace {

constexpr std::size_t alignment = 256;         // what cudaMalloc guarantees
constexpr std::size_t redzone = 256;           // before and after each allocation, by default
constexpr std::size_t guard_zone = 64 * 1024;  // PROT_NONE on each side, under COHORT_CHECK=memory
constexpr unsigned char redzone_byte = 0xFB;
constexpr unsigned char poison_byte = 0xCD;  // fresh allocations under COHORT_CHECK=memory

struct allocation {
  int device;        // the virtual device it belongs to
  std::size_t size;  // bytes asked for
  char* region;      // what was allocated or mapped
  std::size_t span;  // its length
  char* low;         // redzone [low, start) and [start + size, high)
  char* high;
  bool mapped;
};

std::mutex allocations_mutex;
// start -> allocation. Built on first use: a program may allocate from a static initializer.
std::map<const char*, allocation>& allocations() {
  static std::map<const char*, allocation> by_start;
  return by_start;
}
// device -> the bytes its live allocations asked for.
std::map<int, std::size_t>& bytes_in_use() {
  static std::map<int, std::size_t> by_device;
  return by_device;
}

// The live allocation holding `p`, or none; under allocations_mutex.
const std::pair<const char* const, allocation>* holding(const void* p) {
  const char* at = static_cast<const char*>(p);
  auto it = allocations().upper_bound(at);
  if (it == allocations().begin()) return nullptr;
  --it;
  const std::size_t offset = static_cast<std::size_t>(at - it->first);
  return offset < it->second.size || (offset == 0 && it->second.size == 0) ? &*it : nullptr;
}

// Damage found by free_device, which may run in a destructor and so cannot
// throw: kept, as CUDA keeps an asynchronous error, for the next launch or
// memory call to raise.
std::mutex pending_mutex;
std::optional<error> pending;
std::atomic<bool> has_pending{false};

std::string address(const void* p) {
  std::ostringstream s;
  s << p;
  return s.str();
}

std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }
std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

// The first byte of [from, to) that is not the redzone byte, or `to`.
const char* first_written(const char* from, const char* to) {
  return std::find_if(from, to, [](char c) { return static_cast<unsigned char>(c) != redzone_byte; });
}

// What a redzone check found, worded; empty when both redzones are intact.
std::string redzone_damage(const char* start, const allocation& a) {
  const char* end = start + a.size;
  const char* after = first_written(end, a.high);
  if (after != a.high)
    return "the byte " + std::to_string(after - end) + " past the end of the allocation of " + std::to_string(a.size) +
           " bytes at " + address(start) + " was overwritten";
  const char* before = first_written(a.low, start);
  if (before != start)
    return "the byte " + std::to_string(start - before) + " before the start of the allocation of " +
           std::to_string(a.size) + " bytes at " + address(start) + " was overwritten";
  return {};
}

void* map_checked(std::size_t bytes, allocation& a) {
  const std::size_t page = page_size();
  const std::size_t body = round_up(std::max<std::size_t>(bytes, 1), alignment);
  const std::size_t data = round_up(body + redzone, page);
  a.span = guard_zone + data + guard_zone;
  void* p = mmap(nullptr, a.span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  a.region = static_cast<char*>(p);
  if (mprotect(a.region + guard_zone, data, PROT_READ | PROT_WRITE) != 0) {
    munmap(p, a.span);
    return nullptr;
  }
  a.mapped = true;
  device_memory_mapped(a.region + guard_zone, data);
  a.low = a.region + guard_zone;
  a.high = a.low + data;
  // Pushed against the guard zone above, as far as the alignment allows: an
  // index just past the end hits the redzone, one further the guard.
  char* start = a.high - body;
  std::memset(a.low, redzone_byte, data);
  std::memset(start, poison_byte, bytes);
  return start;
}

void* allocate_plain(std::size_t bytes, allocation& a) {
  const std::size_t body = round_up(std::max<std::size_t>(bytes, 1), alignment);
  a.span = redzone + body + redzone;
  a.region = static_cast<char*>(device_arena::take(a.span));
  if (!a.region) return nullptr;
  a.mapped = false;
  a.low = a.region;
  a.high = a.region + a.span;
  char* start = a.region + redzone;
  std::memset(a.low, redzone_byte, redzone);
  std::memset(start + bytes, redzone_byte, static_cast<std::size_t>(a.high - (start + bytes)));
  return start;
}

void give_back(const allocation& a) {
  if (a.mapped) {
    device_memory_unmapped(a.region + guard_zone);
    munmap(a.region, a.span);
  } else
    device_arena::give_back(a.region, a.span);
}

}  // namespace

void raise_pending_memory_fault() {
  if (!has_pending.load(std::memory_order_acquire)) return;
  std::lock_guard lock(pending_mutex);
  if (!pending) return;
  const error e = *pending;
  pending.reset();
  has_pending.store(false, std::memory_order_release);
  throw e;
}

bool memory_checking() { return settings::checks().memory; }

void* allocate_device(std::size_t bytes) {
  raise_pending_memory_fault();
  allocation a{};
  a.device = current_virtual_device();
  a.size = bytes;
  const std::size_t capacity = cohort::host::virtual_device().total_global_memory;
  {
    // The bytes are counted before they are taken, so that two threads cannot both fit in the last room.
    std::lock_guard lock(allocations_mutex);
    std::size_t& used = bytes_in_use()[a.device];
    if (used > capacity || bytes > capacity - used)
      throw error(errc::out_of_memory,
                  "malloc_device: cannot allocate " + std::to_string(bytes) + " bytes on device " +
                      std::to_string(a.device) + ": " + std::to_string(used) + " of its " + std::to_string(capacity) +
                      " bytes are in use (each virtual device has its own memory; COHORT_DEVICE_MEMORY sets how "
                      "much, or allocate on another device with set_device)");
    used += bytes;
  }
  void* p = memory_checking() ? map_checked(bytes, a) : allocate_plain(bytes, a);
  std::lock_guard lock(allocations_mutex);
  if (!p) {
    bytes_in_use()[a.device] -= bytes;
    throw error(errc::out_of_memory, "malloc_device: the system cannot supply " + std::to_string(bytes) +
                                         " bytes for device " + std::to_string(a.device));
  }
  allocations()[static_cast<const char*>(p)] = a;
  return p;
}

int owner_of(const void* p) {
  std::lock_guard lock(allocations_mutex);
  const auto* found = holding(p);
  return found ? found->second.device : -1;
}

std::string device_place(const void* p) {
  std::lock_guard lock(allocations_mutex);
  const auto* found = holding(p);
  if (found == nullptr) return "device memory outside every live allocation";
  return "offset " + std::to_string(static_cast<const char*>(p) - found->first) + " of the device allocation of " +
         std::to_string(found->second.size) + " bytes at " + address(found->first);
}

device_memory_usage usage_of(int device) {
  check_virtual_device(device);
  const std::size_t capacity = cohort::host::virtual_device().total_global_memory;
  std::lock_guard lock(allocations_mutex);
  const std::size_t used = bytes_in_use()[device];
  return {used < capacity ? capacity - used : 0, capacity};
}

namespace {

// Frees `p` (not null); returns what the free found overwritten in its
// redzones, as a memory_fault's message, or nothing.
std::string free_checking_redzones(void* p) {
  allocation a;
  {
    std::lock_guard lock(allocations_mutex);
    const auto it = allocations().find(static_cast<const char*>(p));
    if (it == allocations().end()) {
      if (const auto* inside = holding(p))
        throw error(errc::invalid_argument, "free_device(" + address(p) + "): an address " +
                                                std::to_string(static_cast<const char*>(p) - inside->first) +
                                                " bytes inside device " + std::to_string(inside->second.device) +
                                                "'s allocation of " + std::to_string(inside->second.size) +
                                                " bytes at " + address(inside->first) +
                                                "; free the pointer malloc_device returned");
      throw error(errc::invalid_argument, "free_device(" + address(p) +
                                              "): not the start of a live allocation from cohort::malloc_device "
                                              "(freed twice, or never allocated there)");
    }
    a = it->second;
    bytes_in_use()[a.device] -= a.size;
    allocations().erase(it);
  }
  const std::string damage = redzone_damage(static_cast<const char*>(p), a);
  give_back(a);
  if (damage.empty()) return {};
  return "free_device(" + address(p) + "): " + damage +
         ": a kernel or a copy wrote outside the allocation; run with COHORT_CHECK=memory to have the launch that "
         "did it report it";
}

}  // namespace

void release_device(void* p) {
  if (!p) return;
  const std::string damage = free_checking_redzones(p);
  if (damage.empty()) return;
  std::fprintf(stderr, "cohort: %s (raised by the next launch or memory call)\n", damage.c_str());
  std::lock_guard lock(pending_mutex);
  if (!pending) pending.emplace(errc::memory_fault, damage);
  has_pending.store(true, std::memory_order_release);
}

void release_device_raising_damage(void* p) {
  if (!p) return;
  if (const std::string damage = free_checking_redzones(p); !damage.empty()) throw error(errc::memory_fault, damage);
}

void check_device_range(const void* p, std::size_t bytes, const std::string& what) {
  raise_pending_memory_fault();
  if (bytes == 0) return;
  std::lock_guard lock(allocations_mutex);
  if (const auto* found = holding(p)) {
    const std::size_t offset = static_cast<std::size_t>(static_cast<const char*>(p) - found->first);
    const std::size_t size = found->second.size;
    if (offset + bytes <= size) return;
    throw error(errc::invalid_argument, what + ": " + std::to_string(bytes) + " bytes at offset " +
                                            std::to_string(offset) + " overrun the allocation of " +
                                            std::to_string(size) + " bytes at " + address(found->first) +
                                            " on device " + std::to_string(found->second.device));
  }
  throw error(errc::invalid_argument,
              what + ": " + address(p) + " is not inside any live allocation from cohort::malloc_device");
}

void check_redzones_after(const launch_state& launch) {
  std::lock_guard lock(allocations_mutex);
  for (const auto& [start, a] : allocations()) {
    const std::string damage = redzone_damage(start, a);
    if (damage.empty()) continue;
    // Reported once: the redzones are made whole again for the free.
    std::memset(a.low, redzone_byte, static_cast<std::size_t>(start - a.low));
    std::memset(const_cast<char*>(start) + a.size, redzone_byte, static_cast<std::size_t>(a.high - (start + a.size)));
    throw error(errc::memory_fault, "kernel `" + kernel_name(launch.entry->kernel) +
                                        "` wrote outside device "
                                        "memory: " +
                                        damage +
                                        " (COHORT_CHECK=memory; an index past the end "
                                        "by more than the redzone faults in the guard zone and names the thread)");
  }
}

std::string memory_fault_message(const launch_state& launch, const block_record& block, const thread_record& thread,
                                 const void* address_hit, fault_access access) {
  std::ostringstream s;
  s << "invalid memory access at " << address_hit << " " << position(launch, block, thread);
  if (const auto shared = describe_shared_fault(launch, block, reinterpret_cast<std::uintptr_t>(address_hit), access)) {
    s << ": " << *shared;
    return s.str();
  }
  const char* a = static_cast<const char*>(address_hit);
  if (reinterpret_cast<std::uintptr_t>(a) < 4096) {
    s << ": a null pointer was dereferenced";
    return s.str();
  }
  std::lock_guard lock(allocations_mutex);
  for (const auto& [start, al] : allocations()) {
    if (a >= al.region && a < al.region + al.span) {
      if (a >= start + al.size)
        s << ": " << (a - (start + al.size)) << " bytes past the end of the allocation of " << al.size << " bytes at "
          << static_cast<const void*>(start);
      else
        s << ": " << (start - a) << " bytes before the start of the allocation of " << al.size << " bytes at "
          << static_cast<const void*>(start);
      return s.str();
    }
  }
  s << ": not inside any device allocation"
    << (memory_checking() ? ""
                          : " (run with COHORT_CHECK=memory to have "
                            "accesses just outside an allocation "
                            "caught and named)");
  return s.str();
}

}  // namespace cohort::detail::host
