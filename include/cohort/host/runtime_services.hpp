// What a runtime layered on the host backend needs from it beyond the public
// API: the seam through which the CUDA compatibility layer (src/compat, the
// CUDA runtime API on cohort) reaches the host runtime, and nothing else of
// src/host_runtime. Each call is the host backend's answer to a question CUDA's
// runtime answers for a GPU.
#pragma once

#include <cstddef>

#include "cohort/detail/host/launch.hpp"
#include "cohort/errors.hpp"

namespace cohort::host {

// Whether the calling OS thread is running kernel code (a GPU thread of a
// launch): a runtime call from there is a device-side call.
bool inside_kernel();

// The stack of a kernel thread, in bytes (COHORT_STACK_SIZE): what
// cudaLimitStackSize can grant. Throws cohort::error for a bad setting.
std::size_t kernel_thread_stack_bytes();

// The dynamic shared memory a kernel may be launched with, as raised by
// cohort::set_max_dynamic_shared_memory (or cudaFuncSetAttribute).
std::size_t kernel_dynamic_shared_limit(const void* kernel);

// Frees device memory, throwing the damage the memory check found in its
// redzones (COHORT_CHECK=memory) as this call's error.
void release_device_checked(void* pointer);

// Throws the memory fault an earlier release found where it could not throw
// (in a destructor), if there is one, once.
void raise_pending_memory_fault();

// Where `address` lies for the kernel thread calling: its block's shared
// memory (CUDA's __isShared), its own stack (__isLocal), or elsewhere
// (global; also every address outside a kernel).
enum class address_space { shared, local, global };
address_space kernel_address_space(const void* address);

// Whether `e` was raised while a kernel ran (a usage error or a fault inside
// it), which stops the kernel partway, as a fault does on a GPU.
bool is_kernel_fault(const cohort::error& e);

// While one lives on the launching thread, a grid barrier in a launch that is
// not cooperative names `call` as the remedy: the runtime's own launch call.
using cooperative_launch_named = detail::host::cooperative_launch_named;

}  // namespace cohort::host
