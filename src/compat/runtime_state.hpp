// The CUDA runtime's state on the host backend, shared by the files of
// cohort::cudart: error reporting, the registry of memory it handed out, and
// stream handles.
#pragma once

#include <cstddef>
#include <string>

#include <cohort/cohort.hpp>
#include <cohort/host/runtime_services.hpp>  // the one seam into the host runtime

#include "cuda_runtime.h"

namespace cohort::compat::detail {

// The sticky error (a kernel fault) if one happened, else cudaSuccess. Every
// call that CUDA would refuse after a fault starts with it, and the fault it
// returns becomes the calling thread's last error again, as in CUDA.
cudaError_t sticky();
// A host-side call made by kernel code (the device runtime API of dynamic
// parallelism, which the host backend does not have): not a code the kernel
// could ignore and the host never see, but an error thrown on the kernel's
// thread, which fails the launch that ran it (a sticky cudaErrorLaunchFailure
// naming `call`), as a launch from a kernel does. Returns in host code.
void refuse_in_kernel(const char* call);
// Records `code` as the calling thread's last error (and as the sticky error
// when `is_sticky`), keeps `message` for cudaGetErrorString, returns `code`.
cudaError_t fail(cudaError_t code, const std::string& message, bool is_sticky = false);
// A cohort::error as the CUDA runtime reports it: every call maps cohort's
// errors here, so that each kind has one code wherever it surfaces (a memory
// fault is a sticky cudaErrorIllegalAddress, whichever call finds it).
// `call`, when given, starts the message.
cudaError_t fail(const cohort::error& e, const std::string& call = {});
void clear_errors();

enum class memory_kind { device, managed, pinned_host, registered_host, symbol };

struct region {
  const void* base = nullptr;
  std::size_t bytes = 0;
  memory_kind kind = memory_kind::device;
};

void add_region(const region& r);
// The region holding [p, p + bytes), if any.
bool find_region(const void* p, std::size_t bytes, region* found);
// Removes the region starting exactly at p; false if none does.
bool remove_region(const void* p, memory_kind kind, region* removed);
void release_device_regions();
// cudaDeviceReset's end of the current device's CUDA arrays (arrays.cpp): their
// records go; their memory goes with the device's regions.
void release_device_arrays();

// Stream priorities, CUDA's range on an H100: 0 (least) to -5 (greatest).
constexpr int least_stream_priority = 0;
constexpr int greatest_stream_priority = -5;

bool valid_stream(cudaStream_t stream);
// The device a valid stream belongs to (a default stream: the current device).
int stream_device(cudaStream_t stream);
// Refuses `stream`, which valid_stream did not find: "<call>: stream 0x... was not created ...".
cudaError_t bad_stream(const std::string& call, cudaStream_t stream);

// "<call>: device N does not exist; ...", for any call that names a device.
std::string no_such_device(const std::string& call, int device);

// "0x7f..." for messages.
std::string address(const void* p);

}  // namespace cohort::compat::detail
