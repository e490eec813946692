#include "env.hpp"

#include <climits>
#include <cstdlib>
#include <string>

#include "cohort/errors.hpp"

namespace cohort::detail::host {

std::optional<std::string> env_string(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

void bad_env_value(const char* name, const std::string& value, const std::string& expected) {
  throw error(errc::invalid_argument, std::string(name) + "=" + value + " is not valid: " + expected);
}

namespace {

// The decimal digits at the start of `text` as a number; nothing when there
// is no digit there or the number does not fit in 64 bits. No sign, no space:
// strtoull would read "-1" as 2^64 - 1 and saturate on overflow. `end`
// receives the index after the digits.
std::optional<unsigned long long> decimal_digits(const std::string& text, std::size_t& end) {
  unsigned long long n = 0;
  end = 0;
  for (; end < text.size() && text[end] >= '0' && text[end] <= '9'; ++end) {
    const auto digit = static_cast<unsigned>(text[end] - '0');
    if (n > (ULLONG_MAX - digit) / 10) return std::nullopt;
    n = n * 10 + digit;
  }
  if (end == 0) return std::nullopt;
  return n;
}

}  // namespace

std::optional<unsigned long long> decimal_number(const std::string& text) {
  std::size_t end = 0;
  const auto n = decimal_digits(text, end);
  if (end != text.size()) return std::nullopt;
  return n;
}

long long env_integer(const char* name, long long fallback, long long min, long long max) {
  const auto v = env_string(name);
  if (!v) return fallback;
  const auto n = decimal_number(*v);
  if (!n || *n < static_cast<unsigned long long>(min) || *n > static_cast<unsigned long long>(max))
    bad_env_value(name, *v, "expected an integer from " + std::to_string(min) + " to " + std::to_string(max));
  return static_cast<long long>(*n);
}

std::size_t env_bytes(const char* name, std::size_t fallback, std::size_t min) {
  const auto v = env_string(name);
  if (!v) return fallback;
  const std::string expected = "expected a byte count such as 65536, 64K or 1M, from " + std::to_string(min) +
                               " to " + std::to_string(max_env_bytes) + " (2^50)";
  std::size_t end = 0;
  const auto n = decimal_digits(*v, end);
  std::size_t scale = 1;
  const std::string suffix = v->substr(end);
  if (suffix == "K" || suffix == "k")
    scale = 1024;
  else if (suffix == "M" || suffix == "m")
    scale = 1024 * 1024;
  else if (suffix == "G" || suffix == "g")
    scale = 1024ull * 1024 * 1024;
  else if (suffix == "T" || suffix == "t")
    scale = 1024ull * 1024 * 1024 * 1024;
  else if (!suffix.empty())
    bad_env_value(name, *v, expected);
  if (!n || *n > max_env_bytes / scale || *n * scale < min) bad_env_value(name, *v, expected);
  return *n * scale;
}

}  // namespace cohort::detail::host
