#include "diagnostics/diagnostics.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>

#include "diagnostics/symbol_names.hpp"
#include "launch/launch_state.hpp"

namespace cohort::detail::host {

std::string kernel_name(const void* kernel) {
  if (const auto mangled = symbol_name(kernel)) return demangled(*mangled);
  std::ostringstream s;
  s << "kernel@" << kernel;
  return s.str();
}

std::string site(const std::source_location& where) {
  std::ostringstream s;
  s << where.file_name() << ':' << where.line() << ':' << where.column();
  return s.str();
}

bool same_file(const char* a, const char* b) { return a == b || std::strcmp(a, b) == 0; }

std::string index_text(const uint3& i) {
  std::ostringstream s;
  s << '(' << i.x << ',' << i.y << ',' << i.z << ')';
  return s.str();
}

std::string position(const launch_state& launch, const block_record& block, const thread_record& thread) {
  return "in kernel `" + kernel_name(launch.entry->kernel) + "`, block " + index_text(block.block_index) + ", thread " +
         index_text(thread.index);
}

}  // namespace cohort::detail::host

namespace cohort::detail::host {

void outside_kernel_fault() {
  static const char text[] =
      "cohort: kernel-side state (a group or a warp intrinsic) was "
      "used outside a kernel: host code has no current GPU thread; call it only from code that a launch runs\n";
  [[maybe_unused]] const auto written = write(2, text, sizeof text - 1);
}

void outside_kernel(const char* what, std::source_location where) {
  throw error(errc::invalid_argument, std::string(what) + " called outside a kernel at " + site(where) +
                                          ": host code has no block or thread to synchronize; call it only from "
                                          "code that a launch runs");
}

}  // namespace cohort::detail::host
