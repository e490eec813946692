// A barrier that could only hang must not: grid.sync() in a launch that is
// not cooperative (argument "grid") and multi_grid.sync() in one that is not a
// multi-device launch (argument "multi-grid") trap, and the next synchronizing
// call throws an error that names the cause and the launch to use instead.
// A trap ends the CUDA context, hence a process of its own per case; ctest
// looks for the PASS line below.
#include <cohort/cohort.hpp>
#include <cstdio>
#include <string>

namespace cg = cohort;

__global__ void sync_without_cooperation(int* reached) {
  const cg::grid_group grid = cg::this_grid();
  grid.sync();
  *reached = 1;
}

__global__ void multi_grid_sync_in_one_grid(int* reached) {
  const cg::multi_grid_group mg = cg::this_multi_grid();
  mg.sync();
  *reached = 1;
}

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "";
  if (which != "grid" && which != "multi-grid") {
    std::printf("usage: %s grid|multi-grid\n", argv[0]);
    return 2;
  }
  const bool grid = which == "grid";
  const std::string advice = grid ? "launch such a kernel with cohort::launch_cooperative"
                                  : "launch it with cohort::launch_cooperative_multi_device";
  cg::device_buffer<int> reached(std::vector<int>{0});
  if (grid)
    cg::launch(sync_without_cooperation, {dim3(4), dim3(64)}, reached.data());
  else
    cg::launch_cooperative(multi_grid_sync_in_one_grid, {dim3(4), dim3(64)}, reached.data());
  try {
    cg::device_synchronize();
  } catch (const cg::error& e) {
    std::printf("device_synchronize threw: %s\n", e.what());
    if (std::string(e.what()).find(advice) == std::string::npos) {
      std::printf("not_cooperative: FAIL: the error does not say how to launch the kernel (%s)\n", advice.c_str());
      return 1;
    }
    if (e.kind() != cg::errc::runtime) {
      std::printf("not_cooperative: FAIL: expected errc::runtime\n");
      return 1;
    }
    std::printf("not_cooperative: PASS\n");
    return 0;
  }
  std::printf("not_cooperative: FAIL: %s.sync() returned in a launch that could not synchronize it\n", which.c_str());
  return 1;
}
