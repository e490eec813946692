// memcpy_async's checking mode (COHORT_CHECK=memcpy): the copies of a block
// that are in flight. A copy is issued by the first member of its group to
// call memcpy_async, which snapshots the source, fills the destination with a
// poison pattern and guards it (copy_guard.hpp); it is performed once every
// member has waited for it (wait, or wait_prior<N> with N later copies of its
// own), from the snapshot, after checking that neither the destination nor
// the source has been written meanwhile.
#pragma once

#include <cstddef>
#include <deque>
#include <list>
#include <source_location>
#include <vector>

#include "cohort/detail/host/collectives/collective.hpp"

namespace cohort::detail::host {

struct block_runtime;

inline constexpr unsigned char copy_poison = 0xCB;

struct pending_copy {
  member_set members;  // the group that issued it
  std::byte* dst;
  const std::byte* src;
  std::size_t bytes;
  std::source_location site;
  std::vector<std::byte> source;  // as it was when the copy was issued
  std::vector<bool> issued_by;    // by rank in the group
  unsigned completed = 0;         // members that have waited for it
};

struct copy_state {
  std::list<pending_copy> copies;  // in the order issued; a list, so that the queues' pointers stay put
  std::vector<std::deque<pending_copy*>>
      waiting;        // by block rank: the thread's copies not yet waited for, oldest first
  bool used = false;  // the block issued a copy in the checking mode

  // A block that ends with copies in flight gets them performed (as a GPU
  // completes them); a failed block's are dropped. Either way, no guard stays.
  void finish_block(block_runtime& rt);
};

}  // namespace cohort::detail::host
