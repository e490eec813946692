// memcpy_async, wait and wait_prior for thread blocks, tiles and coalesced
// groups (docs/collectives.md), with every form of the model: a size in bytes
// or as aligned_size_t<Alignment>, and element counts for the destination and the
// source, of which the smaller is copied. Written once over the backend's copy
// primitives (detail/<backend>/memcpy_async.hpp): copy_async (each member
// issues its share), wait_all_copies and wait_prior_copies<Stages> (the calling
// member's copies complete, then the group synchronizes).
#pragma once

#include <cstddef>
#include <type_traits>

#include "cohort/backend.hpp"
#include "cohort/groups/grid_group.hpp"

#include COHORT_BACKEND_HEADER(memcpy_async.hpp)

namespace cohort {

// A size whose bytes and addresses are multiples of Alignment (cuda::aligned_size_t's shape).
template <std::size_t Alignment>
struct aligned_size_t {
  static_assert(Alignment > 0 && (Alignment & (Alignment - 1)) == 0,
                "aligned_size_t<Alignment>: Alignment is a power of two");
  static constexpr std::size_t align = Alignment;
  std::size_t value;
  COHORT_HD constexpr explicit aligned_size_t(std::size_t size) : value(size) {}
  COHORT_HD constexpr operator std::size_t() const { return value; }
};

namespace detail {

template <class L>
struct layout_alignment : std::integral_constant<std::size_t, 0> {};  // 0: a plain count
template <std::size_t Alignment>
struct layout_alignment<aligned_size_t<Alignment>> : std::integral_constant<std::size_t, Alignment> {};

// A size or count: an integer, or an aligned_size_t.
template <class L>
concept copy_layout = std::is_integral_v<L> || layout_alignment<L>::value != 0;

// The alignment two layouts promise; NVIDIA requires aligned ones to agree.
template <class D, class S>
struct common_alignment {
  static constexpr std::size_t d = layout_alignment<D>::value, s = layout_alignment<S>::value;
  static_assert(d == 0 || s == 0 || d == s, "memcpy_async: aligned_size_t layouts must specify the same alignment");
  static constexpr std::size_t value = d != 0 ? d : s;
};

// The groups whose members share a block's memory (not the grid, nor what spans blocks).
template <class Group>
concept copy_group = impl::copy_group<Group>;

}  // namespace detail

// Copies `shape` bytes (a count, or aligned_size_t<Alignment>) from src to dst.
template <detail::copy_group Group, class TyElem, detail::copy_layout TyShape>
COHORT_DEVICE void memcpy_async(const Group& group, TyElem* dst, const TyElem* src, const TyShape& shape,
                                call_site where = call_site::current()) {
  static_assert(std::is_trivially_copyable_v<TyElem>, "memcpy_async copies trivially copyable elements");
  detail::impl::copy_async(group, dst, src, static_cast<std::size_t>(shape), detail::layout_alignment<TyShape>::value,
                           where);
}

// Copies min(dst_layout, src_layout) elements (counts, or aligned_size_t<Alignment>).
template <detail::copy_group Group, class TyElem, detail::copy_layout TyDstLayout, detail::copy_layout TySrcLayout>
COHORT_DEVICE void memcpy_async(const Group& group, TyElem* dst, const TyDstLayout& dst_layout, const TyElem* src,
                                const TySrcLayout& src_layout, call_site where = call_site::current()) {
  static_assert(std::is_trivially_copyable_v<TyElem>, "memcpy_async copies trivially copyable elements");
  const std::size_t d = static_cast<std::size_t>(dst_layout), s = static_cast<std::size_t>(src_layout);
  detail::impl::copy_async(group, dst, src, (d < s ? d : s) * sizeof(TyElem),
                           detail::common_alignment<TyDstLayout, TySrcLayout>::value, where);
}

// Waits for every copy the calling member has issued, then synchronizes the group.
template <detail::copy_group Group>
COHORT_DEVICE void wait(const Group& group, call_site where = call_site::current()) {
  detail::impl::wait_all_copies(group, where);
}

// Waits for all but the latest NumStages copies the calling member has issued,
// then synchronizes the group.
template <unsigned NumStages, detail::copy_group Group>
COHORT_DEVICE void wait_prior(const Group& group, call_site where = call_site::current()) {
  detail::impl::wait_prior_copies<NumStages>(group, where);
}

}  // namespace cohort
