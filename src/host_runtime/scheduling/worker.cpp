// A worker: an OS thread that runs blocks one after another, each to its end,
// with one block record it reuses (block_runtime.hpp). It starts a block,
// lets its fibers run, and when none can, resolves the stall: a level's
// barrier to wait for, or a deadlock to report. It also catches the faults of
// kernel code (stack overflows, bad accesses) and reports them.
#include "scheduling/worker.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <thread>

#include "cohort/detail/host/implicit_groups.hpp"
#include "diagnostics/diagnostics.hpp"
#include "diagnostics/kernel_abort.hpp"
#include "diagnostics/kernel_assert.hpp"
#include "diagnostics/kernel_exit.hpp"
#include "diagnostics/source_lines.hpp"
#include "diagnostics/symbol_names.hpp"
#include "launch/block_runtime.hpp"
#include "launch/launch_state.hpp"
#include "memory/copy_guard.hpp"
#include "memory/mapping_limit.hpp"
#include "memory/shared_faults.hpp"
#include "memory/shared_region.hpp"
#include "scheduling/runtime_tls.hpp"

namespace cohort::detail::host {

constinit const outside_kernel_page no_kernel{};

struct worker_context {
  stack_pool stacks;
  std::vector<thread_record> threads;
  dim3 indexed_shape{0, 0, 0};  // the block shape whose threadIdx and rank `threads` hold
  // Between guard zones, in whole pages of its own (so that memcpy_async's
  // guard, in checking mode, protects no other data along with a
  // destination there).
  shared_region shared;
  block_runtime runtime;
  std::uint64_t blocks_run = 0;
  std::size_t fibers_started = 0;  // by the blocks run so far
  unsigned long long run_end = 0;  // the end of the blocks run_blocks was given
  sigjmp_buf escape;
  volatile sig_atomic_t escape_armed = 0;
  volatile sig_atomic_t fault_kind = 0;  // what the escape leaves for (escape_reason)
  const void* volatile fault_address = nullptr;
  volatile fault_access fault_kind_of_access = fault_access::unknown;
  const void* volatile fault_instruction = nullptr;
  failed_assertion assertion;  // the escape's, for a failed assert()
  int exit_status = 0;         // the escape's, for exit() in kernel code
  const void* exit_caller = nullptr;
  void* signal_stack = nullptr;  // ours, when the thread had no alternate signal stack

  worker_context();
  ~worker_context();
};

namespace {

// Why kernel code escaped to the worker's own stack (worker_context::escape).
enum escape_reason : sig_atomic_t { stack_overflow_escape = 1, memory_fault_escape, assertion_escape, exit_escape };

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

// What the faulting instruction did: the page fault's error code says
// whether it wrote (x86-64).
fault_access access_of(void* ucontext) {
#if defined(__x86_64__)
  return (static_cast<ucontext_t*>(ucontext)->uc_mcontext.gregs[REG_ERR] & 2) ? fault_access::write
                                                                              : fault_access::read;
#else
  (void)ucontext;
  return fault_access::unknown;
#endif
}

// The faulting instruction's address.
const void* instruction_of(void* ucontext) {
#if defined(__x86_64__)
  return reinterpret_cast<const void*>(static_cast<ucontext_t*>(ucontext)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return reinterpret_cast<const void*>(static_cast<ucontext_t*>(ucontext)->uc_mcontext.pc);
#else
  (void)ucontext;
  return nullptr;
#endif
}

// " (the access is in `f(int*)`, at prog.cu:42)": the function of the
// faulting instruction, where the symbol tables name it, and its source line
// where the program has debug information (-g or -g1); without it, the
// instruction's address in its file as linked, for addr2line.
std::string faulting_function(const void* instruction) {
  if (instruction == nullptr) return {};
  const auto f = function_containing(instruction);
  if (!f) return {};
  std::string s = " (the access is in `" + f->substr(0, f->find(" [clone ")) + "`";
  if (const auto line = source_line_at(instruction)) return s + ", at " + *line + ")";
  if (const auto at = code_address_of(instruction)) {
    char linked[32];
    std::snprintf(linked, sizeof linked, "0x%jx", static_cast<std::uintmax_t>(at->linked));
    s += std::string(", at ") + linked + " of " + at->file + ": `addr2line -e " + at->file + " " + linked +
         "` names its line in a build with -g";
  }
  return s + ")";
}

// The worker whose escape the running fiber of `b` may take (kernel code is
// running), else null.
worker_context* armed_worker(block_runtime* b) {
  worker_context* w = b ? b->worker : nullptr;
  return w && w->escape_armed && b->running ? w : nullptr;
}

// Leaves the running fiber for good, for the worker's own stack (run_from's
// sigsetjmp), which reports `reason`.
[[noreturn]] void escape_to_worker(worker_context& w, const block_runtime& b, escape_reason reason) {
  w.fault_kind = reason;
  // The sanitizers are told that the fiber is left, as at any switch.
  ::cohort::detail::host::before_switch(nullptr, b.main.sanitizer);
  siglongjmp(w.escape, 1);
}

// A fault in the guard zone of the running fiber's stack, or with the stack
// pointer below it, is a stack overflow; any other fault in kernel code is a
// bad memory access. Either way the fiber is left for the worker's own stack,
// which reports it. A fault outside kernel code is not ours to handle.
void on_segv(int sig, siginfo_t* info, void* ucontext) {
  if (handle_guard_fault(info->si_addr, info->si_code, ucontext)) return;  // memcpy_async's checking mode
  auto* b = static_cast<block_runtime*>(current_block);
  worker_context* w = armed_worker(b);
  if (w && b->running->stack.base) {
    const bool overflow =
        b->running->stack.guard_contains(info->si_addr) || stack_pointer_overflowed(*b->running, ucontext);
    w->fault_address = info->si_addr;
    w->fault_kind_of_access = access_of(ucontext);
    w->fault_instruction = instruction_of(ucontext);
    escape_to_worker(*w, *b, overflow ? stack_overflow_escape : memory_fault_escape);
  }
  const auto* at = static_cast<const char*>(info->si_addr);
  const auto* page = reinterpret_cast<const char*>(&no_kernel);
  if (at >= page && at < page + sizeof no_kernel) outside_kernel_fault();
  sigaction(sig, &previous_segv_action, nullptr);  // the fault recurs and takes its usual course
}

void install_overflow_handler() {
  static const bool installed = [] {
    struct sigaction action{};
    action.sa_sigaction = &on_segv;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previous_segv_action);
    install_abort_report();
    return true;
  }();
  (void)installed;
}

// Kernel-side state read outside a kernel (a warp intrinsic or a group in host
// code) is a read of the inaccessible page no_kernel: said plainly before the
// process dies of it. Installed when the program starts, so that it is there
// before any launch; the page is closed then too.
[[gnu::used]] const bool handler_at_startup =
    (install_overflow_handler(), mprotect(const_cast<outside_kernel_page*>(&no_kernel), sizeof no_kernel, PROT_NONE),
     true);

}  // namespace

void escape_failed_assertion(const failed_assertion& a) {
  auto* b = static_cast<block_runtime*>(current_block);
  worker_context* w = armed_worker(b);
  if (!w) return;
  w->assertion = a;
  escape_to_worker(*w, *b, assertion_escape);
}

bool in_kernel_thread() {
  auto* b = static_cast<block_runtime*>(current_block);
  return armed_worker(b) && b->running->stack.base;
}

namespace {

// The calling OS thread's own stack (a kernel thread running on the worker's stack, in a streak).
bool on_os_thread_stack(std::uintptr_t a) {
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return false;
  void* low = nullptr;
  std::size_t bytes = 0;
  const bool known = pthread_attr_getstack(&attributes, &low, &bytes) == 0;
  pthread_attr_destroy(&attributes);
  return known && a >= reinterpret_cast<std::uintptr_t>(low) && a < reinterpret_cast<std::uintptr_t>(low) + bytes;
}

}  // namespace

kernel_address_space address_space_of(const void* address) {
  auto* b = static_cast<block_runtime*>(current_block);
  if (b == nullptr || b->worker == nullptr) return kernel_address_space::other;
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  if (a >= tls_low_spacer_end() && a < tls_high_spacer_address()) return kernel_address_space::shared;
  if (b->dynamic_shared != nullptr && a >= reinterpret_cast<std::uintptr_t>(b->dynamic_shared) &&
      b->worker->shared.contains(a))
    return kernel_address_space::shared;
  if (b->running != nullptr) {
    const stack_area& s = b->running->stack;
    const auto low = reinterpret_cast<std::uintptr_t>(s.base) + s.guard;
    if (s.base ? a >= low && a < low + s.usable : on_os_thread_stack(a)) return kernel_address_space::local;
  }
  return kernel_address_space::other;
}

void escape_kernel_exit(int status, const void* caller) {
  auto* b = static_cast<block_runtime*>(current_block);
  worker_context* w = armed_worker(b);
  // Only a kernel thread's own fiber: the worker's stack, waiting for other
  // blocks, is host code (a signal handler calling exit() there).
  if (!w || !b->running->stack.base) return;
  w->exit_status = status;
  w->exit_caller = caller;
  escape_to_worker(*w, *b, exit_escape);
}

namespace {

// On the heap rather than in thread-local storage, like all of the runtime's
// state but the pointers below: the thread-local pages, where kernels'
// __shared__ variables live, then hold nothing the scheduler touches, so that
// memcpy_async's guard (checking mode) can close them without slowing it.
void end_worker(void* w) {
  delete static_cast<worker_context*>(w);
  this_worker = nullptr;
}

worker_context& worker() {
  if (this_worker == nullptr) [[unlikely]] {
    this_worker = new worker_context;
    at_thread_exit(&end_worker, this_worker);
  }
  return *this_worker;
}

}  // namespace

namespace {

std::string describe_deadlock(const block_runtime& rt) {
  struct group {
    wait_kind kind;
    std::source_location where;
    const thread_record* first;
    unsigned count;
  };
  std::vector<group> groups;
  for (unsigned i = 0; i < rt.next_unstarted; ++i) {
    const thread_record& t = rt.threads[i];
    if (t.waiting == wait_kind::none) continue;
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const group& x) { return x.kind == t.waiting && same_site(x.where, t.wait_site); });
    if (g == groups.end())
      groups.push_back({t.waiting, t.wait_site, &t, 1});
    else
      ++g->count;
  }
  std::ostringstream s;
  s << "deadlock in kernel `" << kernel_name(rt.launch->entry->kernel) << "`, block " << index_text(rt.block_index)
    << ": none of its " << rt.live << " live threads can make progress";
  for (const group& g : groups) {
    s << "; " << g.count << (g.count == 1 ? " thread waits" : " threads wait") << " at ";
    switch (g.kind) {
      case wait_kind::block_barrier:
        s << "a block barrier";
        break;
      case wait_kind::grid_barrier:
        s << "a grid barrier its block has not completed arriving at";
        break;
      case wait_kind::cluster_barrier:
        s << "a cluster barrier its block has not completed arriving at";
        break;
      case wait_kind::multi_grid_barrier:
        s << "a multi-grid barrier its block has not completed arriving at";
        break;
      default:
        s << "a collective";
        break;
    }
    s << " (" << site(g.where) << "), first thread " << index_text(g.first->index);
  }
  s << "; every thread that a barrier or collective counts must reach it";
  return s.str();
}

// A thread's index, row and rank depend on the block's shape alone, so they
// are written when the shape changes rather than by every block: the thread
// loop then only points current_thread and current_position at the record.
void index_threads(worker_context& w, const dim3& shape) {
  if (same_dim(shape, w.indexed_shape)) return;
  const unsigned count = shape.x * shape.y * shape.z;
  if (w.threads.size() < count) w.threads.resize(count);
  unsigned rank = 0;
  for (unsigned z = 0; z < shape.z; ++z)
    for (unsigned y = 0; y < shape.y; ++y)
      for (unsigned x = 0; x < shape.x; ++x, ++rank) {
        w.threads[rank].index = {x, y, z};
        w.threads[rank].row = rank - x;
        w.threads[rank].rank = rank;
      }
  w.indexed_shape = shape;
}

// The index of the block after the one at `index`, without the divisions.
void next_block_index(uint3& index, const dim3& grid) {
  if (++index.x == grid.x && (index.x = 0, ++index.y == grid.y)) index.y = 0, ++index.z;
}

// `follows`: the worker's last block was block linear - 1 of the same launch.
void start_block(worker_context& w, launch_state& launch, unsigned long long linear, bool follows) {
  block_runtime& r = w.runtime;
  const dim3 g = launch.config.grid;
  const dim3 b = launch.config.block;
  if (follows) {
    next_block_index(r.block_index, g);
  } else {
    r.block_index = {static_cast<unsigned>(linear % g.x), static_cast<unsigned>(linear / g.x % g.y),
                     static_cast<unsigned>(linear / (static_cast<unsigned long long>(g.x) * g.y))};
  }
  r.linear = linear;
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
  r.dynamic_shared = w.shared.place(std::max<std::size_t>(launch.config.dynamic_shared_bytes, 16));
  if (r.dynamic_shared == nullptr) {
    const int err = errno;
    throw error(errc::out_of_memory,
                "cannot map " + std::to_string(launch.config.dynamic_shared_bytes) +
                    " bytes of dynamic shared memory between guard zones for block " + std::to_string(linear) + ": " +
                    mapping_failure(err) + "; " +
                    (at_mapping_limit(err) ? mapping_limit_advice : "free memory or ask for less shared memory"));
  }
  index_threads(w, b);
  if (r.barriers.arrivals_recorded) {  // clear what the last block's threads left behind
    for (thread_record& t : w.threads)
      t.block_arrival = t.grid_arrival = t.cluster_arrival = t.multi_grid_arrival = no_arrival;
    r.barriers.arrivals_recorded = false;
  }
  r.threads = w.threads.data();
  // Copied once for all of the block's fibers: only one block's fibers run on
  // an OS thread at a time.
  ::blockIdx = r.block_index;
  ::blockDim = r.block_dim;
  ::gridDim = r.grid_dim;
  ::warpSize = static_cast<int>(r.warp_size);
  r.collectives.start_block(r);
  r.on_park = nullptr;
  r.running = &r.main;
  r.launch = &launch;
  r.fibers_used = 0;
  r.fibers.reserve(r.thread_count);
  r.unguarded_stacks = false;
  r.clear_runnable();
  r.failed = false;
  r.shuffling = launch.shuffle_seed.has_value();
  if (r.shuffling) {
    if (!r.shuffle) r.shuffle = std::make_unique<std::mt19937_64>();
    r.shuffle->seed(*launch.shuffle_seed ^ (linear * 0x9E3779B97F4A7C15ull));
  }
  start_barriers(r, linear);
}

}  // namespace

// A thread exited while something waits: the barriers and collectives that
// counted on it stop counting it.
void thread_exit_slow(block_record& block, thread_record& thread) {
  block_runtime& rt = static_cast<block_runtime&>(block);
  barriers_on_exit(rt, thread);
  collectives_on_exit(rt, thread);
}

namespace {

// Main's part once no fiber can run. Returns false when the block is over.
bool resolve_stall(block_runtime& rt) {
  if (rt.failed || rt.live == 0) return false;
  if (const auto resolved = resolve_barrier_stall(rt)) return *resolved;
  rt.launch->fail(errc::deadlock, describe_collective_stall(rt).value_or(describe_deadlock(rt)), block_linear_rank());
  return false;
}

// A failed or abandoned block leaves threads waiting, their frames on their
// fibers: each is resumed once more to unwind, so that the destructors of its
// frames run: unwind_on_top, called on top of them, throws fiber_unwind.
void unwind_waiting_threads(block_runtime& rt) {
  rt.failed = true;
  // The block barrier's threads, released or not, from its queue.
  const auto unwind = [&rt](barrier_queue::entry* first, barrier_queue::entry* last) {
    for (barrier_queue::entry* e = first; e != last; ++e) {
      fiber& f = **e;
      move_to(*f.parked_thread, wait_kind::none);
      rt.running = &f;
      set_running(*f.parked_thread);
      switch_fiber_calling(rt.main, f, &unwind_on_top);
    }
  };
  barrier_queue& q = rt.barrier;
  unwind(q.head, q.released);
  unwind(q.parked, q.tail);
  for (unsigned i = 0; i < rt.next_unstarted; ++i) {
    thread_record& t = rt.threads[i];
    if (t.waiting == wait_kind::none) continue;
    move_to(t, wait_kind::none);
    if (!t.home || t.home == &rt.main) continue;
    rt.running = t.home;
    set_running(t);
    switch_fiber_calling(rt.main, *t.home, &unwind_on_top);
  }
  rt.running = &rt.main;
  rt.clear_runnable();
}

// Counts the fibers the block started. They keep their stacks for the
// worker's next block; trim_worker_stacks gives them back after the launch.
void finish_block(worker_context& w) {
  block_runtime& rt = w.runtime;
  if (rt.parked != 0 || rt.others_ready()) unwind_waiting_threads(rt);
  if (rt.launch->memory_checks)
    if (const auto damage = static_shared_damage(*rt.launch, rt))
      rt.launch->fail(errc::memory_fault, "invalid memory access " + *damage, rt.linear);
  rt.copies.finish_block(rt);
  finish_barriers(rt);
  leave_block(rt);
  w.fibers_started += rt.fibers_used;
}

// A block over that used none of the runtime's mechanisms (its threads ran
// in streaks, without a call in), in a launch of no level: its record is as
// start_block left it, but for what each block has of its own.
bool left_as_started(const block_runtime& rt) {
  return !rt.collectives.used && !rt.copies.used && !rt.barriers.arrivals_recorded && rt.barriers.block.phase == 0 &&
         rt.barriers.block.arrived == 0 && !rt.barrier.has_released() && rt.barrier.parked == rt.barrier.tail &&
         rt.ready.empty() && rt.on_park == nullptr && !rt.shuffling && !rt.check_copies && !rt.cooperative &&
         rt.cluster == nullptr && rt.launch->multi_grid == nullptr && !rt.launch->memory_checks;
}

// Block `b` is over and the worker has a next block to run.
bool next_block_due(const block_runtime& rt) {
  const unsigned long long next = rt.linear + 1;
  return rt.live == 0 && !rt.failed && rt.running == rt.fibers.data() && next < rt.worker->run_end &&
         rt.launch->worth_running(next);
}

// The next block in the record as left_as_started found it: what finish_block
// and start_block would change.
void advance_in_record(block_runtime& rt) {
  COHORT_ASSERT(no_thread_waits(rt), "a block's record reused with threads still waiting");
  worker_context& w = *rt.worker;
  w.fibers_started += rt.fibers_used;
  // In a local, so that the record's index is not read back right after its
  // field-by-field update (a store-forwarding stall, once a block).
  uint3 index = rt.block_index;
  next_block_index(index, rt.launch->config.grid);
  rt.block_index = index;
  ::blockIdx = index;
  rt.linear = rt.linear + 1;
  rt.serial = ++w.blocks_run;
  rt.next_unstarted = 0;
  rt.live = rt.thread_count;
  rt.fibers_used = 1;
}

}  // namespace

bool run_next_block(scheduled_block& b) {
  auto& rt = static_cast<block_runtime&>(b);
  if (!next_block_due(rt)) return false;  // it tests that the block is over, none of its threads waiting
  if (left_as_started(rt)) {
    advance_in_record(rt);
    return true;
  }
  worker_context& w = *rt.worker;
  launch_state& launch = *rt.launch;
  const unsigned long long next = rt.linear + 1;  // read before finish_block
  finish_block(w);
  start_block(w, launch, next, true);
  enter_block(rt);
  rt.running = rt.fibers.data();  // the runner goes on: the new block's first
  rt.fibers_used = 1;
  return true;
}

bool run_next_block_in_record(scheduled_block& b) {
  auto& rt = static_cast<block_runtime&>(b);
  if (!next_block_due(rt) || !left_as_started(rt)) return false;
  advance_in_record(rt);
  return true;
}

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
  close_tls_guard();
  runtime.main.sanitizer.adopt_thread();
  runtime.worker = this;
  runtime.stacks = &stacks;
}

worker_context::~worker_context() {
  open_tls_guard();  // the C library writes the thread's TLS again when it reuses its memory
  // Destroyed by exit() on a thread that is inside a block (a signal handler
  // that interrupted it called exit()): the running fiber's stack, or the
  // signal stack, may be the one exit() runs on. The process is ending;
  // they are left to it.
  if (current_block != nullptr) return;
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
  if (this_worker == nullptr) return;  // it never ran a block: nothing to trim
  worker_context& w = *this_worker;
  for (fiber& f : w.runtime.fibers) {
    f.sanitizer.destroyed();
    w.stacks.release(f.stack);
  }
  w.runtime.fibers.clear();
  w.stacks.trim();
}

namespace {

// Runs block `linear`, and the blocks after it that its runner goes on to
// (run_next_block), to their end; rt.linear is the last one. `follows` as
// for start_block.
void run_from(worker_context& w, launch_state& launch, unsigned long long linear, bool follows) {
  start_block(w, launch, linear, follows);
  block_runtime& rt = w.runtime;
  enter_block(rt);
  // Not saving the signal mask keeps sigsetjmp free of a system call per
  // block; the overflow path unblocks SIGSEGV itself instead.
  if (sigsetjmp(w.escape, 0) != 0) {
    ::cohort::detail::host::after_switch(nullptr, nullptr);
    w.escape_armed = 0;
    settle_streak(rt);  // the faulting thread may be a streak's
    sigset_t segv;
    sigemptyset(&segv);
    sigaddset(&segv, SIGSEGV);
    pthread_sigmask(SIG_UNBLOCK, &segv, nullptr);
    // The faulting fiber is left where it stands: its frames may be what is broken.
    if (current_thread->waiting != wait_kind::none) move_to(*current_thread, wait_kind::none);  // faulted parking
    rt.drop_failed_from_queue();
    rt.running = &rt.main;
    if (w.fault_kind == exit_escape)
      launch.request_exit(w.exit_status, exit_message(launch, rt, *current_thread, w.exit_status, w.exit_caller),
                          rt.linear);
    else if (w.fault_kind == assertion_escape)
      launch.fail(errc::assertion_failed, assertion_message(launch, rt, *current_thread, w.assertion), rt.linear);
    else if (w.fault_kind == stack_overflow_escape)
      launch.fail(
          errc::stack_overflow,
          "fiber stack overflow " + position(launch, rt, *current_thread) + ": " + stack_pool::overflow_advice(),
          rt.linear);
    else
      launch.fail(errc::memory_fault,
                  memory_fault_message(launch, rt, *current_thread, w.fault_address, w.fault_kind_of_access) +
                      faulting_function(w.fault_instruction),
                  rt.linear);
    return finish_block(w);
  }
  w.escape_armed = 1;
  try {
    switch_away(rt);
    while (resolve_stall(rt)) switch_away(rt);
  } catch (const fiber_unwind&) {  // the block failed in main's own work (a collective it completed)
  }
  w.escape_armed = 0;
  finish_block(w);
}

// The runtime's own allocations for a block (kernel code's are the kernel's
// exceptions) failed: on a worker thread, uncaught, std::bad_alloc would end
// the process.
void fail_out_of_memory(launch_state& launch, unsigned long long block) {
  try {
    launch.fail(errc::out_of_memory,
                "the host could not allocate memory to run block " + std::to_string(block) + " (std::bad_alloc): " +
                    (at_mapping_limit(ENOMEM) ? mapping_failure(ENOMEM) + "; " + mapping_limit_advice
                                              : std::string("free memory or launch fewer blocks")),
                block);
  } catch (const std::bad_alloc&) {
    launch.fail_without_memory(block);
  }
}

}  // namespace

std::size_t run_blocks(launch_state& launch, unsigned long long first, unsigned long long end) {
  unsigned long long b = first;
  try {
    worker_context& w = worker();
    const std::size_t fibers = w.fibers_started;
    w.run_end = end;
    for (; b < end && launch.worth_running(b); b = w.runtime.linear + 1) {
      try {
        run_from(w, launch, b, b != first);
      } catch (const error& e) {
        launch.fail(e.kind(), e.what(), w.runtime.linear);
      }
    }
    return w.fibers_started - fibers;
  } catch (const std::bad_alloc&) {
    fail_out_of_memory(launch, b);
    return 0;
  }
}

}  // namespace cohort::detail::host
