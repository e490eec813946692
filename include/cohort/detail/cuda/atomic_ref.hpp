// cohort::atomic_ref and cohort::atomic on the CUDA backend are libcu++'s
// cuda::atomic_ref and cuda::atomic (the types NVIDIA's *_update collectives
// take), and cohort's thread_scope and memory_order names are libcu++'s, so
// code written against either spelling passes the same objects. The host
// backend provides the same names with the same member functions.
#pragma once

#include <cuda/atomic>

namespace cohort {

using thread_scope = cuda::thread_scope;
inline constexpr thread_scope thread_scope_system = cuda::thread_scope_system;
inline constexpr thread_scope thread_scope_device = cuda::thread_scope_device;
inline constexpr thread_scope thread_scope_block = cuda::thread_scope_block;
inline constexpr thread_scope thread_scope_thread = cuda::thread_scope_thread;

using memory_order = cuda::memory_order;
inline constexpr memory_order memory_order_relaxed = cuda::memory_order_relaxed;
inline constexpr memory_order memory_order_consume = cuda::memory_order_consume;
inline constexpr memory_order memory_order_acquire = cuda::memory_order_acquire;
inline constexpr memory_order memory_order_release = cuda::memory_order_release;
inline constexpr memory_order memory_order_acq_rel = cuda::memory_order_acq_rel;
inline constexpr memory_order memory_order_seq_cst = cuda::memory_order_seq_cst;

template <class T, thread_scope Scope = thread_scope_system>
using atomic_ref = cuda::atomic_ref<T, Scope>;

template <class T, thread_scope Scope = thread_scope_system>
using atomic = cuda::atomic<T, Scope>;

}  // namespace cohort
