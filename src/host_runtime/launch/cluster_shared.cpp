// Distributed shared memory on the host: a block's __shared__ variables are
// thread-locals of the OS thread running it, so the same variable of block r
// lies at the same offset from r's thread pointer as from the caller's; its
// dynamic shared memory is the buffer its worker handed it. A block's copy is
// reachable while the block runs: mapping into a block that has exited is an
// error (an access through an address mapped earlier cannot be caught).
#include <link.h>

#include <sstream>

#include "cohort/detail/host/cluster.hpp"
#include "cohort/detail/host/implicit_groups.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "launch/cluster_state.hpp"
#include "launch/launch_state.hpp"
#include "scheduling/worker_pool.hpp"

namespace cohort::detail::host {

namespace {

// The static TLS of every module loaded at start: where the thread-locals of
// kernels linked into the program (their __shared__ variables) lie.
std::uintptr_t static_tls_extent() {
  static const std::uintptr_t extent = [] {
    std::uintptr_t total = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* sum) {
          for (int i = 0; i < info->dlpi_phnum; ++i)
            if (info->dlpi_phdr[i].p_type == PT_TLS)
              *static_cast<std::uintptr_t*>(sum) += info->dlpi_phdr[i].p_memsz + info->dlpi_phdr[i].p_align;
          return 0;
        },
        &total);
    return total;
  }();
  return extent;
}

struct shared_place {
  bool dynamic;
  std::uintptr_t offset;
};

// Where `a` lies in the shared memory of a block whose OS thread has thread
// pointer `tp` and whose dynamic shared memory starts at `dyn`.
std::optional<std::uintptr_t> tls_offset(std::uintptr_t a, std::uintptr_t tp) {
#if defined(__x86_64__)
  if (a < tp && tp - a <= static_tls_extent()) return a - tp;  // variant II: below the thread pointer
#else
  if (a >= tp && a - tp <= static_tls_extent() + 16) return a - tp;  // variant I: above it
#endif
  return std::nullopt;
}

std::optional<shared_place> place_in(std::uintptr_t a, std::uintptr_t tp, const unsigned char* dyn, std::size_t bytes) {
  const auto d = reinterpret_cast<std::uintptr_t>(dyn);
  if (a >= d && a < d + bytes) return shared_place{true, a - d};
  if (const auto off = tls_offset(a, tp)) return shared_place{false, *off};
  return std::nullopt;
}

std::size_t dynamic_bytes(const launch_state& L) { return std::max<std::size_t>(L.config.dynamic_shared_bytes, 16); }

[[noreturn]] void fail_map(const char* call, const std::string& why, std::source_location where) {
  const block_runtime& rt = current_runtime();
  fail_block(errc::invalid_argument,
             std::string(call) + " at " + site(where) + " " + position(*rt.launch, rt, *current_thread) + ": " + why);
}

std::string pointer_text(const void* p) {
  std::ostringstream s;
  s << p;
  return s.str();
}

}  // namespace

void* map_shared(void* addr, int rank, std::source_location where) {
  block_runtime& rt = current_runtime();
  const cluster_slot* const slot = rt.cluster;
  const unsigned blocks = slot ? rt.launch->clusters.size : 1;
  if (rank < 0 || static_cast<unsigned>(rank) >= blocks)
    fail_map("cluster_group::map_shared_rank",
             "rank " + std::to_string(rank) + " is outside the cluster's " + std::to_string(blocks) +
                 " block(s); pass a rank in [0, cluster.num_blocks())",
             where);
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  const auto tp = reinterpret_cast<std::uintptr_t>(__builtin_thread_pointer());
  const auto place = place_in(a, tp, rt.dynamic_shared, dynamic_bytes(*rt.launch));
  if (!place)
    fail_map("cluster_group::map_shared_rank",
             "address " + pointer_text(addr) +
                 " is not in the calling block's shared memory; pass the address of a __shared__ variable "
                 "or of dynamic shared memory",
             where);
  if (slot == nullptr) return addr;
  cluster_member& m = slot->members[rank];
  member_state state;
  // Every block of the cluster has passed the slot's gate: one not yet started is about to.
  while ((state = m.state.load(std::memory_order_acquire)) == member_state::unstarted)
    yield_core();  // it may need this block's core to start
  if (state == member_state::exited)
    fail_map("cluster_group::map_shared_rank",
             "block " + index_text(m.block_index) +
                 " of the cluster has exited, and its shared memory with it; keep every block of the cluster "
                 "alive while others use its shared memory (cluster.sync() before a block exits)",
             where);
  if (place->dynamic) return m.dynamic_shared + place->offset;
  return reinterpret_cast<void*>(m.thread_pointer + place->offset);
}

unsigned query_shared(const void* addr, std::source_location where) {
  block_runtime& rt = current_runtime();
  const cluster_slot* const slot = rt.cluster;
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  const std::size_t bytes = dynamic_bytes(*rt.launch);
  if (slot == nullptr) {
    if (place_in(a, reinterpret_cast<std::uintptr_t>(__builtin_thread_pointer()), rt.dynamic_shared, bytes)) return 0;
  } else {
    for (unsigned r = 0; r < rt.launch->clusters.size; ++r) {
      const cluster_member& m = slot->members[r];
      if (m.state.load(std::memory_order_acquire) == member_state::unstarted) continue;
      if (place_in(a, m.thread_pointer, m.dynamic_shared, bytes)) return r;
    }
  }
  fail_map("cluster_group::query_shared_rank",
           "address " + pointer_text(addr) + " is not in the shared memory of any block of the cluster", where);
}

namespace {
const cluster_launch& clusters() { return current_runtime().launch->clusters; }
}  // namespace

unsigned cluster_block_rank() { return static_cast<unsigned>(current_runtime().barriers.cluster.rank); }
unsigned cluster_block_count() { return clusters().active() ? clusters().size : 1; }
dim3 cluster_dim() { return clusters().active() ? clusters().shape : dim3(1, 1, 1); }
dim3 cluster_block_index() {
  const dim3 s = cluster_dim();
  const uint3 b = block().block_index;
  return dim3(b.x % s.x, b.y % s.y, b.z % s.z);
}
dim3 cluster_grid_dim() { return clusters().active() ? clusters().grid : block().grid_dim; }
dim3 cluster_index() {
  const dim3 s = cluster_dim();
  const uint3 b = block().block_index;
  return dim3(b.x / s.x, b.y / s.y, b.z / s.z);
}

}  // namespace cohort::detail::host
