// The preconditions for a cooperative launch, asked of the device
// rather than assumed: the cooperative-launch attribute, compute capability
// 6.0+, a driver model that allows it (no WDDM), and the stream. The seed
// says only the null stream works; CUDA 9+ accepts any stream, so the check
// launches on a created one and reports what happened.
#pragma once

#include <string>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/check_result.hpp"
#include "common/grid_sync_probe.hpp"

namespace cohort_kernels {

inline check_result check_cooperative_attribute() {
  const long long value = cohort::get_device_attribute(cohort::device_attribute::cooperative_launch);
  return {"cooperative-launch attribute", value != 0,
          "cooperative_launch = " + std::to_string(value) +
              (value ? "" : ": this device cannot run grid.sync(); use a data-center GPU")};
}

inline check_result check_compute_capability(const cohort::device_properties& p) {
  if (p.kind == cohort::backend::host)
    return {"compute capability >= 7.0", true, "n/a: the host backend has no compute capability"};
  const int cc = p.compute_capability_major * 10 + p.compute_capability_minor;
  const std::string found =
      std::to_string(p.compute_capability_major) + "." + std::to_string(p.compute_capability_minor);
  return {"compute capability >= 7.0", cc >= 70,
          cc >= 70 ? found : found + ": cooperative launch needs 6.0, cohort's cuda backend needs 7.0 (sm_70)"};
}

inline check_result check_driver_model(const cohort::device_properties& p) {
  if (p.kind == cohort::backend::host) return {"driver model", true, "n/a: the host backend has no driver"};
  return {"driver model", true, "Linux driver: the WDDM restriction on cooperative launches exists only on Windows"};
}

// A cooperative launch of every co-resident block on a created stream, with
// its grid.sync() rounds checked. A bad value given to cohort (a COHORT_*
// variable, say) is no verdict on the device: it is thrown to the caller,
// which reports it as the error it is.
inline check_result check_cooperative_stream(unsigned threads) {
  const std::string name = "cooperative launch on a stream";
  try {
    const unsigned blocks = static_cast<unsigned>(grid_sync_probe_capacity(threads).blocks);
    const cohort::stream stream;
    const unsigned stale = run_grid_sync_probe(blocks, threads, 2, stream.get());
    if (stale)
      return {name, false,
              std::to_string(stale) + " stale reads after grid.sync() on " + std::to_string(blocks) + " blocks"};
    return {
        name, true,
        std::to_string(blocks) + "x" + std::to_string(threads) + " with grid.sync(): works (not only the null stream)"};
  } catch (const cohort::error& e) {
    if (e.kind() == cohort::errc::invalid_argument) throw;
    return {name, false, e.what()};
  }
}

// The checks for the current device; the stream check launches blocks of threads.
inline std::vector<check_result> cooperative_launch_checks(unsigned threads) {
  const cohort::device_properties p = cohort::get_device_properties();
  return {check_cooperative_attribute(), check_compute_capability(p), check_driver_model(p),
          check_cooperative_stream(threads)};
}

}  // namespace cohort_kernels
