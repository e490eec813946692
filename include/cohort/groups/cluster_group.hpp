// cluster_group: the blocks of one thread-block cluster, which run at the same
// time and reach each other's shared memory (distributed shared memory). A
// launch without clusters is a grid of 1x1x1 clusters, as on sm_90. The API is
// NVIDIA's, and as in NVIDIA's a cluster_group is a thread_group; each backend
// supplies the primitives underneath (detail/cuda/cluster.hpp: barrier.cluster
// and mapa; detail/host/cluster.hpp: the host runtime's cluster barrier and its
// map of the blocks' shared memory).
#pragma once

#include <cstdint>

#include "cohort/backend.hpp"
#include "cohort/groups/thread_block.hpp"
#include "cohort/groups/thread_group.hpp"
#include "cohort/kernel_language.hpp"

#include COHORT_BACKEND_HEADER(cluster.hpp)

namespace cohort {

class cluster_group : public thread_group {
 public:
  // Which barrier phase the block arrived at (the host checks it; sm_90's barrier needs none).
  struct arrival_token {
    std::uint64_t phase;
  };

  COHORT_DEVICE static void sync(call_site where = call_site::current()) { detail::impl::cluster_sync(where); }
  // Split barrier: data written before barrier_arrive() is visible to every
  // block of the cluster after its barrier_wait().
  COHORT_DEVICE arrival_token barrier_arrive(call_site where = call_site::current()) const {
    return {detail::impl::cluster_arrive(where)};
  }
  COHORT_DEVICE void barrier_wait(arrival_token&& token, call_site where = call_site::current()) const {
    detail::impl::cluster_barrier_wait(token.phase, where);
  }

  COHORT_DEVICE static unsigned block_rank() { return detail::impl::cluster_block_rank(); }
  COHORT_DEVICE static unsigned num_blocks() { return detail::impl::cluster_block_count(); }
  COHORT_DEVICE static dim3 block_index() { return detail::impl::cluster_block_index(); }
  COHORT_DEVICE static dim3 dim_blocks() { return detail::impl::cluster_dim(); }
  COHORT_DEVICE static unsigned thread_rank() { return detail::cluster_thread_rank(); }
  COHORT_DEVICE static unsigned num_threads() { return detail::cluster_num_threads(); }
  COHORT_DEVICE static unsigned size() { return num_threads(); }
  COHORT_DEVICE static dim3 dim_threads() {
    const dim3 b = thread_block::dim_threads(), c = dim_blocks();
    return dim3(b.x * c.x, b.y * c.y, b.z * c.z);
  }

  // The address of `addr`'s object in the shared memory of the cluster's
  // block `rank` (addr points into the caller's block's shared memory).
  template <class T>
  COHORT_DEVICE static T* map_shared_rank(T* addr, int rank, call_site where = call_site::current()) {
    return static_cast<T*>(detail::impl::map_shared(const_cast<void*>(static_cast<const void*>(addr)), rank, where));
  }
  // The rank of the cluster's block whose shared memory holds `addr`.
  COHORT_DEVICE static unsigned query_shared_rank(const void* addr, call_site where = call_site::current()) {
    return detail::impl::query_shared(addr, where);
  }

 private:
  COHORT_DEVICE cluster_group() : thread_group(detail::group_kind::cluster) {}
  friend COHORT_DEVICE cluster_group this_cluster();
};

COHORT_DEVICE inline cluster_group this_cluster() { return {}; }

}  // namespace cohort
