// The kernel side of warp-level collectives on the host backend. A member
// writes its value and argument into its slot and calls rendezvous(); the
// last member to arrive runs the collective's combine over every member's
// slot and wakes the others, and each then reads its own result from its
// slot. Groups inside one warp are named by a lane mask, wider tiles by a
// span of block ranks; the same machinery serves tiles, coalesced groups,
// partitions and the __*_sync intrinsics, which differ only in the combine.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <source_location>
#include <string>
#include <type_traits>

#include "cohort/detail/host/runtime/state.hpp"
#include "cohort/errors.hpp"

namespace cohort::detail::host {

inline constexpr std::size_t max_exchange_bytes = 32;  // the largest type a shuffle moves (CUDA's limit)
inline constexpr std::size_t max_result_bytes = 128;   // a ballot of a 1024-thread tile

// A thread's part in the collective it is in: a thread is in at most one at a
// time, so one slot per thread, indexed by block rank, is all the storage
// collectives need. Results live apart from inputs because the combine writes
// every result while it still reads the others' inputs.
struct alignas(64) collective_slot {
  std::byte in[max_exchange_bytes];
  std::uint64_t arg;   // source rank, delta, lane mask, predicate, label, or an address every member must pass
  const void* params;  // reductions and scans: the operator and target, on the member's stack
  // The thread's last __*_sync intrinsic in this block: where, and the lanes
  // its mask named. A lane that exits while a call at that site with another
  // mask waits for it called the intrinsic with a different mask (an error),
  // where an exited lane the mask names is otherwise excused. Cleared for each
  // block (collective_state::start_block).
  std::source_location mask_site{};
  std::uint64_t mask_lanes;
  alignas(64) std::byte out[max_result_bytes];
};

// Who takes part. A group inside one warp is a lane mask over the warp whose
// first thread has block rank `base`; a tile wider than a warp is the span
// [base, base + count) of block ranks, with `lanes` zero. Ranks in the group
// follow block ranks, so member r is the r-th set lane or base + r.
struct member_set {
  unsigned base;
  unsigned count;
  std::uint64_t lanes;
  bool is_span() const { return lanes == 0; }
  bool operator==(const member_set&) const = default;
};

// What the combine sees: the slots of the members that arrived, in rank order.
struct combine_context {
  collective_slot* slots;  // the block's, by block rank
  // Block rank of each member that takes part, in rank order; null when they
  // are the consecutive ranks from `first` (a whole tile, the common case).
  const unsigned* who;
  unsigned first;
  unsigned count;             // how many take part
  unsigned warp_base;         // block rank of lane 0 of the members' warp
  std::uint64_t lanes;        // warp groups: the lanes that take part
  unsigned* scratch;          // room for `count` indices
  std::source_location site;  // where the first member called the collective
  unsigned rank_of(unsigned r) const { return who ? who[r] : first + r; }
  unsigned lane_of(unsigned r) const { return rank_of(r) - warp_base; }
  collective_slot& at(unsigned r) const { return slots[rank_of(r)]; }
};

// Calls f(at), `at` mapping a rank to its slot, specialized for the common
// case of consecutive ranks so that hot combines index without a branch. The
// mappings hold copies of what they read, which the combine's stores then
// cannot be taken to change.
template <class F>
void with_slots(const combine_context& c, F&& f) {
  if (const unsigned* who = c.who; who == nullptr)
    f([slots = c.slots + c.first](unsigned r) -> collective_slot& { return slots[r]; });
  else
    f([slots = c.slots, who](unsigned r) -> collective_slot& { return slots[who[r]]; });
}

using combine_fn = void (*)(const combine_context&);

struct collective_op {
  const char* name;      // as kernel code spells it, for messages
  combine_fn combine;    // null for a synchronization
  const char* arg_name;  // what `arg` means, for messages about non-uniform arguments
  bool arg_is_address = false;
};

struct collective_call {
  member_set members;
  const collective_op* op;
  std::source_location where;
  // Members that have exited do not count (barriers on sm_70+, and PTX's rule
  // for the *_sync intrinsics); otherwise a member's exit is an error.
  bool excuse_exited;
  bool uniform_arg;  // every member must pass the same argument
};

// Joins the collective `call` names; returns once it has completed, with the
// result in the caller's slot. Raises the launch's error for a member that
// exited, a mismatched collective or a non-uniform argument.
void rendezvous(const collective_call& call);
// coalesced_threads() and __activemask(): parks until every other live lane
// of the warp is parked or has exited; returns the lanes parked at `where`.
std::uint64_t converge(std::source_location where);
// Ends the launch with an error about a collective's arguments, naming the
// call site and the calling thread.
[[noreturn]] void usage_error(errc kind, const std::string& what, std::source_location where);

inline constexpr collective_op sync_op{"sync", nullptr, nullptr};

template <class T>
inline constexpr bool exchangeable = std::is_trivially_copyable_v<T> && sizeof(T) <= max_exchange_bytes;

inline unsigned warp_size() { return static_cast<unsigned>(::warpSize); }
inline unsigned block_rank() { return thread_rank(); }
inline unsigned lane_id() { return block_rank() & (warp_size() - 1); }
inline unsigned warp_base() { return block_rank() & ~(warp_size() - 1); }
inline constexpr std::uint64_t low_lanes(unsigned n) {
  return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}
// How many lanes a mask names. std::popcount is a library call where the
// target has no population-count instruction (x86-64's baseline); this is a
// handful of instructions instead, and two for the usual mask, the low lanes.
inline constexpr unsigned lane_count(std::uint64_t lanes) {
#if defined(__x86_64__) && !defined(__POPCNT__)
  if ((lanes & (lanes + 1)) == 0) return static_cast<unsigned>(std::countr_one(lanes));
  lanes -= (lanes >> 1) & 0x5555555555555555u;
  lanes = (lanes & 0x3333333333333333u) + ((lanes >> 2) & 0x3333333333333333u);
  lanes = (lanes + (lanes >> 4)) & 0x0f0f0f0f0f0f0f0fu;
  return static_cast<unsigned>((lanes * 0x0101010101010101u) >> 56);
#else
  return static_cast<unsigned>(std::popcount(lanes));
#endif
}
// How many lanes the caller's warp has (1 to the warp size): the last warp of
// a block whose size is not a multiple of the warp size is short.
inline unsigned present_lanes() {
  const unsigned left = current_block->thread_count - warp_base();
  return left < warp_size() ? left : warp_size();
}
// The lanes of the caller's warp that exist.
inline std::uint64_t existing_lanes() { return low_lanes(present_lanes()); }

inline collective_slot& own_slot() { return current_block->slots[block_rank()]; }

// The object of type R whose representation `bytes` holds (R need not be
// default-constructible).
template <class R>
R from_bytes(const std::byte* bytes) {
  static_assert(std::is_trivially_copyable_v<R>);
  alignas(R) std::byte copy[sizeof(R)];
  std::memcpy(copy, bytes, sizeof(R));
  return *std::launder(reinterpret_cast<R*>(copy));
}

template <class R>
R result_from(const collective_slot& slot) {
  static_assert(sizeof(R) <= max_result_bytes);
  return from_bytes<R>(slot.out);
}

// A collective whose members contribute only `arg`.
template <class R>
R collective(const collective_call& call, std::uint64_t arg) {
  collective_slot& slot = own_slot();
  slot.arg = arg;
  rendezvous(call);
  return result_from<R>(slot);
}

// A collective whose members contribute a value and `arg`.
template <class R, class T>
R collective(const collective_call& call, const T& value, std::uint64_t arg) {
  static_assert(exchangeable<T>, "collectives exchange trivially copyable types of at most 32 bytes");
  collective_slot& slot = own_slot();
  std::memcpy(slot.in, &value, sizeof(T));
  slot.arg = arg;
  rendezvous(call);
  return result_from<R>(slot);
}

inline void synchronize(const member_set& members, std::source_location where) {
  own_slot().arg = 0;
  rendezvous({members, &sync_op, where, true, false});
}

}  // namespace cohort::detail::host
