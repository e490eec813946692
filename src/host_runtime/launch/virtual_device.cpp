#include "cohort/host/virtual_device.hpp"

#include <fstream>
#include <mutex>
#include <string>

#include "cohort/errors.hpp"
#include "launch/settings.hpp"

namespace cohort::host {

namespace {

std::mutex device_mutex;

[[noreturn]] void refuse(const std::string& what) { throw error(errc::invalid_argument, "virtual device: " + what); }

void check(bool ok, const std::string& what) {
  if (!ok) refuse(what);
}

void require(bool ok, const char* field, int value, const std::string& expected) {
  if (!ok) refuse(std::string(field) + " " + std::to_string(value) + " must be " + expected);
}

// The environment's values are checked against each other as they are read
// (settings.cpp), naming the variable; this checks a description given to
// configure() and, again, what the environment made.
void validate(const device_properties& p) {
  require(p.warp_size == 32 || p.warp_size == 64, "warp size", p.warp_size, "32 or 64");
  check(p.multiprocessor_count > 0, "the SM count must be positive");
  require(p.max_threads_per_block > 0, "max threads per block", p.max_threads_per_block, "positive");
  require(p.max_threads_per_block % p.warp_size == 0, "max threads per block", p.max_threads_per_block,
          "a multiple of the warp size (" + std::to_string(p.warp_size) + ")");
  require(
      p.max_threads_per_multiprocessor >= p.max_threads_per_block, "max threads per SM",
      p.max_threads_per_multiprocessor,
      "at least the threads a block may have (" + std::to_string(p.max_threads_per_block) + ", max threads per block)");
  check(p.max_blocks_per_multiprocessor > 0, "max blocks per SM must be positive");
  check(p.total_global_memory > 0, "the global memory (each virtual device's capacity) must be positive");
  for (int i = 0; i < 3; ++i)
    check(p.max_block_dim[i] > 0 && p.max_grid_dim[i] > 0, "dimension limits must be positive");
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
  namespace settings = detail::host::settings;
  p.multiprocessor_count = settings::sm_count();
  p.warp_size = settings::warp_size();
  p.max_threads_per_block = settings::max_threads_per_block();
  p.max_threads_per_multiprocessor = settings::max_threads_per_sm();
  p.max_blocks_per_multiprocessor = settings::max_blocks_per_sm();
  p.shared_memory_per_multiprocessor = settings::shared_per_sm();
  p.shared_memory_per_block_optin = p.shared_memory_per_multiprocessor - p.reserved_shared_memory_per_block;
  p.shared_memory_per_block = settings::shared_per_block();  // at most the opt-in: a larger value is refused
  p.total_global_memory = settings::device_memory();
  p.cooperative_launch = true;
  validate(p);
  return p;
}

device_properties virtual_device() {
  std::lock_guard lock(device_mutex);
  return current();
}

void configure(const device_properties& description) {
  validate(description);
  std::lock_guard lock(device_mutex);
  current() = description;
  current().kind = backend::host;
}

void reset_virtual_device() { configure(default_virtual_device()); }

}  // namespace cohort::host
