#include "cohort/host/virtual_device.hpp"

#include <unistd.h>

#include <fstream>
#include <mutex>
#include <string>
#include <thread>

#include "cohort/errors.hpp"
#include "env.hpp"
#include "virtual_devices.hpp"

namespace cohort::host {

namespace {

std::mutex device_mutex;

[[noreturn]] void refuse(const std::string& what) { throw error(errc::invalid_argument, "virtual device: " + what); }

void check(bool ok, const std::string& what) {
  if (!ok) refuse(what);
}

// What a refusal calls the fields that must fit together: the environment
// variables that set them, or the fields of a description given to configure().
struct field_names {
  bool from_environment;
  const char* warp_size;
  const char* max_threads_per_block;
  const char* max_threads_per_sm;
};

constexpr field_names environment_names{true, "COHORT_WARP_SIZE", "COHORT_MAX_THREADS_PER_BLOCK",
                                        "COHORT_MAX_THREADS_PER_SM"};
constexpr field_names description_names{false, "warp size", "max threads per block", "max threads per SM"};

void require(bool ok, const field_names& names, const char* field, int value, const std::string& expected) {
  if (ok) return;
  if (names.from_environment) detail::host::bad_env_value(field, std::to_string(value), "expected " + expected);
  refuse(std::string(field) + " " + std::to_string(value) + " must be " + expected);
}

void validate(const device_properties& p, const field_names& names) {
  require(p.warp_size == 32 || p.warp_size == 64, names, names.warp_size, p.warp_size, "32 or 64");
  check(p.multiprocessor_count > 0, "the SM count must be positive");
  require(p.max_threads_per_block > 0, names, names.max_threads_per_block, p.max_threads_per_block, "positive");
  require(p.max_threads_per_block % p.warp_size == 0, names, names.max_threads_per_block, p.max_threads_per_block,
          "a multiple of the warp size (" + std::to_string(p.warp_size) + ")");
  require(p.max_threads_per_multiprocessor >= p.max_threads_per_block, names, names.max_threads_per_sm,
          p.max_threads_per_multiprocessor,
          "at least the threads a block may have (" + std::to_string(p.max_threads_per_block) + ", " +
              names.max_threads_per_block + ")");
  check(p.max_blocks_per_multiprocessor > 0, "max blocks per SM must be positive");
  check(p.total_global_memory > 0, "the global memory (each virtual device's capacity) must be positive");
  for (int i = 0; i < 3; ++i) check(p.max_block_dim[i] > 0 && p.max_grid_dim[i] > 0, "dimension limits must be positive");
  check(p.shared_memory_per_block <= p.shared_memory_per_block_optin,
        "the default shared memory per block exceeds the opt-in maximum");
  check(p.shared_memory_per_block_optin + p.reserved_shared_memory_per_block <= p.shared_memory_per_multiprocessor,
        "a block's opt-in shared memory plus the reservation must fit in one SM");
}

device_properties& current() {
  static device_properties device = default_virtual_device();
  return device;
}

// "cohort host backend (CPU: <model>)": programs print the device's name, and
// it should say what runs their kernels. The model is Linux's name for it.
std::string host_device_name() {
  std::string name = "cohort host backend (CPU";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      const std::string model = line.substr(line.find(':') + 1);
      name += ":" + model.substr(0, 200);
      break;
    }
  return name + ")";
}

}  // namespace

device_properties default_virtual_device() {
  device_properties p;
  p.name = host_device_name();
  p.kind = backend::host;
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  p.multiprocessor_count = static_cast<int>(detail::host::env_integer("COHORT_SM_COUNT", hw, 1, 1 << 16));
  p.warp_size = static_cast<int>(detail::host::env_integer("COHORT_WARP_SIZE", 32, 32, 64));
  p.max_threads_per_block = static_cast<int>(detail::host::env_integer("COHORT_MAX_THREADS_PER_BLOCK", 1024, 1, 1024));
  p.max_threads_per_multiprocessor =
      static_cast<int>(detail::host::env_integer("COHORT_MAX_THREADS_PER_SM", 2048, 1, 1 << 16));
  p.max_blocks_per_multiprocessor = static_cast<int>(detail::host::env_integer("COHORT_MAX_BLOCKS_PER_SM", 32, 1, 1024));
  p.shared_memory_per_multiprocessor = detail::host::env_bytes("COHORT_SHARED_PER_SM", 228 * 1024, 1024);
  p.shared_memory_per_block_optin = p.shared_memory_per_multiprocessor - p.reserved_shared_memory_per_block;
  p.shared_memory_per_block =
      std::min(p.shared_memory_per_block_optin, detail::host::env_bytes("COHORT_SHARED_PER_BLOCK", 48 * 1024, 0));
  // Each virtual device's own memory: by default the machine's, shared out among the devices.
  const std::size_t machine = static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  p.total_global_memory = detail::host::env_bytes(
      "COHORT_DEVICE_MEMORY", machine / static_cast<std::size_t>(detail::host::virtual_device_count()), 1);
  p.cooperative_launch = true;
  validate(p, environment_names);
  return p;
}

device_properties virtual_device() {
  std::lock_guard lock(device_mutex);
  return current();
}

void configure(const device_properties& description) {
  validate(description, description_names);
  std::lock_guard lock(device_mutex);
  current() = description;
  current().kind = backend::host;
}

void reset_virtual_device() { configure(default_virtual_device()); }

}  // namespace cohort::host
