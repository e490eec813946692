#include "races/race_symbols.hpp"

#include <cstdio>
#include <optional>

#include "diagnostics/source_lines.hpp"
#include "diagnostics/symbol_names.hpp"
#include "scheduling/runtime_tls.hpp"

namespace cohort::detail::host {

namespace {

std::string hex(std::uintptr_t v) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%zx", static_cast<std::size_t>(v));
  return text;
}

}  // namespace

std::string source_line_of(std::uintptr_t pc) {
  const void* instruction = call_before(reinterpret_cast<const void*>(pc));  // inside the call, not after it
  if (auto line = source_line_at(instruction)) return *line;
  const auto function = function_containing(instruction);
  return (function ? *function + " at " : std::string()) + hex(reinterpret_cast<std::uintptr_t>(instruction)) +
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
        return "offset " + std::to_string(address - *base - s.offset) + " of __shared__ `" + demangled(s.name) + "` (" +
               std::to_string(s.size) + " bytes)";
  return "offset " + std::to_string(offset) + " of the block's __shared__ variables";
}

}  // namespace cohort::detail::host
