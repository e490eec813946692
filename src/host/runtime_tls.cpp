#include "runtime_tls.hpp"

#include <sys/mman.h>
#include <unistd.h>

extern "C" int __cxa_thread_atexit(void (*)(void*), void*, void*) noexcept;
extern "C" void* __dso_handle;

namespace cohort::detail::host {

// Zero-initialized, so in .tbss after the kernels' __shared__ variables:
// a page more than the guard, so that the guard's whole pages lie within it.
[[gnu::used]] thread_local constinit std::byte tls_guard_spacer[tls_guard_bytes + 4096]{};

tls_guard_span tls_guard_pages() {
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(tls_guard_spacer);
  return {(begin + page - 1) & ~(page - 1), (begin + sizeof tls_guard_spacer) & ~(page - 1)};
}

std::uintptr_t tls_guard_spacer_address() { return reinterpret_cast<std::uintptr_t>(tls_guard_spacer); }

void close_tls_guard() {
  const tls_guard_span g = tls_guard_pages();
  mprotect(reinterpret_cast<void*>(g.begin), g.end - g.begin, PROT_NONE);
  // The C library zeroed them when it made the thread: give the memory back.
  madvise(reinterpret_cast<void*>(g.begin), g.end - g.begin, MADV_DONTNEED);
}

void open_tls_guard() {
  const tls_guard_span g = tls_guard_pages();
  mprotect(reinterpret_cast<void*>(g.begin), g.end - g.begin, PROT_READ | PROT_WRITE);
}

void at_thread_exit(void (*destroy)(void*), void* object) { __cxa_thread_atexit(destroy, object, &__dso_handle); }

}  // namespace cohort::detail::host
