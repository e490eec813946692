// The floor under a warp shuffle on the host engine: a whole warp exchanging
// values with none of a collective's checks (mask, width, a mismatched or
// non-uniform call, exited lanes) and no rendezvous record, on the engine's
// own parking, switching and waking (scheduler.hpp). Each lane writes its
// value and parks, switching straight to the next lane; the last one copies
// every lane's source into its result and wakes the others through the
// barrier queue, as the real collective's fast path does. Whatever a shuffle
// that keeps every lane's state on a stack of its own does, it does at least
// this much. BM_WarpShuffleRounds times the real __shfl_xor_sync on the same
// kernel in the same binary (that of bench/peer's shuffle row);
// docs/host-backend.md ("The floor: one switch per thread") compares both
// with HIP-CPU's shuffle.
#include <benchmark/benchmark.h>

#include <array>
#include <cohort/cohort.hpp>
#include <cstring>

#include "launch/block_runtime.hpp"

namespace host = cohort::detail::host;

namespace {

constexpr unsigned lanes = 32;
thread_local std::array<unsigned, 1024 / lanes> arrived_in_warp{};

// Arg 1 records each park as the deadlock report reads it (what waits, where,
// on which phase); arg 0 records only the fiber to wake.
template <bool Recorded>
unsigned bare_shfl_xor(unsigned value, unsigned lane_mask,
                       std::source_location where = std::source_location::current()) {
  host::block_runtime& rt = host::current_runtime();
  host::thread_record& self = *host::current_thread;
  const unsigned rank = self.rank, warp = rank / lanes;
  host::collective_slot* const slots = rt.slots;
  std::memcpy(slots[rank].in, &value, sizeof value);
  if (++arrived_in_warp[warp] < lanes) {
    if (rt.barrier.has_released() && !rt.attention) {
      if constexpr (Recorded) {
        host::resume_released(rt, host::record_park(rt, self, host::wait_kind::collective, where, 0));
      } else {
        self.home = rt.running;
        ++rt.parked;
        host::resume_released(rt, *rt.running);
      }
    } else {
      host::park(rt, self, host::wait_kind::collective, where, 0);
    }
  } else {
    arrived_in_warp[warp] = 0;
    host::collective_slot* const warp_slots = slots + warp * lanes;
    for (unsigned l = 0; l < lanes; ++l) std::memcpy(warp_slots[l].out, warp_slots[l ^ lane_mask].in, sizeof value);
    rt.wake(lanes - 1, [&](auto&& queue) {
      for (unsigned l = 0; l < lanes; ++l)
        if (host::thread_record& t = rt.threads[warp * lanes + l]; &t != &self) queue(t);
    });
  }
  unsigned result;
  std::memcpy(&result, slots[rank].out, sizeof result);
  return result;
}

constexpr int rounds = 64;
constexpr unsigned blocks = 2, threads = 1024;

template <bool Recorded>
__global__ void bare_rounds(int* sink) {
  auto x = static_cast<unsigned>(threadIdx.x);
  for (int r = 0; r < rounds; ++r) x += bare_shfl_xor<Recorded>(x, 1u << (r & 4));
  if (x == 0) *sink = 1;
}

__global__ void shuffle_rounds(int* sink) {
  auto x = static_cast<unsigned>(threadIdx.x);
  for (int r = 0; r < rounds; ++r) x += __shfl_xor_sync(0xffffffffu, x, 1 << (r & 4));
  if (x == 0) *sink = 1;
}

void per_lane(benchmark::State& state, void (*kernel)(int*)) {
  int sink = 0;
  for (auto _ : state) cohort::launch(kernel, {dim3(blocks), dim3(threads)}, &sink);
  state.counters["ns_per_lane"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * blocks * threads * rounds,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_WarpExchangeFloor(benchmark::State& state) {
  per_lane(state, state.range(0) != 0 ? &bare_rounds<true> : &bare_rounds<false>);
}
BENCHMARK(BM_WarpExchangeFloor)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_WarpShuffleRounds(benchmark::State& state) { per_lane(state, &shuffle_rounds); }
BENCHMARK(BM_WarpShuffleRounds)->Unit(benchmark::kMicrosecond);

}  // namespace
