// abort() in kernel code, and std::terminate() (an exception leaving a
// noexcept function, a destructor throwing during unwinding), which calls
// it: the process ends with SIGABRT as in host code, but first says which
// kernel, block and thread, and from which function. A GPU traps such a
// thread and names it; glibc's abort() names nothing.
#pragma once

namespace cohort::detail::host {

// Installs the SIGABRT handler that says so (worker.cpp, at start-up): it
// words the report only for a kernel thread, and then lets the signal take
// its course (a handler installed before it, if any, is called).
void install_abort_report();

}  // namespace cohort::detail::host
