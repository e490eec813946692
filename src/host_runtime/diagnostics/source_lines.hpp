// The source line of an instruction, from the DWARF line table of the file
// that holds it (read through libbacktrace, which GCC ships). Reading it
// parses the file's debug information, so it runs only while a diagnostic is
// being worded. Without debug information (a build without -g, or no
// libbacktrace at build time) there is no line.
#pragma once

#include <optional>
#include <string>

namespace cohort::detail::host {

// "file:line" of the instruction at `instruction`: the innermost inlined
// function's line outside the C++ library's and cohort's own headers (an
// atomic inlined into a kernel is its caller's line), or nothing where the
// file has no line table for it.
std::optional<std::string> source_line_at(const void* instruction);

// The instruction that made a call returning to `return_address`: the byte
// before it (a call of a noreturn function may be its caller's last
// instruction, so the return address can lie in the next function).
inline const void* call_before(const void* return_address) { return static_cast<const char*>(return_address) - 1; }

}  // namespace cohort::detail::host
