#include "scheduling/runtime_tls.hpp"
#include "races/race_check.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <initializer_list>
#include <mutex>
#include <vector>

extern "C" int __cxa_thread_atexit(void (*)(void*), void*, void*) noexcept;
extern "C" void* __dso_handle;

// In .tdata, in the order written, the low spacer last: g++ keeps that order where told to
// (no_reorder); clang, which has no such attribute, always emits a unit's variables in that order.
#if __has_cpp_attribute(gnu::no_reorder)
#define COHORT_RUNTIME_TLS [[gnu::no_reorder, gnu::section(".tdata.cohort_runtime")]] thread_local constinit
#else
#define COHORT_RUNTIME_TLS [[gnu::section(".tdata.cohort_runtime")]] thread_local constinit
#endif

namespace cohort::detail::host {

// The running block and thread (state.hpp; changed through run_state.hpp and set_running).
COHORT_RUNTIME_TLS block_record* current_block = nullptr;
COHORT_RUNTIME_TLS thread_record* current_thread = nullptr;
COHORT_RUNTIME_TLS const thread_position* current_position = &no_kernel.position;
COHORT_RUNTIME_TLS thread_position streak_position{};
// The worker's state, on the heap (runtime_tls.hpp).
COHORT_RUNTIME_TLS worker_context* this_worker = nullptr;
COHORT_RUNTIME_TLS loops_storage* this_loops_storage = nullptr;
// The OS thread's, as a core's holder, a device's user, a launcher.
COHORT_RUNTIME_TLS core_waiter* this_threads_waiter = nullptr;
COHORT_RUNTIME_TLS bool holds_core = false;
COHORT_RUNTIME_TLS int current_device_index = 0;
COHORT_RUNTIME_TLS cohort::host::launch_statistics last_statistics{};
COHORT_RUNTIME_TLS const char* cooperative_call = "cohort::launch_cooperative(...)";
COHORT_RUNTIME_TLS race_window* this_race_window = nullptr;
}  // namespace cohort::detail::host

// CUDA's built-in variables (state.hpp), the runtime's too. threadIdx is the
// streak position's index, the same bytes under CUDA's name: the thread loop
// writes it there, and a block function of the loops engine writes the whole
// position (index and row) at once (docs/loops-engine.md).
extern thread_local constinit uint3 threadIdx [[gnu::alias("_ZN6cohort6detail4host15streak_positionE")]];
COHORT_RUNTIME_TLS uint3 blockIdx{};
COHORT_RUNTIME_TLS dim3 blockDim{0, 0, 0};
COHORT_RUNTIME_TLS dim3 gridDim{0, 0, 0};
COHORT_RUNTIME_TLS int warpSize = 32;

namespace cohort::detail::host {

[[gnu::used]] COHORT_RUNTIME_TLS std::byte tls_low_guard_spacer[2 * 4096]{};

// Zero-initialized, so in .tbss after the kernels' __shared__ variables:
// a page more than the guard, so that the guard's whole pages lie within it.
[[gnu::used]] thread_local constinit std::byte tls_guard_spacer[tls_guard_bytes + 4096]{};

namespace {

std::uintptr_t page_size() {
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  return page;
}

// The whole pages of [begin, begin + bytes).
tls_guard_span whole_pages(const std::byte* first, std::size_t bytes) {
  const std::uintptr_t page = page_size();
  const auto begin = reinterpret_cast<std::uintptr_t>(first);
  return {(begin + page - 1) & ~(page - 1), (begin + bytes) & ~(page - 1)};
}

void protect(const tls_guard_span& g, int protection) {
  if (g.end > g.begin) mprotect(reinterpret_cast<void*>(g.begin), g.end - g.begin, protection);
}

// The guards closed now, of every thread. Never destroyed: exit() may
// read it after static destructors have run.
struct closed_guards {
  std::mutex mutex;
  std::vector<tls_guard_span> spans;
};
closed_guards& every_closed_guard() {
  static closed_guards* const all = new closed_guards;
  return *all;
}

}  // namespace

tls_guard_span tls_low_guard_pages() { return whole_pages(tls_low_guard_spacer, sizeof tls_low_guard_spacer); }
tls_guard_span tls_high_guard_pages() { return whole_pages(tls_guard_spacer, sizeof tls_guard_spacer); }
std::uintptr_t tls_low_spacer_end() {
  return reinterpret_cast<std::uintptr_t>(tls_low_guard_spacer) + sizeof tls_low_guard_spacer;
}
std::uintptr_t tls_high_spacer_address() { return reinterpret_cast<std::uintptr_t>(tls_guard_spacer); }

void close_tls_guard() {
  closed_guards& all = every_closed_guard();
  const std::lock_guard lock(all.mutex);
  for (const tls_guard_span& g : {tls_low_guard_pages(), tls_high_guard_pages()}) {
    protect(g, PROT_NONE);
    // The C library wrote them when it made the thread: give the memory back.
    if (g.end > g.begin) madvise(reinterpret_cast<void*>(g.begin), g.end - g.begin, MADV_DONTNEED);
    all.spans.push_back(g);
  }
}

void open_tls_guard() {
  closed_guards& all = every_closed_guard();
  const std::lock_guard lock(all.mutex);
  // The C library writes them again (the initial image, zeros) when it
  // reuses the thread's memory for a new thread.
  for (const tls_guard_span& g : {tls_low_guard_pages(), tls_high_guard_pages()}) {
    protect(g, PROT_READ | PROT_WRITE);
    std::erase_if(all.spans, [&](const tls_guard_span& s) { return s.begin == g.begin; });
  }
}

void open_every_tls_guard() {
  closed_guards& all = every_closed_guard();
  const std::lock_guard lock(all.mutex);
  for (const tls_guard_span& g : all.spans) protect(g, PROT_READ | PROT_WRITE);
  all.spans.clear();
}

void at_thread_exit(void (*destroy)(void*), void* object) { __cxa_thread_atexit(destroy, object, &__dso_handle); }

}  // namespace cohort::detail::host
