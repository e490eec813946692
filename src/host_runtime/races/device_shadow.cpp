// The shadow of device memory (device_shadow.hpp): a table of ranges, each
// with a slot per page, read by the hooks without a lock; a new table
// replaces the old one when memory is mapped or unmapped, and the old one is
// kept, as a hook may still be reading it.
#include "races/device_shadow.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

namespace cohort::detail::host {

std::atomic<std::uintptr_t> device_memory_low{0}, device_memory_high{0};

namespace {

// A slot per page, mapped (not allocated): a program that never checks
// races touches none of it, and one that does only the slots of its pages.
struct shadowed_range {
  std::uintptr_t begin;
  std::size_t bytes;
  std::atomic<shadow_page*>* pages;
};

struct range_table {
  std::vector<shadowed_range*> ranges;  // by address
};

std::mutex tables_mutex;
std::vector<std::unique_ptr<shadowed_range>>& all_ranges() {
  static std::vector<std::unique_ptr<shadowed_range>> kept;
  return kept;
}
std::vector<std::unique_ptr<range_table>>& all_tables() {
  static std::vector<std::unique_ptr<range_table>> kept;
  return kept;
}
std::atomic<const range_table*> current_table{nullptr};
std::atomic<std::size_t> shadow_bytes{0};

// Under tables_mutex: publishes `ranges` as the table the hooks read.
void publish(std::vector<shadowed_range*> ranges) {
  std::sort(ranges.begin(), ranges.end(), [](auto* a, auto* b) { return a->begin < b->begin; });
  auto table = std::make_unique<range_table>(range_table{std::move(ranges)});
  device_memory_low.store(table->ranges.empty() ? 0 : table->ranges.front()->begin, std::memory_order_relaxed);
  device_memory_high.store(table->ranges.empty() ? 0 : table->ranges.back()->begin + table->ranges.back()->bytes,
                           std::memory_order_relaxed);
  current_table.store(table.get(), std::memory_order_release);
  all_tables().push_back(std::move(table));
}

std::vector<shadowed_range*> current_ranges() {
  const range_table* t = current_table.load(std::memory_order_acquire);
  return t ? t->ranges : std::vector<shadowed_range*>{};
}

// `bytes` more of shadow, or false past the budget (said once).
bool within_budget(std::size_t bytes) {
  if (shadow_bytes.fetch_add(bytes, std::memory_order_relaxed) + bytes > shadow_budget_bytes) {
    static std::once_flag said;
    std::call_once(said, [] {
      std::fprintf(stderr,
                   "cohort: COHORT_CHECK=races: the shadow of device memory reached its budget of %zu MiB; accesses "
                   "to device memory not yet shadowed are not checked from here on (nor byte by byte in words not yet "
                   "accessed so)\n",
                   shadow_budget_bytes >> 20);
    });
    return false;
  }
  return true;
}

shadow_page* new_page() {
  if (!within_budget(sizeof(shadow_page))) return nullptr;
  // Anonymous pages come zeroed: every cell empty (epoch 0), launch 0, no word split.
  void* p = mmap(nullptr, sizeof(shadow_page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? nullptr : new (p) shadow_page;
}

}  // namespace

void device_memory_mapped(const void* begin, std::size_t bytes) {
  auto range = std::make_unique<shadowed_range>();
  range->begin = reinterpret_cast<std::uintptr_t>(begin) / shadow_page_bytes * shadow_page_bytes;
  range->bytes = (reinterpret_cast<std::uintptr_t>(begin) + bytes - range->begin + shadow_page_bytes - 1) /
                 shadow_page_bytes * shadow_page_bytes;
  void* slots = mmap(nullptr, range->bytes / shadow_page_bytes * sizeof(std::atomic<shadow_page*>),
                     PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (slots == MAP_FAILED) return;                                // the range goes unchecked
  range->pages = static_cast<std::atomic<shadow_page*>*>(slots);  // zeroed: no page yet
  std::lock_guard lock(tables_mutex);
  std::vector<shadowed_range*> ranges = current_ranges();
  ranges.push_back(range.get());
  all_ranges().push_back(std::move(range));
  publish(std::move(ranges));
}

void device_memory_unmapped(const void* begin) {
  const auto at = reinterpret_cast<std::uintptr_t>(begin) / shadow_page_bytes * shadow_page_bytes;
  std::lock_guard lock(tables_mutex);
  std::vector<shadowed_range*> ranges = current_ranges();
  std::erase_if(ranges, [&](const shadowed_range* r) { return r->begin == at; });
  publish(std::move(ranges));
}

shadow_page* lock_shadow_page(std::uintptr_t address, std::uint64_t launch) {
  const range_table* table = current_table.load(std::memory_order_acquire);
  if (table == nullptr) return nullptr;
  const auto& ranges = table->ranges;
  auto it = std::upper_bound(ranges.begin(), ranges.end(), address,
                             [](std::uintptr_t a, const shadowed_range* r) { return a < r->begin; });
  if (it == ranges.begin()) return nullptr;
  const shadowed_range& range = **--it;
  if (address - range.begin >= range.bytes) return nullptr;
  std::atomic<shadow_page*>& slot = range.pages[(address - range.begin) / shadow_page_bytes];
  shadow_page* page = slot.load(std::memory_order_acquire);
  if (page == nullptr) {
    shadow_page* fresh = new_page();
    if (fresh == nullptr) return nullptr;
    if (slot.compare_exchange_strong(page, fresh, std::memory_order_acq_rel))
      page = fresh;
    else {  // another worker's came first
      munmap(fresh, sizeof(shadow_page));
      shadow_bytes.fetch_sub(sizeof(shadow_page), std::memory_order_relaxed);
    }
  }
  while (page->lock.test_and_set(std::memory_order_acquire)) {
  }
  if (page->launch != launch) {
    std::fill(std::begin(page->cells), std::end(page->cells), device_cell{});
    if (page->any_split) std::fill(std::begin(page->split), std::end(page->split), 0);  // byte cells: filled at a split
    page->any_split = false;
    page->launch = launch;
  }
  return page;
}

device_cell* byte_cells_of(shadow_page& page, std::size_t word) {
  if (page.byte_cells == nullptr) {
    // Mapped, not allocated: only the OS pages of the words split are touched.
    constexpr std::size_t bytes = sizeof(device_cell[4]) * shadow_page::words;
    if (!within_budget(bytes)) return nullptr;
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    page.byte_cells = static_cast<device_cell(*)[4]>(p);
  }
  device_cell* cells = page.byte_cells[word];
  if (!page.is_split(word)) {
    // Each byte's cell takes the records of the word's that touched it.
    const device_cell& whole = page.cells[word];
    const auto part = [](const device_access& a, unsigned byte) {
      return a.at.bytes >> byte & 1 ? a : device_access{};
    };
    for (unsigned b = 0; b < 4; ++b)
      cells[b] = {part(whole.write, b), {part(whole.reads[0], b), part(whole.reads[1], b)}};
    page.split[word / 64] |= std::uint64_t{1} << word % 64;
    page.any_split = true;
  }
  return cells;
}

}  // namespace cohort::detail::host
