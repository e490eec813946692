// __isShared, __isLocal, __isConstant and __isGlobal: the host backend's answer.
#include "cohort_compat/address_spaces.hpp"

#include <cohort/host/runtime_services.hpp>
#include <cstdint>
#include <map>
#include <mutex>

namespace cohort::compat {
namespace {

// The registered __constant__ variables: first byte -> one past the last.
// Function-local, since registrations run in other files' static initializers.
struct constant_ranges {
  std::mutex mutex;
  std::map<std::uintptr_t, std::uintptr_t> ranges;
};
constant_ranges& constants() {
  static constant_ranges instance;
  return instance;
}

bool is_constant(const void* p) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  auto& c = constants();
  std::lock_guard lock(c.mutex);
  auto after = c.ranges.upper_bound(address);
  return after != c.ranges.begin() && address < std::prev(after)->second;
}

}  // namespace

bool register_constant(const void* variable, std::size_t bytes) {
  const auto first = reinterpret_cast<std::uintptr_t>(variable);
  auto& c = constants();
  std::lock_guard lock(c.mutex);
  c.ranges[first] = first + bytes;
  return true;
}

state_space state_space_of(const void* p) {
  if (is_constant(p)) return state_space::constant;
  switch (cohort::host::kernel_address_space(p)) {
    case cohort::host::address_space::shared:
      return state_space::shared;
    case cohort::host::address_space::local:
      return state_space::local;
    case cohort::host::address_space::global:
      break;
  }
  return state_space::global;
}

}  // namespace cohort::compat
