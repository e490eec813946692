// cohort's grid barrier: a two-level combining barrier whose state lives in a
// pool of slots in device memory, one slot per driver workspace.
//
// Why two levels. NVIDIA's barrier has every block add to one counter and then
// poll that same word, so each arrival queues at that L2 line behind the polls
// of the blocks already waiting: its time per barrier grows faster than the
// block count (measured on an H200: 0.98 us at 132 blocks, 4.9 us at 2112, 9.4
// us at 4224). Here blocks arrive at one of G group counters (G and the group
// size about sqrt(blocks)); the last block of a group arrives at the root
// counter; the last group leader releases the phase by flipping the phase bit
// of every group counter. No line sees more than ~sqrt(blocks) atomics or
// pollers. The price is one more dependent atomic round trip per phase, which
// makes it slower than NVIDIA's on small grids (docs/cuda-backend.md has the
// numbers). A single-level variant that replicated NVIDIA's counter over K
// lines (every block adding to all K, polling one) was tried and dropped: a
// block released on one line starts the next phase on the other lines while a
// slow block's add for the current phase may not have landed there yet, so the
// two phases' counts mix. Here a block only ever touches its own group's line,
// and only after that line's flip, so phases never mix.
//
// Where the state lives. It must belong to one launch at a time (two
// cooperative kernels may run at once, on different streams or as parallel
// graph nodes) and need no memset or copy per launch. The driver gives a
// cooperative launch a 16-byte workspace (special_registers.hpp) that no two
// running launches share, since NVIDIA's own barrier counts on its word (seen:
// one workspace per stream). cohort uses its address as a key: each workspace
// owns one slot of a static pool for good (claimed by compare-and-swap on the
// slot's root line, found again by every later launch with that workspace).
// Launches that share a slot never overlap in time, and every counter is back
// to zero arrivals at the end of each phase, so a slot is ready for its next
// launch whatever that launch's grid size. Ownership never changes, which makes
// the lookup consistent: two blocks of one launch can never pick different
// slots. If the pool is full (more workspaces, i.e. streams, than slots) the
// launch runs NVIDIA's protocol on the workspace's own word: NVIDIA's speed,
// still correct.
//
// A launch without a workspace cannot synchronize: grid_group::is_valid() is
// false, and grid.sync() prints a message and traps rather than hang.
#pragma once

#include <cuda/atomic>

#include <cstdio>

#include "cohort/cuda/special_registers.hpp"

namespace cohort::detail::gpu {

template <class T>
using device_atomic = cuda::atomic_ref<T, cuda::thread_scope_device>;

inline constexpr unsigned barrier_pool_slots = 32;
inline constexpr unsigned barrier_max_groups = 128;
// Up to this many blocks a single counter beats the extra level's round trip.
inline constexpr unsigned barrier_flat_blocks = 32;
// Counters hold the number of arrivals in bits 0..30 and the phase in bit 31.
inline constexpr unsigned phase_bit = 0x80000000u;
// The root counter holds the group leaders arrived in bits 0..15 and counts
// the phases the slot has released in bits 16..31 (see phase_parity).
inline constexpr unsigned root_arrivals = 0xFFFFu;

// One L2 line each, so that the groups' atomics and polls never share a line.
struct alignas(128) barrier_line {
  unsigned counter;
  unsigned long long owner;  // the owning workspace's address; 0 while the slot is free
};

struct barrier_slot {
  barrier_line root;  // counter: group leaders arrived this phase, and phases released; owner: authoritative
  barrier_line groups[barrier_max_groups];  // counter: phase | blocks arrived; owner: a copy, for the fast lookup
};

static __device__ barrier_slot barrier_pool[barrier_pool_slots];

// How a grid of `blocks` blocks is split into groups.
struct barrier_shape {
  unsigned blocks, group_size, groups;

  __device__ unsigned members(unsigned group) const {
    return group + 1 == groups ? blocks - group * group_size : group_size;
  }
};

__device__ inline barrier_shape shape_for(unsigned blocks) {
  if (blocks <= barrier_flat_blocks) return {blocks, blocks, 1};
  unsigned size = static_cast<unsigned>(sqrtf(static_cast<float>(blocks)));
  while (size * size < blocks) ++size;
  const unsigned at_most_max_groups = (blocks + barrier_max_groups - 1) / barrier_max_groups;
  if (size < at_most_max_groups) size = at_most_max_groups;
  return {blocks, size, (blocks + size - 1) / size};
}

__device__ inline bool is_block_leader() { return (threadIdx.x | threadIdx.y | threadIdx.z) == 0; }

__device__ inline unsigned block_rank_in_grid() { return static_cast<unsigned>(linear_index(blockIdx, gridDim)); }

__device__ inline unsigned home_slot(unsigned long long key) {
  return static_cast<unsigned>(((key >> 3) * 0x9E3779B97F4A7C15ull) >> 32) % barrier_pool_slots;
}

// The slot this workspace owns, claiming a free one the first time; nullptr
// when every slot belongs to another workspace.
__device__ inline barrier_slot* find_slot(const driver_workspace* ws, unsigned block) {
  const unsigned long long key = reinterpret_cast<unsigned long long>(ws);
  const unsigned home = home_slot(key);
  // Fast path, spread over the group lines so that a whole grid looking up at once hits no single line.
  barrier_slot& first = barrier_pool[home];
  if (device_atomic<unsigned long long>(first.groups[block % barrier_max_groups].owner)
          .load(cuda::memory_order_relaxed) == key)
    return &first;
#pragma unroll 1
  for (unsigned i = 0; i < barrier_pool_slots; ++i) {
    barrier_slot& slot = barrier_pool[(home + i) % barrier_pool_slots];
    device_atomic<unsigned long long> owner(slot.root.owner);
    unsigned long long seen = owner.load(cuda::memory_order_relaxed);
    if (seen == 0 && owner.compare_exchange_strong(seen, key, cuda::memory_order_relaxed)) {
#pragma unroll 1
      for (barrier_line& line : slot.groups)
        device_atomic<unsigned long long>(line.owner).store(key, cuda::memory_order_relaxed);
      return &slot;
    }
    if (seen == key) return &slot;
  }
  return nullptr;
}

// What a block's leader needs to finish the phase it arrived at: the word to
// watch and the value it saw there on arriving; no word when this block
// released the phase itself.
struct grid_arrival {
  unsigned* word;
  unsigned seen;
};

// The phase is over: flip every group's phase bit and empty its count in one
// atomic each. One release fence covers all the flips.
__device__ inline void release_groups(barrier_slot& slot, const barrier_shape& shape) {
  cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
  for (unsigned g = 0; g < shape.groups; ++g)
    device_atomic<unsigned>(slot.groups[g].counter)
        .fetch_add(phase_bit - shape.members(g), cuda::memory_order_relaxed);
}

// Called by each block's leader after the whole block has arrived.
__device__ inline grid_arrival arrive_at_slot(barrier_slot& slot) {
  const barrier_shape shape = shape_for(static_cast<unsigned>(dim_volume(gridDim)));
  const unsigned group = block_rank_in_grid() / shape.group_size;
  unsigned& word = slot.groups[group].counter;
  const unsigned seen = device_atomic<unsigned>(word).fetch_add(1, cuda::memory_order_release);
  if ((seen & ~phase_bit) + 1 < shape.members(group)) return {&word, seen};
  // Last of its group: take in the group's writes, then pass them on to the root.
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
  if (shape.groups > 1) {
    device_atomic<unsigned> root(slot.root.counter);
    const unsigned arrived = root.fetch_add(1, cuda::memory_order_acq_rel);
    if ((arrived & root_arrivals) + 1 < shape.groups) return {&word, seen};
    // Every group is in: empty the count and count the phase; nobody touches
    // the root again before the flips below release them.
    root.store((arrived | root_arrivals) + 1, cuda::memory_order_relaxed);
  }
  release_groups(slot, shape);
  return {nullptr, seen};
}

// The parity of the phase a block's leader is about to arrive at, the same in
// every block of the launch: grid collectives alternate between two exchange
// buffers with it, so that a block still reading one phase's values never
// meets the next phase's writes. A grid of one group reads its counter's
// phase bit; a larger grid the root's phase count (other groups' phase bits
// may lag, by the phases of earlier, smaller launches on the slot). The
// leader reads it before arriving; neither changes before every block has.
__device__ inline unsigned phase_parity(barrier_slot& slot) {
  const barrier_shape shape = shape_for(static_cast<unsigned>(dim_volume(gridDim)));
  if (shape.groups == 1) return device_atomic<unsigned>(slot.groups[0].counter).load(cuda::memory_order_relaxed) >> 31;
  return device_atomic<unsigned>(slot.root.counter).load(cuda::memory_order_relaxed) >> 16 & 1u;
}

// NVIDIA's protocol on the workspace word, for a launch without a slot: block 0
// adds 2^31 - (blocks - 1) and every other block 1, so the phase bit flips when
// the last block arrives and the count is back where it started.
__device__ inline grid_arrival arrive_at_workspace(driver_workspace& ws) {
  const unsigned blocks = static_cast<unsigned>(dim_volume(gridDim));
  const unsigned add = block_rank_in_grid() == 0 ? phase_bit - (blocks - 1) : 1u;
  return {&ws.barrier, device_atomic<unsigned>(ws.barrier).fetch_add(add, cuda::memory_order_release)};
}

__device__ inline void wait_for_flip(const grid_arrival& a) {
  if (!a.word) return;
  device_atomic<unsigned> word(*a.word);
  while (((word.load(cuda::memory_order_relaxed) ^ a.seen) & phase_bit) == 0) {
  }
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
}

[[noreturn]] __device__ inline void trap_not_cooperative() {
  if (is_block_leader())
    printf(
        "cohort: grid.sync() in block (%u,%u,%u) of a launch that is not cooperative (grid_group::is_valid() is "
        "false): launch the kernel with cohort::launch_cooperative. Trapping.\n",
        blockIdx.x, blockIdx.y, blockIdx.z);
  __trap();
  __builtin_unreachable();
}

// The barrier as a grid_group holds it: the launch's workspace (null outside a
// cooperative launch) and, in the block leader's copy, its slot. An aggregate,
// so that thread_group can keep one in its payload union.
struct grid_barrier {
  driver_workspace* workspace;
  barrier_slot* slot;

  __device__ bool valid() const { return workspace != nullptr; }

  // Every thread of the block calls arrive() and then wait(), as __syncthreads requires.
  __device__ grid_arrival arrive() const {
    if (!workspace) trap_not_cooperative();
    __syncthreads();
    if (!is_block_leader()) return {nullptr, 0};
    return slot ? arrive_at_slot(*slot) : arrive_at_workspace(*workspace);
  }

  __device__ void wait(const grid_arrival& a) const {
    if (!workspace) trap_not_cooperative();
    if (is_block_leader()) wait_for_flip(a);
    __syncthreads();
  }

  __device__ void sync() const { wait(arrive()); }
};

// The calling thread's handle on this launch's grid barrier. Only the block
// leader runs the protocol, so only it looks up the slot.
__device__ inline grid_barrier current_grid_barrier() {
  driver_workspace* ws = grid_workspace();
  barrier_slot* slot = ws && is_block_leader() ? find_slot(ws, block_rank_in_grid()) : nullptr;
  return {ws, slot};
}

}  // namespace cohort::detail::gpu
