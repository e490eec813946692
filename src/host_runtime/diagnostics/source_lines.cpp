#include "diagnostics/source_lines.hpp"

#include <cstdint>

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

}  // namespace

std::optional<std::string> source_line_at(const void* instruction) {
  std::optional<std::string> line;
  backtrace_pcinfo(
      symbolizer(), reinterpret_cast<std::uintptr_t>(instruction),
      [](void* out, std::uintptr_t, const char* file, int lineno, const char*) {
        auto& found = *static_cast<std::optional<std::string>*>(out);
        if (file != nullptr && !found) found = std::string(file) + ":" + std::to_string(lineno);
        return 1;  // the first frame is the innermost inlined function's: the line of the instruction itself
      },
      [](void*, const char*, int) {}, &line);
  return line;
}
#else
std::optional<std::string> source_line_at(const void*) { return std::nullopt; }
#endif

}  // namespace cohort::detail::host
