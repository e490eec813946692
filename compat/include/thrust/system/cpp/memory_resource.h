// Thrust's C++ system's memory resources on the host backend: device memory
// from cudaMalloc, universal memory from cudaMallocManaged, pinned host memory
// from cudaMallocHost (cohort_compat/thrust_device_memory.hpp says why). In
// place of Thrust's header of this name, with the names it defines.
#pragma once

#include <thrust/mr/fancy_pointer_resource.h>
#include <thrust/system/cpp/pointer.h>
#include <cohort_compat/thrust_device_memory.hpp>

THRUST_NAMESPACE_BEGIN
namespace system::cpp {
namespace detail {
using native_resource =
    thrust::mr::fancy_pointer_resource<cohort_compat::thrust_memory::device_resource, thrust::cpp::pointer<void>>;
using universal_native_resource = thrust::mr::fancy_pointer_resource<cohort_compat::thrust_memory::managed_resource,
                                                                     thrust::cpp::universal_pointer<void>>;
using pinned_native_resource = thrust::mr::fancy_pointer_resource<cohort_compat::thrust_memory::pinned_resource,
                                                                  thrust::cpp::universal_pointer<void>>;
}  // namespace detail
using memory_resource = detail::native_resource;
using universal_memory_resource = detail::universal_native_resource;
using universal_host_pinned_memory_resource = detail::pinned_native_resource;
}  // namespace system::cpp
THRUST_NAMESPACE_END
