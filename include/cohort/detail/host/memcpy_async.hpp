// The copy primitives behind memcpy_async, wait and wait_prior on the host
// backend, for thread blocks, tiles and coalesced groups.
//
// Each member copies its share of the bytes at the call, as a GPU's threads
// issue theirs, and wait/wait_prior synchronize the group. In the checking
// mode (COHORT_CHECK=memcpy, docs/collectives.md) copies are deferred until
// every member has waited for them, their destinations hold a poison pattern
// and are guarded until then, and touching one before its wait, writing the
// source or overlapping another copy in flight is an error of the launch.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <string>
#include <type_traits>

#include "cohort/detail/host/collectives/group_traits.hpp"

namespace cohort::detail::host {

template <class Group>
concept copy_group = collective_group<Group> && !group_traits<Group>::span::spans_blocks;

// The checking mode's runtime (src/host_runtime/synchronization/async_copy.cpp).
void issue_checked_copy(const member_set& members, unsigned rank, void* dst, const void* src, std::size_t bytes,
                        std::source_location where);
void complete_checked_copies(unsigned keep, std::source_location where);
[[noreturn]] void fail_copy_alignment(std::size_t align, const void* dst, const void* src, std::size_t bytes,
                                      std::source_location where);

// The members that exist: a tile's threads_present(), which its num_threads()
// is not through <cooperative_groups.h> (NVIDIA's Size in a partial tile).
template <class Group>
unsigned long long threads_present(const Group& g) {
  if constexpr (requires { g.threads_present(); })
    return g.threads_present();
  else
    return g.num_threads();
}

template <class Group>
void copy_async(const Group& g, void* dst, const void* src, std::size_t bytes, std::size_t align,
                std::source_location where) {
  if (align > 1 &&
      ((reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src) | bytes) & (align - 1)) != 0)
    fail_copy_alignment(align, dst, src, bytes, where);
  const unsigned rank = static_cast<unsigned>(g.thread_rank());
  if (current_block->check_copies) {
    issue_checked_copy(group_traits<Group>::members(g), rank, dst, src, bytes, where);
    return;
  }
  // Member r's share: the r-th run of 16-byte multiples, the last one short.
  const unsigned n = static_cast<unsigned>(threads_present(g));
  const std::size_t share = ((bytes + n - 1) / n + 15) / 16 * 16;
  const std::size_t begin = std::min(bytes, rank * share), end = std::min(bytes, begin + share);
  if (begin < end)
    std::memcpy(static_cast<std::byte*>(dst) + begin, static_cast<const std::byte*>(src) + begin, end - begin);
}

// Waits for every copy the calling member has issued, then synchronizes the group.
template <class Group>
void wait_all_copies(const Group& group, std::source_location where) {
  if (current_block->check_copies) complete_checked_copies(0, where);
  group.sync(where);
}

// Waits for all but the latest NumStages copies the calling member has issued,
// then synchronizes the group.
template <unsigned NumStages, class Group>
void wait_prior_copies(const Group& group, std::source_location where) {
  if (current_block->check_copies) complete_checked_copies(NumStages, where);
  group.sync(where);
}

}  // namespace cohort::detail::host
