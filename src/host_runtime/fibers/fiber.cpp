#include "fibers/fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string>

#include "launch/settings.hpp"
#include "memory/mapping_limit.hpp"

namespace cohort::detail::host {

namespace {

constexpr std::size_t slab_stacks = 16;
// Stacks all pools together keep mapped between launches: enough for a few
// blocks of 1024 parked threads, a bounded amount of memory and mappings.
constexpr std::size_t retained_limit = 4096;

std::atomic<std::size_t> mapped_total{0};
std::atomic<std::size_t> guarded_total{0};
std::atomic<std::size_t> retained_total{0};

std::size_t page_size() {
  static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

std::size_t guard_budget() {
  static const std::size_t budget = static_cast<std::size_t>(max_map_count() / 4);
  return budget;
}

}  // namespace

std::size_t stack_pool::stack_size() {
  static const std::size_t size = [] {
    const std::size_t requested = settings::stack_size();
    return (requested + page_size() - 1) / page_size() * page_size();
  }();
  return size;
}

// Deep enough that a frame of up to 64 KiB built by code compiled without
// stack-clash probing still lands in it; kernel code is compiled with the
// probes (the cohort target's -fstack-clash-protection), which touch every
// page of a larger frame in order, so no frame jumps the guard.
std::size_t stack_pool::guard_size() { return std::max<std::size_t>(64 * 1024, page_size()); }

namespace {

// A byte count as COHORT_STACK_SIZE takes it: 256K, 8M, or bytes.
std::string size_text(std::size_t bytes) {
  constexpr std::size_t kib = 1024, mib = 1024 * 1024;
  if (bytes % mib == 0) return std::to_string(bytes / mib) + "M";
  if (bytes % kib == 0) return std::to_string(bytes / kib) + "K";
  return std::to_string(bytes);
}

}  // namespace

std::string stack_pool::overflow_advice() {
  const std::size_t size = stack_size();
  return "the thread needed more than its " + std::to_string(size) +
         " bytes of stack (COHORT_STACK_SIZE=" + size_text(size) +
         "); set COHORT_STACK_SIZE to a larger size (e.g. COHORT_STACK_SIZE=" + size_text(2 * size) + ")";
}

bool stack_area::overflowed_unguarded(std::uintptr_t sp) const {
  return sp >= reinterpret_cast<std::uintptr_t>(base) && sp < reinterpret_cast<std::uintptr_t>(base + guard);
}

bool stack_pool::map_slab() {
  const std::size_t each = guard_size() + stack_size();
  void* p = mmap(nullptr, each * slab_stacks, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (p == MAP_FAILED) {
    map_errno_ = errno;
    return false;
  }
  mapped_total.fetch_add(slab_stacks, std::memory_order_relaxed);
  char* slab = static_cast<char*>(p);
  // Pushed highest first, so that acquire() hands out the lowest first and the
  // stacks in use stay together.
  for (std::size_t i = slab_stacks; i-- > 0;) {
    stack_area s;
    s.base = slab + i * each;
    s.guard = guard_size();
    s.usable = stack_size();
    s.color = (made_++ * 448) % page_size();  // 7 cache lines apart, cycling through the page
    if (guarded_total.fetch_add(1, std::memory_order_relaxed) < guard_budget() &&
        mprotect(s.base, s.guard, PROT_NONE) == 0) {
      s.guarded = true;
    } else {
      guarded_total.fetch_sub(1, std::memory_order_relaxed);
    }
    free_.push_back(s);
  }
  return true;
}

std::optional<stack_area> stack_pool::acquire() {
  if (free_.empty() && !map_slab()) return std::nullopt;
  stack_area s = free_.back();
  free_.pop_back();
  return s;
}

// Stacks of one slab lie side by side: one munmap for each run of them
// (each munmap of a mapping in use by other threads is a TLB shootdown of
// every core the process runs on).
void stack_pool::unmap(std::vector<stack_area>::iterator first, std::vector<stack_area>::iterator last) {
  std::sort(first, last, [](const stack_area& a, const stack_area& b) { return a.base < b.base; });
  for (auto run = first; run != last;) {
    auto end = run;
    std::size_t guarded = 0;
    char* next = run->base;
    for (; end != last && end->base == next; ++end) {
      next = end->base + end->guard + end->usable;
      guarded += end->guarded;
    }
    guarded_total.fetch_sub(guarded, std::memory_order_relaxed);
    mapped_total.fetch_sub(static_cast<std::size_t>(end - run), std::memory_order_relaxed);
    munmap(run->base, static_cast<std::size_t>(next - run->base));
    run = end;
  }
}

void stack_pool::trim() {
  retained_total.fetch_sub(retained_, std::memory_order_relaxed);
  std::size_t keep = 0;
  for (std::size_t total = retained_total.load(std::memory_order_relaxed);;) {
    keep = std::min(free_.size(), total < retained_limit ? retained_limit - total : 0);
    if (retained_total.compare_exchange_weak(total, total + keep, std::memory_order_relaxed)) break;
  }
  // The stacks handed out last are kept: their pages are the ones still warm.
  const auto dropped = free_.begin() + static_cast<std::ptrdiff_t>(free_.size() - keep);
  unmap(free_.begin(), dropped);
  free_.erase(free_.begin(), dropped);
  retained_ = keep;
}

std::string stack_pool::failure() const {
  if (at_mapping_limit(map_errno_))
    return "cannot map fiber stacks: " + mapping_failure(map_errno_) + "; " + mapping_limit_advice;
  return "cannot map " + std::to_string(slab_stacks) + " fiber stacks of " + std::to_string(stack_size()) +
         " bytes: " + mapping_failure(map_errno_) + "; lower COHORT_STACK_SIZE or use smaller blocks";
}

stack_pool::~stack_pool() {
  retained_total.fetch_sub(retained_, std::memory_order_relaxed);
  unmap(free_.begin(), free_.end());
}

stack_census stacks_in_use() { return {mapped_total.load(), guarded_total.load(), retained_total.load()}; }

}  // namespace cohort::detail::host
