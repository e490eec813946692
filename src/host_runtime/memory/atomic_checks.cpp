// The checks of the kernel language's atomics (cohort/detail/host/language/atomics.hpp).
#include <sstream>

#include "cohort/detail/host/language/atomics.hpp"
#include "cohort/errors.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "launch/launch_state.hpp"
#include "scheduling/scheduler.hpp"

namespace cohort::detail::host {

void misaligned_atomic(const char* name, const void* address, std::size_t alignment, std::source_location where) {
  std::ostringstream s;
  s << "misaligned atomic: " << name << " at " << site(where);
  if (current_block != nullptr) {
    scheduled_block& b = current_scheduled();
    s << " " << position(*b.launch, b, *current_thread);
  }
  s << " on address " << address << ", which is not a multiple of " << alignment
    << " (the operand's size); a GPU faults on it (cudaErrorMisalignedAddress): align the operand";
  if (current_block == nullptr) throw error(errc::invalid_argument, s.str());
  fail_block(errc::memory_fault, s.str());
}

}  // namespace cohort::detail::host
