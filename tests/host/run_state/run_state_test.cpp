// A thread's transitions (src/host_runtime/scheduling/run_state.hpp): the table allows exactly
// the documented ones, move_to makes them, and in a debug or sanitizer build
// an illegal one, or a block entered or left out of turn, aborts with the
// runtime's internal-error report. In a Release build those checks compile
// away (their cost must be nothing), so the death tests are skipped there.
#include <gtest/gtest.h>

#include <cohort/cohort.hpp>
#include <set>
#include <utility>

#include "scheduling/run_state.hpp"
#include "scheduling/scheduler.hpp"

namespace cg = cohort;
using cohort::detail::host::allowed_transition;
using cohort::detail::host::block_record;
using cohort::detail::host::move_to;
using cohort::detail::host::thread_record;
using cohort::detail::host::wait_kind;

namespace {

constexpr wait_kind every_kind[] = {wait_kind::none,         wait_kind::runnable,        wait_kind::block_barrier,
                                    wait_kind::grid_barrier, wait_kind::cluster_barrier, wait_kind::multi_grid_barrier,
                                    wait_kind::collective,   wait_kind::converge};
constexpr wait_kind parked_kinds[] = {wait_kind::block_barrier,   wait_kind::grid_barrier,
                                      wait_kind::cluster_barrier, wait_kind::multi_grid_barrier,
                                      wait_kind::collective,      wait_kind::converge};

#define SKIP_WITHOUT_RUNTIME_CHECKS()                                                                     \
  if (!cohort::detail::host::runtime_checks)                                                              \
  GTEST_SKIP() << "a Release build compiles the runtime's assertions away (NDEBUG, no COHORT_SANITIZE): " \
                  "built with the asan or tsan preset, or without NDEBUG, this test runs"

thread_record thread_at(unsigned x, wait_kind state) {
  thread_record t{};
  t.index = {x, 0, 0};
  t.rank = x;
  t.waiting = state;
  return t;
}

TEST(RunState, TheTableAllowsExactlyTheDocumentedTransitions) {
  std::set<std::pair<wait_kind, wait_kind>> expected = {{wait_kind::none, wait_kind::runnable},
                                                        {wait_kind::runnable, wait_kind::none},
                                                        {wait_kind::converge, wait_kind::converge}};
  for (wait_kind parked : parked_kinds) {
    expected.insert({wait_kind::none, parked});
    expected.insert({parked, wait_kind::runnable});
    expected.insert({parked, wait_kind::none});
  }
  for (wait_kind from : every_kind)
    for (wait_kind to : every_kind)
      EXPECT_EQ(allowed_transition(from, to), expected.contains({from, to}))
          << cohort::detail::host::wait_kind_name(from) << " -> " << cohort::detail::host::wait_kind_name(to);
}

TEST(RunState, MoveToMakesEveryAllowedTransition) {
  for (wait_kind from : every_kind)
    for (wait_kind to : every_kind) {
      if (!allowed_transition(from, to)) continue;
      thread_record t = thread_at(0, from);
      move_to(t, to);
      EXPECT_EQ(t.waiting, to);
    }
}

// A thread's whole round trip through a block barrier, and through a level's.
TEST(RunState, AParkedThreadIsWokenAndResumed) {
  thread_record t = thread_at(0, wait_kind::none);
  move_to(t, wait_kind::block_barrier);
  move_to(t, wait_kind::none);  // released, resumed from the barrier queue
  move_to(t, wait_kind::grid_barrier);
  move_to(t, wait_kind::runnable);
  move_to(t, wait_kind::none);
  EXPECT_EQ(t.waiting, wait_kind::none);
}

class RunStateDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(RunStateDeathTest, AThreadParkedAtOnePlaceCannotParkAtAnother) {
  SKIP_WITHOUT_RUNTIME_CHECKS();
  thread_record t = thread_at(3, wait_kind::block_barrier);
  EXPECT_DEATH(move_to(t, wait_kind::grid_barrier),
               "cohort: internal error at .*run_state_test\\.cpp:[0-9]+: thread \\(3,0,0\\) moved from block_barrier "
               "to grid_barrier, a transition src/host_runtime/scheduling/run_state\\.hpp's table does not allow");
}

TEST_F(RunStateDeathTest, AThreadIsNotWokenTwice) {
  SKIP_WITHOUT_RUNTIME_CHECKS();
  thread_record t = thread_at(5, wait_kind::collective);
  move_to(t, wait_kind::runnable);
  EXPECT_DEATH(move_to(t, wait_kind::runnable), "thread \\(5,0,0\\) moved from runnable to runnable");
}

TEST_F(RunStateDeathTest, AQueuedThreadCannotPark) {
  SKIP_WITHOUT_RUNTIME_CHECKS();
  thread_record t = thread_at(1, wait_kind::runnable);
  EXPECT_DEATH(move_to(t, wait_kind::collective), "thread \\(1,0,0\\) moved from runnable to collective");
}

// Inside a kernel: the running thread (none) resumed as if it had waited.
__global__ void resumes_itself() {
  cohort::detail::host::current_scheduled();  // settles a streak: current_thread is the running thread
  if (threadIdx.x == 2) move_to(*cohort::detail::host::current_thread, wait_kind::none);
}

TEST_F(RunStateDeathTest, ARunningThreadIsNotResumed) {
  SKIP_WITHOUT_RUNTIME_CHECKS();
  EXPECT_DEATH(cg::launch(resumes_itself, {dim3(1), dim3(4)}),
               "cohort: internal error at .*run_state_test\\.cpp:[0-9]+: thread \\(2,0,0\\) moved from none to none");
}

TEST_F(RunStateDeathTest, ABlockIsNotLeftWithAThreadWaiting) {
  SKIP_WITHOUT_RUNTIME_CHECKS();
  thread_record threads[2] = {thread_at(0, wait_kind::none), thread_at(1, wait_kind::grid_barrier)};
  block_record b{};
  b.threads = threads;
  b.next_unstarted = 2;
  EXPECT_DEATH(
      {
        cohort::detail::host::current_block = &b;
        cohort::detail::host::leave_block(b);
      },
      "cohort: internal error at .*: a block left with threads still waiting \\(no_thread_waits\\(b\\) is false\\)");
}

TEST_F(RunStateDeathTest, ABlockIsNotEnteredWhileTheWorkerHoldsAnother) {
  SKIP_WITHOUT_RUNTIME_CHECKS();
  block_record held{}, next{};
  EXPECT_DEATH(
      {
        cohort::detail::host::current_block = &held;
        cohort::detail::host::enter_block(next);
      },
      "a block entered while the worker still holds another");
}

}  // namespace
