// grid.sync() in a launch that is not cooperative must not hang: cohort traps,
// and the next synchronizing call throws an error that names the cause.
// A trap ends the CUDA context, hence a process of its own; ctest looks for
// the PASS line below.
#include <cohort/cohort.hpp>
#include <cstdio>
#include <string>

namespace cg = cohort;

__global__ void sync_without_cooperation(int* reached) {
  const cg::grid_group grid = cg::this_grid();
  grid.sync();
  *reached = 1;
}

int main() {
  cg::device_buffer<int> reached(std::vector<int>{0});
  cg::launch(sync_without_cooperation, {dim3(4), dim3(64)}, reached.data());
  try {
    cg::device_synchronize();
  } catch (const cg::error& e) {
    std::printf("device_synchronize threw: %s\n", e.what());
    if (std::string(e.what()).find("launch such a kernel with cohort::launch_cooperative") == std::string::npos) {
      std::printf("not_cooperative: FAIL: the error does not say how to launch the kernel\n");
      return 1;
    }
    if (e.kind() != cg::errc::runtime) {
      std::printf("not_cooperative: FAIL: expected errc::runtime\n");
      return 1;
    }
    std::printf("not_cooperative: PASS\n");
    return 0;
  }
  std::printf("not_cooperative: FAIL: grid.sync() returned in a launch that was not cooperative\n");
  return 1;
}
