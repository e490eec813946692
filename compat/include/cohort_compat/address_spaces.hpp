// CUDA's state-space tests and conversions of generic addresses. On the host
// every address is an ordinary pointer: a block's shared memory is its
// __shared__ variables (thread-locals of the block's OS thread) and its
// dynamic shared memory, a thread's local memory is its stack, and the rest is
// global. A converted address is the pointer's value, so that converting back
// gives the pointer (a 32-bit shared address would not hold it: see
// docs/cuda-compat.md). __constant__ variables are ordinary globals here, which
// cohort-cxx registers (register_constant, after each definition) so that
// __isConstant knows them; a registered range is constant, not global.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cohort::compat {

enum class state_space { shared, local, constant, global };
// Where `p` lies for the calling kernel thread (global outside a kernel).
state_space state_space_of(const void* p);
// Records a __constant__ variable's bytes (cohort-cxx emits one call after
// each definition at namespace scope); returns true, for a static's initializer.
bool register_constant(const void* variable, std::size_t bytes);

}  // namespace cohort::compat

inline unsigned int __isShared(const void* p) {
  return cohort::compat::state_space_of(p) == cohort::compat::state_space::shared;
}
inline unsigned int __isLocal(const void* p) {
  return cohort::compat::state_space_of(p) == cohort::compat::state_space::local;
}
inline unsigned int __isGlobal(const void* p) {
  return cohort::compat::state_space_of(p) == cohort::compat::state_space::global;
}
inline unsigned int __isConstant(const void* p) {
  return cohort::compat::state_space_of(p) == cohort::compat::state_space::constant;
}

inline std::size_t __cvta_generic_to_shared(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
inline std::size_t __cvta_generic_to_global(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
inline std::size_t __cvta_generic_to_local(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
inline std::size_t __cvta_generic_to_constant(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
inline void* __cvta_shared_to_generic(std::size_t a) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(a)); }
inline void* __cvta_global_to_generic(std::size_t a) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(a)); }
inline void* __cvta_local_to_generic(std::size_t a) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(a)); }
inline void* __cvta_constant_to_generic(std::size_t a) {
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(a));
}
