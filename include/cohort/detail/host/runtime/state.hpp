// The per-OS-thread state that kernel code reads on the host backend: which
// GPU thread is running and which block it belongs to. The runtime (src/host_runtime)
// owns these records; the fields here are the ones inline kernel-side code
// touches, so that threadIdx & co. cost a thread-local load.
#pragma once

#include <cstdint>
#include <source_location>

#include "cohort/detail/host/language/vector_types.hpp"

namespace cohort::detail::host {

struct fiber;
struct collective_slot;  // what a thread hands to a warp collective (detail/host/collectives/collective.hpp)

inline constexpr std::uint64_t no_arrival = ~std::uint64_t{0};

// What a started thread is doing: running or exited (none), woken and queued to run (runnable), or
// parked at a barrier, a collective, or in coalesced_threads() (converge). A started thread that is
// none and not the running one has exited: exits themselves write nothing. The runtime changes it
// only through move_to, checked against the table of transitions in src/host_runtime/scheduling/run_state.hpp.
enum class wait_kind : std::uint8_t {
  none,
  runnable,
  block_barrier,
  grid_barrier,
  cluster_barrier,
  multi_grid_barrier,
  collective,
  converge
};

// Where a thread lies in its block: threadIdx, and the block rank of the
// first thread of its row (threadIdx.x == 0), so that its rank is row +
// index.x. What kernel code reads of the running thread (thread_index,
// thread_rank) is read through one of these.
struct thread_position {
  uint3 index;   // threadIdx
  unsigned row;  // the rank of thread (0, index.y, index.z)
};

// Index, row and rank are written when a worker meets a new block shape (a
// thread record serves the same rank of every block the worker runs); the rest
// is written when the thread waits or arrives somewhere, which keeps
// barrier-free kernels cheap. Aligned so that what a block barrier touches (up
// to block_arrival) lies in one cache line.
struct alignas(64) thread_record : thread_position {
  unsigned rank;                        // linear rank in the block
  fiber* home = nullptr;                // the fiber this thread runs on, recorded when it parks
  wait_kind waiting = wait_kind::none;  // changed only by move_to (src/host_runtime/scheduling/run_state.hpp)
  std::source_location wait_site{};
  std::uint64_t wait_phase = 0;
  // The barrier phase this thread has arrived at and not yet seen complete,
  // so that its exit can take the arrival back.
  std::uint64_t block_arrival = no_arrival;
  std::uint64_t grid_arrival = no_arrival;
  std::uint64_t cluster_arrival = no_arrival;
  std::uint64_t multi_grid_arrival = no_arrival;
  // A spin-wait: the address of this thread's last atomic and the value it
  // saw, and how many atomics in a row saw that same value there (atomics.hpp).
  const void* poll_address = nullptr;
  std::uint64_t poll_value = 0;
  unsigned poll_count = 0;
  std::uint64_t poll_block = 0;  // the block (its serial) whose thread made those atomics
  std::int64_t poll_since = 0;   // when the streak first yielded (0: it has not yet)
  std::source_location poll_site{};
  // Where this thread last got a group from coalesced_threads(), and in which
  // block (its serial): a lane back at that site is in a loop (converge.cpp).
  std::source_location converged_at{};
  std::uint64_t converged_block = 0;
};

// The part of a block's record that inline kernel-side code reads; the
// runtime's record of the block (src/host_runtime/launch/block_runtime.hpp) extends it.
struct block_record {
  uint3 block_index;
  dim3 block_dim;
  dim3 grid_dim;
  unsigned warp_size;
  unsigned thread_count;
  unsigned next_unstarted;    // threads [0, next_unstarted) have started
  unsigned live;              // started or unstarted threads that have not exited
  unsigned parked;            // threads waiting at a collective or barrier
  unsigned arrivals_pending;  // arrivals counted at barriers that have not completed
  std::uint64_t serial;       // distinct for every block a worker runs
  // While a runner runs threads with nothing waiting (a streak, thread_loop.hpp),
  // next_unstarted and live are not stored per thread: they follow from the
  // running thread's rank, and are settled when kernel code calls into the runtime.
  unsigned streak_first;  // the streak's first rank
  unsigned streak_live;   // live when it began
  bool streak;
  bool cooperative;
  bool check_copies;  // COHORT_CHECK=memcpy: memcpy_async's checking mode
  unsigned char* dynamic_shared;
  thread_record* threads;
  collective_slot* slots;  // one per thread: its input to and result of a collective
};

extern thread_local constinit block_record* current_block;
// The running thread's record, for the runtime. Not written while a streak
// runs (thread_loop.hpp): settle_streak finds it from the streak's position.
extern thread_local constinit thread_record* current_thread;

// The running thread's rank is read through current_position: the running
// thread's record, or, while the thread loop runs a streak, streak_position,
// whose row the loop writes from its own counters (threadIdx, below, holds
// the index), so that in a kernel that never waits threadIdx.x is the loop
// variable rather than a load from each thread's record, and a thread of a
// streak costs one store. Outside a kernel it points into a page that no
// access may touch (outside_kernel_page): a warp intrinsic or a group in host
// code faults there, and the fault handler, which tells that page from
// address 0 (a null pointer of the program's own is an ordinary crash), says why.
// One page (of the largest page size, 64 KiB), made inaccessible when the
// program starts. Const, so that it lies in a read-only segment:
// LeakSanitizer scans the writable ones for pointers, and would fault on it there.
struct alignas(65536) outside_kernel_page {
  thread_position position;
};
extern constinit const outside_kernel_page no_kernel;
extern thread_local constinit const thread_position* current_position;
extern thread_local constinit thread_position streak_position;

}  // namespace cohort::detail::host

// CUDA's built-in variables: thread-locals in the global namespace, as nvcc
// declares them, not macros, so that host code may declare a `dim3 gridDim`
// of its own and read `prop.warpSize`. The worker writes blockIdx & co. once
// per block and threadIdx at every switch to a thread (set_running) or, in a
// streak, per thread (thread_loop.hpp). Outside a kernel they hold zeros or
// the last block's values: CUDA refuses them in host code at compile time,
// which a host compiler cannot do.
extern thread_local constinit uint3 threadIdx;
extern thread_local constinit uint3 blockIdx;
extern thread_local constinit dim3 blockDim;
extern thread_local constinit dim3 gridDim;
extern thread_local constinit int warpSize;

namespace cohort::detail::host {

inline const uint3& thread_index() { return ::threadIdx; }
// The running thread's rank in its block.
inline unsigned thread_rank() { return current_position->row + ::threadIdx.x; }

// Makes `t` the running thread: every switch to a thread goes through here.
inline void set_running(thread_record& t) {
  current_thread = &t;
  current_position = &t;
  ::threadIdx = t.index;
}

// Makes next_unstarted, live and current_thread exact again during a streak:
// the running thread and those before it have started, those of the streak
// before it have exited. Every entry into the runtime from kernel code
// settles first.
inline void settle_streak(block_record& b) {
  if (!b.streak) return;
  const unsigned rank = thread_rank();
  current_thread = b.threads + rank;
  b.next_unstarted = rank + 1;
  b.live = b.streak_live - (rank - b.streak_first);
  b.streak = false;
}

}  // namespace cohort::detail::host
