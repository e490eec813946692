// The order between blocks (block_order.hpp).
#include "races/block_order.hpp"

#include <algorithm>

namespace cohort::detail::host {

namespace {
bool by_block(const std::pair<std::uint32_t, std::uint32_t>& e, std::uint32_t block) { return e.first < block; }
}  // namespace

std::uint32_t block_clock::of(std::uint32_t block) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), block, by_block);
  return it != entries_.end() && it->first == block ? it->second : 0;
}

void block_clock::raise(std::uint32_t block, std::uint32_t releases) {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), block, by_block);
  if (it != entries_.end() && it->first == block)
    it->second = std::max(it->second, releases);
  else
    entries_.insert(it, {block, releases});
}

void block_clock::join(const block_clock& other) {
  for (const auto& [block, releases] : other.entries_) raise(block, releases);
}

void grid_flags::publish(std::uintptr_t address, const block_clock& released) {
  std::lock_guard lock(mutex_);
  flags_[address].join(released);
  any_.store(true, std::memory_order_relaxed);
}

void grid_flags::acquire(std::uintptr_t address, block_clock& into) {
  if (!any_.load(std::memory_order_relaxed)) return;
  std::lock_guard lock(mutex_);
  if (auto it = flags_.find(address); it != flags_.end()) into.join(it->second);
}

}  // namespace cohort::detail::host
