// Reductions, scans and broadcasts on the host backend: one rendezvous of the
// group's members (detail/host/collectives/collective.hpp), whose last member to arrive folds
// every member's value in rank order, ((v0 op v1) op v2) ..., and writes each
// member its result. A grid_group's collective is its block's rendezvous
// whose fold, once the block's share is known, exchanges the block totals
// with every other block through the launch's grid scratch (one grid barrier
// phase, src/host_runtime/synchronization/barriers.cpp's level_exchange) and folds those in block order. Every
// collective of this family is this one combine, parameterized by what each
// member gets back (fold_kind) and where the total goes besides (the target
// of the *_update and *_store forms).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <source_location>
#include <type_traits>

#include "cohort/collectives/functional.hpp"
#include "cohort/detail/host/atomic_update.hpp"
#include "cohort/detail/host/collectives/collective.hpp"
#include "cohort/detail/host/collectives/grid_exchange.hpp"
#include "cohort/detail/host/collectives/group_traits.hpp"

namespace cohort::detail::host {

enum class fold_kind : unsigned char {
  reduce,          // everyone: the total
  inclusive_scan,  // rank r: v0 op ... op vr
  exclusive_scan,  // rank r: v0 op ... op v(r-1); rank 0: the operator's identity
  broadcast,       // everyone: rank 0's value (invoke_one_broadcast)
};

// Where the total goes besides the members.
enum class target_role : unsigned char { none, update, store };

struct no_target {
  static constexpr target_role role = target_role::none;
  std::uint64_t identity() const { return 0; }
};

// The atomic becomes op(old, total); the scans start from `old`.
template <class A>
struct atomic_update_target {
  static constexpr target_role role = target_role::update;
  A* atomic;
  template <class T, class Op>
  T apply(const T& total, Op& op) const {
    return atomic_apply(*atomic, total, op);
  }
  std::uint64_t identity() const { return atomic_identity(*atomic); }
};

template <class A>
struct atomic_store_target {
  static constexpr target_role role = target_role::store;
  A* atomic;
  template <class T, class Op>
  T apply(const T& total, Op&) const {
    atomic->store(total, std::memory_order_relaxed);
    return total;
  }
  std::uint64_t identity() const { return atomic_identity(*atomic); }
};

template <class T>
struct pointer_store_target {
  static constexpr target_role role = target_role::store;
  T* pointer;
  template <class Op>
  T apply(const T& total, Op&) const {
    *pointer = total;
    return total;
  }
  std::uint64_t identity() const { return reinterpret_cast<std::uintptr_t>(pointer); }
};

// The API name of each collective of the family, for messages.
template <fold_kind Kind, target_role Role>
constexpr const char* fold_name() {
  if constexpr (Kind == fold_kind::broadcast)
    return "invoke_one_broadcast";
  else if constexpr (Kind == fold_kind::reduce)
    return Role == target_role::none     ? "reduce"
           : Role == target_role::update ? "reduce_update_async"
                                         : "reduce_store_async";
  else if constexpr (Kind == fold_kind::inclusive_scan)
    return Role == target_role::none ? "inclusive_scan" : "inclusive_scan_update";
  else
    return Role == target_role::none ? "exclusive_scan" : "exclusive_scan_update";
}

// What each member passes besides its value; the fold uses rank 0's.
template <class Op, class Target>
struct fold_params {
  Op* op;
  Target target;
};

template <class T>
void store_bytes(std::byte* to, const T& v) {
  std::memcpy(to, &v, sizeof(T));
}

// The family's one order, which both engines keep: ((v0 op v1) op v2) ...
// over `count` members, `value(r)` member r's value; a scan's prefix handed to
// `prefix(r, p)` (an exclusive scan's rank 0 gets none). Returns the total.
template <fold_kind Kind, class T, class Op, class Value, class Prefix>
T fold_in_rank_order(unsigned count, Op& op, Value value, Prefix prefix) {
  T acc = value(0u);
  if constexpr (Kind == fold_kind::inclusive_scan) prefix(0u, acc);
  for (unsigned r = 1; r < count; ++r) {
    if constexpr (Kind == fold_kind::exclusive_scan) prefix(r, acc);
    acc = op(acc, value(r));
    if constexpr (Kind == fold_kind::inclusive_scan) prefix(r, acc);
  }
  return acc;
}

// Folds the members' values in rank order; leaves a scan's prefix in each
// member's result (an exclusive scan leaves rank 0's untouched: it has none)
// and returns the total.
template <fold_kind Kind, class T, class Op>
T fold_members(const combine_context& c, Op& op) {
  if constexpr (Kind == fold_kind::broadcast) {
    return from_bytes<T>(c.at(0).in);
  } else {
    std::optional<T> total;
    with_slots(c, [&](auto at) {
      total = fold_in_rank_order<Kind, T>(
          c.count, op, [&](unsigned r) { return from_bytes<T>(at(r).in); },
          [&](unsigned r, const T& p) { store_bytes(at(r).out, p); });
    });
    return *total;
  }
}

template <class T, class Op>
void fold_into(std::optional<T>& acc, const T& v, Op& op) {
  acc = acc ? op(*acc, v) : v;
}

// A grid collective's blocks: returns what the blocks before this one fold
// to (none for block 0) and replaces `total`, the block's, by the grid's.
template <fold_kind Kind, class Span, class T, class Op>
std::optional<T> across_blocks(const collective_op& self, std::source_location site, T& total, Op& op) {
  const grid_entry* entries = Span::exchange(self, site, &total, sizeof(T));
  const unsigned long long me = Span::rank(), blocks = Span::count();
  if constexpr (Kind == fold_kind::broadcast) {
    total = from_bytes<T>(entries[0].value);
    return std::nullopt;
  } else {
    std::optional<T> before, all;
    for (unsigned long long b = 0; b < blocks; ++b) {
      if (b == me) before = all;
      fold_into(all, from_bytes<T>(entries[b].value), op);
    }
    total = *all;
    return before;
  }
}

template <fold_kind Kind, class T, class Op, class Target, class Span>
void fold_combine(const combine_context& c);

template <fold_kind Kind, class T, class Op, class Target, class Span>
inline constexpr collective_op fold_op{fold_name<Kind, Target::role>(), &fold_combine<Kind, T, Op, Target, Span>,
                                       "atomic or pointer", true};

template <fold_kind Kind, class T, class Op, class Target, class Span>
void fold_combine(const combine_context& c) {
  const auto& params = *static_cast<const fold_params<Op, Target>*>(c.at(0).params);
  Op& op = *params.op;
  const collective_op& self = fold_op<Kind, T, Op, Target, Span>;
  T total = fold_members<Kind, T>(c, op);
  // What precedes the group's rank 0 in the scans: the atomic's old value,
  // then (on a grid) the blocks before this one.
  std::optional<T> before;
  constexpr bool spans = Span::spans_blocks;
  if constexpr (spans) before = across_blocks<Kind, Span, T>(self, c.site, total, op);
  if constexpr (Target::role != target_role::none) {
    // One member applies the group's total: on a grid or a cluster, block 0's.
    std::optional<T> old;
    if constexpr (spans) {
      if (Span::rank() == 0) old = params.target.apply(total, op);
    } else {
      old = params.target.apply(total, op);
    }
    if constexpr (Target::role == target_role::update && Kind != fold_kind::reduce) {
      // The scans start from the atomic's old value, which block 0 hands the other blocks.
      if constexpr (spans) old = from_bytes<T>(Span::exchange(self, c.site, old ? &*old : &total, sizeof(T))[0].value);
      before = before ? op(*old, *before) : *old;
    }
  }
  if constexpr (Kind == fold_kind::reduce || Kind == fold_kind::broadcast) {
    if constexpr (Target::role == target_role::none)
      for (unsigned r = 0; r < c.count; ++r) store_bytes(c.at(r).out, total);
  } else {
    with_slots(c, [&](auto at) {
      for (unsigned r = 0; r < c.count; ++r) {
        std::byte* out = at(r).out;
        const bool has_prefix = Kind == fold_kind::inclusive_scan || r > 0;
        if (before)
          store_bytes(out, has_prefix ? op(*before, from_bytes<T>(out)) : *before);
        else if (!has_prefix)
          store_bytes(out, cohort::detail::identity_of<std::remove_cv_t<Op>, T>());
      }
    });
  }
}

// A member's part in the rendezvous of the fold `self`: its value (none for
// a broadcast's members other than rank 0), the fold's parameters and, as its
// argument, the target's identity. Returns the member's result.
template <class T>
T join_fold(const member_set& members, const collective_op& self, const void* params, std::uint64_t arg, const T* value,
            std::source_location where) {
  collective_slot& slot = own_slot();
  if (value != nullptr) std::memcpy(slot.in, value, sizeof(T));
  slot.params = params;
  slot.arg = arg;
  rendezvous({members, &self, where, false, arg != 0});
  return result_from<T>(slot);
}

// A member's part in a collective of the family: `value` may be null for a
// broadcast's members other than rank 0. Returns the member's result.
template <fold_kind Kind, class Group, class T, class Op, class Target>
T fold(const Group& g, const T* value, Op& op, const Target& target, std::source_location where) {
  static_assert(exchangeable<T>,
                "reduce, the scans and invoke_one_broadcast take trivially copyable types of at most "
                "32 bytes");
  using traits = group_traits<Group>;
  using span = typename traits::span;
  constexpr const collective_op& self = fold_op<Kind, T, Op, Target, span>;
  if constexpr (span::spans_blocks) span::require(self.name, where);
  const fold_params<Op, Target> params{&op, target};
  return join_fold<T>(traits::members(g), self, &params, target.identity(), value, where);
}

}  // namespace cohort::detail::host
