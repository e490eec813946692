// Which of the host backend's two engines runs a kernel (docs/loops-engine.md):
// `loops` (a block function the loops pass compiled: the block's threads in
// loops between barriers) or `fibers` (a fiber per thread; every kernel).
// COHORT_ENGINE=auto|loops|fibers chooses (auto: loops wherever the kernel was
// lowered); COHORT_ENGINE_REPORT=1 prints, per launch, the engine and why not loops.
#pragma once

#include <string>

#include "cohort/detail/host/language/kernel_call.hpp"

namespace cohort::host {
enum class engine { fibers, loops };
struct engine_choice;
}  // namespace cohort::host

namespace cohort::detail::host {
cohort::host::engine_choice engine_for_kernel(const void* kernel, bool loops_callable);
}  // namespace cohort::detail::host

namespace cohort::host {

enum class engine_mode { automatic, loops, fibers };

// The mode COHORT_ENGINE sets, until set_engine_mode overrides it for this process.
engine_mode current_engine_mode();
void set_engine_mode(engine_mode mode);

struct engine_choice {
  engine chosen = engine::fibers;
  std::string reason;  // why not loops; empty when loops
};

// The engine an ordinary launch of `kernel` would take now. (COHORT_ENGINE=loops
// makes a launch whose choice is fibers fail, with this reason.)
template <class... P>
engine_choice engine_for(void (*kernel)(P...)) {
  return cohort::detail::host::engine_for_kernel(reinterpret_cast<const void*>(kernel),
                                                 !cohort::detail::host::any_passed_by_address<P...>);
}

}  // namespace cohort::host
