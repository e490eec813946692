#include "scheduler.hpp"

#include <signal.h>
#include <ucontext.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <memory>
#include <sstream>

#include "cohort/detail/host/implicit_groups.hpp"
#include "copy_guard.hpp"
#include "diagnostics.hpp"
#include "launch_state.hpp"

namespace cohort::detail::host {

// A page between kernels' __shared__ variables (defined in objects linked
// before the runtime, so placed below it) and the runtime's thread-locals and
// the thread pointer: the guard never closes the pages of those, and leaves the
// variables' pages to the variables.
[[gnu::used]] thread_local constinit std::byte shared_spacer[4096]{};
thread_local constinit block_record* current_block = nullptr;
thread_local constinit thread_record* current_thread = nullptr;

struct worker_context {
  stack_pool stacks;
  std::vector<thread_record> threads;
  dim3 indexed_shape{0, 0, 0};  // the block shape whose threadIdx and rank `threads` hold
  // Whole pages of their own, so that memcpy_async's guard (checking mode)
  // protects no other data along with a destination in dynamic shared memory.
  std::unique_ptr<unsigned char, decltype(&std::free)> shared{nullptr, &std::free};
  std::size_t shared_capacity = 0;
  block_runtime runtime;
  std::uint64_t blocks_run = 0;
  sigjmp_buf escape;
  volatile sig_atomic_t escape_armed = 0;
  volatile sig_atomic_t fault_kind = 0;  // what the escape leaves for: a stack overflow or another fault
  const void* volatile fault_address = nullptr;
  void* signal_stack = nullptr;  // ours, when the thread had no alternate signal stack

  worker_context();
  ~worker_context();
  unsigned char* shared_memory(std::size_t bytes) {
    if (bytes > shared_capacity) {
      constexpr std::size_t page = 4096;
      shared_capacity = (bytes + page - 1) / page * page;
      shared.reset(static_cast<unsigned char*>(std::aligned_alloc(page, shared_capacity)));
    }
    return shared.get();
  }
};

namespace {

struct sigaction previous_segv_action;

bool stack_pointer_overflowed(const fiber& f, void* ucontext) {
#if defined(__x86_64__)
  const auto sp = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(ucontext)->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  const auto sp = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(ucontext)->uc_mcontext.sp);
#else
  const std::uintptr_t sp = ~std::uintptr_t{0};
#endif
  return sp < reinterpret_cast<std::uintptr_t>(f.stack.base + f.stack.guard);
}

// A fault in the guard zone of the running fiber's stack, or with the stack
// pointer below it, is a stack overflow; any other fault in kernel code is a
// bad memory access. Either way the fiber is left for the worker's own stack,
// which reports it. A fault outside kernel code is not ours to handle.
void on_segv(int sig, siginfo_t* info, void* ucontext) {
  if (handle_guard_fault(info->si_addr, info->si_code, ucontext)) return;  // memcpy_async's checking mode
  block_record* b = current_block;
  worker_context* w = b ? b->runtime->worker : nullptr;
  if (w && w->escape_armed && b->running && b->running->stack.base) {
    const bool overflow =
        b->running->stack.guard_contains(info->si_addr) || stack_pointer_overflowed(*b->running, ucontext);
    w->fault_kind = overflow ? 1 : 2;
    w->fault_address = info->si_addr;
    // The faulting fiber is left for good: the sanitizers are told so, as at any switch.
    ::cohort::detail::host::before_switch(nullptr, b->runtime->main.sanitizer);
    siglongjmp(w->escape, 1);
  }
  if (!b && reinterpret_cast<std::uintptr_t>(info->si_addr) < 4096) outside_kernel_fault();
  sigaction(sig, &previous_segv_action, nullptr);  // the fault recurs and takes its usual course
}

void install_overflow_handler() {
  static const bool installed = [] {
    struct sigaction action {};
    action.sa_sigaction = &on_segv;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previous_segv_action);
    return true;
  }();
  (void)installed;
}

// Kernel-side state read outside a kernel (threadIdx in host code) is a read
// through a null record: said plainly before the process dies of it. Installed
// when the program starts, so that it is there before any launch.
[[gnu::used]] const bool handler_at_startup = (install_overflow_handler(), true);

// On the heap rather than in thread-local storage, like all of the runtime's
// state but the pointers below: the thread-local pages, where kernels'
// __shared__ variables live, then hold nothing the scheduler touches, so that
// memcpy_async's guard (checking mode) can close them without slowing it.
worker_context& worker() {
  thread_local const std::unique_ptr<worker_context> context = std::make_unique<worker_context>();
  return *context;
}

}  // namespace

void runner_main(ctx::transfer_t t) {
  resumed(t, nullptr);
  block_runtime& rt = current_runtime();
  rt.record.launch->entry->run_threads(rt.record.launch->entry->payload);
  // No threads left to this runner (or the block failed): it is never resumed.
  if (rt.failed) {
    fiber& self = *rt.record.running;
    rt.record.running = &rt.main;
    switch_fiber(self, rt.main);
  }
  switch_away(rt);
  std::abort();
}

fiber* add_runner(block_runtime& rt) {
  std::optional<stack_area> stack = rt.worker->stacks.acquire();
  if (!stack) {
    try {
      rt.launch->fail(errc::out_of_memory, rt.worker->stacks.failure(), block_linear_rank());
    } catch (const std::bad_alloc&) {
      rt.launch->fail_without_memory(block_linear_rank());
    }
    rt.failed = true;
    return nullptr;
  }
  fiber& f = rt.fibers.emplace_back();
  f.stack = *stack;
  ++rt.fibers_used;
  return &f;
}

void overflowed_unguarded(block_runtime& rt) {
  fail_block(errc::stack_overflow, "fiber stack overflow " + position(*rt.launch, rt.record, *current_thread) +
                                       ": the thread needed more than " + std::to_string(stack_pool::stack_size()) +
                                       " bytes of stack (found at its next switch: this stack, one of more than " +
                                       std::to_string(stacks_in_use().guarded) +
                                       " in use, has no guard page); set COHORT_STACK_SIZE to a larger size (e.g. "
                                       "COHORT_STACK_SIZE=1M)");
}

void block_runtime::wake(std::vector<thread_record*>& waiters) {
  if (shuffling) std::shuffle(waiters.begin(), waiters.end(), shuffle);
  for (thread_record* t : waiters) t->waiting = wait_kind::runnable;
  record.parked -= static_cast<unsigned>(waiters.size());
  if (ready.empty())
    ready.swap(waiters);  // the usual case, a barrier's release: no copy
  else
    ready.insert(ready.end(), waiters.begin(), waiters.end());
  waiters.clear();
}

void fail_block(errc kind, const std::string& message) {
  current_runtime().launch->fail(kind, message, block_linear_rank());
  abandon_block();
}

// The failing thread unwinds its own frames first; main then resumes each
// other parked thread of the block to unwind it (finish_block).
void abandon_block() {
  block_runtime& rt = current_runtime();
  rt.failed = true;
  if (current_thread) current_thread->waiting = wait_kind::none;
  throw fiber_unwind{};
}

void leave_failed_fiber() {
  block_runtime& rt = current_runtime();
  rt.failed = true;
  fiber& self = *rt.record.running;
  rt.record.running = &rt.main;
  switch_fiber(self, rt.main);
  std::abort();  // never resumed
}

// Called inside the thread loop's handler: records the error and returns, so
// that no fiber switch happens while the exception is being handled (the
// C++ runtime keeps the exceptions being handled per OS thread, not per fiber).
void kernel_threw() {
  block_runtime& rt = current_runtime();
  try {
    std::string what = "an exception that is not a std::exception";
    try {
      throw;
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    rt.launch->fail(errc::kernel_exception,
                    "kernel code threw " + position(*rt.launch, rt.record, *current_thread) + ": " + what,
                    block_linear_rank());
  } catch (const std::bad_alloc&) {
    rt.launch->fail_without_memory(block_linear_rank());
  }
  rt.failed = true;
}

namespace {

std::string describe_deadlock(const block_runtime& rt) {
  struct group {
    wait_kind kind;
    std::source_location where;
    const thread_record* first;
    unsigned count;
  };
  std::vector<group> groups;
  for (unsigned i = 0; i < rt.record.next_unstarted; ++i) {
    const thread_record& t = rt.record.threads[i];
    if (t.waiting == wait_kind::none) continue;
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const group& x) { return x.kind == t.waiting && same_site(x.where, t.wait_site); });
    if (g == groups.end())
      groups.push_back({t.waiting, t.wait_site, &t, 1});
    else
      ++g->count;
  }
  std::ostringstream s;
  s << "deadlock in kernel `" << kernel_name(rt.launch->entry->kernel) << "`, block "
    << index_text(rt.record.block_index) << ": none of its " << rt.record.live << " live threads can make progress";
  for (const group& g : groups) {
    s << "; " << g.count << (g.count == 1 ? " thread waits" : " threads wait") << " at ";
    switch (g.kind) {
      case wait_kind::block_barrier: s << "a block barrier"; break;
      case wait_kind::grid_barrier: s << "a grid barrier its block has not completed arriving at"; break;
      case wait_kind::cluster_barrier: s << "a cluster barrier its block has not completed arriving at"; break;
      case wait_kind::multi_grid_barrier: s << "a multi-grid barrier its block has not completed arriving at"; break;
      default: s << "a collective"; break;
    }
    s << " (" << site(g.where) << "), first thread " << index_text(g.first->index);
  }
  s << "; every thread that a barrier or collective counts must reach it";
  return s.str();
}

// A thread's index and rank depend on the block's shape alone, so they are
// written when the shape changes rather than by every block: the thread loop
// then only points current_thread at the record.
void index_threads(worker_context& w, const dim3& shape) {
  if (shape == w.indexed_shape) return;
  const unsigned count = shape.x * shape.y * shape.z;
  if (w.threads.size() < count) w.threads.resize(count);
  unsigned rank = 0;
  for (unsigned z = 0; z < shape.z; ++z)
    for (unsigned y = 0; y < shape.y; ++y)
      for (unsigned x = 0; x < shape.x; ++x, ++rank) {
        w.threads[rank].index = {x, y, z};
        w.threads[rank].rank = rank;
      }
  w.indexed_shape = shape;
}

void start_block(worker_context& w, launch_state& launch, unsigned long long linear) {
  block_runtime& rt = w.runtime;
  block_record& r = rt.record;
  const dim3 g = launch.config.grid;
  const dim3 b = launch.config.block;
  r.block_index = {static_cast<unsigned>(linear % g.x), static_cast<unsigned>(linear / g.x % g.y),
                   static_cast<unsigned>(linear / (static_cast<unsigned long long>(g.x) * g.y))};
  r.block_dim = b;
  r.grid_dim = g;
  r.warp_size = launch.warp_size;
  r.thread_count = b.x * b.y * b.z;
  r.next_unstarted = 0;
  r.live = r.thread_count;
  r.parked = 0;
  r.arrivals_pending = 0;
  r.serial = ++w.blocks_run;
  r.streak = false;
  r.cooperative = launch.cooperative;
  r.check_copies = launch.copy_checks != copy_checking::off;
  r.dynamic_shared = w.shared_memory(std::max<std::size_t>(launch.config.dynamic_shared_bytes, 16));
  index_threads(w, b);
  if (rt.arrivals_recorded) {  // clear what the last block's threads left behind
    for (thread_record& t : w.threads) t.block_arrival = t.grid_arrival = t.cluster_arrival = t.multi_grid_arrival = no_arrival;
    rt.arrivals_recorded = false;
  }
  r.threads = w.threads.data();
  rt.collectives.start_block(r);
  r.running = &rt.main;
  r.runtime = &rt;
  r.launch = &launch;

  rt.launch = &launch;
  rt.fibers_used = 0;
  rt.fibers.reserve(r.thread_count);
  rt.ready.clear();
  rt.ready_head = 0;
  rt.failed = false;
  rt.shuffling = launch.shuffle_seed.has_value();
  if (rt.shuffling) rt.shuffle.seed(*launch.shuffle_seed ^ (linear * 0x9E3779B97F4A7C15ull));
  rt.barrier_arrived = 0;
  rt.barrier_phase = 0;
  rt.barrier_first = nullptr;
  rt.barrier_waiters.clear();
  rt.grid_arrived = 0;
  rt.grid_phases_arrived = 0;
  rt.grid_phases_released = 0;
  rt.grid_first = nullptr;
  rt.grid_waiters.clear();
  start_outer_levels(rt, linear);
}

void wake_released_grid_waiters(block_runtime& rt) {
  std::vector<thread_record*> released;
  std::erase_if(rt.grid_waiters, [&](thread_record* t) {
    if (t->wait_phase >= rt.grid_phases_released) return false;
    released.push_back(t);
    return true;
  });
  rt.wake(released);
}

std::string unreachable_grid_barrier(const block_runtime& rt, const thread_record& waiter) {
  const launch_state& L = *rt.launch;
  const unsigned long long exited = L.grid.exited_block();
  const dim3 g = L.config.grid;
  const uint3 index{static_cast<unsigned>(exited % g.x), static_cast<unsigned>(exited / g.x % g.y),
                    static_cast<unsigned>(exited / (static_cast<unsigned long long>(g.x) * g.y))};
  std::ostringstream s;
  s << "grid barrier at " << site(waiter.wait_site) << " " << position(L, rt.record, waiter)
    << " can never complete: block " << index_text(index) << " exited after arriving at "
    << L.grid.phases_of_exited_block() << " grid barrier(s); every block of a cooperative launch must reach every "
    << "grid.sync()";
  return s.str();
}

// Main's part once no fiber can run. Returns false when the block is over.
bool resolve_stall(block_runtime& rt) {
  launch_state& L = *rt.launch;
  if (rt.failed || rt.record.live == 0) return false;
  if (const auto resolved = resolve_outer_stall(rt)) return *resolved;
  if (!rt.grid_waiters.empty()) {
    const auto oldest = std::min_element(rt.grid_waiters.begin(), rt.grid_waiters.end(),
                                         [](auto* a, auto* b) { return a->wait_phase < b->wait_phase; });
    const std::uint64_t phase = (*oldest)->wait_phase;
    if (phase < rt.grid_phases_arrived) {
      switch (L.grid.wait_past(phase, L.aborted, L.grid_may_spin)) {
        case grid_barrier::outcome::released:
          rt.grid_phases_released = L.grid.generation();
          wake_released_grid_waiters(rt);
          return true;
        case grid_barrier::outcome::aborted: return false;
        case grid_barrier::outcome::unreachable:
          L.fail(errc::unreachable_barrier, unreachable_grid_barrier(rt, **oldest), block_linear_rank());
          return false;
      }
    }
  }
  L.fail(errc::deadlock, describe_collective_stall(rt).value_or(describe_deadlock(rt)), block_linear_rank());
  return false;
}

// A failed or abandoned block leaves threads waiting, their frames on their
// fibers: each is resumed once more, finds the block failed and unwinds
// (park throws fiber_unwind), so that the destructors of its frames run.
void unwind_waiting_threads(block_runtime& rt) {
  rt.failed = true;
  for (unsigned i = 0; i < rt.record.next_unstarted; ++i) {
    thread_record& t = rt.record.threads[i];
    if (t.waiting == wait_kind::none) continue;
    t.waiting = wait_kind::none;
    if (!t.home || t.home == &rt.main) continue;
    rt.record.running = t.home;
    current_thread = &t;
    switch_fiber(rt.main, *t.home);
  }
  rt.record.running = &rt.main;
  rt.ready.clear();
  rt.ready_head = 0;
}

// Returns the fibers the block started. They keep their stacks for the
// worker's next block; trim_worker_stacks gives them back after the launch.
std::size_t finish_block(worker_context& w, unsigned long long linear) {
  block_runtime& rt = w.runtime;
  if (rt.record.parked != 0 || rt.ready_head < rt.ready.size()) unwind_waiting_threads(rt);
  rt.copies.finish_block(rt);
  if (rt.launch->cooperative) rt.launch->grid.block_exited(rt.grid_phases_arrived, linear);
  finish_outer_levels(rt);
  current_block = nullptr;
  current_thread = nullptr;
  return rt.fibers_used;
}

}  // namespace

// The overflow handler runs on an alternate signal stack. A thread that has
// one keeps it (the sanitizers install their own, and unmap it themselves at
// thread exit); otherwise the worker installs one and takes it down before
// freeing it, so that no thread is left with a freed stack registered.
constexpr std::size_t signal_stack_bytes = 64 * 1024;

worker_context::worker_context() {
  stack_t current{};
  if (sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
    signal_stack = std::malloc(signal_stack_bytes);
    stack_t alt{};
    alt.ss_sp = signal_stack;
    alt.ss_size = signal_stack_bytes;
    if (!signal_stack || sigaltstack(&alt, nullptr) != 0) {
      std::free(signal_stack);
      signal_stack = nullptr;
    }
  }
  install_overflow_handler();
  runtime.main.sanitizer.adopt_thread();
  runtime.worker = this;
}

worker_context::~worker_context() {
  for (fiber& f : runtime.fibers) {
    f.sanitizer.destroyed();
    stacks.release(f.stack);
  }
  if (signal_stack) {
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    std::free(signal_stack);
  }
}

void trim_worker_stacks() {
  worker_context& w = worker();
  for (fiber& f : w.runtime.fibers) {
    f.sanitizer.destroyed();
    w.stacks.release(f.stack);
  }
  w.runtime.fibers.clear();
  w.stacks.trim();
}

std::size_t run_block(launch_state& launch, unsigned long long linear) {
  worker_context& w = worker();
  start_block(w, launch, linear);
  block_runtime& rt = w.runtime;
  current_block = &rt.record;
  // Not saving the signal mask keeps sigsetjmp free of a system call per
  // block; the overflow path unblocks SIGSEGV itself instead.
  if (sigsetjmp(w.escape, 0) != 0) {
    ::cohort::detail::host::after_switch(nullptr, nullptr);
    w.escape_armed = 0;
    sigset_t segv;
    sigemptyset(&segv);
    sigaddset(&segv, SIGSEGV);
    pthread_sigmask(SIG_UNBLOCK, &segv, nullptr);
    // The faulting fiber is left where it stands: its frames may be what is broken.
    current_thread->waiting = wait_kind::none;
    rt.record.running = &rt.main;
    if (w.fault_kind == 1)
      launch.fail(errc::stack_overflow,
                  "fiber stack overflow " + position(launch, rt.record, *current_thread) +
                      ": the thread needed more than " + std::to_string(stack_pool::stack_size()) +
                      " bytes of stack; set COHORT_STACK_SIZE to a larger size (e.g. COHORT_STACK_SIZE=1M)",
                  linear);
    else
      launch.fail(errc::memory_fault, memory_fault_message(launch, rt.record, *current_thread, w.fault_address),
                  linear);
    return finish_block(w, linear);
  }
  w.escape_armed = 1;
  try {
    switch_away(rt);
    while (resolve_stall(rt)) switch_away(rt);
  } catch (const fiber_unwind&) {  // the block failed in main's own work (a collective it completed)
  }
  w.escape_armed = 0;
  return finish_block(w, linear);
}

}  // namespace cohort::detail::host

namespace cohort::detail::host {

namespace {

std::int64_t steady_now() { return std::chrono::steady_clock::now().time_since_epoch().count(); }

[[noreturn]] void spin_stalled(block_runtime& rt, const thread_record& t) {
  std::ostringstream s;
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(rt.launch->watchdog).count();
  s << "spin-wait without progress " << position(*rt.launch, rt.record, t) << " at " << site(t.poll_site)
    << ": for " << seconds << " s its atomics";
  if (t.poll_address == &fence_poll)
    s << " and fences saw nothing change";
  else
    s << " at " << t.poll_address << " returned the same value (" << t.poll_value << ")";
  s << "; the thread it waits for may be parked at a barrier this one never reaches, or in a block that is not "
       "running (blocks of a launch that is not cooperative need not run at the same time); a plain or volatile "
       "load in the loop is not seen at all. COHORT_WATCHDOG=seconds waits longer (0: forever)";
  fail_block(errc::deadlock, s.str());
}

// Lets the block's other threads run: those released and queued first, else a
// fresh runner for threads not started yet. With neither, the thread waits on
// something outside its block and the OS thread is offered to others.
void yield_thread(block_runtime& rt, thread_record& t) {
  const bool others_ready = rt.ready_head < rt.ready.size();
  const bool unstarted = rt.record.next_unstarted < rt.record.thread_count;
  if (!others_ready && !unstarted) {
    std::this_thread::yield();
    return;
  }
  fiber& self = *rt.record.running;
  t.home = &self;
  t.waiting = wait_kind::runnable;
  rt.ready.push_back(&t);
  if (others_ready) {
    switch_away(rt);
  } else {
    fiber* runner = start_runner(rt);
    if (!runner) abandon_block();
    rt.record.running = runner;
    start_fiber(self, *runner, &runner_main);
  }
  current_thread = &t;
  t.waiting = wait_kind::none;
  rt.record.running = t.home;
  if (rt.failed) throw fiber_unwind{};
}

}  // namespace

void spin_yield(std::source_location where) {
  thread_record* const t = current_thread;
  if (t == nullptr) {  // host code
    std::this_thread::yield();
    return;
  }
  block_runtime& rt = current_runtime();
  const std::int64_t now = steady_now();
  if (t->poll_block != rt.record.serial || t->poll_count <= 64) {
    t->poll_block = rt.record.serial;
    t->poll_since = now;
    t->poll_site = where;
  } else if (rt.launch->watchdog.count() != 0 && now - t->poll_since > rt.launch->watchdog.count()) {
    spin_stalled(rt, *t);
  }
  yield_thread(rt, *t);
}

}  // namespace cohort::detail::host
