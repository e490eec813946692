// Built at -O0 with the loops pass (tests/loops/CMakeLists.txt): the pass keeps
// this unit's kernels on fibers ("compiled without optimization").
#include <vector>

#include "shared_kernel.hpp"

namespace loops_tests {

std::vector<int> shared_reverse_unoptimized(const std::vector<int>& in, unsigned block) {
  cohort::device_buffer<int> din(in), dout(in.size());
  cohort::launch(shared_reverse_kernel<int>, {dim3(in.size() / block), dim3(block)}, din.data(), dout.data());
  return dout.to_host();
}

}  // namespace loops_tests
