// The name of the function at an address, for diagnostics: from the dynamic
// symbol table (dladdr) or, for kernels with internal linkage (static, in an
// anonymous namespace), from the ELF symbol table of the file that holds it.
#pragma once

#include <optional>
#include <string>

namespace cohort::detail::host {

std::optional<std::string> symbol_name(const void* address);

}  // namespace cohort::detail::host
