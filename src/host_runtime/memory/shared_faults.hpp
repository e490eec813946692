// Faults in the guard zones of a block's shared memory: which variable or
// buffer the address is past (or before), and by how much, for the launch's
// memory_fault error (memory_fault_message consults this first).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cohort/detail/host/runtime/state.hpp"

namespace cohort::detail::host {

struct launch_state;

// What the faulting instruction did, where the signal says (x86-64).
enum class fault_access { unknown, read, write };

// "a write at offset 260 of the block's dynamic shared memory, 4 bytes past the 256 bytes the launch gave ..."
std::optional<std::string> describe_shared_fault(const launch_state& launch, const block_record& block,
                                                 std::uintptr_t address, fault_access access);

// COHORT_CHECK=memory, at the end of each block: the bytes between the last
// __shared__ variable and the guard's first page (the spacer's, zero) are
// checked, and cleared again; a write there, too close past the variable
// to reach the guard, is reported naming the variable and the offset.
std::optional<std::string> static_shared_damage(const launch_state& launch, const block_record& block);

}  // namespace cohort::detail::host
