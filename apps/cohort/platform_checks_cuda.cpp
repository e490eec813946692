// The platform checks on the cuda backend: the driver must be at least as new
// as the runtime this binary was built with, and MPS is reported (cooperative
// launches work under Volta+ MPS, but a client may get a share of the SMs, so
// the grid checks that follow measure what this client can have).
#include <cuda_runtime.h>

#include <string>

#include "platform_checks.hpp"

namespace cohort_cli {

namespace {

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

cohort_kernels::check_result check_versions() {
  int driver = 0, runtime = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess || cudaRuntimeGetVersion(&runtime) != cudaSuccess)
    return {"driver / runtime versions", false, "the CUDA runtime cannot report its versions"};
  const std::string found = "driver " + version_text(driver) + ", runtime " + version_text(runtime);
  if (driver == 0) return {"driver / runtime versions", false, found + ": no NVIDIA driver is loaded"};
  if (driver < runtime)
    return {"driver / runtime versions", false, found + ": the driver is older than the runtime; update the driver"};
  return {"driver / runtime versions", true, found};
}

cohort_kernels::check_result check_mps() {
  int devices = 0, device = 0, mps = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return {"MPS", true, "n/a: no device"};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&mps, cudaDevAttrMpsEnabled, device) != cudaSuccess)
    return {"MPS", false, "the CUDA runtime cannot say whether MPS is in use"};
  return {"MPS", true, mps ? "in use: the grids below are what this MPS client can have" : "not in use"};
}

}  // namespace

std::vector<cohort_kernels::check_result> platform_checks() { return {check_versions(), check_mps()}; }

}  // namespace cohort_cli
