// The launch primitives of the host backend: runs a checked grid on worker
// threads and rethrows the first error any block raised; the kernels'
// dynamic shared memory limits and the occupancy they give.
#include <algorithm>
#include <map>
#include <mutex>

#include "cohort/detail/cluster_shape.hpp"
#include "cohort/detail/host/algorithms/parallel_parts.hpp"
#include "cohort/detail/host/launch.hpp"
#include "cohort/detail/launch_checks.hpp"
#include "cohort/detail/messages.hpp"
#include "cohort/detail/occupancy.hpp"
#include "cohort/errors.hpp"
#include "cohort/host/statistics.hpp"
#include "cohort/host/virtual_device.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/launch_state.hpp"
#include "launch/loops_engine.hpp"
#include "launch/loops_grid.hpp"
#include "launch/settings.hpp"
#include "launch/virtual_devices.hpp"
#include "memory/memory_check.hpp"
#include "races/race_check.hpp"
#include "scheduling/runtime_tls.hpp"
#include "scheduling/worker.hpp"
#include "scheduling/worker_pool.hpp"

namespace cohort::detail::host {

namespace {

std::mutex attributes_mutex;
std::map<const void*, std::size_t> max_dynamic_shared;  // kernels that opted in to more

std::size_t shared_limit(const void* kernel, const device_properties& p) {
  std::lock_guard lock(attributes_mutex);
  const auto it = max_dynamic_shared.find(kernel);
  return it == max_dynamic_shared.end() ? p.shared_memory_per_block : it->second;
}

unsigned worker_count(unsigned long long blocks) {
  return static_cast<unsigned>(std::min<unsigned long long>(::cohort::detail::host::worker_threads(), blocks));
}

void run_grid(launch_state& launch) {
  if (launch.grid_phases != nullptr)
    return launch.clusters.active() ? run_loops_clusters(launch) : run_loops_grid(launch);
  if (launch.clusters.active()) return run_clusters(launch);
  const bool cooperative = launch.cooperative;
  const unsigned threads = cooperative ? static_cast<unsigned>(launch.block_count) : worker_count(launch.block_count);
  run_on_threads(threads, [&launch, cooperative, threads](unsigned index) {
    // Counted here and added once: an atomic add per block would bounce its
    // cache line between the workers as often as they finish blocks.
    std::size_t fibers = 0;
    const auto count_fibers = [&] { launch.fibers_started.fetch_add(fibers, std::memory_order_relaxed); };
    if (cooperative) {
      {
        const core_claim core;
        fibers += run_blocks(launch, index, index + 1ull);
      }
      count_fibers();
      trim_worker_stacks();
      return;
    }
    // Runs of consecutive blocks, a few per worker: each worker's memory stays
    // contiguous (a kernel indexing by blockIdx streams through its part),
    // and a worker that the machine slows down leaves its later runs to others.
    const unsigned long long run_length = std::max(1ull, launch.block_count / (4ull * threads));
    for (unsigned long long first = launch.next_block.fetch_add(run_length, std::memory_order_relaxed);
         launch.worth_running(first); first = launch.next_block.fetch_add(run_length, std::memory_order_relaxed))
      fibers += run_blocks(launch, first, std::min(first + run_length, launch.block_count));
    count_fibers();
    trim_worker_stacks();
  });
}

}  // namespace

namespace {

void run_launch(const kernel_entry& entry, const launch_config& cfg, bool cooperative, multi_grid_launch* multi_grid,
                unsigned grid_rank) {
  if (current_block != nullptr)  // the caller is a kernel's thread
    throw error(errc::invalid_argument,
                "a kernel launched a kernel: the host backend does not support dynamic parallelism; launch from host "
                "code");
  raise_pending_memory_fault();
  const device_properties p = cohort::host::virtual_device();
  const check_modes modes = settings::checks();
  if (modes.races) require_race_instrumentation(entry.kernel);
  const launch_engine engine = choose_launch_engine(
      entry, multi_grid != nullptr, modes.races, cohort::detail::volume(cfg.cluster) > 1,
      {cfg.grid, cfg.block, static_cast<unsigned>(p.warp_size)}, modes.copies != copy_checking::off);
  launch_state launch;
  launch.entry = &engine.entry;
  launch.config = cfg;
  launch.cooperative = cooperative;
  launch.cooperative_call = cooperative_call;
  launch.multi_grid = multi_grid;
  launch.grid_rank = grid_rank;
  launch.warp_size = static_cast<unsigned>(p.warp_size);
  launch.block_count = cohort::detail::volume(cfg.grid);
  launch.shuffle_seed = settings::shuffle_seed();
  launch.copy_checks = modes.copies;
  launch.memory_checks = modes.memory;
  if (modes.races) {
    static std::atomic<std::uint64_t> checked_launches{0};
    launch.races.on = true;
    launch.races.id = ++checked_launches;
  }
  launch.watchdog = settings::watchdog();
  if (cooperative) {
    launch.grid.configure(&launch.aborted, every_block_has_a_core(launch.block_count));
    launch.grid.reset(launch.block_count);
  }
  prepare_clusters(launch, worker_count(launch.block_count));
  // A cooperative grid on the loops engine runs in phases on the workers
  // (loops_grid.hpp), its block functions returning at grid barriers: no OS
  // thread per block; so do the clusters of a kernel with cluster barriers,
  // each on its own, and the grids of a multi-device launch, in one record.
  std::optional<loops_grid> phases;
  if ((cooperative && engine.choice.chosen == cohort::host::engine::loops && !launch.clusters.active()) ||
      engine.cluster_phases)
    launch.grid_phases = multi_grid ? &*multi_grid->phases : &phases.emplace(launch.block_count);
  run_grid(launch);
  last_statistics = {launch.block_count, launch.fibers_started.load(), engine.choice.chosen};
  if (launch.exit_request) carry_out_exit(*launch.exit_request);
  if (launch.first_error) throw kernel_error(*launch.first_error);
  if (modes.memory) check_redzones_after(launch);
  if (races_found(launch)) throw_race_report(launch);
}

}  // namespace

cooperative_launch_named::cooperative_launch_named(const char* call) : previous_(cooperative_call) {
  cooperative_call = call;
}
cooperative_launch_named::~cooperative_launch_named() { cooperative_call = previous_; }

void parameters_too_large(const void* kernel, std::size_t bytes) {
  throw error(errc::invalid_argument,
              "kernel `" + kernel_name(kernel) + "` takes " + std::to_string(bytes) +
                  " bytes of parameters, more than CUDA's limit of " + std::to_string(max_parameter_bytes) +
                  " bytes (nvcc refuses such a kernel): pass large data through device memory and a pointer");
}

void launch_kernel(const kernel_entry& entry, const launch_config& cfg, bool cooperative) {
  run_launch(entry, cfg, cooperative, nullptr, 0);
}

// Each grid of a multi-device launch passes the checks a cooperative launch does.
void launch_grid_of(multi_grid_launch& multi_grid, unsigned grid_rank, const kernel_entry& entry,
                    const launch_config& cfg) {
  cohort::detail::check_launch(entry.kernel, cfg, true, cohort::detail::cohort_remedy_api);
  run_launch(entry, cfg, true, &multi_grid, grid_rank);
}

void check_cluster_launch(const void* kernel, const launch_config& cfg, int device, const device_properties& p,
                          bool cooperative) {
  cohort::detail::validate_cluster_launch(cfg, cohort::detail::max_portable_cluster_blocks);
  const long long per_sm = cohort::detail::compute_occupancy(
                               p, static_cast<long long>(cohort::detail::volume(cfg.block)), cfg.dynamic_shared_bytes)
                               .blocks_per_sm;
  cohort::detail::check_cluster_fits(cfg, per_sm * p.multiprocessor_count);
  if (cooperative) cohort::detail::check_cooperative_fits(kernel, cfg, device, p, cohort::detail::cohort_remedy_api);
}

int active_blocks_per_sm(const void* kernel, int block_threads, std::size_t dynamic_shared_bytes) {
  const device_properties p = cohort::host::virtual_device();
  if (dynamic_shared_bytes > shared_limit(kernel, p)) return 0;
  return cohort::detail::compute_occupancy(p, block_threads, dynamic_shared_bytes).blocks_per_sm;
}

std::size_t kernel_shared_limit(const void* kernel) { return shared_limit(kernel, cohort::host::virtual_device()); }

void set_kernel_shared_limit(const void* kernel, std::size_t bytes) {
  std::lock_guard lock(attributes_mutex);
  max_dynamic_shared[kernel] = bytes;
}

}  // namespace cohort::detail::host

namespace cohort::host {
launch_statistics last_launch_statistics() { return detail::host::last_statistics; }
}  // namespace cohort::host
