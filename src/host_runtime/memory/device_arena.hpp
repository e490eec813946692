// Where plain device allocations live: address space of their own, apart
// from the runtime's heap. A kernel that writes past the end of an allocation
// by more than its redzone then damages device memory only, as it would on a
// GPU, instead of the malloc heap beside it, where it used to abort the
// process from inside glibc ("munmap_chunk(): invalid pointer") with no word
// from cohort. The checking mode (COHORT_CHECK=memory) maps each allocation
// between guard zones instead and does not use the arena.
#pragma once

#include <cstddef>

namespace cohort::detail::host::device_arena {

// `bytes` (a multiple of 256) at a 256-byte aligned address; nullptr when
// the system cannot supply the address space.
void* take(std::size_t bytes);
// Returns what take() gave, with the size it was asked for.
void give_back(void* p, std::size_t bytes);

}  // namespace cohort::detail::host::device_arena
