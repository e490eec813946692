// Names for diagnostics: of the function at an address, from the dynamic
// symbol table (dladdr) or, for functions with internal linkage (static, in
// an anonymous namespace), from the ELF symbol table of the file that holds
// it; and of the thread-locals of the program itself (kernels' __shared__
// variables). Every lookup reads the file, so they run only while a
// diagnostic is being worded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cohort::detail::host {

// The mangled name of the function that starts at `address`.
std::optional<std::string> symbol_name(const void* address);
// The demangled name of the function whose code holds `address` (a return
// address), e.g. "calls_exit(int)".
std::optional<std::string> function_containing(const void* address);
// Where the code at `address` lies: its file and its address there as linked,
// which addr2line maps to a source line where the file has debug information.
struct code_address {
  std::string file;
  std::uintptr_t linked;
};
std::optional<code_address> code_address_of(const void* address);
// `mangled` demangled, or as it is where it is no C++ name.
std::string demangled(const std::string& mangled);

// A thread-local of the executable: where it lies in the executable's TLS
// block (st_value) and its size.
struct tls_symbol {
  std::string name;  // mangled
  std::uintptr_t offset;
  std::size_t size;
};
// The executable's thread-locals, by offset.
std::vector<tls_symbol> executable_thread_locals();

}  // namespace cohort::detail::host
