// A block's dynamic shared memory, in a mapping of its own between two
// 64 KiB PROT_NONE guard zones, never on the malloc heap: a kernel that
// writes past it (or before it) by up to 64 KiB faults at once, and the fault
// is reported as an error of the launch naming the thread and the offset
// (shared_faults.hpp), where a buffer from aligned_alloc let the write reach
// the heap's own records ("free(): invalid next size" later in host code) or
// the runtime's. The memory ends against the upper guard, so that the first
// byte past the size the launch gave (rounded up to 16, the alignment CUDA
// gives dynamic shared memory) faults. One per worker, reused from block to
// block; it grows, never shrinks, and one mapping serves every size up to
// its capacity.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cohort::detail::host {

class shared_region {
 public:
  static constexpr std::size_t guard_bytes = 64 * 1024;
  static constexpr std::size_t alignment = 16;

  shared_region() = default;
  shared_region(const shared_region&) = delete;
  shared_region& operator=(const shared_region&) = delete;
  ~shared_region();

  // Memory for `bytes` of dynamic shared memory, its end against the upper
  // guard; null when no mapping could be made.
  unsigned char* place(std::size_t bytes);
  // Whether `address` lies in the region or its guards.
  bool contains(std::uintptr_t address) const {
    return address >= base_ && address < base_ + guard_bytes + capacity_ + guard_bytes;
  }

 private:
  std::uintptr_t base_ = 0;  // the mapping: lower guard, capacity_ bytes, upper guard
  std::size_t capacity_ = 0;
};

}  // namespace cohort::detail::host
