// The shared half of a barrier over whole blocks: the grid's of a
// cooperative launch, a cluster's, or a multi-device launch's over every
// block of every grid (barriers.hpp holds each block's half). One arrival per
// block (the block's last thread to arrive makes it), a generation count that
// waiting blocks sleep on, their cores lent (worker_pool.hpp's sleepers), and
// the bookkeeping that turns a barrier some block can never reach into an
// error instead of a hang.
// It also holds the scratch of the level's collectives: each phase carries an
// entry per block (what the block's collective publishes, or just which
// collective it is in), written before the block arrives and read after the
// phase completes. Entries alternate between two sets by phase parity: a
// block can write phase p + 2's entry only after every block has arrived at
// p + 1, so after every block has finished reading phase p's.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>

#include "cohort/detail/host/collectives/grid_exchange.hpp"
#include "scheduling/worker_pool.hpp"

namespace cohort::detail::host {

class level_barrier {
 public:
  enum class outcome { released, aborted, unreachable };

  // What a wait watches besides the barrier (the launch's abort flag), and
  // whether it spins before sleeping: with a core for every block, the others
  // arrive within microseconds, and spinning saves the tens of microseconds a
  // futex wake costs.
  void configure(const std::atomic<bool>* aborted, bool may_spin) {
    aborted_ = aborted;
    may_spin_ = may_spin;
  }

  void reset(unsigned long long blocks) {
    expected_ = blocks;
    entries_ = std::make_unique<grid_entry[]>(2 * blocks);
    arrived_.store(0, std::memory_order_relaxed);
    generation_.store(0, std::memory_order_relaxed);
    fewest_phases_of_exited_.store(std::numeric_limits<std::uint64_t>::max(), std::memory_order_relaxed);
  }

  void arrive() {
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == expected_) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_acq_rel);
      wake_all();
    }
  }

  // Blocks the OS thread until phase `phase` has completed, the launch
  // aborted, or some block exited before arriving at that phase.
  outcome wait_past(std::uint64_t phase) {
    for (int spin = may_spin_ ? 4096 : 0; spin > 0 && generation_.load(std::memory_order_acquire) <= phase; --spin)
      pause();
    const auto released = [&] { return generation_.load(std::memory_order_acquire) > phase; };
    const auto aborted = [&] { return aborted_->load(std::memory_order_acquire); };
    const auto unreachable = [&] { return fewest_phases_of_exited_.load(std::memory_order_acquire) <= phase; };
    // Any exit wakes the sleepers, also one that leaves this phase reachable.
    const auto settled = [&] { return released() || aborted() || unreachable(); };
    while (!settled()) sleepers_.sleep_unless(settled);
    return released() ? outcome::released : aborted() ? outcome::aborted : outcome::unreachable;
  }

  unsigned long long blocks() const { return expected_; }
  std::uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

  // The blocks' entries for phase `phase`, indexed by block rank.
  grid_entry* entries(std::uint64_t phase) { return entries_.get() + (phase & 1) * expected_; }

  // A block left the kernel having arrived at `phases` grid barriers.
  void block_exited(std::uint64_t phases, unsigned long long block) {
    std::uint64_t fewest = fewest_phases_of_exited_.load(std::memory_order_relaxed);
    while (phases < fewest &&
           !fewest_phases_of_exited_.compare_exchange_weak(fewest, phases, std::memory_order_acq_rel)) {
    }
    if (phases <= fewest) exited_block_.store(block, std::memory_order_relaxed);
    wake_all();
  }
  unsigned long long exited_block() const { return exited_block_.load(std::memory_order_relaxed); }
  std::uint64_t phases_of_exited_block() const { return fewest_phases_of_exited_.load(std::memory_order_relaxed); }

  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }

  void wake_all() { sleepers_.wake_all(); }

 private:
  const std::atomic<bool>* aborted_ = nullptr;
  bool may_spin_ = false;
  unsigned long long expected_ = 0;
  std::unique_ptr<grid_entry[]> entries_;
  std::atomic<unsigned long long> arrived_{0};
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<std::uint64_t> fewest_phases_of_exited_{std::numeric_limits<std::uint64_t>::max()};
  std::atomic<unsigned long long> exited_block_{0};
  sleepers sleepers_;
};

}  // namespace cohort::detail::host
