// cohort's grid barrier: NVIDIA's protocol on the driver's word for grids of
// up to barrier_flat_blocks blocks, split counters on larger ones, with their
// state in a pool of slots in device memory, one slot per driver workspace.
//
// Why three regimes. NVIDIA's barrier has every block add to one counter and
// then poll that same word, so arrivals and polls queue at one L2 line: its
// time per barrier grows with the block count (H100: 1.35 us at 132 blocks,
// 2.6 us at 1056, 4.8 us at 2112, 10 us at 4224). Past barrier_flat_blocks,
// blocks arrive at one of barrier_counters counters (block rank modulo the
// count), a counter taking an eighth of the arrivals, and each block waits in
// its first warp, a lane per counter. Up to barrier_polled_blocks the lanes
// poll the counters themselves; on larger grids polls interleaved with adds
// on the counters' lines get slow, so there the block completing a counter
// also publishes its new value on barrier_replicas flag lines, and a lane
// polls the replica of its counter's flag that its block's rank picks (a flag
// line takes a quarter of the polls), reading the counter itself once the
// flag has moved. Grids of few blocks per SM run NVIDIA's protocol on the
// workspace word NVIDIA's own barrier uses: the counters' extra lines do not
// pay there. docs/cuda-backend.md has the measurements behind each limit.
//
// Where the state lives. It must belong to one launch at a time (two
// cooperative kernels may run at once, on different streams or as parallel
// graph nodes) and need no memset or copy per launch. The driver gives a
// cooperative launch a 16-byte workspace (special_registers.hpp) that no two
// running launches share, since NVIDIA's own barrier counts on its word (seen:
// one workspace per stream). cohort uses its address as a key: each workspace
// owns one slot of a static pool for good (claimed by compare-and-swap on the
// slot's owner line, found again by every later launch with that workspace).
// Launches that share a slot never overlap in time, and every counter is back
// to zero arrivals at the end of each phase, with all counters and flags at
// the same generation, so a slot is ready for its next launch whatever that
// launch's grid size. Ownership never changes, which makes the lookup
// consistent: two blocks of one launch can never pick different slots. If the
// pool is full (more workspaces, i.e. streams, than slots) the launch runs
// NVIDIA's protocol on the workspace's word whatever its size: NVIDIA's speed,
// still correct. Grids that run NVIDIA's protocol never look their slot up
// (grid collectives do, when they need its exchange space), so this_grid()
// costs them no memory access.
//
// A launch without a workspace cannot synchronize: grid_group::is_valid() is
// false, and grid.sync() traps rather than hang; the host's error for the
// trap names this cause.
#pragma once

#include <cuda/atomic>

#include <cstdio>

#include "cohort/detail/cuda/runtime/special_registers.hpp"
#include "cohort/detail/cuda/tiles/tile_geometry.hpp"

namespace cohort::detail::gpu {

template <class T>
using device_atomic = cuda::atomic_ref<T, cuda::thread_scope_device>;

inline constexpr unsigned barrier_pool_slots = 32;
// Up to this many blocks NVIDIA's single counter is about as fast as polled
// counters or faster (256 threads, time / NVIDIA's, on NVIDIA's protocol and
// on polled counters: H100 0.95 / 1.06 at 132 blocks, 0.94 / 0.92 at 264,
// 0.92 / 0.79 at 528; H200 0.94 / 1.10, 0.92 / 1.01, 0.91 / 0.88).
inline constexpr unsigned barrier_flat_blocks = 400;
// Up to this many blocks the lanes poll the counters; beyond, their flags
// (polled / published: H100 0.61 / 0.65 at 1584 blocks of 128 threads, 0.55 /
// 0.50 at 2112, 0.51 / 0.30 at 4224 of 64; H200 0.55 / 0.61, 0.49 / 0.45,
// 0.49 / 0.29).
inline constexpr unsigned barrier_polled_blocks = 1800;
// Of 4 to 16 counters with 1 to 8 replicas measured, 8 x 4 was fastest from
// 1056 to 2112 blocks and within 0.04 of the best at 4224 (published flags);
// polled, 8 counters beat 4 and 16 from 1056 to 4224 blocks.
inline constexpr unsigned barrier_counters = 8;
inline constexpr unsigned barrier_replicas = 4;
// Copies of a slot's owner, so that a whole grid looking its slot up at once
// spreads its loads over this many lines (a block on SM s reads copy s % 128
// of its home slot; see find_slot).
inline constexpr unsigned barrier_owner_copies = 128;
// NVIDIA's word holds its arrivals in bits 0..30, zero between phases, and
// flips bit 31 once per phase: the first block adds 2^31 - (blocks - 1),
// every other one 1, so the last arrival brings bits 0..30 back to zero by
// itself and no one has to store a reset.
inline constexpr unsigned phase_bit = 0x80000000u;
// The split counters use the same trick one level up: arrivals in bits
// 0..19, and bits 20..31 count the counter's completed phases (its
// generation), since a block must tell "completed this phase" from
// "completed this and the next" (a counter's blocks may run one phase ahead
// of a block still polling). A flag line holds its counter's value as the
// completing add left it.
inline constexpr unsigned generation_shift = 20;
inline constexpr unsigned generation_mask = 0xFFFu;

// One L2 line each, so that no two counters' atomics or polls share a line.
struct alignas(128) owner_line {
  unsigned long long owner;  // the owning workspace's address; 0 while the slot is free
};
struct alignas(128) counter_line {
  unsigned counter;
};

struct barrier_slot {
  owner_line owner;                               // authoritative
  owner_line owner_copies[barrier_owner_copies];  // for the fast lookup
};

static __device__ barrier_slot barrier_pool[barrier_pool_slots];

// A slot's split-counter lines: its counters, then its flags (counter c,
// replica r: line barrier_counters + c * barrier_replicas + r), 1 KiB apart.
// Lines 128 bytes apart slowed each other down: at 2112 blocks the barrier
// took 0.42x NVIDIA's time with adjacent lines (0.39-0.47 over 24
// placements) against 0.32x (0.30-0.33) with lines 1 KiB or 4 KiB apart, and
// 0.40x against 0.25x at 4224 (H200). So the pool interleaves: a 1 KiB row
// holds line i of 8 slots, and a slot's line i + 1 follows its line i 1 KiB
// later.
inline constexpr unsigned barrier_lines = barrier_counters * (1 + barrier_replicas);
inline constexpr unsigned barrier_line_stride = 8;  // slots per row: a slot's lines are this many lines apart
struct barrier_row {
  counter_line slot_line[barrier_line_stride];
};
static __device__ barrier_row barrier_rows[barrier_pool_slots / barrier_line_stride][barrier_lines];

// Line 0 of the slot's split-counter lines (line i is at
// barrier_lines_of(slot)[i * barrier_line_stride]): what find_slot returns
// and a grid_barrier holds, so that an arrival finds its counter without
// dividing the slot's offset in the pool by sizeof(barrier_slot).
__device__ inline counter_line* barrier_lines_of(const barrier_slot* slot) {
  const auto index = static_cast<unsigned>(slot - barrier_pool);
  return &barrier_rows[index / barrier_line_stride][0].slot_line[index % barrier_line_stride];
}
// The pool index of the slot whose line 0 is `lines` (for its exchange space).
__device__ inline unsigned slot_index(const counter_line* lines) {
  const auto line = static_cast<unsigned>(lines - &barrier_rows[0][0].slot_line[0]);
  return line / (barrier_lines * barrier_line_stride) * barrier_line_stride + line % barrier_line_stride;
}
// What the block leader's handle holds for its slot where the grid runs
// NVIDIA's protocol (at most barrier_flat_blocks blocks, or every slot taken):
// no slot's lines and never dereferenced, but not null, since a handle's slot
// is non-null exactly in its block's leader (grid_barrier).
__host__ __device__ inline counter_line* no_slot() { return reinterpret_cast<counter_line*>(alignof(counter_line)); }
__device__ inline counter_line& counter_of(counter_line* lines, unsigned counter) {
  return lines[counter * barrier_line_stride];
}
__device__ inline counter_line& flag_of(counter_line* lines, unsigned counter, unsigned replica) {
  return lines[(barrier_counters + counter * barrier_replicas + replica) * barrier_line_stride];
}

__device__ inline bool is_block_leader() { return (threadIdx.x | threadIdx.y | threadIdx.z) == 0; }

__device__ inline unsigned block_rank_in_grid() { return static_cast<unsigned>(linear_index(blockIdx, gridDim)); }

__device__ inline unsigned grid_blocks() { return static_cast<unsigned>(dim_volume(gridDim)); }

// The barrier's own reads of the special registers, volatile so that the
// compiler derives what it needs from them afresh at each barrier. From
// threadIdx and blockIdx, which it treats as loop invariants, it computed the
// split-counter path's counter, flag addresses and lane masks once before a
// loop of grid.sync() calls and held them in registers across the loop
// (cohort_bench_cuda's loop: 32 registers with the plain reads, 26 with
// these; NVIDIA's: 11). NVIDIA's protocol reads the block's index and the
// grid's extent afresh too: with the plain reads the compiler shared them with
// the kernel's own (grid.thread_rank(), say) and held all five across the
// caller's loop, which took the CG solver of cohort_bench_cuda_programs from
// 32 registers to 40 (3 blocks of 512 threads per SM instead of NVIDIA's 4).
// The reads and integer operations are small next to the split path's round
// trips; on NVIDIA's protocol they sit between the block's barrier and the
// leader's atomic, about 20 ns a barrier on an H100 (docs/cuda-backend.md,
// "Register cost", has the forms that were cheaper there and what they cost in
// registers). One function reads each of the four triples (the block's index
// in the grid, the thread's in the block, and their extents); the barrier also
// reads the launch's workspace afresh, for its "not cooperative" test too
// (grid_barrier::arrive says why). The thread's
// index it reads only in a wait on split counters, for the first warp: never
// before the leader's add (grid_barrier says why).
enum class fresh_triple { block_index, thread_index, grid_dim, block_dim };
template <fresh_triple Which>
__device__ __forceinline__ dim3 fresh() {
  unsigned x, y, z;
  if constexpr (Which == fresh_triple::block_index)
    asm volatile("mov.u32 %0, %%ctaid.x;\n\tmov.u32 %1, %%ctaid.y;\n\tmov.u32 %2, %%ctaid.z;"
                 : "=r"(x), "=r"(y), "=r"(z));
  else if constexpr (Which == fresh_triple::thread_index)
    asm volatile("mov.u32 %0, %%tid.x;\n\tmov.u32 %1, %%tid.y;\n\tmov.u32 %2, %%tid.z;" : "=r"(x), "=r"(y), "=r"(z));
  else if constexpr (Which == fresh_triple::grid_dim)
    asm volatile("mov.u32 %0, %%nctaid.x;\n\tmov.u32 %1, %%nctaid.y;\n\tmov.u32 %2, %%nctaid.z;"
                 : "=r"(x), "=r"(y), "=r"(z));
  else
    asm volatile("mov.u32 %0, %%ntid.x;\n\tmov.u32 %1, %%ntid.y;\n\tmov.u32 %2, %%ntid.z;" : "=r"(x), "=r"(y), "=r"(z));
  return {x, y, z};
}
// grid_workspace(), read afresh.
__device__ __forceinline__ driver_workspace* fresh_workspace() {
  unsigned high, low;
  asm volatile("mov.u32 %0, %%envreg1;\n\tmov.u32 %1, %%envreg2;" : "=r"(high), "=r"(low));
  return reinterpret_cast<driver_workspace*>((static_cast<unsigned long long>(high) << 32) | low);
}
__device__ __forceinline__ unsigned fresh_thread_rank() {
  return static_cast<unsigned>(linear_index(fresh<fresh_triple::thread_index>(), fresh<fresh_triple::block_dim>()));
}
// The SM the caller runs on (find_slot's copy).
__device__ __forceinline__ unsigned fresh_sm_id() {
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  return sm;
}
__device__ __forceinline__ unsigned fresh_lane_id() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
// Whether this launch's barrier runs on split counters (when it has a slot).
// The wait tests it on the grid's extent read afresh (fresh_split_counters):
// with the plain reads the compiler held the comparison across a caller's
// loop, which took the CG solver of cohort_bench_cuda_programs from 32
// registers to 38. The arrival does not test it at all (the leader's slot
// says it): between a block's barrier and its leader's add, the test cost
// 0.01-0.03x NVIDIA's time (H100).
__device__ inline bool uses_split_counters() { return grid_blocks() > barrier_flat_blocks; }
// In 32 bits, here and in arrive_flat's rank (a cooperative grid's blocks are
// co-resident, far fewer than 2^32): every thread computes it at each wait,
// and the 64-bit product's three more instructions measured 1.044x NVIDIA's
// time at 264 blocks of 1024 threads against 1.023x (H200); on the previous
// barrier, 32 bits took 1056 x 256 from 0.69x to 0.66x and the fallback from
// 1.02x to 1.00x.
__device__ __forceinline__ bool fresh_split_counters() {
  const dim3 grid = fresh<fresh_triple::grid_dim>();
  return grid.x * grid.y * grid.z > barrier_flat_blocks;
}
// A split arrival as the leader hands it to its first warp
// (grid_arrival::seen, one shuffle): its counter's generation before the
// phase in bits 0..11 (moved_on compares generations modulo 2^12) and, on a
// grid that publishes flags, flags_published and from bit replica_shift the
// replica that the block's rank picks for it to poll. The leader has the
// grid's extent and its block's rank at hand; with the first warp reading
// them again, cohort_bench_cuda's loop of grid.sync() took 17 registers
// instead of 14.
inline constexpr unsigned flags_published = 1u << 12;
inline constexpr unsigned replica_shift = 13;

// Whether a grid of `blocks` on split counters publishes their values on flags.
__device__ inline bool publishes_flags(unsigned blocks) { return blocks > barrier_polled_blocks; }

// The slot's lines, hidden from the compiler at each barrier for the same
// reason: the addresses it derives from a known slot it would hold across the
// loop.
__device__ __forceinline__ counter_line* fresh(counter_line* lines) {
  asm volatile("" : "+l"(lines));
  return lines;
}

__device__ inline unsigned home_slot(unsigned long long key) {
  return static_cast<unsigned>(((key >> 3) * 0x9E3779B97F4A7C15ull) >> 32) % barrier_pool_slots;
}

// A relaxed compare-and-swap of a free owner word (0) to `key`, returning the
// word's value before: 0 if this thread claimed it. In PTX on the global
// space: a generic atom carries ptxas's path for local memory, two registers
// more in the lookup below (the generic address of a __device__ variable is
// its global address, which is how CUDA's __ldg passes its pointer too).
__device__ inline unsigned long long claim_owner(unsigned long long& word, unsigned long long key) {
  unsigned long long before;
  asm volatile("atom.relaxed.gpu.global.cas.b64 %0, [%1], 0, %2;" : "=l"(before) : "l"(&word), "l"(key) : "memory");
  return before;
}

// The slot this workspace owns, claiming a free one the first time, as its
// line 0 (barrier_lines_of); nullptr when every slot belongs to another
// workspace. The lookup first reads copy `copy` of its home slot's owner (a
// copy is 0 or the slot's owner, which never changes, so any copy will do:
// this_grid() passes its SM's id, which spreads a whole grid's lookups over
// the copies as well as block ranks would). On a miss it probes the pool from
// home, claiming the first free slot, and where that is home it fills the
// copy of its SM for the lookups after it, reading the SM's id again rather
// than holding `copy` across the probe (two registers more in a loop of
// grid.sync()). The probe is unrolled, for the registers of this_grid()'s
// callers, although it runs at most once per lookup and before the caller's
// code: kept a loop (with or without #pragma unroll 1), ptxas gave the CG
// solver of cohort_bench_cuda_programs 40 registers instead of 32, and the
// whole-array grid_reduce and grid_inclusive_scan of cohort_bench_cuda_array
// 56 and 72 instead of 32 and 63 (docs/cuda-backend.md, "Register cost").
__device__ inline counter_line* find_slot(const driver_workspace* ws, unsigned copy) {
  const unsigned long long key = reinterpret_cast<unsigned long long>(ws);
  unsigned index = home_slot(key);
  if (device_atomic<unsigned long long>(barrier_pool[index].owner_copies[copy % barrier_owner_copies].owner)
          .load(cuda::memory_order_relaxed) != key) {
#pragma unroll
    for (unsigned probed = 0;; ++probed) {
      if (probed == barrier_pool_slots) return nullptr;
      barrier_slot& slot = barrier_pool[index];
      unsigned long long seen = device_atomic<unsigned long long>(slot.owner.owner).load(cuda::memory_order_relaxed);
      if (seen == 0) seen = claim_owner(slot.owner.owner, key);
      if (seen == 0 || seen == key) {
        if (probed == 0)
          device_atomic<unsigned long long>(slot.owner_copies[fresh_sm_id() % barrier_owner_copies].owner)
              .store(key, cuda::memory_order_relaxed);
        break;
      }
      index = (index + 1) % barrier_pool_slots;
    }
  }
  return barrier_lines_of(&barrier_pool[index]);
}

// What a thread carries from its arrival to its wait: whether it arrived for
// its block (0 in the block's leader, 1 in every other thread) and, in the
// leader, what it saw on arriving: NVIDIA's word before its add, or its split
// arrival (flags_published). The wait finds the word and the slot's lines in
// the barrier itself rather than in the token, which saves the leader holding
// two more pointers from its atomic to its polls.
struct grid_arrival {
  unsigned seen;
  unsigned follower;
};

// What block `me` of `blocks` adds to its counter when block b arrives at
// counter b % counters, a counter whose high bits flip once per phase (see
// phase_bit and generation_shift): the counter's first member (me < counters)
// the flip less the others' ones, which number (blocks - 1 - me) / counters,
// every other member 1.
__device__ inline unsigned arrival_add(unsigned me, unsigned blocks, unsigned counters, unsigned phase_unit) {
  return me < counters ? phase_unit - (blocks - 1 - me) / counters : 1u;
}

// A block's arrival, in PTX so that the SASS is the measured design's
// instruction for instruction (while a call in the kernel added a
// MEMBAR.ALL.CTA to each, see trap_not_cooperative, the libcu++ and PTX forms
// compiled alike). A release: whoever reads the word with acquire after this
// add has the block's writes, since every change to the word is an add and so
// continues the release sequence of each earlier one.
__device__ inline unsigned atomic_add_release(unsigned& word, unsigned add) {
  unsigned before;
  asm volatile("atom.add.release.gpu.u32 %0, [%1], %2;" : "=r"(before) : "l"(&word), "r"(add) : "memory");
  return before;
}

// NVIDIA's protocol on `word`: bit 31 flips when the last block arrives, and
// every leader polls for the flip. The add is PTX's atom.add.release.gpu and
// the polls are acquire loads (wait_for_flip), as in NVIDIA's grid.sync: the
// loop compiles to NVIDIA's instructions but for the few of a warp-aggregated
// atomic that ptxas adds, not knowing that only one lane adds
// (docs/cuda-backend.md).
__device__ inline unsigned arrive_flat(unsigned& word) {
  const dim3 grid = fresh<fresh_triple::grid_dim>();
  const auto me = static_cast<unsigned>(linear_index(fresh<fresh_triple::block_index>(), grid));
  return atomic_add_release(word, arrival_add(me, static_cast<unsigned>(dim_volume(grid)), 1, phase_bit));
}

struct split_arrival {
  unsigned counter, add;
};

// Block `block` of `blocks` (more than barrier_counters) arrives at counter
// block % barrier_counters.
__device__ inline split_arrival split_arrival_of(unsigned block, unsigned blocks) {
  return {block % barrier_counters, arrival_add(block, blocks, barrier_counters, 1u << generation_shift)};
}

// Split counters. On a grid that publishes flags, the block whose add
// completes its counter stores the counter's new value on the counter's flag
// replicas, relaxed: a flag only tells the waiters when to read the counter,
// and their acquire reads of the counter make the arrivals' writes visible.
// (A release fence before the stores, which would let the flag itself carry
// them, made the completing block's path a round trip longer: 0.51x NVIDIA's
// time at 2112 blocks against 0.50x on an H100, 0.44x against 0.45x on an
// H200, and 0.35x against 0.30x at 4224 on the H100.)
__device__ inline unsigned arrive_split(counter_line* slot) {
  const dim3 grid = fresh<fresh_triple::grid_dim>();
  const auto blocks = static_cast<unsigned>(dim_volume(grid));
  const auto me = static_cast<unsigned>(linear_index(fresh<fresh_triple::block_index>(), grid));
  const auto [counter, add] = split_arrival_of(me, blocks);
  counter_line* const lines = fresh(slot);
  const unsigned before = atomic_add_release(counter_of(lines, counter).counter, add);
  const unsigned after = before + add;
  const bool published = publishes_flags(blocks);
  if (published && (after >> generation_shift) != (before >> generation_shift)) {
    // From one base: written flag_of(lines, counter, r), the compiler held
    // the four addresses in registers across a grid.sync() loop (39 registers
    // instead of 32 in cohort_bench_cuda's, which fit 792 blocks of 256
    // threads instead of 1056; GridBarrier.ALoopOfSyncsFitsEightBlocksOf256PerSM).
    counter_line* const flags = &flag_of(lines, counter, 0);
#pragma unroll
    for (unsigned r = 0; r < barrier_replicas; ++r)
      device_atomic<unsigned>(flags[r * barrier_line_stride].counter).store(after, cuda::memory_order_relaxed);
  }
  return (before >> generation_shift) | (published ? flags_published | me % barrier_replicas << replica_shift : 0u);
}

// Called by each block's leader after the whole block has arrived, with its
// handle's slot (no_slot() on NVIDIA's protocol).
__device__ inline unsigned arrive_at(driver_workspace& workspace, counter_line* slot) {
  return slot != no_slot() ? arrive_split(slot) : arrive_flat(workspace.barrier);
}

// The parity of the phase a block's leader is about to arrive at, the same in
// every block of the launch: grid collectives alternate between two exchange
// buffers with it, so that a block still reading one phase's values never
// meets the next phase's writes. It is bit 31 of NVIDIA's word, or the low bit
// of the generation of the block's counter, which cannot change before this
// block has arrived and equals every other counter's then. The leader reads
// it before arriving, with its handle's slot (no_slot() on NVIDIA's protocol).
__device__ inline unsigned phase_parity(driver_workspace& workspace, counter_line* slot) {
  if (slot == no_slot()) return device_atomic<unsigned>(workspace.barrier).load(cuda::memory_order_relaxed) >> 31;
  const unsigned counter = split_arrival_of(block_rank_in_grid(), grid_blocks()).counter;
  const unsigned value =
      device_atomic<const unsigned>(counter_of(slot, counter).counter).load(cuda::memory_order_relaxed);
  return (value >> generation_shift) & 1u;
}

// Acquire polls, as NVIDIA's barrier's: each one invalidates the SM's L1
// (CCTL.IVALL), which also paces the loop; relaxed polls, with or without a
// fence after the loop or a nanosleep in it, measured slower on an H200.
__device__ inline void wait_for_flip(unsigned& word, unsigned seen) {
  const device_atomic<unsigned> polled(word);
  while (((polled.load(cuda::memory_order_acquire) ^ seen) & phase_bit) == 0) {
  }
}

// Whether a counter's value (or its flag's) has left generation `seen`: it
// may be one ahead, never further, since no counter completes a second phase
// before the waiting block arrives there.
__device__ inline bool moved_on(unsigned value, unsigned seen) {
  return (((value >> generation_shift) - seen) & generation_mask) != 0;
}

// Whether counter c has completed the phase. Where flags are published, its
// flag first (relaxed polls, on a line no block adds to); then the counter
// itself, with an acquire load: it reads a value its last arrival's add or a
// later one left, which synchronizes with every arrival's release add, so the
// lane has every arriving block's writes of the phase, and after
// __syncthreads its whole block has. (Relaxed polls and one acquire fence
// after the loop, 28 November on an H200: 1.19-1.21x NVIDIA's time at 528
// blocks of 256 threads against these polls' 0.96-0.97x, 0.76-0.77x against
// 0.69-0.70x at 1056, and the CG solver of cohort_bench_cuda_programs 1.04x
// against 1.01x.)
__device__ inline bool counter_complete(counter_line& counter, counter_line& flag, unsigned seen) {
  if (seen & flags_published && !moved_on(device_atomic<unsigned>(flag.counter).load(cuda::memory_order_relaxed), seen))
    return false;
  return moved_on(device_atomic<unsigned>(counter.counter).load(cuda::memory_order_acquire), seen);
}

// The first warp's lanes wait for one counter each and vote until all have,
// so that the polls overlap (a loop in which each lane polled several
// counters in turn, one vote per pass, measured 0.92x NVIDIA's time at 1056
// blocks on full warps against this form's 0.71x, H200). Every lane forms its
// flag's address (lanes beyond the counters that of counter 0's), and polls it
// only where flags are published.
__device__ inline void wait_for_counters(counter_line* lines, unsigned seen) {
  const unsigned lane = fresh_lane_id();
  unsigned done = lane >= barrier_counters;
  const unsigned mine = done ? 0 : lane;
  counter_line& counter = counter_of(lines, mine);
  counter_line& flag = flag_of(lines, mine, seen >> replica_shift);
  while (!__all_sync(all_lanes, done))
    if (!done) done = counter_complete(counter, flag, seen);
}

// A block of fewer threads than a warp (rare: a grid of more than
// barrier_flat_blocks such blocks): its leader alone waits for the counters
// in turn, each first on its flag where flags are published (relaxed polls),
// then on the counter itself (acquire polls, as counter_complete's). The
// partial warp's lanes sharing the counters, with a vote per pass over their
// pending ones, kept cohort_bench_cuda's loop of grid.sync() at 16 registers
// instead of 14; the price is a round trip per counter for such grids.
__device__ inline void wait_for_counters_in_turn(counter_line* lines, unsigned seen) {
#pragma unroll 1
  for (unsigned c = 0; c < barrier_counters; ++c) {
    if (seen & flags_published) {
      const device_atomic<unsigned> flag(flag_of(lines, c, seen >> replica_shift).counter);
      while (!moved_on(flag.load(cuda::memory_order_relaxed), seen)) {
      }
    }
    const device_atomic<unsigned> counter(counter_of(lines, c).counter);
    while (!moved_on(counter.load(cuda::memory_order_acquire), seen)) {
    }
  }
}

// No message from the device: a printf (any call) anywhere in a kernel makes
// ptxas put a MEMBAR.ALL.CTA before every MEMBAR.ALL.GPU of the barrier, which
// cost NVIDIA's protocol 0.95x -> 0.87x and the split counters 0.94x -> 0.77x
// of NVIDIA's time (H200), and it raised a grid.sync() loop from 11 to 24
// registers. The host names the likely cause when it reports the trap
// (runtime_check.hpp's hint_for).
[[noreturn]] __device__ __forceinline__ void trap_not_cooperative() {
  __trap();
  __builtin_unreachable();
}

// The barrier as a grid_group holds it: the launch's workspace (null outside a
// cooperative launch) and a slot that is non-null exactly in the copy of the
// block's leader: its slot's line 0 (barrier_lines_of) on split counters, else
// no_slot(). An aggregate, so that thread_group can keep one in its payload
// union. The barrier itself reads the workspace afresh (fresh_workspace): the
// same pointer, by construction.
//
// The slot, which the leader's copy holds anyway, is what tells the leader
// apart at each barrier, not the thread's index: read afresh (volatile, so
// that no caller's loop holds them), the index's special registers cost every
// thread of the block an S2R at each barrier, on the flat protocol's critical
// path: 1.02x NVIDIA's time at one block of 256 threads per SM and 1.08x at
// 264 blocks of 1024 (H200), against 0.98x and 0.99x with the plain reads,
// which the compiler hoists out of a caller's loop; %tid.x alone still cost
// 1.00x and 1.02x. Held plainly, though, the leader test took the CG solver
// of cohort_bench_cuda_programs from 32 registers to 38 (3 blocks of 512
// threads per SM instead of NVIDIA's 4), and a leader flag in the handle to 40.
struct grid_barrier {
  driver_workspace* workspace;
  counter_line* slot;

  __device__ bool valid() const { return workspace != nullptr; }

  // Every thread of the block calls arrive() and then wait(), as __syncthreads requires.
  __device__ grid_arrival arrive() const {
    // The test on the fresh read, not on the handle's copy: a test of the
    // copy kept the copy in two registers across the loop of the
    // repeated_sum of cohort_bench_cuda_programs (28 registers against 26,
    // NVIDIA's 22). The price: two uniform constant loads and a compare
    // before each barrier's __syncthreads, which the compiler no longer hoists
    // out of a loop of grid.sync(), 10-60 ns a barrier (H200, side by side;
    // docs/measurements/2026-11-30-gpu-registers.md). Only the leader's test
    // after the __syncthreads took the loop to 18 registers and
    // whole-array grid_reduce's kernel to 40. wait() needs no test: its token
    // comes from here.
    driver_workspace* const ws = fresh_workspace();
    if (!ws) trap_not_cooperative();
    __syncthreads();
    // The slot hidden for the test (fresh): tested plainly, it took the CG
    // solver to 38 registers.
    if (!fresh(slot)) return {0, 1};
    return {arrive_at(*ws, slot), 0};
  }

  __device__ void wait(const grid_arrival& a) const {
    if (!fresh_split_counters()) {
      if (!a.follower) wait_for_flip(fresh_workspace()->barrier, a.seen);
    } else if (dim_volume(fresh<fresh_triple::block_dim>()) >= warp_lanes) {
      if (fresh_thread_rank() < warp_lanes) {
        // The leader's slot and arrival, for the whole first warp (its lane 0 is the leader).
        const auto lines =
            reinterpret_cast<counter_line*>(__shfl_sync(all_lanes, reinterpret_cast<unsigned long long>(slot), 0));
        if (lines != no_slot())
          wait_for_counters(lines, __shfl_sync(all_lanes, a.seen, 0));
        else if (!a.follower)
          wait_for_flip(fresh_workspace()->barrier, a.seen);  // no slot: NVIDIA's protocol
      }
    } else if (!a.follower) {
      if (slot != no_slot())
        wait_for_counters_in_turn(slot, a.seen);
      else
        wait_for_flip(fresh_workspace()->barrier, a.seen);  // no slot: NVIDIA's protocol
    }
    __syncthreads();
  }

  __device__ void sync() const { wait(arrive()); }
};

// The calling thread's handle on a barrier that runs NVIDIA's protocol on the
// driver's word whatever the grid's size, as current_grid_barrier() gives a
// launch that finds every slot taken: the fallback path of the tests and
// benchmarks.
__device__ inline grid_barrier nvidia_protocol_barrier(driver_workspace* ws) {
  return {ws, is_block_leader() ? no_slot() : nullptr};
}

// The calling thread's handle on this launch's grid barrier. Only the block
// leader of a grid of split counters needs the slot, so only it looks it up;
// on NVIDIA's protocol the leader's handle holds no_slot(). The marker comes
// first and the lookup's condition tests it last, so that a loop making a
// handle per call (this_grid().sync()) keeps of this function only a select
// and a branch on one hoisted predicate: the leader's own branch, which read
// the grid's extent in warp 0 alone at every call, took that loop to 1.060x
// NVIDIA's time at a block of 256 threads per SM against 1.016x (main 1.001x,
// H200), and the marker tested before the extent let ptxas spill 4 bytes in
// the CG solver of cohort_bench_cuda_programs (1.033x against 1.002x).
__device__ inline grid_barrier current_grid_barrier() {
  driver_workspace* ws = grid_workspace();
  counter_line* const flat = is_block_leader() ? no_slot() : nullptr;
  if (ws && uses_split_counters() && flat) {
    counter_line* const lines = find_slot(ws, fresh_sm_id());
    return {ws, lines ? lines : no_slot()};
  }
  return {ws, flat};
}

}  // namespace cohort::detail::gpu
