#include "memory/shared_region.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace cohort::detail::host {

namespace {

std::size_t page_size() {
  static const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

shared_region::~shared_region() {
  if (base_) munmap(reinterpret_cast<void*>(base_), guard_bytes + capacity_ + guard_bytes);
}

unsigned char* shared_region::place(std::size_t bytes) {
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  if (rounded > capacity_) {
    const std::size_t page = page_size();
    const std::size_t capacity = (rounded + page - 1) / page * page;
    // MAP_NORESERVE: pages cost memory only once written, as the heap's did.
    void* m = mmap(nullptr, guard_bytes + capacity + guard_bytes, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return nullptr;
    if (mprotect(static_cast<char*>(m) + guard_bytes, capacity, PROT_READ | PROT_WRITE) != 0) {
      munmap(m, guard_bytes + capacity + guard_bytes);
      return nullptr;
    }
    if (base_) munmap(reinterpret_cast<void*>(base_), guard_bytes + capacity_ + guard_bytes);
    base_ = reinterpret_cast<std::uintptr_t>(m);
    capacity_ = capacity;
  }
  return reinterpret_cast<unsigned char*>(base_ + guard_bytes + capacity_ - rounded);
}

}  // namespace cohort::detail::host
