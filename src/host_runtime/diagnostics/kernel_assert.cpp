// assert() expands to a call of glibc's __assert_fail. This definition takes
// its place for the whole program (a definition in the program comes before
// the C library's), so that a failed assertion in kernel code fails its launch
// (kernel_assert.hpp); anywhere else it calls glibc's, which prints and aborts.
#include "diagnostics/kernel_assert.hpp"

#include <dlfcn.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "diagnostics/diagnostics.hpp"

namespace cohort::detail::host {

std::string assertion_message(const launch_state& launch, const block_record& block, const thread_record& thread,
                              const failed_assertion& a) {
  std::string s = std::string("assertion `") + a.expression + "` failed " + position(launch, block, thread) + ", at " +
                  a.file + ":" + std::to_string(a.line);
  if (a.function) s += std::string(" (in `") + a.function + "`)";
  return s;
}

}  // namespace cohort::detail::host

namespace {

using assert_fail_fn = void (*)(const char*, const char*, unsigned, const char*);

[[noreturn]] void assert_fail_as_libc(const char* expression, const char* file, unsigned line, const char* function) {
  if (const auto libc = reinterpret_cast<assert_fail_fn>(dlsym(RTLD_NEXT, "__assert_fail")))
    libc(expression, file, line, function);
  // No C library's to find (a static program): its message, in its words.
  std::fprintf(stderr, "%s: %s:%u: %s%sAssertion `%s' failed.\n", program_invocation_short_name, file, line,
               function ? function : "", function ? ": " : "", expression);
  std::abort();
}

}  // namespace

// As glibc declares it: noexcept and noreturn. The escape leaves the fiber
// by a jump, not an exception, so nothing unwinds through here.
extern "C" [[noreturn]] void __assert_fail(const char* expression, const char* file, unsigned line,
                                           const char* function) noexcept {
  cohort::detail::host::escape_failed_assertion({expression, file, line, function});
  assert_fail_as_libc(expression, file, line, function);
}
