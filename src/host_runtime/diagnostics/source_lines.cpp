#include "diagnostics/source_lines.hpp"

#include <cstdint>
#include <string_view>

#if COHORT_HAVE_LIBBACKTRACE
#include <backtrace.h>
#endif

namespace cohort::detail::host {

#if COHORT_HAVE_LIBBACKTRACE
namespace {

// One state for the process (safe to share between threads: `threaded`):
// libbacktrace keeps what it read of the files.
backtrace_state* symbolizer() {
  static backtrace_state* const state = backtrace_create_state(nullptr, 1, [](void*, const char*, int) {}, nullptr);
  return state;
}

// Code of the C++ library's or cohort's own headers that a kernel inlines
// (an atomic's std::atomic_ref, CUDA's atomicAdd): the line is its caller's.
bool library_header(const char* file) {
  const std::string_view f(file);
  for (const char* part : {"/c++/", "/cohort/detail/", "/cohort_compat/", "/compat/include/"})
    if (f.find(part) != std::string_view::npos) return true;
  return false;
}

}  // namespace

std::optional<std::string> source_line_at(const void* instruction) {
  struct found_lines {
    std::optional<std::string> innermost, outside_libraries;
  } found;
  backtrace_pcinfo(
      symbolizer(), reinterpret_cast<std::uintptr_t>(instruction),
      [](void* out, std::uintptr_t, const char* file, int lineno, const char*) {
        auto& lines = *static_cast<found_lines*>(out);
        if (file == nullptr) return 0;
        std::string line = std::string(file) + ":" + std::to_string(lineno);
        if (!lines.innermost) lines.innermost = line;
        if (library_header(file)) return 0;  // on to the function it is inlined into
        lines.outside_libraries = std::move(line);
        return 1;  // the innermost function outside the libraries: the line of the instruction itself
      },
      [](void*, const char*, int) {}, &found);
  return found.outside_libraries ? found.outside_libraries : found.innermost;
}
#else
std::optional<std::string> source_line_at(const void*) { return std::nullopt; }
#endif

}  // namespace cohort::detail::host
