// cohort::error: every failure of the launch API, the memory API and (on the
// host backend) every diagnostic raised by a kernel. The message says what was
// wrong and what to do about it; kind() lets tests and callers branch on it.
#pragma once

#include <stdexcept>
#include <string>

namespace cohort {

enum class errc {
  invalid_configuration,    // a launch the device cannot run (zero dims, too many threads, ...)
  cooperative_too_large,    // cooperative grid larger than what can be co-resident
  cooperative_unsupported,  // the device cannot launch cooperative kernels
  not_cooperative,          // grid.sync() in a launch that was not cooperative
  unreachable_barrier,      // a barrier some member can never reach (it exited)
  barrier_mismatch,         // threads of one block wait at different barrier call sites
  deadlock,                 // no thread of a block can make progress
  collective_mismatch,      // members of one group call different collectives at the same time
  non_uniform_argument,     // an argument every member must pass alike differs between members
  copy_in_flight,           // memcpy_async's destination touched, or its source written, before the wait that covers it
  stack_overflow,           // a host fiber overflowed its stack
  shared_memory_limit,      // dynamic shared memory over the limit
  invalid_argument,         // bad argument to an API call (a launch, a partition size, a shuffle width)
  out_of_memory,            // device allocation failed
  kernel_exception,         // kernel code threw (host backend)
  runtime,                  // an error reported by the CUDA runtime
  memory_fault,             // a kernel thread touched memory it may not (host backend: a fault, or a write
                            // outside an allocation found by COHORT_CHECK=memory)
  assertion_failed,         // an assert() in kernel code failed (on a GPU: cudaErrorAssert)
  data_race,                // threads of a block raced on shared memory (host backend, COHORT_CHECK=races)
};

class error : public std::runtime_error {
 public:
  error(errc kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  errc kind() const noexcept { return kind_; }

 private:
  errc kind_;
};

}  // namespace cohort
