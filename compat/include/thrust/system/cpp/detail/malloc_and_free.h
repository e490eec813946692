// thrust::malloc, thrust::device_malloc and the algorithms' temporary buffers
// on the host backend: cohort's device memory for the C++ system (and the
// systems built on it), rather than the sequential system's std::malloc
// (cohort_compat/thrust_device_memory.hpp says why). Thrust's header of this
// name comes first; the overloads below are the closer match for the C++
// system's policies.
#pragma once

#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/system/cpp/detail/execution_policy.h>
#include_next <thrust/system/cpp/detail/malloc_and_free.h>
#include <cohort_compat/thrust_device_memory.hpp>

THRUST_NAMESPACE_BEGIN
namespace system::cpp::detail {
template <typename DerivedPolicy>
void* malloc(execution_policy<DerivedPolicy>&, std::size_t n) {
  return cohort_compat::thrust_memory::allocate(n);
}
template <typename DerivedPolicy, typename Pointer>
void free(execution_policy<DerivedPolicy>&, Pointer ptr) {
  cohort_compat::thrust_memory::release(thrust::raw_pointer_cast(ptr));
}
}  // namespace system::cpp::detail
THRUST_NAMESPACE_END
