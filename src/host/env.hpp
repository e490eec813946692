// Reading the COHORT_* environment variables, with errors that name the
// variable and the values it takes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace cohort::detail::host {

std::optional<std::string> env_string(const char* name);
// `text` as a number when it is decimal digits only (no sign, no spaces) that
// fit in 64 bits: the syntax of every number a COHORT_* variable holds.
std::optional<unsigned long long> decimal_number(const std::string& text);
// An integer in [min, max] (0 <= min <= max), or `fallback` when unset:
// decimal digits only, no sign or spaces.
long long env_integer(const char* name, long long fallback, long long min, long long max);
// The largest byte count a variable takes (1 PiB): far past any memory, and
// small enough that rounding it up to pages cannot wrap.
inline constexpr std::size_t max_env_bytes = std::size_t{1} << 50;
// A byte count with an optional K/M/G/T suffix, from `min` to max_env_bytes.
std::size_t env_bytes(const char* name, std::size_t fallback, std::size_t min);
// Ends with an error naming the variable, its value and what it takes.
[[noreturn]] void bad_env_value(const char* name, const std::string& value, const std::string& expected);

}  // namespace cohort::detail::host
