// Wording of the host backend's diagnostics: names of kernels, call sites,
// blocks and threads.
#pragma once

#include <cstring>
#include <source_location>
#include <string>

#include "cohort/detail/host/runtime/state.hpp"
#include "memory/shared_faults.hpp"

namespace cohort::detail::host {

struct launch_state;

// The kernel's demangled name, or its address where the binary has no
// symbols (stripped).
std::string kernel_name(const void* kernel);
std::string site(const std::source_location& where);
bool same_file(const char* a, const char* b);
// Inline: every barrier arrival compares its call site with the first one's.
// One call site's source_location objects are one static record: comparing
// them as bytes settles the usual case without reading the record.
inline bool same_site(const std::source_location& a, const std::source_location& b) {
  if (std::memcmp(&a, &b, sizeof a) == 0) return true;
  return a.line() == b.line() && a.column() == b.column() &&
         (a.file_name() == b.file_name() || same_file(a.file_name(), b.file_name()));
}
std::string index_text(const uint3& i);
// "in kernel `k(int*)`, block (1,0,0), thread (3,0,0)"
std::string position(const launch_state& launch, const block_record& block, const thread_record& thread);
// A fault (SIGSEGV) in kernel code at `address`, with what device memory lies near it.
// `access`: what the instruction did, where the signal says (shared_faults.hpp).
std::string memory_fault_message(const launch_state& launch, const block_record& block, const thread_record& thread,
                                 const void* address, fault_access access = fault_access::unknown);
// A read of the no-kernel page by host code (a warp intrinsic or a group outside a kernel): says so
// on stderr, from the signal handler, before the fault takes its course.
void outside_kernel_fault();
// Throws for a kernel-side call (a barrier, a collective) made outside a kernel.
[[noreturn]] void outside_kernel(const char* what, std::source_location where);
inline void require_kernel(const char* what, std::source_location where) {
  if (current_block == nullptr) [[unlikely]]
    outside_kernel(what, where);
}

}  // namespace cohort::detail::host
