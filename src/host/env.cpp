#include "env.hpp"

#include <cstdlib>
#include <string>

#include "cohort/errors.hpp"

namespace cohort::detail::host {

std::optional<std::string> env_string(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

namespace {
[[noreturn]] void bad_value(const char* name, const std::string& value, const std::string& expected) {
  throw error(errc::invalid_argument, std::string(name) + "=" + value + " is not valid: " + expected);
}
}  // namespace

long long env_integer(const char* name, long long fallback, long long min, long long max) {
  const auto v = env_string(name);
  if (!v) return fallback;
  char* end = nullptr;
  const long long n = std::strtoll(v->c_str(), &end, 10);
  if (*end != '\0' || n < min || n > max)
    bad_value(name, *v, "expected an integer from " + std::to_string(min) + " to " + std::to_string(max));
  return n;
}

std::size_t env_bytes(const char* name, std::size_t fallback, std::size_t min) {
  const auto v = env_string(name);
  if (!v) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v->c_str(), &end, 10);
  std::size_t scale = 1;
  const std::string suffix(end);
  if (suffix == "K" || suffix == "k")
    scale = 1024;
  else if (suffix == "M" || suffix == "m")
    scale = 1024 * 1024;
  else if (suffix == "G" || suffix == "g")
    scale = 1024ull * 1024 * 1024;
  else if (!suffix.empty())
    bad_value(name, *v, "expected a byte count such as 65536, 64K or 1M");
  if (end == v->c_str() || n * scale < min)
    bad_value(name, *v, "expected a byte count of at least " + std::to_string(min));
  return n * scale;
}

}  // namespace cohort::detail::host
