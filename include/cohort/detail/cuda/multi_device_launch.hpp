// cohort's multi-device cooperative launch on the CUDA runtime (CUDA 13 has
// none): every check is made on every device before any grid is launched
// (distinct devices, one kernel shape, the same compute capability, each grid
// co-resident on its device), then each device gets its grid's context and
// its cooperative launch. The barrier's memory (peer device memory or mapped
// pinned host memory) is allocated once per process: launches may follow one
// another without a synchronization between them, but two may not run at
// once (from two host threads, or on two sets of streams that overlap).
#pragma once

#include <cuda_runtime.h>

#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "cohort/detail/cuda/device_queries.hpp"
#include "cohort/detail/cuda/launch.hpp"
#include "cohort/detail/cuda/multi_grid.hpp"
#include "cohort/detail/cuda/runtime/runtime_check.hpp"
#include "cohort/detail/kernel_arguments.hpp"
#include "cohort/detail/launch_checks.hpp"
#include "cohort/detail/messages.hpp"
#include "cohort/errors.hpp"
#include "cohort/launch/launch_config.hpp"
#include "cohort/launch/multi_grid_memory.hpp"

namespace cohort::detail::gpu {

// Where the barrier lives (cohort/launch/multi_grid_memory.hpp): in the
// first grid's device memory, or in mapped pinned host memory. One of each
// per process, cleared once when allocated: every barrier ends with no
// arrivals counted and only its generation grown (multi_grid.hpp), so a
// launch issued while the previous one still runs finds the word consistent,
// which clearing it again before each launch would break.
inline multi_grid_shared* pinned_multi_grid_memory() {
  static multi_grid_shared* memory = [] {
    void* p = nullptr;
    check(cudaHostAlloc(&p, sizeof(multi_grid_shared), cudaHostAllocMapped | cudaHostAllocPortable),
          "allocating the multi-device barrier in pinned host memory");
    std::memset(p, 0, sizeof(multi_grid_shared));
    return static_cast<multi_grid_shared*>(p);
  }();
  return memory;
}

inline multi_grid_shared* device_multi_grid_memory(int device) {
  static std::vector<multi_grid_shared*> memory;
  if (memory.size() <= static_cast<std::size_t>(device)) memory.resize(static_cast<std::size_t>(device) + 1, nullptr);
  if (!memory[device]) {
    check(cudaSetDevice(device), "launch_cooperative_multi_device");
    check(cudaMalloc(reinterpret_cast<void**>(&memory[device]), sizeof(multi_grid_shared)),
          "allocating the multi-device barrier in device memory");
    check(cudaMemset(memory[device], 0, sizeof(multi_grid_shared)), "clearing the multi-device barrier");
    check(cudaDeviceSynchronize(), "clearing the multi-device barrier");  // before grids on any stream read it
  }
  return memory[device];
}

// The barrier's address as the grids' devices see it.
template <class Grids>
multi_grid_shared* place_multi_grid_barrier(const Grids& grids, multi_grid_memory asked) {
  const int owner = grids[0].device;
  int without_peer = -1;
  for (const auto& g : grids) {
    int can = 1;
    if (g.device != owner) check(cudaDeviceCanAccessPeer(&can, g.device, owner), "launch_cooperative_multi_device");
    if (!can && without_peer < 0) without_peer = g.device;
  }
  if (!multi_grid_barrier_in_peer_memory(asked, owner, without_peer)) {
    multi_grid_shared* view = nullptr;
    check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&view), pinned_multi_grid_memory(), 0),
          "mapping the multi-device barrier");
    return view;
  }
  for (const auto& g : grids)
    if (g.device != owner) {
      check(cudaSetDevice(g.device), "launch_cooperative_multi_device");
      const cudaError_t e = cudaDeviceEnablePeerAccess(owner, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled)
        cudaGetLastError();
      else
        check(e, "enabling peer access for the multi-device barrier");
    }
  return device_multi_grid_memory(owner);
}

[[noreturn]] inline void invalid_multi_device(const std::string& what) {
  throw error(errc::invalid_configuration, "multi-device cooperative launch: " + what);
}

template <class Grids>
void check_multi_device(const void* kernel, const Grids& grids) {
  if (grids.size() == 0) invalid_multi_device("no grids were given; pass one launch per device");
  if (grids.size() > max_multi_grids)
    invalid_multi_device(std::to_string(grids.size()) + " grids; at most " + std::to_string(max_multi_grids));
  const auto& first = grids[0];
  const device_properties& p0 = properties_of(checked_device(first.device, "launch_cooperative_multi_device"));
  for (std::size_t i = 0; i < grids.size(); ++i) {
    const auto& g = grids[i];
    for (std::size_t j = 0; j < i; ++j)
      if (grids[j].device == g.device)
        invalid_multi_device("grids " + std::to_string(j) + " and " + std::to_string(i) + " are both on device " +
                             std::to_string(g.device) + "; each device may run one grid of the launch");
    const device_properties& p = properties_of(checked_device(g.device, "launch_cooperative_multi_device"));
    if (p.compute_capability_major != p0.compute_capability_major ||
        p.compute_capability_minor != p0.compute_capability_minor)
      invalid_multi_device("device " + std::to_string(g.device) + " and device " + std::to_string(first.device) +
                           " differ in compute capability; every device of the launch must have the same");
    if (to_string(g.config.grid) != to_string(first.config.grid) ||
        to_string(g.config.block) != to_string(first.config.block) ||
        g.config.dynamic_shared_bytes != first.config.dynamic_shared_bytes)
      invalid_multi_device("grid " + std::to_string(i) + " is " + to_string(g.config.grid) + " x " +
                           to_string(g.config.block) + ", grid 0 " + to_string(first.config.grid) + " x " +
                           to_string(first.config.block) + "; every grid must have the same shape and shared memory");
    check(cudaSetDevice(g.device), "launch_cooperative_multi_device");
    check_cooperative_fits(kernel, g.config, g.device, p, cohort_remedy_api);
  }
}

inline bool can_access_peer(int device, int peer) {
  int can = 0;
  check(cudaDeviceCanAccessPeer(&can, device, peer), "can_access_peer");
  return can != 0;
}

template <class... P, class Grids, class ArgsOf>
void launch_multi_device(void (*kernel)(P...), const Grids& grids, ArgsOf& args_of, multi_grid_memory barrier_memory) {
  const int caller_device = get_device();
  check_multi_device(kernel_address(kernel), grids);
  multi_grid_shared* const device_view = place_multi_grid_barrier(grids, barrier_memory);
  const unsigned long long per_grid = volume(grids[0].config.grid) * volume(grids[0].config.block);
  for (std::size_t i = 0; i < grids.size(); ++i) {
    const auto& g = grids[i];
    check(cudaSetDevice(g.device), "launch_cooperative_multi_device");
    const multi_grid_context context{device_view,  static_cast<unsigned>(i), static_cast<unsigned>(grids.size()),
                                     i * per_grid, per_grid * grids.size(),  1};
    check(cudaMemcpyToSymbolAsync(multi_grid_context_of_launch<>, &context, sizeof context, 0, cudaMemcpyHostToDevice,
                                  g.config.stream),
          "setting a grid's multi-device context");
    std::apply([&](auto&&... a) { raw_launch(kernel, g.config, true, a...); }, args_of(static_cast<unsigned>(i)));
    // A later ordinary launch of the kernel must find no multi-device launch.
    const multi_grid_context none{};
    check(cudaMemcpyToSymbolAsync(multi_grid_context_of_launch<>, &none, sizeof none, 0, cudaMemcpyHostToDevice,
                                  g.config.stream),
          "clearing a grid's multi-device context");
  }
  check(cudaSetDevice(caller_device), "launch_cooperative_multi_device");
}

}  // namespace cohort::detail::gpu
