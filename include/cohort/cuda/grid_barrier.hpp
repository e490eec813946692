// cohort's grid barrier: NVIDIA's protocol on the driver's word for grids of
// up to barrier_flat_blocks blocks, a two-level combining barrier on larger
// ones, with its state in a pool of slots in device memory, one slot per
// driver workspace.
//
// Why two levels. NVIDIA's barrier has every block add to one counter and then
// poll that same word, so the arrivals queue at that one L2 line: its time per
// barrier grows with the block count (H200: 0.98 us at 132 blocks, 4.9 us at
// 2112, 9.3 us at 4224). Past barrier_flat_blocks, blocks arrive at a counter
// of their group of barrier_group_blocks; the last block of a group arrives at
// the root counter; the last group there releases the phase by bumping every
// group's release line, which that group's blocks poll. The price is one more
// dependent atomic round trip, about a microsecond, which pays only from
// about 1300 blocks on (docs/cuda-backend.md has the measurements); smaller
// grids run NVIDIA's protocol on the workspace word NVIDIA's own barrier
// uses, which measured 0.87-0.96x NVIDIA's time there.
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
// launch runs NVIDIA's protocol on the workspace's word whatever its size:
// NVIDIA's speed, still correct.
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
// Up to this many blocks NVIDIA's single counter is faster than two levels
// (H200, groups of 128: two levels take 1.07x its time at 1056 blocks, 0.67x
// at 1584, 0.53x at 2112, 0.33x at 4224), so such grids run its protocol.
inline constexpr unsigned barrier_flat_blocks = 1280;
// Blocks per group of the two-level barrier (more where 128 groups would not
// hold the grid): of 8 to 128 measured at 1584-4224 blocks, 128 was fastest.
inline constexpr unsigned barrier_group_blocks = 128;
// Every counter holds its arrivals in bits 0..30, zero between phases, and
// flips bit 31 once per phase: the first member adds 2^31 - (members - 1),
// every other one 1 (NVIDIA's trick), so the last arrival brings bits 0..30
// back to zero by itself and no one has to store a reset.
inline constexpr unsigned phase_bit = 0x80000000u;

// One L2 line each, so that no two groups' atomics or polls share a line.
struct alignas(128) barrier_line {
  unsigned counter;
  unsigned long long owner;  // the owning workspace's address; 0 while the slot is free
};
struct alignas(128) release_line {
  unsigned generation;  // bumped once per phase by the block that releases it
};

struct barrier_slot {
  barrier_line root;                        // counter: the groups arrived; owner: authoritative
  barrier_line groups[barrier_max_groups];  // counter: blocks of the group arrived; owner: a copy, for the fast lookup
  // What a group's blocks poll: apart from the counters, so that arrivals
  // never queue behind polls on a line.
  release_line releases[barrier_max_groups];
};

static __device__ barrier_slot barrier_pool[barrier_pool_slots];

// How a grid of `blocks` blocks is split into groups; one group: the flat protocol.
struct barrier_shape {
  unsigned blocks, group_size, groups;

  __device__ unsigned members(unsigned group) const {
    return group + 1 == groups ? blocks - group * group_size : group_size;
  }
};

__device__ inline barrier_shape shape_for(unsigned blocks) {
  if (blocks <= barrier_flat_blocks) return {blocks, blocks, 1};
  const unsigned at_most_max_groups = (blocks + barrier_max_groups - 1) / barrier_max_groups;
  const unsigned size = at_most_max_groups > barrier_group_blocks ? at_most_max_groups : barrier_group_blocks;
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
// watch, the value it saw there on arriving and the bits whose change ends
// the phase; no word when this block released the phase itself.
struct grid_arrival {
  unsigned* word;
  unsigned seen;
  unsigned changes;
};

// What member `member` of `members` adds to a counter (see phase_bit).
__device__ inline unsigned arrival_add(unsigned member, unsigned members) {
  return member == 0 ? phase_bit - (members - 1) : 1u;
}
__device__ inline bool completes_phase(unsigned before, unsigned add) { return ((before + add) & ~phase_bit) == 0; }

// NVIDIA's protocol on `word`: bit 31 flips when the last block arrives, and
// every leader polls for the flip. The add is PTX's atom.add.release.gpu and
// the polls are acquire loads (wait_for_release), as in NVIDIA's grid.sync:
// the loop compiles to NVIDIA's instructions but for the few of a
// warp-aggregated atomic that ptxas adds, not knowing that only one lane adds
// (docs/cuda-backend.md).
__device__ inline grid_arrival arrive_flat(unsigned& word) {
  const unsigned add = arrival_add(block_rank_in_grid(), static_cast<unsigned>(dim_volume(gridDim)));
  unsigned seen;
  asm volatile("atom.add.release.gpu.u32 %0, [%1], %2;" : "=r"(seen) : "l"(&word), "r"(add) : "memory");
  return {&word, seen, phase_bit};
}

// Two levels: the last block of a group arrives at the root for it; the last
// group there releases every group's line. The arrivals are acq_rel, so that
// whoever completes a count has acquired every earlier arrival's writes and
// passes them on; one release fence covers the bumps.
__device__ inline grid_arrival arrive_in_groups(barrier_slot& slot, const barrier_shape& shape) {
  const unsigned me = block_rank_in_grid(), group = me / shape.group_size;
  unsigned& release = slot.releases[group].generation;
  // Read before arriving: the line cannot move before this block has arrived.
  const grid_arrival wait{&release, device_atomic<unsigned>(release).load(cuda::memory_order_relaxed), ~0u};
  const unsigned add = arrival_add(me - group * shape.group_size, shape.members(group));
  if (!completes_phase(device_atomic<unsigned>(slot.groups[group].counter).fetch_add(add, cuda::memory_order_acq_rel),
                       add))
    return wait;
  const unsigned root_add = arrival_add(group, shape.groups);
  if (!completes_phase(device_atomic<unsigned>(slot.root.counter).fetch_add(root_add, cuda::memory_order_acq_rel),
                       root_add))
    return wait;
  cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
  for (unsigned g = 0; g < shape.groups; ++g)
    device_atomic<unsigned>(slot.releases[g].generation).fetch_add(1, cuda::memory_order_relaxed);
  return {nullptr, 0, 0};
}

// Called by each block's leader after the whole block has arrived.
__device__ inline grid_arrival arrive_at(driver_workspace& workspace, barrier_slot* slot) {
  const barrier_shape shape = shape_for(static_cast<unsigned>(dim_volume(gridDim)));
  return shape.groups == 1 || !slot ? arrive_flat(workspace.barrier) : arrive_in_groups(*slot, shape);
}

// The parity of the phase a block's leader is about to arrive at, the same in
// every block of the launch: grid collectives alternate between two exchange
// buffers with it, so that a block still reading one phase's values never
// meets the next phase's writes. It is bit 31 of the counter that completes
// the phase: the workspace word of a flat grid, the root of a grid of groups.
// The leader reads it before arriving; it does not change before every block
// has.
__device__ inline unsigned phase_parity(driver_workspace& workspace, barrier_slot& slot) {
  const bool flat = shape_for(static_cast<unsigned>(dim_volume(gridDim))).groups == 1;
  return device_atomic<unsigned>(flat ? workspace.barrier : slot.root.counter).load(cuda::memory_order_relaxed) >> 31;
}

// Acquire polls, as NVIDIA's barrier's: each one invalidates the SM's L1
// (CCTL.IVALL), which also paces the loop; relaxed polls, with or without a
// fence after the loop or a nanosleep in it, measured slower on an H200.
__device__ inline void wait_for_release(const grid_arrival& a) {
  if (!a.word) return;
  device_atomic<unsigned> word(*a.word);
  while (((word.load(cuda::memory_order_acquire) ^ a.seen) & a.changes) == 0) {
  }
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
    return arrive_at(*workspace, slot);
  }

  __device__ void wait(const grid_arrival& a) const {
    if (!workspace) trap_not_cooperative();
    if (is_block_leader()) wait_for_release(a);
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
