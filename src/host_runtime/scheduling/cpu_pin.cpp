#include "scheduling/cpu_pin.hpp"

#include <algorithm>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace cohort::detail::host {

// A failed affinity call (a seccomp filter, a CPU gone offline) only costs a
// hand-off its speed: the thread is then left on the CPUs it had.
#if defined(__linux__)

cpu_pin::cpu_pin() : tid_(static_cast<pid_t>(syscall(SYS_gettid))) {}

std::vector<int> cpu_pin::spread(unsigned cores) {
  cpu_set_t allowed;
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  // From the CPU the caller runs on: processes that share a machine, each
  // with fewer workers than it has CPUs, then start from different CPUs.
  const auto here = std::find(cpus.begin(), cpus.end(), sched_getcpu());
  if (here != cpus.end()) std::rotate(cpus.begin(), here, cpus.end());
  std::vector<int> each(cores, -1);
  if (!cpus.empty())
    for (unsigned k = 0; k < cores; ++k) each[k] = cpus[k % cpus.size()];
  return each;
}

int cpu_pin::current_cpu() { return sched_getcpu(); }

void cpu_pin::confine_to(int cpu) {
  if (cpu == cpu_) return;
  if (cpu >= 0 && cpu < CPU_SETSIZE && (cpu_ >= 0 || sched_getaffinity(tid_, sizeof allowed_, &allowed_) == 0) &&
      CPU_ISSET(cpu, &allowed_)) {
    cpu_set_t only;
    CPU_ZERO(&only);
    CPU_SET(cpu, &only);
    if (sched_setaffinity(tid_, sizeof only, &only) == 0) {
      cpu_ = cpu;
      return;
    }
  }
  release();
}

void cpu_pin::release() {
  if (cpu_ < 0) return;
  sched_setaffinity(tid_, sizeof allowed_, &allowed_);
  cpu_ = -1;
}

#else

cpu_pin::cpu_pin() = default;
std::vector<int> cpu_pin::spread(unsigned cores) { return std::vector<int>(cores, -1); }
int cpu_pin::current_cpu() { return -1; }
void cpu_pin::confine_to(int) {}
void cpu_pin::release() {}

#endif

}  // namespace cohort::detail::host
