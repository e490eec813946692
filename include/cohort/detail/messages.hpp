// Error messages that both backends raise, worded once.
#pragma once

#include <sstream>
#include <string>

#include "cohort/backend.hpp"
#include "cohort/detail/remedy_api.hpp"
#include "cohort/errors.hpp"
#include "cohort/kernel_language.hpp"

namespace cohort::detail {

inline std::string to_string(const dim3& d) {
  std::ostringstream s;
  s << '(' << d.x << ',' << d.y << ',' << d.z << ')';
  return s.str();
}

inline unsigned long long volume(const dim3& d) { return static_cast<unsigned long long>(d.x) * d.y * d.z; }

inline std::string cooperative_too_large(unsigned long long blocks, int per_sm, int sms,
                                         unsigned long long block_threads, std::size_t shared_bytes,
                                         const remedy_api& api) {
  std::ostringstream s;
  const long long capacity = static_cast<long long>(per_sm) * sms;
  s << "cooperative launch of " << blocks << " blocks exceeds the " << capacity
    << " blocks that can be co-resident for this kernel (" << per_sm << " per SM \xC3\x97 " << sms << " SMs at "
    << block_threads << " threads";
  if (shared_bytes) s << " and " << shared_bytes << " bytes of dynamic shared memory";
  s << "); size the grid with " << api.grid_sizing_call << block_threads << ", " << shared_bytes
    << api.grid_sizing_tail;
  return s.str();
}

inline std::string cooperative_unsupported(int device) {
  std::ostringstream s;
  s << "device " << device
    << " does not support cooperative launches (its cooperative-launch attribute is 0): grid.sync() "
       "needs a device that does (compute capability 6.0+, not under WDDM); run `cohort doctor`";
  return s.str();
}

inline std::string no_such_device(const char* what, int device, int count) {
  std::ostringstream s;
  s << what << ": device " << device << " does not exist ("
    << (this_backend == backend::cuda ? "this machine has " : "the host backend has ") << count
    << (this_backend == backend::cuda ? " CUDA device" : " device") << (count == 1 ? "" : "s") << ")";
  return s.str();
}

inline std::string pointer_text(const void* p) {
  std::ostringstream s;
  s << p;
  return s.str();
}

inline std::string not_device_memory(const char* what, const void* p) {
  return std::string(what) + ": " + pointer_text(p) +
         " is not inside any live device allocation (cohort::malloc_device, cudaMalloc)";
}

// A pointer passed with a device must lie in that device's memory.
inline void check_owner(const char* what, const char* side, const void* p, int device, int owner) {
  if (owner == device) return;
  std::ostringstream s;
  s << what << ": the " << side << " " << p;
  if (owner < 0)
    s << " is not inside any live device allocation";
  else
    s << " belongs to device " << owner << ", not device " << device
      << "; pass the device each allocation was made on (cohort::device_of tells)";
  throw error(errc::invalid_argument, s.str());
}

}  // namespace cohort::detail
