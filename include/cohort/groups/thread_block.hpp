// thread_block, this_thread_block() and the block's dynamic shared memory,
// written once over the backend's block primitives (detail/<backend>/implicit_groups.hpp).
#pragma once

#include "cohort/backend.hpp"
#include "cohort/groups/thread_group.hpp"
#include "cohort/kernel_language.hpp"
#include "cohort/memory/atomic_ref.hpp"

#include COHORT_BACKEND_HEADER(implicit_groups.hpp)

namespace cohort {

class thread_block : public thread_group {
 public:
  static constexpr cohort::thread_scope thread_scope = thread_scope_block;

  struct arrival_token {
    detail::impl::block_arrival_token arrival;
  };

  COHORT_DEVICE static void sync(call_site where = call_site::current()) { detail::impl::block_barrier_sync(where); }
  COHORT_DEVICE arrival_token barrier_arrive(call_site where = call_site::current()) const {
    return {detail::impl::block_barrier_arrive(where)};
  }
  COHORT_DEVICE void barrier_wait(arrival_token&& token, call_site where = call_site::current()) const {
    detail::impl::block_barrier_wait(token.arrival, where);
  }

  COHORT_DEVICE static unsigned thread_rank() { return detail::impl::thread_rank_in_block(); }
  COHORT_DEVICE static unsigned num_threads() { return static_cast<unsigned>(detail::impl::threads_per_block()); }
  COHORT_DEVICE static unsigned size() { return num_threads(); }
  COHORT_DEVICE static dim3 group_index() { return detail::impl::this_block_index(); }
  COHORT_DEVICE static dim3 thread_index() { return detail::impl::this_thread_index(); }
  COHORT_DEVICE static dim3 dim_threads() { return detail::impl::this_block_dim(); }
  COHORT_DEVICE static dim3 group_dim() { return dim_threads(); }

 private:
  COHORT_DEVICE thread_block() : thread_group(detail::group_kind::thread_block) {}
  friend COHORT_DEVICE thread_block this_thread_block();
};

COHORT_DEVICE inline thread_block this_thread_block() { return {}; }

// The block's dynamic shared memory (the launch's dynamic_shared_bytes),
// aligned to 16 bytes, as extern __shared__ gives it on CUDA.
template <class Element = unsigned char>
COHORT_DEVICE Element* dynamic_shared() {
  return reinterpret_cast<Element*>(detail::impl::dynamic_shared_memory());
}

}  // namespace cohort
