#include "scheduling/worker_pool.hpp"

#include "cohort/detail/host/algorithms/parallel_parts.hpp"
#include "cohort/errors.hpp"
#include "memory/mapping_limit.hpp"
#include "scheduling/cpu_pin.hpp"
#include "scheduling/runtime_tls.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace cohort::detail::host {

namespace {

struct job_group {
  const std::function<void(unsigned)>* job;
  std::atomic<unsigned> remaining;
};

class worker {
 public:
  worker() : thread_([this] { loop(); }) {}
  ~worker() {
    stop();
    thread_.join();
  }
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_one();
  }
  void assign(job_group* group, unsigned index) {
    {
      std::lock_guard lock(mutex_);
      group_ = group;
      index_ = index;
    }
    wake_.notify_one();
  }

 private:
  void loop();

  std::mutex mutex_;
  std::condition_variable wake_;
  job_group* group_ = nullptr;
  unsigned index_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

// The memory mappings a new worker comes to hold, measured on x86-64 Linux
// (glibc): 12.9 a thread after a cooperative launch of 2048 blocks, which
// left each its stack and guard, its block's shared memory between guard
// zones, its signal stack and its fibers' slab.
constexpr long mappings_per_worker = 14;

// A launch that would start `new_threads` OS threads (of `threads` in all)
// whose mappings, with those in use, pass three quarters of the process's
// limit (the last quarter is fiber stacks' guards', fiber.hpp) fails here,
// before any starts: past the limit thread starts, shared memory and malloc
// fail by turns, and glibc ends the process where a thread cannot register
// its thread-local destructors. Below 256 new threads the check (a read of
// /proc/self/maps) is skipped: so few never come near the limit.
void require_mappings_for(std::size_t new_threads, std::size_t threads) {
  if (new_threads < 256) return;
  const long in_use = mappings_in_use(), limit = max_map_count();
  const long room = limit / 4 * 3 - in_use;
  const long wanted = static_cast<long>(new_threads) * mappings_per_worker;
  if (in_use < 0 || wanted <= room) return;
  const long most = std::max(0L, room / mappings_per_worker) + static_cast<long>(threads - new_threads);
  throw error(errc::out_of_memory,
              "a launch of " + std::to_string(threads) +
                  " blocks at once (a cooperative or cluster launch gives each block an OS thread) would start " +
                  std::to_string(new_threads) + " OS threads, about " + std::to_string(wanted) +
                  " memory mappings with what each holds, past three quarters of the process's limit "
                  "(vm.max_map_count = " +
                  std::to_string(limit) + ", " + std::to_string(in_use) +
                  " in use; the last quarter is for fiber stacks' guards): launch at most about " +
                  std::to_string(most) +
                  " blocks at once (a smaller COHORT_SM_COUNT lowers max_cooperative_grid) or raise the limit "
                  "(sysctl -w vm.max_map_count=262144)");
}

class pool {
 public:
  // Every worker is told to stop before the first is joined, so that they
  // wind down together (a cooperative launch may have left thousands). At an
  // exit() while a launch runs (a signal handler's, or another host
  // thread's) its workers may never come back to be joined: they are left
  // to the end of the process, as a GPU's threads are: a worker is idle
  // again before its launch returns, so one that is not is still in one.
  ~pool() {
    std::lock_guard lock(mutex_);
    if (idle_.size() != all_.size()) {
      for (auto& w : all_) (void)w.release();
      open_every_tls_guard();
      return;
    }
    for (const auto& w : all_) w->stop();
  }
  static pool& instance() {
    static pool p;
    return p;
  }
  std::vector<worker*> take(unsigned n) {
    std::lock_guard lock(mutex_);
    if (n > idle_.size()) require_mappings_for(n - idle_.size(), n + 1ull);
    std::vector<worker*> taken;
    try {
      while (taken.size() < n) {
        if (idle_.empty()) {
          all_.push_back(std::make_unique<worker>());
          idle_.push_back(all_.back().get());
        }
        taken.push_back(idle_.back());
        idle_.pop_back();
      }
    } catch (const std::system_error& e) {
      idle_.insert(idle_.end(), taken.begin(), taken.end());
      throw error(errc::out_of_memory, "cannot start OS thread " + std::to_string(all_.size() + 1) + " for a launch (" +
                                           e.what() +
                                           "); lower COHORT_WORKERS, or, for a cooperative launch, which "
                                           "gives every block an OS thread, launch fewer blocks");
    }
    return taken;
  }
  void give_back(worker* w) {
    std::lock_guard lock(mutex_);
    idle_.push_back(w);
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<worker>> all_;
  std::vector<worker*> idle_;
};

}  // namespace

// An OS thread waiting for a core, or asleep in a sleepers list: one per
// thread, living as long as it, so that whoever serves it may wake it after
// leaving the pool's lock (the waiter cannot have gone before it is woken).
struct core_waiter {
  // The waker's signal. A lock and condition of its own rather than a
  // std::binary_semaphore, whose wait spins on sched_yield first (libstdc++):
  // the yields kept a thread about to be moved to its core's CPU running, and
  // moving a running thread costs far more than moving a sleeping one.
  std::mutex mutex;
  std::condition_variable woken;
  bool granted = false;
  cpu_pin pin;
  unsigned core = 0;       // the core it holds, or was served
  int last_cpu = -1;       // where it ran when it began to wait
  bool lent_core = false;  // sleepers only: it gets a core back before it wakes
  bool waiting = false;    // in wait_for_grant
};

namespace {

// The thread's waiter, destroyed with the thread, unless the thread waits
// in it: exit() from a signal handler that interrupted the wait runs the
// thread's destructors on top of it, and destroying a condition that has a
// waiter blocks for good. Then it is left to the end of the process.
void end_waiter(void* w) {
  if (!static_cast<core_waiter*>(w)->waiting) delete static_cast<core_waiter*>(w);
  this_threads_waiter = nullptr;
}

core_waiter& this_waiter() {
  if (this_threads_waiter == nullptr) [[unlikely]] {
    this_threads_waiter = new core_waiter;
    at_thread_exit(&end_waiter, this_threads_waiter);
  }
  return *this_threads_waiter;
}

void wait_for_grant(core_waiter& w) {
  std::unique_lock lock(w.mutex);
  w.waiting = true;
  w.woken.wait(lock, [&w] { return w.granted; });
  w.waiting = false;
  w.granted = false;
}

void grant(core_waiter& w) {
  {
    const std::lock_guard lock(w.mutex);
    w.granted = true;
  }
  w.woken.notify_one();
}

// A counting semaphore over numbered cores that serves its waiters in order
// and wakes only the one it serves: a block that lends its core and claims it
// back queues behind the blocks already waiting, so none is starved, and a
// release wakes one thread, not all the blocks waiting at a barrier. Its
// lock also guards every sleepers list (below), so that a sleeper's lent core
// and its place in the queue change hands in one step. Waiters are woken
// after the lock is left, so that a woken thread does not wake only to wait
// for the lock. Each core keeps to a CPU of its own (cpu_pin.hpp), so that a
// core handed from one thread to the next is handed on the CPU both run on,
// and two cores never share a CPU while another CPU idles.
class core_pool {
 public:
  using waiter = core_waiter;

  explicit core_pool(unsigned cores) : cpus_(cpu_pin::spread(cores)) {
    for (unsigned c = cores; c-- > 0;) free_.push_back(c);
  }

  void acquire() {
    waiter& self = this_waiter();
    self.last_cpu = cpu_pin::current_cpu();
    bool queued = false;
    {
      const std::lock_guard lock(mutex_);
      queued = !take_free_core(self);
      if (queued) queue_.push_back(&self);
    }
    if (queued)
      wait_for_grant(self);  // confined to its core's CPU by the thread that served it
    else
      self.pin.confine_to(cpus_[self.core]);
  }
  void release() {
    waiter* next = nullptr;
    {
      const std::lock_guard lock(mutex_);
      next = release_locked(this_waiter());
    }
    if (next != nullptr) serve(*next);
  }

  // The caller sleeps in `list` unless `done()`, evaluated under the lock,
  // already holds; its core, if it holds one, goes to the queue meanwhile.
  void sleep(std::vector<waiter*>& list, bool holds_core, const std::function<bool()>& done) {
    waiter& self = this_waiter();
    self.last_cpu = cpu_pin::current_cpu();
    waiter* next = nullptr;
    {
      const std::lock_guard lock(mutex_);
      if (done()) return;
      self.lent_core = holds_core;
      list.push_back(&self);
      if (holds_core) next = release_locked(self);
    }
    if (next != nullptr) serve(*next);
    wait_for_grant(self);
  }
  // Wakes every sleeper of `list`: those that lent a core queue for one in
  // the order they slept, and only those a free core serves wake now.
  void wake(std::vector<waiter*>& list) {
    std::vector<waiter*> woken;
    {
      const std::lock_guard lock(mutex_);
      for (waiter* w : list) {
        if (!w->lent_core || take_free_core(*w))
          woken.push_back(w);
        else
          queue_.push_back(w);
      }
      list.clear();
    }
    for (waiter* w : woken) {
      if (w->lent_core)
        serve(*w);
      else
        grant(*w);
    }
  }

 private:
  // A free core for `w`, unless others already queue for one: the one on
  // the CPU `w` last ran on if that one is free (moving a thread to another
  // CPU costs a cross-CPU interrupt), else the last freed.
  bool take_free_core(waiter& w) {
    if (free_.empty() || !queue_.empty()) return false;
    auto taken = std::find_if(free_.begin(), free_.end(), [&](unsigned c) { return cpus_[c] == w.last_cpu; });
    if (taken == free_.end()) taken = free_.end() - 1;
    w.core = *taken;
    free_.erase(taken);
    return true;
  }
  // Frees `holder`'s core, or gives it to the next waiter, returned.
  waiter* release_locked(const waiter& holder) {
    if (queue_.empty()) {
      free_.push_back(holder.core);
      return nullptr;
    }
    waiter* next = queue_.front();
    queue_.pop_front();
    next->core = holder.core;
    return next;
  }
  // Wakes `w`, which has been given a core, on that core's CPU.
  void serve(waiter& w) {
    w.pin.confine_to(cpus_[w.core]);
    grant(w);
  }

  const std::vector<int> cpus_;  // each core's CPU
  std::mutex mutex_;
  std::vector<unsigned> free_;
  std::deque<waiter*> queue_;
};

core_pool& cores() {
  static core_pool pool(worker_threads());
  return pool;
}

void finish(job_group& group) {
  if (group.remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) group.remaining.notify_all();
}

void worker::loop() {
  for (;;) {
    job_group* group;
    unsigned index;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return group_ != nullptr || stopping_; });
      if (stopping_) return;
      group = std::exchange(group_, nullptr);
      index = index_;
    }
    (*group->job)(index);
    pool::instance().give_back(this);
    finish(*group);
  }
}

}  // namespace

void run_on_threads(unsigned n, const std::function<void(unsigned)>& job) {
  if (n == 0) return;
  job_group group{&job, n};
  const std::vector<worker*> helpers = pool::instance().take(n - 1);
  for (unsigned i = 0; i < helpers.size(); ++i) helpers[i]->assign(&group, i + 1);
  job(0);
  finish(group);
  for (unsigned left = group.remaining.load(std::memory_order_acquire); left != 0;
       left = group.remaining.load(std::memory_order_acquire))
    group.remaining.wait(left, std::memory_order_acquire);
}

core_claim::core_claim() {
  cores().acquire();
  holds_core = true;
}

core_claim::~core_claim() {
  holds_core = false;
  cores().release();
  this_waiter().pin.release();
}

core_lent::core_lent() : lent_(holds_core) {
  if (!lent_) return;
  holds_core = false;
  cores().release();
}

core_lent::~core_lent() {
  if (!lent_) return;
  cores().acquire();
  holds_core = true;
}

bool every_block_has_a_core(unsigned long long blocks) {
  static const unsigned cores = std::thread::hardware_concurrency();  // asking costs system calls
  return blocks <= std::min(cores, worker_threads());
}

sleepers::sleepers() = default;
sleepers::~sleepers() = default;

void sleepers::sleep_unless(const std::function<bool()>& done) { cores().sleep(list_, holds_core, done); }

void sleepers::wake_all() { cores().wake(list_); }

void yield_core() {
  const core_lent lent;
  std::this_thread::yield();
}

}  // namespace cohort::detail::host
