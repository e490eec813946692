// Warp operations whose mask is a kernel parameter, for the loops engine's
// tests. Built by clang with the loops pass (tests/loops/CMakeLists.txt).
#include "parameter_mask_kernels.hpp"

#include <cohort/cohort.hpp>

namespace cg = cohort;

namespace parameter_mask_tests {

namespace {

template <class Mask>
__device__ void each_operation(Mask mask, int v, unsigned long long* o) {
  o[0] = static_cast<unsigned long long>(__shfl_xor_sync(mask, v, 1));
  // Width 16: with the mask 0xffff, lanes 0-15 read no lane outside it (on fibers they run ahead of lane 16).
  o[1] = static_cast<unsigned long long>(__shfl_down_sync(mask, v, 3, 16));
  o[2] = __ballot_sync(mask, v > 0);
  o[3] = static_cast<unsigned long long>(__any_sync(mask, v > 900));
  o[4] = static_cast<unsigned long long>(__all_sync(mask, v > -900));
  o[5] = static_cast<unsigned long long>(__reduce_add_sync(mask, v));
  o[6] = __match_any_sync(mask, v & 3);
  int pred = -1;
  o[7] = __match_all_sync(mask, v & 1, &pred);
  o[8] = static_cast<unsigned long long>(pred);
  __syncwarp(mask);
}

template <class Mask>
__global__ void operations_kernel(Mask mask, const int* in, unsigned long long* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  each_operation(mask, in[i], out + kOperations * i);
}

__global__ void later_warps_kernel(unsigned mask, const int* in, unsigned long long* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x >= 32) each_operation(mask, in[i], out + kOperations * i);
}

template <class F>
auto with_kernel(mask_type type, F f) {
  switch (type) {
    case mask_type::u32:
      return f(operations_kernel<unsigned>);
    case mask_type::i32:
      return f(operations_kernel<int>);
    default:
      return f(operations_kernel<unsigned long long>);
  }
}

}  // namespace

std::vector<unsigned long long> operations(mask_type type, unsigned long long mask, const std::vector<int>& in,
                                           unsigned threads, unsigned blocks) {
  return with_kernel(type, [&]<class Mask>(void (*kernel)(Mask, const int*, unsigned long long*)) {
    cg::device_buffer<int> din(in);
    cg::device_buffer<unsigned long long> dout(std::vector<unsigned long long>(in.size() * kOperations, 0));
    cg::launch(kernel, {dim3(blocks), dim3(threads)}, static_cast<Mask>(mask), din.data(), dout.data());
    return dout.to_host();
  });
}
engine_choice operations_engine(mask_type type) {
  return with_kernel(type, [](auto kernel) { return cohort::host::engine_for(kernel); });
}

std::vector<unsigned long long> later_warps(unsigned mask, const std::vector<int>& in, unsigned threads,
                                            unsigned blocks) {
  cg::device_buffer<int> din(in);
  cg::device_buffer<unsigned long long> dout(std::vector<unsigned long long>(in.size() * kOperations, 0));
  cg::launch(later_warps_kernel, {dim3(blocks), dim3(threads)}, mask, din.data(), dout.data());
  return dout.to_host();
}
engine_choice later_warps_engine() { return cohort::host::engine_for(later_warps_kernel); }

}  // namespace parameter_mask_tests
