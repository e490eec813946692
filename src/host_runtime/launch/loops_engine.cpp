// The loops engine's runtime (docs/loops-engine.md): the registry the loops
// pass fills before main and the engine choice per launch. The services
// block functions call are in loops_block.cpp.
#include "launch/loops_engine.hpp"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "cohort/detail/host/runtime/block_loop.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "launch/launch_state.hpp"
#include "launch/loops_grid.hpp"
#include "launch/settings.hpp"
#include "scheduling/scheduler.hpp"

namespace cohort::detail::host {

namespace {

struct registered_kernel {
  const void* block_function = nullptr;  // null: the pass kept it on fibers
  std::string name;
  std::string reason;
  // Its block function returns at grid barriers, at cluster barriers (loops_grid.hpp).
  // (At multi-grid barriers too: a launch that is not a multi-device one fails there, as on fibers.)
  bool grid_barriers = false, cluster_barriers = false;
  // Its regions run per warp (collectives in warp-uniform control flow), proven
  // for warps of 32 lanes; the proof's layout: 0 any block, 1 only where every
  // warp lies in one row of threadIdx.x, 2 only where blockDim.x is a multiple of 32.
  // (The pass keeps a kernel with both barriers above the block and regions per warp on fibers.)
  bool per_warp = false;
  unsigned warp_layout = 0;
  // It has memcpy_async's checking calls, which only the fiber engine runs.
  bool copy_checks = false;
};

struct kernel_registry {
  std::shared_mutex mutex;
  std::unordered_map<const void*, registered_kernel> kernels;
};

kernel_registry& registry() {
  static kernel_registry r;  // filled from static constructors, whichever runs first
  return r;
}

// A kernel defined in several translation units (inline, a template) is
// registered by each that the pass compiled; any lowering is the kernel's (the
// definitions are one), so a lowering is never replaced by a fallback: a
// launch that chose loops finds its block function.
void record(const void* kernel, registered_kernel k) {
  kernel_registry& r = registry();
  std::unique_lock lock(r.mutex);
  registered_kernel& entry = r.kernels[kernel];
  if (entry.block_function && !k.block_function) return;
  k.copy_checks = k.copy_checks || (entry.copy_checks && k.block_function);  // registered after the lowering
  entry = std::move(k);
}

std::optional<registered_kernel> find_kernel(const void* kernel) {
  kernel_registry& r = registry();
  std::shared_lock lock(r.mutex);
  auto it = r.kernels.find(kernel);
  if (it == r.kernels.end()) return std::nullopt;
  return it->second;
}

using cohort::host::engine;
using cohort::host::engine_choice;
using cohort::host::engine_mode;

std::atomic<int> mode_override{-1};

}  // namespace

const void* loops_block_function(const void* kernel) {
  const std::optional<registered_kernel> k = find_kernel(kernel);
  return k ? k->block_function : nullptr;
}

void loops_kernel_threw() {
  block_record& b = *current_block;
  current_thread = b.threads + thread_rank();  // the thread whose step threw
  kernel_threw();
}

namespace {

// Why a kernel whose regions run per warp cannot run so in this launch, or empty.
std::string warp_proof_broken(const registered_kernel& k, const launch_shape& shape) {
  if (shape.warp_size != 32)
    return "collectives in warp-uniform control flow, proven for warps of 32 lanes, and the virtual device's warps "
           "have " +
           std::to_string(shape.warp_size);
  const std::string block =
      std::to_string(shape.block.x) + "x" + std::to_string(shape.block.y) + "x" + std::to_string(shape.block.z);
  if (k.warp_layout == 1 && shape.block.x % 32 != 0 && (shape.block.y != 1 || shape.block.z != 1))
    return "collectives in control flow uniform per warp only where every warp lies in one row of threadIdx.x "
           "(blockDim.x a multiple of 32, or blockDim.y and blockDim.z 1), and the block is " +
           block;
  if (k.warp_layout == 2 && shape.block.x % 32 != 0)
    return "collectives in control flow uniform per warp only where blockDim.x is a multiple of 32, and the block "
           "is " +
           block;
  if (k.warp_layout == 2 && std::uint64_t{shape.grid.x} * shape.block.x > (std::uint64_t{1} << 31))
    return "collectives in control flow uniform per warp only where the launch's thread index in x fits an int "
           "(gridDim.x * blockDim.x at most 2^31), and the launch has " +
           std::to_string(std::uint64_t{shape.grid.x} * shape.block.x);
  return "";
}

}  // namespace

launch_engine choose_launch_engine(const kernel_entry& entry, bool multi_device, bool race_checked, bool clustered,
                                   const launch_shape& shape, bool copies_checked) {
  launch_engine result{engine_for_kernel(entry.kernel, entry.run_loops != nullptr), entry};
  engine_choice& choice = result.choice;
  if (choice.chosen == engine::loops && multi_device && clustered) {
    choice = {engine::fibers, "a multi-device launch with clusters (not on the loops engine yet)"};
  } else if (choice.chosen == engine::loops && race_checked) {
    choice = {engine::fibers, "COHORT_CHECK=races (checked on fibers only)"};
  } else if (choice.chosen == engine::loops && copies_checked && find_kernel(entry.kernel)->copy_checks) {
    choice = {engine::fibers, "memcpy_async under COHORT_CHECK=memcpy (its checks run on fibers only)"};
  } else if (choice.chosen == engine::loops && clustered && find_kernel(entry.kernel)->grid_barriers) {
    choice = {engine::fibers, "grid barriers in a cluster launch (not on the loops engine yet)"};
  } else if (choice.chosen == engine::loops && find_kernel(entry.kernel)->per_warp) {
    if (std::string broken = warp_proof_broken(*find_kernel(entry.kernel), shape); !broken.empty())
      choice = {engine::fibers, std::move(broken)};
  }
  if (choice.chosen == engine::loops) {
    result.entry.run_threads = entry.run_loops;
    result.cluster_phases = clustered && find_kernel(entry.kernel)->cluster_barriers;
  }
  if (settings::engine_report())
    std::fprintf(stderr, "cohort: kernel `%s` runs on %s%s%s\n", kernel_name(entry.kernel).c_str(),
                 choice.chosen == engine::loops ? "loops" : "fibers", choice.reason.empty() ? "" : ": ",
                 choice.reason.c_str());
  if (choice.chosen == engine::fibers && cohort::host::current_engine_mode() == engine_mode::loops)
    throw error(cohort::errc::invalid_argument, "COHORT_ENGINE=loops, but kernel `" + kernel_name(entry.kernel) +
                                                    "` cannot run on the loops engine: " + choice.reason +
                                                    "; set COHORT_ENGINE=auto to run it on fibers");
  return result;
}

}  // namespace cohort::detail::host

using namespace cohort::detail::host;

extern "C" {

void cohort_loops_register_kernel(const void* kernel, const void* block_function, const char* name) {
  record(kernel, {block_function, name, ""});
}

// `levels`: bit 1 << loops_level for each level at whose barriers the block function returns.
void cohort_loops_register_resuming_kernel(const void* kernel, const void* block_function, const char* name,
                                           std::uint32_t levels) {
  const auto has = [levels](loops_level level) { return (levels >> static_cast<std::uint32_t>(level) & 1u) != 0; };
  record(kernel, {.block_function = block_function,
                  .name = name,
                  .reason = "",
                  .grid_barriers = has(loops_level::grid),
                  .cluster_barriers = has(loops_level::cluster)});
}

void cohort_loops_register_warp_kernel(const void* kernel, const void* block_function, const char* name,
                                       unsigned layout) {
  record(kernel,
         {.block_function = block_function, .name = name, .reason = "", .per_warp = true, .warp_layout = layout});
}

// After the kernel's lowering was registered: it has memcpy_async's checking calls.
void cohort_loops_register_copy_checks(const void* kernel) {
  kernel_registry& r = registry();
  std::unique_lock lock(r.mutex);
  r.kernels[kernel].copy_checks = true;
}

void cohort_loops_register_fallback(const void* kernel, const char* name, const char* reason) {
  record(kernel, {nullptr, name, reason});
}

}  // extern "C"

namespace cohort::host {

engine_mode current_engine_mode() {
  const int overridden = cohort::detail::host::mode_override.load(std::memory_order_relaxed);
  return overridden < 0 ? cohort::detail::host::settings::engine() : static_cast<engine_mode>(overridden);
}

void set_engine_mode(engine_mode mode) {
  cohort::detail::host::mode_override.store(static_cast<int>(mode), std::memory_order_relaxed);
}

}  // namespace cohort::host

namespace cohort::detail::host {

cohort::host::engine_choice engine_for_kernel(const void* kernel, bool loops_callable) {
  using cohort::host::engine;
  using cohort::host::engine_mode;
  if (cohort::host::current_engine_mode() == engine_mode::fibers) return {engine::fibers, "COHORT_ENGINE=fibers"};
  const auto k = find_kernel(kernel);
  if (!k) return {engine::fibers, "not compiled by clang with cohort's loops pass"};
  if (!k->block_function) return {engine::fibers, k->reason};
  if (!loops_callable)
    return {engine::fibers, "a parameter passed by address (a class with a non-trivial copy or destructor)"};
  return {engine::loops, ""};
}

}  // namespace cohort::detail::host