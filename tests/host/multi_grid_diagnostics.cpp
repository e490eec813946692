// Every diagnostic of multi-device launches on the host, triggered, with its
// message asserted: multi_grid.sync() outside a multi-device launch, a
// multi-grid barrier that a block of some grid can never reach, and launches
// the seeds' rules forbid.
#include <gmock/gmock.h>

#include <cohort/cohort.hpp>
#include <vector>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

std::string at_line(int line) { return cohort_test::at_line("multi_grid_diagnostics.cpp", line); }
using cohort_test::launch_error;

constexpr int ordinary_line = __LINE__ + 2;
__global__ void multi_grid_sync_in_an_ordinary_launch(int* out) {
  cg::this_multi_grid().sync();
  out[0] = 1;
}

TEST(MultiGridDiagnostics, SyncInALaunchThatIsNotMultiDevice) {
  cg::device_buffer<int> out(1);
  const cg::error e = launch_error(
      [&] { cg::launch_cooperative(multi_grid_sync_in_an_ordinary_launch, {dim3(2), dim3(8)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::not_cooperative);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("multi-grid barrier at"), HasSubstr(at_line(ordinary_line)),
                              HasSubstr("not launched with cohort::launch_cooperative_multi_device")));
}

constexpr int unreachable_line = __LINE__ + 5;
__global__ void one_grid_leaves_early(int* out) {
  const cg::multi_grid_group mg = cg::this_multi_grid();
  mg.sync();
  if (mg.grid_rank() == 1 && cg::this_grid().block_rank() == 1) return;
  mg.sync();
  out[0] = 1;
}

std::vector<cg::device_launch> on_devices(int count, dim3 grid, dim3 block) {
  std::vector<cg::device_launch> v;
  for (int d = 0; d < count; ++d) v.push_back({d, {grid, block}});
  return v;
}

TEST(MultiGridDiagnostics, BarrierThatABlockOfAnotherGridCanNeverReach) {
  cohort_test::scoped_env devices("COHORT_DEVICE_COUNT", "3");
  cg::device_buffer<int> out(1);
  const auto grids = on_devices(3, dim3(2), dim3(4));
  const cg::error e = launch_error([&] {
    cg::launch_cooperative_multi_device(one_grid_leaves_early, grids, [&](unsigned) { return std::tuple{out.data()}; });
  });
  EXPECT_EQ(e.kind(), cg::errc::unreachable_barrier);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("multi-grid barrier at"), HasSubstr(at_line(unreachable_line)),
                              HasSubstr("can never complete: block 1 of grid 1 (device 1) exited after arriving at 1 "
                                        "multi-grid barrier(s)")));
}

__global__ void does_nothing(int*) {}

TEST(MultiGridDiagnostics, TwoGridsOnOneDevice) {
  cohort_test::scoped_env devices("COHORT_DEVICE_COUNT", "2");
  std::vector<cg::device_launch> grids{{1, {dim3(1), dim3(1)}}, {1, {dim3(1), dim3(1)}}};
  const cg::error e = launch_error(
      [&] { cg::launch_cooperative_multi_device(does_nothing, grids, [](unsigned) { return std::tuple{nullptr}; }); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_configuration);
  EXPECT_THAT(e.what(), HasSubstr("grids 0 and 1 are both on device 1; each device may run one grid of the launch"));
}

TEST(MultiGridDiagnostics, GridsOfDifferentShapes) {
  cohort_test::scoped_env devices("COHORT_DEVICE_COUNT", "2");
  std::vector<cg::device_launch> grids{{0, {dim3(2), dim3(8)}}, {1, {dim3(3), dim3(8)}}};
  const cg::error e = launch_error(
      [&] { cg::launch_cooperative_multi_device(does_nothing, grids, [](unsigned) { return std::tuple{nullptr}; }); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_configuration);
  EXPECT_THAT(e.what(), HasSubstr("grid 1 is (3,1,1) x (8,1,1) with 0 bytes of dynamic shared memory, grid 0 (2,1,1) x "
                                  "(8,1,1) with 0; every grid must have the same shape and shared memory"));
}

TEST(MultiGridDiagnostics, DeviceThatDoesNotExist) {
  cohort_test::scoped_env devices("COHORT_DEVICE_COUNT", "2");
  std::vector<cg::device_launch> grids{{0, {dim3(1), dim3(1)}}, {2, {dim3(1), dim3(1)}}};
  const cg::error e = launch_error(
      [&] { cg::launch_cooperative_multi_device(does_nothing, grids, [](unsigned) { return std::tuple{nullptr}; }); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(), HasSubstr("device 2 does not exist: the host backend has 2 virtual device(s), 0..1 "
                                  "(COHORT_DEVICE_COUNT sets how many)"));
}

TEST(MultiGridDiagnostics, GridLargerThanItsDeviceHolds) {
  cohort_test::scoped_env devices("COHORT_DEVICE_COUNT", "2");
  const int too_many = cg::max_cooperative_grid(does_nothing, 64) + 1;
  const auto grids = on_devices(2, dim3(too_many), dim3(64));
  const cg::error e = launch_error(
      [&] { cg::launch_cooperative_multi_device(does_nothing, grids, [](unsigned) { return std::tuple{nullptr}; }); });
  EXPECT_EQ(e.kind(), cg::errc::cooperative_too_large);
  EXPECT_THAT(e.what(), HasSubstr("cooperative launch of " + std::to_string(too_many) + " blocks exceeds"));
}

}  // namespace
