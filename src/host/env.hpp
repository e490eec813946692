// Reading the COHORT_* environment variables, with errors that name the
// variable and the values it takes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace cohort::detail::host {

std::optional<std::string> env_string(const char* name);
// An integer in [min, max], or `fallback` when unset.
long long env_integer(const char* name, long long fallback, long long min, long long max);
// A byte count with an optional K/M/G suffix, at least `min`.
std::size_t env_bytes(const char* name, std::size_t fallback, std::size_t min);

}  // namespace cohort::detail::host
