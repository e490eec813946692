// The host backend's side of include/cohort/host/runtime_services.hpp.
#include "cohort/host/runtime_services.hpp"

#include "cohort/detail/host/launch.hpp"
#include "cohort/detail/host/runtime/state.hpp"
#include "fibers/fiber.hpp"
#include "memory/memory_check.hpp"
#include "scheduling/worker.hpp"

namespace cohort::host {

bool inside_kernel() { return detail::host::current_block != nullptr; }

std::size_t kernel_thread_stack_bytes() { return detail::host::stack_pool::stack_size(); }

std::size_t kernel_dynamic_shared_limit(const void* kernel) { return detail::host::kernel_shared_limit(kernel); }

void release_device_checked(void* pointer) { detail::host::release_device_raising_damage(pointer); }

void raise_pending_memory_fault() { detail::host::raise_pending_memory_fault(); }

address_space kernel_address_space(const void* address) {
  switch (detail::host::address_space_of(address)) {
    case detail::host::kernel_address_space::shared:
      return address_space::shared;
    case detail::host::kernel_address_space::local:
      return address_space::local;
    case detail::host::kernel_address_space::other:
      break;
  }
  return address_space::global;
}

bool is_kernel_fault(const cohort::error& e) { return dynamic_cast<const detail::host::kernel_error*>(&e) != nullptr; }

}  // namespace cohort::host
