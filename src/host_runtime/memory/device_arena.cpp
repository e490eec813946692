// The device arena: regions of address space mapped for device allocations
// alone, handed out best fit in 256-byte granules, free spans merged with
// their neighbours. The bookkeeping lives on the runtime's heap, never inside
// a region, so that nothing a kernel writes into device memory can reach it.
#include "memory/device_arena.hpp"
#include "races/device_shadow.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <utility>

namespace cohort::detail::host::device_arena {

namespace {

// Address space is reserved this much at a time (MAP_NORESERVE: pages cost
// memory only once written), so that most programs' allocations share one
// region and a write past one lands in device memory.
constexpr std::size_t region_bytes = std::size_t{1} << 30;
// Freed spans at least this long give their whole pages back to the system.
constexpr std::size_t release_threshold = std::size_t{1} << 20;

std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

class arena {
 public:
  void* take(std::size_t bytes) {
    std::lock_guard lock(mutex_);
    auto fit = by_size_.lower_bound({bytes, nullptr});
    if (fit == by_size_.end()) {
      if (!add_region(bytes)) return nullptr;
      fit = by_size_.lower_bound({bytes, nullptr});
    }
    const auto [size, start] = *fit;
    remove_free(start, size);
    if (size > bytes) insert_free(start + bytes, size - bytes);
    return start;
  }

  void give_back(void* p, std::size_t bytes) {
    std::lock_guard lock(mutex_);
    char* start = static_cast<char*>(p);
    std::size_t size = bytes;
    // Merged with the free spans on either side, within one region only.
    if (auto after = by_address_.find(start + size); after != by_address_.end() && same_region(start, after->first)) {
      size += after->second;
      remove_free(after->first, after->second);
    }
    if (auto before = by_address_.lower_bound(start); before != by_address_.begin()) {
      --before;
      if (before->first + before->second == start && same_region(before->first, start)) {
        start = before->first;
        size += before->second;
        remove_free(before->first, before->second);
      }
    }
    insert_free(start, size);
    if (size >= release_threshold) release_pages(start, size);
  }

 private:
  // Maps a region of at least `bytes` and lists it as free; a PROT_NONE page
  // after it turns a write running off its end into a fault.
  bool add_region(std::size_t bytes) {
    const std::size_t page = page_size();
    const std::size_t wanted = (std::max(bytes, region_bytes) + page - 1) / page * page;
    void* p = mmap(nullptr, wanted + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return false;
    char* base = static_cast<char*>(p);
    mprotect(base + wanted, page, PROT_NONE);
    regions_.emplace(base, wanted);
    device_memory_mapped(base, wanted);  // for COHORT_CHECK=races
    insert_free(base, wanted);
    return true;
  }

  bool same_region(const char* a, const char* b) const {
    auto r = regions_.upper_bound(a);
    --r;  // a lies in some region
    return b >= r->first && b < r->first + r->second;
  }

  void insert_free(char* start, std::size_t size) {
    by_address_.emplace(start, size);
    by_size_.emplace(size, start);
  }
  void remove_free(char* start, std::size_t size) {
    by_address_.erase(start);
    by_size_.erase({size, start});
  }

  // The whole pages of a free span go back to the system; they read as zero
  // when next handed out, and allocations write their redzones afresh.
  static void release_pages(char* start, std::size_t size) {
    const std::size_t page = page_size();
    const auto first = (reinterpret_cast<std::uintptr_t>(start) + page - 1) / page * page;
    const auto last = (reinterpret_cast<std::uintptr_t>(start) + size) / page * page;
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
  }

  std::mutex mutex_;
  std::map<char*, std::size_t, std::less<>> regions_;  // base -> length
  std::map<char*, std::size_t> by_address_;            // free spans: start -> length
  std::set<std::pair<std::size_t, char*>> by_size_;    // the same spans, smallest first
};

// Never destroyed: device buffers may be freed by static destructors that run
// after this file's.
arena& the_arena() {
  static arena* const a = new arena;
  return *a;
}

}  // namespace

void* take(std::size_t bytes) { return the_arena().take(bytes); }
void give_back(void* p, std::size_t bytes) { the_arena().give_back(p, bytes); }

}  // namespace cohort::detail::host::device_arena
