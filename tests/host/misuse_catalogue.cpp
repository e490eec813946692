// Every planted misuse of the host backend we know of, each asserted to be an
// error of the right kind whose message names what went wrong: never a hang,
// a crash or a silently wrong result. One table, so that the count of
// misuses tried and reported is one number (docs/host-backend.md lists them).
#include <gmock/gmock.h>

#include <alloca.h>

#include <cohort/cohort.hpp>
#include <functional>
#include <utility>
#include <vector>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::HasSubstr;

namespace {

using cohort_test::scoped_env;

__global__ void grid_sync_plain(int*) { cg::this_grid().sync(); }
__global__ void block_leaves_grid(int*) {
  cg::grid_group g = cg::this_grid();
  g.sync();
  if (g.block_rank() == 1) return;
  g.sync();
}
__global__ void divergent_barriers(int*) {
  if (threadIdx.x < 8)
    __syncthreads();
  else
    __syncthreads();
}
// Thread 32 waits in a shuffle for the rest of its warp, which waits at the
// block barrier for thread 32.
__global__ void barrier_and_shuffle(int*) {
  if (threadIdx.x == 32)
    (void)__shfl_sync(0xffffffffu, 1, 0);
  else
    __syncthreads();
}
__global__ void source_exited(int* out) {
  if (threadIdx.x % 32 == 31) return;
  out[threadIdx.x] = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x), 31);
}
int recurse(int n) {
  volatile char pad[1024];
  pad[0] = static_cast<char>(n);
  return n == 0 ? pad[0] : recurse(n - 1) + pad[0];
}
__global__ void deep_recursion(int* out) { out[0] = recurse(1 << 20); }
__global__ void throws(int*) {
  if (threadIdx.x == 7) throw std::logic_error("planted");
}
__global__ void relaunches(int* out);
__global__ void noop(int*) {}
__global__ void relaunches(int* out) { cg::launch(noop, {dim3(1), dim3(1)}, out); }
__global__ void different_collectives(int*) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.thread_rank() == 0)
    (void)tile.shfl(1, 0);
  else
    (void)tile.any(1);
}
__global__ void non_uniform_source(int*) {
  const auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  (void)tile.shfl(1, tile.thread_rank() % 2);
}
__global__ void arrives_twice(int*) {
  auto block = cg::this_thread_block();
  auto first = block.barrier_arrive();
  auto second = block.barrier_arrive();
  block.barrier_wait(std::move(second));
  block.barrier_wait(std::move(first));
}
__global__ void grid_arrives_twice(int*) {
  auto grid = cg::this_grid();
  auto first = grid.barrier_arrive();
  auto second = grid.barrier_arrive();
  grid.barrier_wait(std::move(second));
  grid.barrier_wait(std::move(first));
}
// The public sample's reduction: half the lanes shuffle with a mask of the other half's.
__global__ void source_outside_mask(int* out) {
  int v = static_cast<int>(threadIdx.x);
  if (threadIdx.x < 16) v += __shfl_down_sync(0x0000ffffu, v, 16);
  out[threadIdx.x] = v;
}
__global__ void spin_behind_barrier(int* flag) {
  if (threadIdx.x < 32) {
    while (atomicAdd(flag, 0) == 0) {
    }
  } else {
    __syncthreads();
    atomicExch(flag, 1);
  }
}
// Its size known at run time only: of a constant-size one whose first byte
// alone is used, a compiler may keep that byte alone (clang does).
__global__ void huge_alloca(int* out) {
  __syncthreads();
  volatile char* p = static_cast<char*>(alloca(200 * 1024 + threadIdx.x % 2));
  p[0] = 1;
  out[0] = p[0];
}
__attribute__((no_sanitize("null"))) __global__ void writes_index(int* data, long index) {
  if (threadIdx.x == 0) data[index] = 1;
}
__global__ void bad_partition(int*) { (void)cg::tiled_partition(cg::this_thread_block(), 48); }
// A token is good for one wait: the second wait on it waited for nothing.
__global__ void block_token_waited_twice(int*) {
  auto block = cg::this_thread_block();
  auto token = block.barrier_arrive();
  block.barrier_wait(std::move(token));
  block.barrier_wait(std::move(token));
}
__global__ void grid_token_waited_twice(int*) {
  auto grid = cg::this_grid();
  auto token = grid.barrier_arrive();
  grid.barrier_wait(std::move(token));
  grid.barrier_wait(std::move(token));
}
__global__ void cluster_token_waited_twice(int*) {
  auto cluster = cg::this_cluster();
  auto token = cluster.barrier_arrive();
  cluster.barrier_wait(std::move(token));
  cluster.barrier_wait(std::move(token));
}
// Each half of the warp passes a different mask at one call site.
__global__ void ballot_masks_differ(int* out) {
  const unsigned lane = threadIdx.x % 32;
  out[threadIdx.x] = static_cast<int>(__ballot_sync(lane < 16 ? 0xffffffffu : 0xffff0000u, 1));
}
__global__ void misaligned_int_atomic(int* data) {
  atomicAdd(reinterpret_cast<int*>(reinterpret_cast<char*>(data) + 2), 1);
}
__global__ void misaligned_double_atomic(int* data) {
  atomicAdd(reinterpret_cast<double*>(reinterpret_cast<char*>(data) + 4), 1.0);
}
struct oversized_parameter {
  char bytes[32768];
};
__global__ void takes_too_many_parameter_bytes(oversized_parameter p, int* out) { out[0] = p.bytes[0]; }

struct misuse {
  const char* name;
  std::function<void()> plant;
  cg::errc kind;
  const char* says;
};

std::vector<misuse> catalogue() {
  static cg::device_buffer<int> scratch(std::vector<int>(2048, 0));
  int* d = scratch.data();
  const auto fresh_flag = [d] { cg::copy_to_device(d, std::vector<int>{0}.data(), 1); };
  return {
      {"grid.sync in a launch that is not cooperative", [d] { cg::launch(grid_sync_plain, {dim3(2), dim3(32)}, d); },
       cg::errc::not_cooperative, "launch_cooperative"},
      {"grid barrier a block exited before", [d] { cg::launch_cooperative(block_leaves_grid, {dim3(3), dim3(8)}, d); },
       cg::errc::unreachable_barrier, "can never complete"},
      {"threads of a block at different barriers", [d] { cg::launch(divergent_barriers, {dim3(1), dim3(16)}, d); },
       cg::errc::barrier_mismatch, "different block barrier call sites"},
      {"a warp at a barrier, the next at a shuffle", [d] { cg::launch(barrier_and_shuffle, {dim3(1), dim3(64)}, d); },
       cg::errc::deadlock, "deadlock"},
      {"recursion past the fiber stack", [d] { cg::launch(deep_recursion, {dim3(1), dim3(1)}, d); },
       cg::errc::stack_overflow, "fiber stack overflow"},
      {"a frame larger than the guard zone", [d] { cg::launch(huge_alloca, {dim3(1), dim3(32)}, d); },
       cg::errc::stack_overflow, "fiber stack overflow"},
      {"kernel code throws", [d] { cg::launch(throws, {dim3(1), dim3(32)}, d); }, cg::errc::kernel_exception,
       "planted"},
      {"a kernel launches a kernel", [d] { cg::launch(relaunches, {dim3(1), dim3(1)}, d); }, cg::errc::kernel_exception,
       "dynamic parallelism"},
      {"a block of 2048 threads", [d] { cg::launch(noop, {dim3(1), dim3(2048)}, d); }, cg::errc::invalid_configuration,
       "1024"},
      {"a cooperative grid over capacity",
       [d] { cg::launch_cooperative(noop, {dim3(cg::max_cooperative_grid(noop, 1024) + 1), dim3(1024)}, d); },
       cg::errc::cooperative_too_large, "co-resident"},
      {"dynamic shared memory over the limit", [d] { cg::launch(noop, {dim3(1), dim3(32), 1 << 20}, d); },
       cg::errc::shared_memory_limit, "shared memory"},
      {"members of a tile in different collectives", [d] { cg::launch(different_collectives, {dim3(1), dim3(32)}, d); },
       cg::errc::collective_mismatch, "different"},
      {"a wide tile's shuffle with differing source ranks",
       [d] { cg::launch(non_uniform_source, {dim3(1), dim3(64)}, d); }, cg::errc::non_uniform_argument, "source"},
      {"a thread arrives twice at the block barrier", [d] { cg::launch(arrives_twice, {dim3(1), dim3(64)}, d); },
       cg::errc::barrier_mismatch, "arrived twice at the block barrier"},
      {"a thread arrives twice at the grid barrier",
       [d] { cg::launch_cooperative(grid_arrives_twice, {dim3(2), dim3(32)}, d); }, cg::errc::barrier_mismatch,
       "arrived twice at the grid barrier"},
      {"a shuffle from a lane that exited", [d] { cg::launch(source_exited, {dim3(1), dim3(64)}, d); },
       cg::errc::invalid_argument, "reads lane 31, which is not in the shuffle's mask or has exited"},
      {"a shuffle from a lane outside its mask", [d] { cg::launch(source_outside_mask, {dim3(1), dim3(32)}, d); },
       cg::errc::invalid_argument, "not in the shuffle's mask"},
      {"a warp spinning on a flag set behind a barrier it never reaches",
       [d, fresh_flag] {
         fresh_flag();
         const scoped_env watchdog("COHORT_WATCHDOG", "1");
         cg::launch(spin_behind_barrier, {dim3(1), dim3(64)}, d);
       },
       cg::errc::deadlock, "spin-wait without progress"},
      {"a null pointer written in a kernel",
       [] { cg::launch(writes_index, {dim3(1), dim3(4)}, static_cast<int*>(nullptr), 3L); }, cg::errc::memory_fault,
       "null pointer"},
      {"a write just past an allocation (found at its free)",
       [d] {
         {
           cg::device_buffer<int> small(16);
           cg::launch(writes_index, {dim3(1), dim3(1)}, small.data(), 16L);
         }
         cg::launch(noop, {dim3(1), dim3(1)}, d);
       },
       cg::errc::memory_fault, "past the end"},
      {"a write before an allocation (found at its free)",
       [d] {
         {
           cg::device_buffer<int> small(16);
           cg::launch(writes_index, {dim3(1), dim3(1)}, small.data(), -1L);
         }
         cg::launch(noop, {dim3(1), dim3(1)}, d);
       },
       cg::errc::memory_fault, "before the start"},
      {"a write far past an allocation, COHORT_CHECK=memory",
       [] {
         const scoped_env check("COHORT_CHECK", "memory");
         cg::device_buffer<int> small(16);
         cg::launch(writes_index, {dim3(1), dim3(1)}, small.data(), 5000L);
       },
       cg::errc::memory_fault, "past the end of the allocation"},
      {"a copy past the end of an allocation",
       [d] {
         std::vector<int> host(4096);
         cg::copy_to_host(host.data(), d, host.size());
       },
       cg::errc::invalid_argument, "overrun"},
      {"free_device twice",
       [] {
         int* p = cg::malloc_device<int>(4);
         cg::free_device(p);
         cg::free_device(p);
       },
       cg::errc::invalid_argument, "freed twice"},
      {"a partition size that is not a power of two", [d] { cg::launch(bad_partition, {dim3(1), dim3(96)}, d); },
       cg::errc::invalid_argument, "48"},
      {"__syncthreads in host code", [] { __syncthreads(); }, cg::errc::invalid_argument, "outside a kernel"},
      {"grid.sync in host code", [] { cg::this_grid().sync(); }, cg::errc::invalid_argument, "outside a kernel"},
      {"a bad COHORT_SCHEDULE",
       [d] {
         const scoped_env schedule("COHORT_SCHEDULE", "random");
         cg::launch(noop, {dim3(1), dim3(1)}, d);
       },
       cg::errc::invalid_argument, "COHORT_SCHEDULE=random"},
      {"a block's arrival token waited on twice", [d] { cg::launch(block_token_waited_twice, {dim3(1), dim3(32)}, d); },
       cg::errc::barrier_mismatch, "barrier_wait on an arrival token already waited on, at the block barrier"},
      {"a grid arrival token waited on twice",
       [d] { cg::launch_cooperative(grid_token_waited_twice, {dim3(2), dim3(32)}, d); }, cg::errc::barrier_mismatch,
       "barrier_wait on an arrival token already waited on, at the grid barrier"},
      {"a cluster arrival token waited on twice",
       [d] {
         cg::launch_config config{dim3(2), dim3(32)};
         config.cluster = dim3(2);
         cg::launch(cluster_token_waited_twice, config, d);
       },
       cg::errc::barrier_mismatch, "barrier_wait on an arrival token already waited on, at the cluster barrier"},
      {"halves of a warp passing different masks to one __ballot_sync",
       [d] { cg::launch(ballot_masks_differ, {dim3(1), dim3(32)}, d); }, cg::errc::collective_mismatch,
       "lanes of one warp call `__ballot_sync` at"},
      {"atomicAdd on a misaligned int", [d] { cg::launch(misaligned_int_atomic, {dim3(1), dim3(1)}, d); },
       cg::errc::memory_fault, "misaligned atomic: atomicAdd at"},
      {"atomicAdd on a misaligned double", [d] { cg::launch(misaligned_double_atomic, {dim3(1), dim3(1)}, d); },
       cg::errc::memory_fault, "which is not a multiple of 8 (the operand's size); a GPU faults on it"},
      {"kernel parameters over CUDA's 32,764 bytes",
       [d] { cg::launch(takes_too_many_parameter_bytes, {dim3(1), dim3(1)}, oversized_parameter{}, d); },
       cg::errc::invalid_argument, "takes 32776 bytes of parameters, more than CUDA's limit of 32764 bytes"},
      {"COHORT_SHARED_PER_BLOCK over what a block may opt in to",
       [] {
         const scoped_env shared("COHORT_SHARED_PER_BLOCK", "1G");
         cohort::host::reset_virtual_device();
       },
       cg::errc::invalid_argument, "COHORT_SHARED_PER_BLOCK=1G is not valid: expected at most 232448 bytes"},
      {"a bad COHORT_CHECK",
       [d] {
         const scoped_env check("COHORT_CHECK", "everything");
         cg::launch(noop, {dim3(1), dim3(1)}, d);
       },
       cg::errc::invalid_argument, "COHORT_CHECK=everything"},
  };
}

TEST(MisuseCatalogue, EveryPlantedMisuseIsReportedClearly) {
  int reported = 0;
  const std::vector<misuse> all = catalogue();
  for (const misuse& m : all) {
    try {
      m.plant();
      ADD_FAILURE() << m.name << ": no error";
    } catch (const cg::error& e) {
      EXPECT_EQ(e.kind(), m.kind) << m.name << ": " << e.what();
      EXPECT_THAT(e.what(), HasSubstr(m.says)) << m.name;
      if (e.kind() == m.kind && std::string(e.what()).find(m.says) != std::string::npos) ++reported;
    }
  }
  // Two more, kernel-side built-ins read by host code, are death tests
  // (device_memory_checks.cpp): the process cannot go on without a thread.
  std::printf("misuses tried: %zu, reported clearly: %d\n", all.size(), reported);
  EXPECT_EQ(reported, static_cast<int>(all.size()));
}

}  // namespace
