// COHORT_CHECK=races on device memory: the shadow of the memory the runtime
// allocated for kernels (cudaMalloc, cudaMallocManaged, cohort's
// allocations: the device arena's regions, or each allocation's own mapping
// under COHORT_CHECK=memory), shared by every worker. Host memory and
// __device__ variables have none.
//
// A cell is one aligned 4-byte word: its last write and up to two reads of
// distinct threads, each naming the bytes it touched. A word accessed
// narrower than whole in a launch (a byte, a half, an unaligned access's
// part) has a cell per byte from then on (byte_cells_of), so that two
// threads writing its bytes apart are not one racing write replacing the
// other, and a third thread's access is compared with each. Cells come in pages of
// 4 KiB of device memory, allocated on a page's first checked access, within
// a budget (shadow_budget_bytes; past it, pages not yet shadowed go
// unchecked and the run says so once on stderr). A page belongs to one launch
// at a time: the first access of another launch clears it, so kernel
// boundaries order everything and no launch pays for what it did not touch.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "races/access_record.hpp"

namespace cohort::detail::host {

struct device_cell {
  device_access write;
  device_access reads[2];
};

inline constexpr std::size_t shadow_page_bytes = 4096;  // of device memory
inline constexpr std::size_t shadow_budget_bytes = std::size_t{2} << 30;

// A page's cells, held under its lock while an access updates them (a spin:
// a hook holds it for a few cells and never waits for anything else).
struct shadow_page {
  static constexpr std::size_t words = shadow_page_bytes / 4;

  std::atomic_flag lock;
  bool any_split = false;    // whether any word is split in this launch: the common test, on the lock's cache line
  std::uint64_t launch = 0;  // the launch whose accesses the cells hold
  device_cell cells[words];
  std::uint64_t split[words / 64] = {};    // per word: in this launch, its cells are byte_cells_of's
  device_cell (*byte_cells)[4] = nullptr;  // per word, a cell per byte: mapped on the page's first narrow access

  bool is_split(std::size_t word) const { return any_split && (split[word / 64] >> word % 64 & 1); }
};

// The lowest and highest addresses any shadowed range covers, for the hooks'
// first test (relaxed: a range is added before a kernel can use it).
extern std::atomic<std::uintptr_t> device_memory_low, device_memory_high;

inline bool may_be_device_memory(std::uintptr_t a) {
  return a >= device_memory_low.load(std::memory_order_relaxed) &&
         a < device_memory_high.load(std::memory_order_relaxed);
}

// Where device memory is mapped, and where it goes away (memory.cpp,
// device_arena.cpp). A range's shadow is kept after it goes: a hook may be
// reading it.
void device_memory_mapped(const void* begin, std::size_t bytes);
void device_memory_unmapped(const void* begin);

// The page holding `address` for `launch`, cleared if it held another
// launch's cells, and locked; null for memory without a shadow (or past the
// budget).
shadow_page* lock_shadow_page(std::uintptr_t address, std::uint64_t launch);
inline void unlock_shadow_page(shadow_page& page) { page.lock.clear(std::memory_order_release); }

// The four cells of the bytes of `word` (an index in a page locked by the
// caller), each holding the word's records that touched its byte when the
// word is first split in the launch; null past the budget (the word keeps
// its one cell).
device_cell* byte_cells_of(shadow_page& page, std::size_t word);

}  // namespace cohort::detail::host
