// OS threads for running blocks. A launch asks for n of them at once (the
// caller is one); idle ones are reused, more are started when none is idle, so
// concurrent launches from several host threads never wait for each other.
#pragma once

#include <functional>
#include <vector>

namespace cohort::detail::host {

// Runs job(0..n-1), each on its own OS thread, job(0) on the caller's; returns
// when all have returned.
void run_on_threads(unsigned n, const std::function<void(unsigned)>& job);

// Cores for blocks that have OS threads of their own (a cooperative or cluster
// launch starts every block at once, so that all are co-resident): at most
// COHORT_WORKERS of them run at a time. A block's thread claims a core to run
// and lends it out while it waits for other blocks (at a grid, cluster or
// multi-grid barrier, or spinning on another block's write), so a waiting
// block lets the others run and the cores are never oversubscribed.
class core_claim {
 public:
  core_claim();
  ~core_claim();
  core_claim(const core_claim&) = delete;
  core_claim& operator=(const core_claim&) = delete;
};

// For as long as it lives, the calling thread's core (if it holds one) goes to
// a block that can run; it takes one back, waiting for it, when it ends.
class core_lent {
 public:
  core_lent();
  ~core_lent();
  core_lent(const core_lent&) = delete;
  core_lent& operator=(const core_lent&) = delete;

 private:
  bool lent_;
};

// Whether `blocks` blocks with OS threads of their own each have a core (no
// more of them than of both cores and workers): only then may a block that
// waits for the others spin rather than sleep.
bool every_block_has_a_core(unsigned long long blocks);

// Block threads that sleep until another thread wakes them (the blocks
// waiting at a level barrier), their cores lent out while they sleep. A wake
// queues every sleeper for a core, in the order they slept, and wakes only as
// many as there are free cores; the others wake one by one as cores are
// released. (Waking them all at once, to queue for a core each, kept 36-67
// of 512 blocks' threads runnable through a grid.sync on two cores.)
struct core_waiter;

class sleepers {
 public:
  sleepers();
  ~sleepers();
  sleepers(const sleepers&) = delete;
  sleepers& operator=(const sleepers&) = delete;

  // Sleeps unless `done()` already holds; `done` is called under the lock
  // that wake_all() takes, so a wake after the state it tests changed is
  // never lost. Returns with the core the caller held, if any.
  void sleep_unless(const std::function<bool()>& done);
  void wake_all();

 private:
  std::vector<core_waiter*> list_;
};

// std::this_thread::yield() for a thread that waits on other blocks: lends
// its core while it yields.
void yield_core();

}  // namespace cohort::detail::host
