// exit() called by kernel code. On a GPU a kernel cannot end the process;
// here exit() is the C library's, whose first act (running the calling
// thread's thread-local destructors) would unmap the very fiber stack it runs
// on. So the thread leaves its fiber for the worker's own stack, the launch
// stops as after an error, and the thread that made the launch, back in host
// code, says which kernel, block and thread asked and calls the C library's
// exit() with the status asked for: atexit handlers and static destructors
// run as for an exit() in host code.
#pragma once

#include <string>

#include "cohort/detail/host/runtime/state.hpp"

namespace cohort::detail::host {

struct launch_state;

struct kernel_exit_request {
  int status;
  std::string message;  // says who asked, for the launching thread to print
};

// Leaves the calling kernel thread's fiber for the worker's own stack, which
// records the request in the launch (worker.cpp); returns when the caller is
// not a kernel thread.
void escape_kernel_exit(int status, const void* caller);

// "kernel `k(int)` called exit(7) in block (1,0,0), thread (3,0,0) (from `helper(int)`)"
std::string exit_message(const launch_state& launch, const block_record& block, const thread_record& thread, int status,
                         const void* caller);

// The launching thread's part, once the launch is over: prints the request
// and ends the process with its status.
[[noreturn]] void carry_out_exit(const kernel_exit_request& request);

}  // namespace cohort::detail::host
