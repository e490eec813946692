// The floor under every synchronizing primitive of the host engine: fibers on
// the engine's own stacks (stack_pool) that do nothing but switch to the next
// one in a ring, from one call site, as threads parking at one block barrier
// do. Any barrier that keeps a GPU thread's state on a stack of its own pays
// at least this switch per thread; what a block barrier costs above it is
// the barrier's own work (counting, checking, recording for the
// diagnostics). docs/host-backend.md compares it with HIP-CPU's barrier.
#include <benchmark/benchmark.h>

#include <optional>
#include <vector>

#include "fibers/fiber.hpp"

namespace host = cohort::detail::host;

namespace {

struct ring {
  host::fiber main;                  // the benchmark's own stack
  std::vector<host::fiber> members;  // member i switches to member i + 1, the last to member 0
  std::size_t starting = 0;          // the member being started
  long rounds_left = 0;              // counted down by member 0, which switches to main when it finds 0
};

ring* running_ring = nullptr;

// A member's whole life: started by main, it returns there at once; resumed,
// it switches to the next member for good, member 0 to main after the rounds.
void member_main(host::ctx::transfer_t t) {
  host::resumed(t, nullptr);
  ring& r = *running_ring;
  const std::size_t index = r.starting;
  host::fiber& self = r.members[index];
  host::fiber& next = r.members[(index + 1) % r.members.size()];
  // The stack resumed three switches from now, prefetched as the block
  // barrier prefetches its queue's (scheduler.hpp, resume_released).
  const host::fiber& ahead = r.members[(index + 3) % r.members.size()];
  host::switch_fiber(self, r.main);
  for (;;) {
    if (index == 0 && r.rounds_left-- == 0) host::switch_fiber(self, r.main);
    __builtin_prefetch(ahead.context);
    host::switch_fiber(self, next);
  }
}

// Time per switch: an iteration is `rounds` trips around a ring of `size`
// members, each switch to the next member's stack.
void BM_FiberSwitchRing(benchmark::State& state) {
  const auto size = static_cast<std::size_t>(state.range(0));
  const long rounds = 1000;
  host::stack_pool pool;
  ring r;
  r.members.resize(size);
  running_ring = &r;
  for (std::size_t i = 0; i < size; ++i) {
    const std::optional<host::stack_area> stack = pool.acquire();
    if (!stack) {
      state.SkipWithError(pool.failure().c_str());
      return;
    }
    r.members[i].stack = *stack;
    r.starting = i;
    host::start_fiber(r.main, r.members[i], &member_main);
  }
  for (auto _ : state) {
    r.rounds_left = rounds;
    host::switch_fiber(r.main, r.members[0]);
  }
  state.counters["ns_per_switch"] = benchmark::Counter(static_cast<double>(state.iterations()) * rounds * size,
                                                       benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  running_ring = nullptr;
  // The members stay suspended in their loops; nothing on their stacks needs unwinding.
  for (host::fiber& m : r.members) pool.release(m.stack);
}
BENCHMARK(BM_FiberSwitchRing)->Arg(32)->Arg(256)->Arg(1024)->Unit(benchmark::kMicrosecond);

}  // namespace
