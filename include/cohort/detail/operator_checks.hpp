// What the collectives require of an operator, checked the same on both backends.
#pragma once

#include <type_traits>

namespace cohort::detail {

// NVIDIA's rule: the operator returns the type of the values it combines.
template <class Op, class T>
inline constexpr bool combines = std::is_same_v<std::remove_cvref_t<std::invoke_result_t<Op&, T, T>>, T>;

}  // namespace cohort::detail
