#include "memory/copy_guard.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <new>

#include "cohort/detail/host/runtime/state.hpp"
#include "scheduling/scheduler.hpp"  // leave_failed_fiber

#if defined(__x86_64__) && defined(__linux__)
#define COHORT_COPY_GUARD 1
extern "C" {
extern const std::ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));
}
#else
#define COHORT_COPY_GUARD 0
#endif

namespace cohort::detail::host {

#if COHORT_COPY_GUARD

namespace {

constexpr unsigned max_ranges = 512, max_open = 256, max_steppers = 256, max_released = 256;

struct guarded_range {
  std::uintptr_t begin, end;  // [begin, end)
  std::uintptr_t skip[5];     // pages left open: the issuing thread's thread pointer, rseq area and runtime
                              // thread-locals (current_block, current_thread), and the_registry's
  const void* owner;
  uint3 block;
  std::source_location site;
  bool live;
};

struct open_page {
  std::uintptr_t page;
  int count;
};

// A thread between a fault on a guarded page and the trap after the one
// instruction let through; or, with `hit` set, on its way to report.
struct stepper {
  long tid;
  int pages;
  std::uintptr_t page[4];
  bool has_hit;
  guard_hit hit;
};

// All the handlers touch, in a mapping of its own that is never guarded.
struct registry {
  std::atomic_flag lock;
  std::uintptr_t page_size;
  guarded_range ranges[max_ranges];
  open_page opens[max_open];
  stepper steppers[max_steppers];
  std::uintptr_t released[max_released];  // recently unguarded pages: a fault on one raced with its release
  unsigned next_released;
};

std::atomic<registry*> the_registry{nullptr};

long this_tid() { return syscall(SYS_gettid); }

class locked {
 public:
  explicit locked(registry& r) : r_(r) {
    while (r_.lock.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~locked() { r_.lock.clear(std::memory_order_release); }
  locked(const locked&) = delete;
  locked& operator=(const locked&) = delete;

 private:
  registry& r_;
};

std::uintptr_t page_of(const registry& r, std::uintptr_t a) { return a & ~(r.page_size - 1); }

bool covers(const registry& r, const guarded_range& g, std::uintptr_t page) {
  if (!g.live || page < page_of(r, g.begin) || page >= g.end) return false;
  for (std::uintptr_t s : g.skip)
    if (page == s) return false;
  return true;
}

bool guarded(const registry& r, std::uintptr_t page) {
  for (const guarded_range& g : r.ranges)
    if (covers(r, g, page)) return true;
  return false;
}

open_page* find_open(registry& r, std::uintptr_t page) {
  for (open_page& o : r.opens)
    if (o.count > 0 && o.page == page) return &o;
  return nullptr;
}

// Gives `page` the protection the registry says: none while a live range
// covers it and nobody has it open, read-write otherwise.
void apply(registry& r, std::uintptr_t page) {
  const bool closed = guarded(r, page) && find_open(r, page) == nullptr;
  mprotect(reinterpret_cast<void*>(page), r.page_size, closed ? PROT_NONE : PROT_READ | PROT_WRITE);
  if (!closed) {
    r.released[r.next_released] = page;
    r.next_released = (r.next_released + 1) % max_released;
  }
}

template <class F>
void for_pages(const registry& r, std::uintptr_t begin, std::uintptr_t end, F f) {
  for (std::uintptr_t p = page_of(r, begin); p < end; p += r.page_size) f(p);
}

void open_page_locked(registry& r, std::uintptr_t page) {
  if (open_page* o = find_open(r, page)) {
    ++o->count;
    return;
  }
  for (open_page& o : r.opens)
    if (o.count == 0) {
      o = {page, 1};
      break;
    }
  mprotect(reinterpret_cast<void*>(page), r.page_size, PROT_READ | PROT_WRITE);
}

void close_page_locked(registry& r, std::uintptr_t page) {
  if (open_page* o = find_open(r, page)) --o->count;
  apply(r, page);
}

stepper* find_stepper(registry& r, long tid) {
  for (stepper& s : r.steppers)
    if (s.tid == tid) return &s;
  return nullptr;
}

stepper* claim_stepper(registry& r, long tid) {
  if (stepper* s = find_stepper(r, tid)) return s;
  for (stepper& s : r.steppers)
    if (s.tid == 0) {
      s = {};
      s.tid = tid;
      return &s;
    }
  return nullptr;
}

constexpr greg_t trap_flag = 0x100;

// Where a thread that touched a guarded byte resumes: on its own fiber, in
// normal context, so that the report can name the thread and end the block.
[[noreturn]] void report_hit() {
  registry& r = *the_registry.load(std::memory_order_acquire);
  guard_hit hit;
  {
    locked l(r);
    stepper& s = *find_stepper(r, this_tid());
    hit = s.hit;
    s.has_hit = false;
    if (s.pages == 0) s.tid = 0;
  }
  try {
    report_guarded_access(hit);
  } catch (const fiber_unwind&) {  // the report's own frames are unwound; the kernel's cannot be
  }
  leave_failed_fiber();
}

void on_trap(int, siginfo_t*, void* context);

registry& the_guard() {
  if (registry* r = the_registry.load(std::memory_order_acquire)) return *r;
  static std::atomic_flag installing;
  while (installing.test_and_set(std::memory_order_acquire)) {
  }
  registry* r = the_registry.load(std::memory_order_relaxed);
  if (r == nullptr) {
    void* memory = mmap(nullptr, sizeof(registry), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    r = new (memory) registry{};
    r->page_size = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    struct sigaction action{};
    action.sa_sigaction = &on_trap;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTRAP, &action, nullptr);
    the_registry.store(r, std::memory_order_release);
  }
  installing.clear(std::memory_order_release);
  return *r;
}

// The trap after a single-stepped instruction: close the pages it was let into.
void on_trap(int sig, siginfo_t*, void* context) {
  registry& r = *the_registry.load(std::memory_order_acquire);
  auto& regs = static_cast<ucontext_t*>(context)->uc_mcontext.gregs;
  {
    locked l(r);
    if (stepper* s = find_stepper(r, this_tid()); s != nullptr && s->pages > 0) {
      const int pages = s->pages;
      s->pages = 0;
      if (!s->has_hit) s->tid = 0;
      for (int i = 0; i < pages; ++i) close_page_locked(r, s->page[i]);
      regs[REG_EFL] &= ~trap_flag;
      return;
    }
  }
  signal(sig, SIG_DFL);  // not ours: a debugger's or the program's trap takes its usual course
  raise(sig);
}

// Stops guarding `g`; its pages close again only where other ranges need them.
void release(registry& r, guarded_range& g) {
  g.live = false;
  for_pages(r, g.begin, g.end, [&](std::uintptr_t p) { apply(r, p); });
}

template <class Match>
void release_ranges(Match match) {
  registry* r = the_registry.load(std::memory_order_acquire);
  if (r == nullptr) return;
  locked l(*r);
  for (guarded_range& g : r->ranges)
    if (g.live && match(g)) release(*r, g);
}

void with_pages(const void* begin, std::size_t bytes, void (*f)(registry&, std::uintptr_t)) {
  registry* r = the_registry.load(std::memory_order_acquire);
  if (r == nullptr || bytes == 0) return;
  const auto b = reinterpret_cast<std::uintptr_t>(begin);
  locked l(*r);
  for_pages(*r, b, b + bytes, [&](std::uintptr_t p) { f(*r, p); });
}

}  // namespace

void guard(const void* owner, uint3 block, std::source_location site, const void* begin, std::size_t bytes) {
  if (bytes == 0) return;
  registry& r = the_guard();
  const auto b = reinterpret_cast<std::uintptr_t>(begin);
  const auto tp = reinterpret_cast<std::uintptr_t>(__builtin_thread_pointer());
  const auto page_at = [&](const void* p) { return page_of(r, reinterpret_cast<std::uintptr_t>(p)); };
  const std::uintptr_t rseq =
      &__rseq_offset != nullptr && &__rseq_size != nullptr && __rseq_size > 0 ? page_of(r, tp + __rseq_offset) : 0;
  guarded_range g{b,
                  b + bytes,
                  {page_of(r, tp), rseq, page_at(&current_block), page_at(&current_thread), page_at(&the_registry)},
                  owner,
                  block,
                  site,
                  true};
  locked l(r);
  for (guarded_range& slot : r.ranges)
    if (!slot.live) {
      slot = g;
      for_pages(r, g.begin, g.end, [&](std::uintptr_t p) { apply(r, p); });
      return;
    }
  // Every slot taken: this copy goes unguarded; its poison still gives it away.
}

void unguard(const void* owner, const void* begin) {
  release_ranges(
      [&](const guarded_range& g) { return g.owner == owner && g.begin == reinterpret_cast<std::uintptr_t>(begin); });
}

void unguard_all(const void* owner) {
  release_ranges([&](const guarded_range& g) { return g.owner == owner; });
}

void open_pages(const void* begin, std::size_t bytes) { with_pages(begin, bytes, &open_page_locked); }

void close_pages(const void* begin, std::size_t bytes) { with_pages(begin, bytes, &close_page_locked); }

bool handle_guard_fault(void* address, int code, void* context) {
  registry* rp = the_registry.load(std::memory_order_acquire);
  if (rp == nullptr || code != SEGV_ACCERR) return false;
  registry& r = *rp;
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  const std::uintptr_t page = page_of(r, a);
  auto& regs = static_cast<ucontext_t*>(context)->uc_mcontext.gregs;
  locked l(r);
  if (!guarded(r, page)) {
    // Unguarded since the access faulted (another thread completed the copy): try again.
    for (std::uintptr_t p : r.released)
      if (p == page) return true;
    return false;
  }
  const long tid = this_tid();
  stepper* s = claim_stepper(r, tid);
  if (s == nullptr) return false;
  for (guarded_range& g : r.ranges) {
    if (!covers(r, g, page) || a < g.begin || a >= g.end) continue;
    // A byte in flight: stop guarding the copy and resume in report_hit().
    s->has_hit = true;
    s->hit = {g.site, g.block, reinterpret_cast<const void*>(g.begin), g.end - g.begin, a, (regs[REG_ERR] & 2) != 0};
    release(r, g);
    // Below the interrupted code's red zone, aligned as a call would leave it.
    regs[REG_RSP] = ((regs[REG_RSP] - 256) & ~greg_t{15}) - 8;
    regs[REG_RIP] = reinterpret_cast<greg_t>(&report_hit);
    return true;
  }
  // Another byte of a guarded page: let this one instruction through.
  if (s->pages == 4) return false;
  s->page[s->pages++] = page;
  open_page_locked(r, page);
  regs[REG_EFL] |= trap_flag;
  return true;
}

#else  // no single-stepping here: no guard, the poison alone

void guard(const void*, uint3, std::source_location, const void*, std::size_t) {}
void unguard(const void*, const void*) {}
void unguard_all(const void*) {}
void open_pages(const void*, std::size_t) {}
void close_pages(const void*, std::size_t) {}
bool handle_guard_fault(void*, int, void*) { return false; }

#endif

}  // namespace cohort::detail::host
