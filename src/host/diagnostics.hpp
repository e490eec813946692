// Wording of the host backend's diagnostics: names of kernels, call sites,
// blocks and threads.
#pragma once

#include <cstring>
#include <source_location>
#include <string>

#include "cohort/detail/host/state.hpp"

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

}  // namespace cohort::detail::host
