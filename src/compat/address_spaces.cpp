// __isShared, __isLocal and __isGlobal: the host backend's answer.
#include "cohort_compat/address_spaces.hpp"

#include <cohort/host/runtime_services.hpp>

namespace cohort::compat {

state_space state_space_of(const void* p) {
  switch (cohort::host::kernel_address_space(p)) {
    case cohort::host::address_space::shared: return state_space::shared;
    case cohort::host::address_space::local: return state_space::local;
    case cohort::host::address_space::global: break;
  }
  return state_space::global;
}

}  // namespace cohort::compat
