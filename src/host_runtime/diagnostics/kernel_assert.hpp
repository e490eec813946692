// A failed assert() in kernel code: on a GPU the thread traps, the device
// prints the assertion with its block and thread, and the launch fails with
// cudaErrorAssert. Here the launch fails with errc::assertion_failed naming
// the same, and the program goes on (glibc's assert would abort the process,
// saying neither).
#pragma once

#include <string>

#include "cohort/detail/host/runtime/state.hpp"

namespace cohort::detail::host {

struct launch_state;

// What assert() passes on failing: glibc's __assert_fail arguments.
struct failed_assertion {
  const char* expression = nullptr;
  const char* file = nullptr;
  unsigned line = 0;
  const char* function = nullptr;
};

// Leaves the failing thread's fiber for the worker's own stack, which fails
// the launch with the assertion (worker.cpp); returns outside kernel code,
// where the assertion takes its usual course.
void escape_failed_assertion(const failed_assertion& a);

// "assertion `i < n` failed in kernel `k(int*)`, block (1,0,0), thread (3,0,0), at k.cu:12 (in `void k(int*)`)"
std::string assertion_message(const launch_state& launch, const block_record& block, const thread_record& thread,
                              const failed_assertion& a);

}  // namespace cohort::detail::host
