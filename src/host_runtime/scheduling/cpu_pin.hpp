// Keeping the cores of co-resident blocks (core_pool, worker_pool.cpp) each
// on a CPU of its own. A block's OS thread that gives its core to a block
// waiting for one is about to sleep or to leave the launch: waking the
// waiter on another CPU, maybe an idle one, costs a cross-CPU wake (47 us on
// a 2-core KVM VM, against 1.4-1.7 us on the same CPU: docs/host-backend.md,
// "Cores for co-resident blocks"), and a grid.sync over more blocks than
// cores is a chain of such hand-offs. So a thread holding core k is confined
// to core k's CPU, where the thread that handed it over ran. The CPUs are
// fixed per core, so that two cores never share a CPU while another idles:
// letting a core's CPU follow whoever last freed it ended with both cores of
// a 2-core pool on one CPU, for good (a grid.sync of 2 blocks: 75 us against
// 2 us). A thread gets its CPUs back when its block ends. Linux only;
// elsewhere nothing is confined.
#pragma once

#include <vector>

#if defined(__linux__)
#include <sched.h>
#include <sys/types.h>
#endif

namespace cohort::detail::host {

// One per OS thread that runs blocks (in its core_waiter). Called by the
// thread itself or, while it sleeps, by the thread that wakes it.
class cpu_pin {
 public:
  cpu_pin();
  // A CPU for each of `cores` cores: the CPUs the calling thread may run on,
  // in turn from the one it runs on (-1 each, "any", where they cannot be
  // known).
  static std::vector<int> spread(unsigned cores);
  // The CPU the caller runs on, or -1 where that cannot be known.
  static int current_cpu();
  // Confines the thread to `cpu`, where it may run there; else (or for a cpu
  // of -1) gives it back the CPUs it had.
  void confine_to(int cpu);
  // Gives the thread back the CPUs it had before it was confined.
  void release();

 private:
  int cpu_ = -1;  // the CPU it is confined to, -1 for none
#if defined(__linux__)
  pid_t tid_;
  cpu_set_t allowed_{};  // while confined: the CPUs to give back
#endif
};

}  // namespace cohort::detail::host
