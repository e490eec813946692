#include "scheduling/scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <thread>

#include "cohort/detail/host/implicit_groups.hpp"
#include "cohort/detail/host/language/atomics.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/launch_state.hpp"
#include "scheduling/worker.hpp"
#include "scheduling/worker_pool.hpp"

namespace cohort::detail::host {

namespace {

// A runner with no thread left to start (run_threads started them all, or the
// block failed) leaves for the next runnable thread, else main, as
// switch_away would switch, for good.
[[noreturn]] void leave_runner(scheduled_block& b) {
  fiber& self = *b.running;
  if (!b.failed) {
    if (b.attention) [[unlikely]] {
      if (b.unguarded_stacks) check_unguarded_stack(b, self);
      if (thread_record* const next = b.take_ready()) resume_ready<leave_fiber>(b, self, *next);
    }
    if (b.barrier.has_released()) resume_released<leave_fiber>(b, self);
  }
  b.running = &b.main;
  leave_fiber(self, b.main);
}

}  // namespace

void runner_main(ctx::transfer_t t) {
  resumed(t, nullptr);
  scheduled_block& b = current_scheduled();
  b.launch->entry->run_threads(b.launch->entry->payload);
  std::abort();  // the runner leaves from the thread loop (runner_done)
}

void runner_done(block_record& block) {
  auto& b = static_cast<scheduled_block&>(block);
  if (run_next_block(b)) return;  // it tests that the block is over, none of its threads waiting
  leave_runner(b);
}

void unwind_on_top(ctx::transfer_t t) {
  resumed(t, nullptr);
  throw fiber_unwind{};
}

fiber* add_runner(scheduled_block& b) {
  std::optional<stack_area> stack = b.stacks->acquire();
  if (!stack) {
    try {
      b.launch->fail(errc::out_of_memory, b.stacks->failure(), block_linear_rank());
    } catch (const std::bad_alloc&) {
      b.launch->fail_without_memory(block_linear_rank());
    }
    b.failed = true;
    return nullptr;
  }
  fiber& f = b.fibers.emplace_back();
  f.stack = *stack;
  ++b.fibers_used;
  return &f;
}

void overflowed_unguarded(scheduled_block& b) {
  fail_block(errc::stack_overflow, "fiber stack overflow " + position(*b.launch, b, *current_thread) + ": " +
                                       stack_pool::overflow_advice() +
                                       " (found at its next switch: this stack, one of more than " +
                                       std::to_string(stacks_in_use().guarded) + " in use, has no guard page)");
}

void check_unguarded_stack(scheduled_block& b, const fiber& self) {
  if (self.stack.base && self.stack.overflowed_unguarded(reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0))))
    overflowed_unguarded(b);
}

void switch_to_runner_or_main(scheduled_block& b, fiber& self) {
  if (b.next_unstarted < b.thread_count && !b.failed) {
    fiber* runner = start_runner(b);
    if (!runner) {
      if (&self == &b.main) return;  // main finds the block failed
      abandon_block();
    }
    b.running = runner;
    start_fiber(self, *runner, &runner_main);
  } else {
    b.running = &b.main;
    switch_fiber(self, b.main);
  }
}

void scheduled_block::reorder_released() {
  barrier_queue& q = barrier;
  if (shuffling) std::shuffle(q.parked, q.tail, *shuffle);
  if (on_park != nullptr)
    for (barrier_queue::entry* e = q.parked; e != q.tail; ++e) move_to(*(*e)->parked_thread, wait_kind::runnable);
}

// Lanes converging need every thread that can still run marked runnable:
// the released ones not yet resumed are still marked at the block barrier,
// or runnable already (woken through the queue, or marked by an earlier watch).
void scheduled_block::watch_parks(void (*hook)(scheduled_block&, const thread_record&)) {
  on_park = hook;
  attention = true;
  for (barrier_queue::entry* e = barrier.head; e != barrier.released; ++e)
    if (thread_record& t = *(*e)->parked_thread; t.waiting != wait_kind::runnable) move_to(t, wait_kind::runnable);
}

void fail_block(errc kind, const std::string& message) {
  current_scheduled().launch->fail(kind, message, block_linear_rank());
  abandon_block();
}

// The failing thread unwinds its own frames first; main then resumes each
// other parked thread of the block to unwind it (worker.cpp).
void abandon_block() {
  scheduled_block& b = current_scheduled();
  b.failed = true;
  // It may fail on its way into a wait (no stack for the next runner).
  if (current_thread && current_thread->waiting != wait_kind::none) move_to(*current_thread, wait_kind::none);
  b.drop_failed_from_queue();
  throw fiber_unwind{};
}

void leave_failed_fiber() {
  scheduled_block& b = current_scheduled();
  b.failed = true;
  fiber& self = *b.running;
  b.running = &b.main;
  switch_fiber(self, b.main);
  std::abort();  // never resumed
}

// Called inside the thread loop's handler: records the error and returns, so
// that no fiber switch happens while the exception is being handled (the
// C++ runtime keeps the exceptions being handled per OS thread, not per fiber).
void kernel_threw() {
  scheduled_block& b = current_scheduled();
  try {
    std::string what = "an exception that is not a std::exception";
    try {
      throw;
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    b.launch->fail(errc::kernel_exception, "kernel code threw " + position(*b.launch, b, *current_thread) + ": " + what,
                   block_linear_rank());
  } catch (const std::bad_alloc&) {
    b.launch->fail_without_memory(block_linear_rank());
  }
  b.failed = true;
}

namespace {

std::int64_t steady_now() { return std::chrono::steady_clock::now().time_since_epoch().count(); }

[[noreturn]] void spin_stalled(scheduled_block& b, const thread_record& t) {
  std::ostringstream s;
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(b.launch->watchdog).count();
  s << "spin-wait without progress " << position(*b.launch, b, t) << " at " << site(t.poll_site) << ": for " << seconds
    << " s its atomics";
  if (t.poll_address == &fence_poll)
    s << " and fences saw nothing change";
  else if (t.poll_address == &sleep_poll)
    s << " and __nanosleep calls saw nothing change";
  else
    s << " at " << t.poll_address << " returned the same value (" << t.poll_value << ")";
  s << "; the thread it waits for may be parked at a barrier this one never reaches, or in a block that is not "
       "running (blocks of a launch that is not cooperative need not run at the same time); a plain or volatile "
       "load in the loop is not seen at all. COHORT_WATCHDOG=seconds waits longer (0: forever)";
  fail_block(errc::deadlock, s.str());
}

// Lets the block's other threads run: a fresh runner for threads not started
// yet first, else those a barrier released, else those queued, behind which
// this one then waits: two spinning threads that yielded only to each other
// would keep a third, the one they wait for, from running. With none, the
// thread waits on something outside its block and the OS thread is offered to
// others. The queued thread to resume is taken before the spinning one joins
// the queue: taken after, it could be the spinning thread itself, and a fiber
// switching to itself resumes from a context saved at its previous switch,
// with the stack that frame saw long gone.
void yield_thread(scheduled_block& b, thread_record& t) {
  fiber& self = *b.running;
  if (b.unguarded_stacks) check_unguarded_stack(b, self);
  const bool unstarted = b.next_unstarted < b.thread_count;
  const bool released = !unstarted && b.barrier.has_released();
  thread_record* const next = unstarted || released ? nullptr : b.take_ready();
  if (!unstarted && !released && next == nullptr) {
    yield_core();
    return;
  }
  // Threads that start or were released run on: the block is not stuck, and the spin's watchdog
  // starts again (a block of 1024 under race checking waited longer than it at a cuda::barrier
  // while its other threads were still getting there).
  if (unstarted || released) t.poll_since = 0;
  t.home = &self;
  move_to(t, wait_kind::runnable);
  b.make_ready(t);
  if (next != nullptr) {
    resume_ready(b, self, *next);
  } else if (released) {
    resume_released(b, self);
  } else {
    fiber* runner = start_runner(b);
    if (!runner) abandon_block();
    b.running = runner;
    start_fiber(self, *runner, &runner_main);
  }
}

}  // namespace

void spin_yield(std::source_location where) {
  if (current_block == nullptr) {  // host code
    std::this_thread::yield();
    return;
  }
  scheduled_block& b = current_scheduled();
  thread_record* const t = current_thread;
  const std::int64_t now = steady_now();
  if (t->poll_since == 0) {  // the streak's first yield (observed() starts a streak afresh)
    t->poll_since = now;
    t->poll_site = where;
  } else if (b.launch->watchdog.count() != 0 && now - t->poll_since > b.launch->watchdog.count()) {
    spin_stalled(b, *t);
  }
  yield_thread(b, *t);
}

}  // namespace cohort::detail::host
