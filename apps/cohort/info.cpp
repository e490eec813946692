#include "info.hpp"

#include <cstdio>
#include <string>

#include <cohort/cohort.hpp>

#include "common/device_summary.hpp"

namespace cohort_cli {

namespace {

// The largest binary unit that divides the count: "48 KiB", "80 GiB".
std::string bytes_text(std::size_t bytes) {
  static constexpr const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + " " + units[unit];
}

void field(const char* name, const std::string& value) { std::printf("  %-36s %s\n", name, value.c_str()); }

void print_device(int device) {
  const cohort::device_properties p = cohort::get_device_properties(device);
  const bool host = p.kind == cohort::backend::host;
  std::printf("device %d: %s\n", device, p.name.c_str());
  field("backend", cohort_kernels::backend_name(p.kind));
  field("compute capability",
        host ? "n/a (host backend)"
             : std::to_string(p.compute_capability_major) + "." + std::to_string(p.compute_capability_minor));
  field("multiprocessors (SMs)", std::to_string(p.multiprocessor_count));
  field("warp size", std::to_string(p.warp_size));
  field("max threads per block", std::to_string(p.max_threads_per_block));
  field("max block dimensions", std::to_string(p.max_block_dim[0]) + " x " + std::to_string(p.max_block_dim[1]) +
                                    " x " + std::to_string(p.max_block_dim[2]));
  field("max grid dimensions", std::to_string(p.max_grid_dim[0]) + " x " + std::to_string(p.max_grid_dim[1]) + " x " +
                                   std::to_string(p.max_grid_dim[2]));
  field("max threads per SM", std::to_string(p.max_threads_per_multiprocessor));
  field("max blocks per SM", std::to_string(p.max_blocks_per_multiprocessor));
  field("shared memory per block",
        bytes_text(p.shared_memory_per_block) + " (opt-in up to " + bytes_text(p.shared_memory_per_block_optin) + ")");
  field("shared memory per SM", bytes_text(p.shared_memory_per_multiprocessor));
  field("shared memory reserved per block", bytes_text(p.reserved_shared_memory_per_block));
  field("global memory",
        bytes_text(p.total_global_memory) + (host ? " (the virtual device's own; COHORT_DEVICE_MEMORY sets it)" : ""));
  field("cooperative launch", p.cooperative_launch ? "yes" : "no");
  if (host)
    std::printf(
        "  (a virtual device: COHORT_SM_COUNT, COHORT_WARP_SIZE and the other variables in "
        "docs/host-backend.md change it)\n");
}

}  // namespace

int run_info() {
  std::printf("cohort %s\n", COHORT_VERSION);
  std::printf("backend built in: %s\n", cohort::this_backend == cohort::backend::host
                                            ? "host (the cuda backend is in cohort-cuda)"
                                            : "cuda (the host backend is in cohort)");
  const int count = cohort::device_count();
  std::printf("devices: %d\n", count);
  for (int d = 0; d < count; ++d) print_device(d);
  return 0;
}

}  // namespace cohort_cli
