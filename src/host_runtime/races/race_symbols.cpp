#include "races/race_symbols.hpp"

#include <cstdio>
#include <optional>
#include <string_view>

#if COHORT_HAVE_LIBBACKTRACE
#include <backtrace.h>
#endif

#include "scheduling/runtime_tls.hpp"
#include "diagnostics/symbol_names.hpp"

namespace cohort::detail::host {

namespace {

std::string hex(std::uintptr_t v) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%zx", static_cast<std::size_t>(v));
  return text;
}

#if COHORT_HAVE_LIBBACKTRACE
// One state for the process (safe to share between threads: `threaded`):
// libbacktrace keeps what it read of the files.
backtrace_state* symbolizer() {
  static backtrace_state* const state = backtrace_create_state(nullptr, 1, [](void*, const char*, int) {}, nullptr);
  return state;
}

// Code of the C++ library's or cohort's own headers that a kernel inlines
// (an atomic's std::atomic_ref, CUDA's atomicAdd): the access is its caller's.
bool library_header(const char* file) {
  const std::string_view f(file);
  for (const char* part : {"/c++/", "/cohort/detail/", "/cohort_compat/", "/compat/include/"})
    if (f.find(part) != std::string_view::npos) return true;
  return false;
}

std::optional<std::string> line_from_debug_info(std::uintptr_t pc) {
  struct found_lines {
    std::optional<std::string> innermost, outside_libraries;
  } found;
  backtrace_pcinfo(
      symbolizer(), pc, [](void* out, std::uintptr_t, const char* file, int lineno, const char*) {
        auto& lines = *static_cast<found_lines*>(out);
        if (file == nullptr) return 0;
        std::string line = std::string(file) + ":" + std::to_string(lineno);
        if (!lines.innermost) lines.innermost = line;
        if (library_header(file)) return 0;  // on to the function it is inlined into
        lines.outside_libraries = std::move(line);
        return 1;  // the innermost function outside the libraries: the line of the access itself
      },
      [](void*, const char*, int) {}, &found);
  return found.outside_libraries ? found.outside_libraries : found.innermost;
}
#else
std::optional<std::string> line_from_debug_info(std::uintptr_t) { return std::nullopt; }
#endif

}  // namespace

std::string source_line_of(std::uintptr_t pc) {
  const std::uintptr_t instruction = pc - 1;  // inside the call, not after it
  if (auto line = line_from_debug_info(instruction)) return *line;
  const auto function = function_containing(reinterpret_cast<const void*>(instruction));
  return (function ? *function + " at " : std::string()) + hex(instruction) +
         " (no line information: build the kernel with -g)";
}

std::string shared_place(bool in_dynamic, std::size_t offset) {
  if (in_dynamic) return "offset " + std::to_string(offset) + " of dynamic shared memory";
  // The __shared__ variables lie at the same offsets in every thread's TLS block.
  const std::uintptr_t address = tls_low_spacer_end() + offset;
  std::optional<std::uintptr_t> base;
  const std::vector<tls_symbol> locals = executable_thread_locals();
  for (const tls_symbol& s : locals)
    if (s.name == tls_high_spacer_symbol) base = tls_high_spacer_address() - s.offset;
  if (base)
    for (const tls_symbol& s : locals)
      if (address - *base >= s.offset && address - *base < s.offset + s.size)
        return "offset " + std::to_string(address - *base - s.offset) + " of __shared__ `" + demangled(s.name) +
               "` (" + std::to_string(s.size) + " bytes)";
  return "offset " + std::to_string(offset) + " of the block's __shared__ variables";
}

}  // namespace cohort::detail::host
