#include "doctor.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/check_result.hpp"
#include "common/cooperative_checks.hpp"
#include "common/device_summary.hpp"
#include "common/grid_sync_probe.hpp"
#include "platform_checks.hpp"
#include "reduce/cooperative.hpp"

namespace cohort_cli {

namespace {

using cohort_kernels::check_result;

constexpr unsigned probe_rounds = 3;  // a single grid.sync() per kernel is the minimum; several must work

// The largest cooperative grid at one block size, for the probe kernel and
// for the cooperative reduction (which also takes a float of shared memory
// per warp), and a probe launch of that whole grid.
check_result check_block_size(const cohort::device_properties& p, unsigned threads) {
  const std::string name = "cooperative grid at " + std::to_string(threads) + " threads";
  if (threads > static_cast<unsigned>(p.max_threads_per_block))
    return {name, true, "n/a: above the device's " + std::to_string(p.max_threads_per_block) + " threads per block"};
  try {
    const cohort_kernels::probe_capacity probe = cohort_kernels::grid_sync_probe_capacity(threads);
    const int per_sm = probe.blocks_per_sm;
    const int blocks = probe.blocks;
    const int reduce_blocks =
        cohort::max_cooperative_grid(cohort_kernels::sum_cooperative_kernel<float>, static_cast<int>(threads),
                                     cohort_kernels::warp_sums_bytes<float>(threads));
    if (blocks <= 0) return {name, false, "no block of this size fits on an SM"};
    const unsigned stale = cohort_kernels::run_grid_sync_probe(static_cast<unsigned>(blocks), threads, probe_rounds);
    const std::string capacity = std::to_string(blocks) + " blocks (" + std::to_string(per_sm) + "/SM x " +
                                 std::to_string(p.multiprocessor_count) + " SMs), sum_cooperative " +
                                 std::to_string(reduce_blocks);
    if (stale) return {name, false, capacity + "; " + std::to_string(stale) + " stale reads after grid.sync()"};
    return {name, true, capacity + "; " + std::to_string(probe_rounds) + " grid.sync() rounds verified"};
  } catch (const std::exception& e) {
    return {name, false, e.what()};
  }
}

// A grid one block over capacity must be refused with an explanation, not
// launched: its blocks could not all be resident and grid.sync() would hang.
check_result check_oversized_grid_refused(unsigned threads) {
  const std::string name = "oversized cooperative grid refused";
  const unsigned blocks = static_cast<unsigned>(cohort_kernels::grid_sync_probe_capacity(threads).blocks) + 1;
  try {
    cohort_kernels::run_grid_sync_probe(blocks, threads, 1);
    return {name, false,
            std::to_string(blocks) + " blocks were launched although only " + std::to_string(blocks - 1) +
                " can be resident"};
  } catch (const cohort::error& e) {
    if (e.kind() == cohort::errc::cooperative_too_large)
      return {name, true, std::to_string(blocks) + " blocks: cohort::error cooperative_too_large"};
    return {name, false, std::string("refused for another reason: ") + e.what()};
  }
}

// The device's own memory: an allocation made while it is current is its,
// and copy_peer moves data between devices.
check_result memory_check(int device) {
  const cohort::device_memory_usage usage = cohort::memory_usage(device);
  int* probe = cohort::malloc_device<int>(1);
  const int owner = cohort::device_of(probe);
  cohort::free_device(probe);
  std::string detail =
      std::to_string(usage.free_bytes) + " of " + std::to_string(usage.total_bytes) +
      " bytes free; allocations made while it is current are its (device_of: " + std::to_string(owner) + ")";
  if (cohort::this_backend == cohort::backend::host)
    detail +=
        "; each virtual device has its own capacity (COHORT_DEVICE_MEMORY); a kernel's access to another "
        "device's memory is not checked";
  return {"device memory", owner == device, detail};
}

std::vector<check_result> device_checks(int device) {
  cohort::set_device(device);
  const cohort::device_properties p = cohort::get_device_properties();
  // The seeds' block size, where the device allows it.
  const unsigned threads = std::min(256u, static_cast<unsigned>(p.max_threads_per_block));
  std::vector<check_result> checks = cohort_kernels::cooperative_launch_checks(threads);
  checks.push_back(memory_check(device));
  for (unsigned t = 64; t <= 1024; t *= 2) checks.push_back(check_block_size(p, t));
  checks.push_back(check_oversized_grid_refused(threads));
  return checks;
}

}  // namespace

// What launch_cooperative_multi_device needs, and which devices reach each other's memory.
check_result multi_device_check(int count) {
  constexpr int listed_devices = 4;  // up to this many, every pair is listed
  std::string peers, missing;
  bool all_peers = true, all_reach_first = true;
  for (int a = 0; a < count; ++a)
    for (int b = 0; b < count; ++b)
      if (a != b) {
        const bool can = cohort::can_access_peer(a, b);
        all_peers = all_peers && can;
        if (b == 0) all_reach_first = all_reach_first && can;
        // Past a few devices the pairs are too many to list: the ones without access are what matters.
        const std::string pair = std::to_string(a) + "->" + std::to_string(b);
        if (count <= listed_devices) peers += (peers.empty() ? "" : ", ") + pair + (can ? " yes" : " no");
        if (!can) missing += (missing.empty() ? "" : ", ") + pair;
      }
  const std::string access = count == 1                ? std::string("n/a, one device")
                             : count <= listed_devices ? peers
                             : all_peers ? "every one of the " + std::to_string(count * (count - 1)) + " pairs"
                                         : "every pair but " + missing;
  return {"multi-device", true,
          std::to_string(count) +
              " device(s) for launch_cooperative_multi_device (one grid each, every grid "
              "co-resident, one compute capability); peer access: " +
              access + "; a launch over every device puts its barrier (multi_grid_memory::automatic) in " +
              (all_reach_first ? "device 0's memory" : "pinned host memory (not every device reaches device 0's)") +
              (all_peers ? "" : "; kernels reading other devices' buffers need peer access") +
              "; copy_peer copies between devices' memories"};
}

int run_doctor() {
  std::size_t total = 0, failed = 0;
  const auto tally = [&](const std::vector<check_result>& checks) {
    cohort_kernels::print_checks(checks);
    for (const check_result& c : checks) failed += c.passed ? 0 : 1;
    total += checks.size();
  };
  tally(platform_checks());
  int count = 0;
  try {
    count = cohort::device_count();
    tally({{"devices", count > 0,
            std::to_string(count) + " on the " + cohort_kernels::backend_name(cohort::this_backend) + " backend"}});
  } catch (const std::exception& e) {
    tally({{"devices", false, e.what()}});
  }
  for (int d = 0; d < count; ++d) {
    try {
      std::printf("device %d: %s\n", d, cohort_kernels::device_summary(cohort::get_device_properties(d)).c_str());
      tally(device_checks(d));
    } catch (const std::exception& e) {
      tally({{"device " + std::to_string(d), false, e.what()}});
    }
  }
  if (count > 0) tally({multi_device_check(count)});
  if (failed)
    std::printf("doctor: %zu of %zu checks failed\n", failed, total);
  else
    std::printf("doctor: all %zu checks passed\n", total);
  return failed ? 1 : 0;
}

}  // namespace cohort_cli
