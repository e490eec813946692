// CUDA's warp-level intrinsics for a host compiler: __shfl*_sync, votes,
// __match_*_sync, __reduce_*_sync, __activemask, __syncwarp and the bit
// functions. They follow
// PTX's rules: the calling lane must be in the mask, every lane the mask names
// must call the same intrinsic with the same mask (lanes that have exited, or
// do not exist in a short last warp, are excused), and results are in lane
// space. Masks are 64 bits wide so that they name every lane of a 64-lane
// warp; a CUDA mask of 32 bits converts to them unchanged.
#pragma once

#include <bit>
#include <cstdint>
#include <source_location>
#include <type_traits>

#include "cohort/detail/host/collectives/collective.hpp"
#include "cohort/detail/host/collectives/lane_ops.hpp"
#include "cohort/detail/host/collectives/match_key.hpp"

namespace cohort::detail::host {

// Reports a mask that leaves out the calling lane, or a bad shuffle width.
[[noreturn]] void fail_lane_outside_mask(const char* intrinsic, std::uint64_t mask, std::source_location where);
[[noreturn]] void fail_shuffle_width(const char* intrinsic, int width, std::source_location where);

// Every intrinsic passes here: a mask naming every lane the warp has (the
// usual one) is counted without a population count.
inline member_set mask_members(const collective_op& op, unsigned long long mask, std::source_location where) {
  // The lane first: in host code its read faults on the page that says
  // "outside a kernel" (state.hpp), before the block's record, null there, is read.
  const unsigned lane = lane_id();
  const unsigned present = present_lanes();
  const std::uint64_t existing = ~std::uint64_t{0} >> (64 - present);  // low_lanes without its test: present >= 1
  const std::uint64_t lanes = mask & existing;
  if (((lanes >> lane) & 1) == 0) fail_lane_outside_mask(op.name, mask, where);
  return {warp_base(), lanes == existing ? present : lane_count(lanes), lanes};
}

// The call, its mask noted in the caller's slot (collective_slot::mask_site).
inline collective_call mask_call(const collective_op& op, unsigned long long mask, std::source_location where) {
  const member_set members = mask_members(op, mask, where);
  collective_slot& slot = own_slot();
  slot.mask_site = where;
  slot.mask_lanes = members.lanes;
  return {members, &op, where, true, false};
}

template <class R>
R warp_collective(const collective_op& op, unsigned long long mask, std::uint64_t arg, std::source_location where) {
  return collective<R>(mask_call(op, mask, where), arg);
}

template <class R, class T>
R warp_collective(const collective_op& op, unsigned long long mask, const T& value, std::uint64_t arg,
                  std::source_location where) {
  return collective<R>(mask_call(op, mask, where), value, arg);
}

// The shuffles, as the loops pass knows them (tools/loops-pass/lane_exchange.cpp
// and runtime_abi.hpp, which spell the kinds and this function's name): under
// clang a function of its own, so that where its mask is a constant the pass
// can lower it to the block's lane arrays; elsewhere, and on fibers, the
// rendezvous every collective takes.
enum class shuffle_kind : unsigned { idx, up, down, xor_lanes };

template <class T>
#if defined(__clang__)
__attribute__((noinline))
#endif
T lane_exchange(shuffle_kind, const collective_op& op, unsigned long long mask, T var, std::uint64_t arg,
                std::source_location where) {
  return warp_collective<T>(op, mask, var, arg, where);
}

// The votes, __reduce_*_sync, __syncwarp and __match_*_sync, as the loops pass knows them
// (tools/loops-pass/lane_exchange.cpp): like lane_exchange, a function of its
// own under clang, so that where its mask is a constant the pass can lower it
// to the block's lane arrays (each lane's value in, the warp's result out);
// elsewhere, and on fibers, the rendezvous every collective takes. The kinds
// follow the shuffles' (runtime_abi.hpp spells them too).
enum class combine_kind : unsigned {
  ballot = 4,
  any,
  all,
  reduce_add,
  reduce_min_unsigned,
  reduce_min_signed,
  reduce_max_unsigned,
  reduce_max_signed,
  reduce_and,
  reduce_or,
  reduce_xor,
  sync,
  match_any,
  match_all
};

template <class T>
#if defined(__clang__)
__attribute__((noinline))
#endif
T lane_combine(combine_kind kind, const collective_op& op, unsigned long long mask, T value,
               std::source_location where) {
  // A vote's predicate (an integer; a match's key is not) travels as the slot's argument.
  if constexpr (std::is_integral_v<T>)
    if (kind == combine_kind::ballot || kind == combine_kind::any || kind == combine_kind::all)
      return warp_collective<T>(op, mask, static_cast<std::uint64_t>(value), where);
  if (kind == combine_kind::sync) {
    const collective_call call = mask_call(op, mask, where);
    own_slot().arg = 0;
    rendezvous(call);
    return T{};
  }
  return warp_collective<T>(op, mask, value, 0, where);
}

// __match_any_sync and __match_all_sync: a value of up to 16 bytes as its key
// (match_key.hpp) through lane_combine, so that the pass can lower it like a
// vote; a wider one through the rendezvous. The result is a lane mask, for
// match_all the mask or 0 (lane_ops::match_all).
template <class T>
std::uint64_t warp_match(combine_kind kind, unsigned long long mask, const T& value, std::source_location where) {
  const bool any = kind == combine_kind::match_any;
  if constexpr (has_match_key<sizeof(T)>) {
    using key = match_key<sizeof(T)>;
    const collective_op& op = any ? lane_ops::match_any_op<sizeof(key)> : lane_ops::match_all_op<sizeof(key)>;
    return match_result(lane_combine<key>(kind, op, mask, to_match_key(value), where));
  } else {
    const collective_op& op = any ? lane_ops::match_any_op<sizeof(T)> : lane_ops::match_all_op<sizeof(T)>;
    return warp_collective<std::uint64_t>(op, mask, value, 0, where);
  }
}

// shfl.sync reads only the low bits of its lane operand, as many as name a
// lane of the warp (b[4:0] at 32 lanes): a delta of 33 is a delta of 1, and a
// negative source lane counts from the top of its segment.
template <class T>
T warp_shuffle(shuffle_kind kind, const collective_op& op, unsigned long long mask, const T& var, unsigned operand,
               int width, std::source_location where) {
  if (width < 1 || width > static_cast<int>(warp_size()) || (width & (width - 1)) != 0)
    fail_shuffle_width(op.name, width, where);
  return lane_exchange<T>(kind, op, mask, var,
                          lane_ops::pack(operand & (warp_size() - 1), static_cast<unsigned>(width)), where);
}

}  // namespace cohort::detail::host

template <class T>
T __shfl_sync(unsigned long long mask, T var, int src_lane,
              int width = static_cast<int>(::cohort::detail::host::warp_size()),
              std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::warp_shuffle(d::shuffle_kind::idx, d::lane_ops::shfl_op<sizeof(T)>, mask, var,
                         static_cast<unsigned>(src_lane), width, where);
}
template <class T>
T __shfl_up_sync(unsigned long long mask, T var, unsigned delta,
                 int width = static_cast<int>(::cohort::detail::host::warp_size()),
                 std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::warp_shuffle(d::shuffle_kind::up, d::lane_ops::shfl_up_op<sizeof(T)>, mask, var, delta, width, where);
}
template <class T>
T __shfl_down_sync(unsigned long long mask, T var, unsigned delta,
                   int width = static_cast<int>(::cohort::detail::host::warp_size()),
                   std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::warp_shuffle(d::shuffle_kind::down, d::lane_ops::shfl_down_op<sizeof(T)>, mask, var, delta, width, where);
}
template <class T>
T __shfl_xor_sync(unsigned long long mask, T var, int lane_mask,
                  int width = static_cast<int>(::cohort::detail::host::warp_size()),
                  std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::warp_shuffle(d::shuffle_kind::xor_lanes, d::lane_ops::shfl_xor_op<sizeof(T)>, mask, var,
                         static_cast<unsigned>(lane_mask), width, where);
}

inline unsigned long long __ballot_sync(unsigned long long mask, int predicate,
                                        std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::lane_combine<unsigned long long>(d::combine_kind::ballot, d::lane_ops::ballot_op, mask, predicate != 0,
                                             where);
}
inline int __any_sync(unsigned long long mask, int predicate,
                      std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::lane_combine<int>(d::combine_kind::any, d::lane_ops::any_op, mask, predicate != 0, where);
}
inline int __all_sync(unsigned long long mask, int predicate,
                      std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::lane_combine<int>(d::combine_kind::all, d::lane_ops::all_op, mask, predicate != 0, where);
}
template <class T>
unsigned long long __match_any_sync(unsigned long long mask, T value,
                                    std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::warp_match(d::combine_kind::match_any, mask, value, where);
}
template <class T>
unsigned long long __match_all_sync(unsigned long long mask, T value, int* pred,
                                    std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  const std::uint64_t lanes = d::warp_match(d::combine_kind::match_all, mask, value, where);
  *pred = lanes != 0;
  return lanes;
}

// sm_80's warp reductions: unsigned and int for add, min and max; unsigned
// for the bitwise ones. Additions wrap, as in hardware.
inline unsigned __reduce_add_sync(unsigned long long mask, unsigned value,
                                  std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::lane_combine<unsigned>(d::combine_kind::reduce_add, d::lane_ops::reduce_add_op<unsigned>, mask, value,
                                   where);
}
inline int __reduce_add_sync(unsigned long long mask, int value,
                             std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  // Added as unsigned, so that overflow wraps instead of being undefined.
  return static_cast<int>(d::lane_combine<unsigned>(d::combine_kind::reduce_add, d::lane_ops::reduce_add_op<unsigned>,
                                                    mask, static_cast<unsigned>(value), where));
}
inline unsigned __reduce_min_sync(unsigned long long mask, unsigned value,
                                  std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::lane_combine<unsigned>(d::combine_kind::reduce_min_unsigned, d::lane_ops::reduce_min_op<unsigned>, mask,
                                   value, where);
}
inline int __reduce_min_sync(unsigned long long mask, int value,
                             std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::lane_combine<int>(d::combine_kind::reduce_min_signed, d::lane_ops::reduce_min_op<int>, mask, value, where);
}
inline unsigned __reduce_max_sync(unsigned long long mask, unsigned value,
                                  std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::lane_combine<unsigned>(d::combine_kind::reduce_max_unsigned, d::lane_ops::reduce_max_op<unsigned>, mask,
                                   value, where);
}
inline int __reduce_max_sync(unsigned long long mask, int value,
                             std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::lane_combine<int>(d::combine_kind::reduce_max_signed, d::lane_ops::reduce_max_op<int>, mask, value, where);
}
inline unsigned __reduce_and_sync(unsigned long long mask, unsigned value,
                                  std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::lane_combine<unsigned>(d::combine_kind::reduce_and, d::lane_ops::reduce_and_op, mask, value, where);
}
inline unsigned __reduce_or_sync(unsigned long long mask, unsigned value,
                                 std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::lane_combine<unsigned>(d::combine_kind::reduce_or, d::lane_ops::reduce_or_op, mask, value, where);
}
inline unsigned __reduce_xor_sync(unsigned long long mask, unsigned value,
                                  std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  return d::lane_combine<unsigned>(d::combine_kind::reduce_xor, d::lane_ops::reduce_xor_op, mask, value, where);
}

// The lanes of the warp that reach this call together (see coalesced_threads()).
inline unsigned long long __activemask(std::source_location where = std::source_location::current()) {
  return ::cohort::detail::host::converge(where);
}

// Waits for the lanes of `mask` that have not exited (PTX's bar.warp.sync).
// Its mask is noted as the other intrinsics' are, so that lanes passing
// different masks are told apart from lanes that have exited.
inline void __syncwarp(unsigned long long mask = ~0ull, std::source_location where = std::source_location::current()) {
  namespace d = ::cohort::detail::host;
  d::lane_combine<unsigned>(d::combine_kind::sync, d::sync_op, mask, 0u, where);
}

// The lanes below, at or above the caller's (PTX's %lanemask_*; HIP spells them so).
inline unsigned long long __lanemask_lt() {
  return ::cohort::detail::host::low_lanes(::cohort::detail::host::lane_id());
}
inline unsigned long long __lanemask_le() {
  return ::cohort::detail::host::low_lanes(::cohort::detail::host::lane_id() + 1);
}
inline unsigned long long __lanemask_eq() { return 1ull << ::cohort::detail::host::lane_id(); }
inline unsigned long long __lanemask_ge() {
  return ~__lanemask_lt() & ::cohort::detail::host::low_lanes(::cohort::detail::host::warp_size());
}
inline unsigned long long __lanemask_gt() {
  return ~__lanemask_le() & ::cohort::detail::host::low_lanes(::cohort::detail::host::warp_size());
}

inline int __popc(unsigned x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
// 1 + the position of the lowest set bit, 0 for 0.
inline int __ffs(int x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned>(x)) + 1; }
inline int __ffsll(long long x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1; }
inline int __clz(int x) { return std::countl_zero(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return std::countl_zero(static_cast<unsigned long long>(x)); }
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i, x >>= 1) r = (r << 1) | (x & 1);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  return static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32 |
         __brev(static_cast<unsigned>(x >> 32));
}
// The position of the offset-th set bit of mask counting from bit `base`
// (upwards for offset > 0, downwards for offset < 0, base itself for 0), or
// 0xffffffff if there is none.
inline unsigned __fns(unsigned mask, unsigned base, int offset) {
  if (offset == 0) return ((mask >> (base & 31)) & 1) ? (base & 31) : 0xffffffffu;
  const int step = offset > 0 ? 1 : -1;
  int remaining = offset > 0 ? offset : -offset;
  for (int pos = static_cast<int>(base & 31); pos >= 0 && pos < 32; pos += step)
    if (((mask >> pos) & 1) && --remaining == 0) return static_cast<unsigned>(pos);
  return 0xffffffffu;
}
