// exit() for the whole program (a definition in the program comes before the
// C library's, as kernel_assert.cpp's __assert_fail does): in kernel code it
// becomes a request that the launching thread carries out (kernel_exit.hpp);
// anywhere else it is the C library's exit().
#include "diagnostics/kernel_exit.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "diagnostics/diagnostics.hpp"
#include "diagnostics/source_lines.hpp"
#include "diagnostics/symbol_names.hpp"
#include "launch/launch_state.hpp"

namespace cohort::detail::host {

namespace {

using exit_fn = void (*)(int);

[[noreturn]] void exit_as_libc(int status) {
  static const auto libc = reinterpret_cast<exit_fn>(dlsym(RTLD_NEXT, "exit"));
  if (libc) libc(status);
  // No C library's to find (a static program): its flush, then the end.
  std::fflush(nullptr);
  _exit(status);
}

}  // namespace

std::string exit_message(const launch_state& launch, const block_record& block, const thread_record& thread, int status,
                         const void* caller) {
  std::string s = "exit(" + std::to_string(status) + ") called " + position(launch, block, thread);
  const void* call = call_before(caller);
  const auto function = function_containing(call);
  const auto line = source_line_at(call);
  if (function && *function != kernel_name(launch.entry->kernel))
    s += " (from `" + *function + "`" + (line ? ", at " + *line : std::string()) + ")";
  else if (line)
    s += " (at " + *line + ")";
  return s;
}

void carry_out_exit(const kernel_exit_request& request) {
  const std::string text =
      "cohort: " + request.message + "; the process exits with status " + std::to_string(request.status) + "\n";
  [[maybe_unused]] const auto written = write(2, text.data(), text.size());
  exit_as_libc(request.status);
}

}  // namespace cohort::detail::host

// As glibc declares it, noreturn by that first declaration (<stdlib.h>), which
// clang, unlike g++, refuses to see repeated here. Kernel code leaves its fiber
// by a jump, not an exception, so nothing unwinds through here.
extern "C" void exit(int status) noexcept {
  cohort::detail::host::escape_kernel_exit(status, __builtin_return_address(0));
  cohort::detail::host::exit_as_libc(status);
}
