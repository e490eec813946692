// Names for a race report: the source line of an instruction, and the place in
// shared memory. They read debug information and symbol tables, so they run
// only while a report is being worded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cohort::detail::host {

// "file:line" of the instruction before return address `pc` (the innermost
// inlined function's line), from the DWARF line table through libbacktrace;
// "function+0xoffset" where there is no line information.
std::string source_line_of(std::uintptr_t pc);
// "offset 4 of __shared__ `k()::tile` (1024 bytes)" or "offset 4 of dynamic
// shared memory": `offset` from the start of dynamic shared memory, or of the
// calling thread's span of __shared__ variables (runtime_tls.hpp).
std::string shared_place(bool in_dynamic, std::size_t offset);

}  // namespace cohort::detail::host
