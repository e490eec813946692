// What COHORT_CHECK=races costs (docs/host-backend.md, "Data races"): a
// tree reduction and a tiled matrix product (bench/host/races/kernels.hpp),
// each run three ways: built plain; built with the race instrumentation but
// run unchecked (the hooks' cost when the mode is off); and checked.
#include <benchmark/benchmark.h>

#include <cohort/cohort.hpp>
#include <cohort/host/settings.hpp>
#include <cstdlib>

namespace cg = cohort;

#define RACE_BENCH_DECLARE(ns)                                              \
  namespace ns {                                                            \
  void run_reduce(unsigned blocks, const float* in, float* out);            \
  void run_matmul(unsigned side, const float* a, const float* b, float* c); \
  }
RACE_BENCH_DECLARE(race_bench_plain)
RACE_BENCH_DECLARE(race_bench_instrumented)

namespace {

enum class build { plain, instrumented_unchecked, checked };

constexpr unsigned threads = 256;

void per_thread(benchmark::State& state, unsigned long long count) {
  state.counters["ns_per_thread"] = benchmark::Counter(static_cast<double>(state.iterations() * count),
                                                       benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// COHORT_CHECK=races for the benchmark's scope when `how` is checked (the
// settings are read once per process unless reloaded: without the reload,
// the checked runs would run unchecked after the first benchmark's launch).
struct checking {
  explicit checking(build how) {
    if (how == build::checked) setenv("COHORT_CHECK", "races", 1);
    cohort::host::reload_settings();
  }
  ~checking() {
    unsetenv("COHORT_CHECK");
    cohort::host::reload_settings();
  }
};

void BM_RaceCheckReduction(benchmark::State& state) {
  const auto how = static_cast<build>(state.range(0));
  const unsigned blocks = 256;
  cg::device_buffer<float> in(blocks * threads), out(blocks);
  in.fill(1.0f);
  const checking mode(how);
  const auto run = how == build::plain ? race_bench_plain::run_reduce : race_bench_instrumented::run_reduce;
  for (auto _ : state) run(blocks, in.data(), out.data());
  if (out.to_host()[0] != static_cast<float>(threads)) state.SkipWithError("wrong sum");
  per_thread(state, 1ull * blocks * threads);
}
BENCHMARK(BM_RaceCheckReduction)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->ArgName("plain0_instrumented1_checked2")
    ->Unit(benchmark::kMillisecond);

void BM_RaceCheckMatmul(benchmark::State& state) {
  const auto how = static_cast<build>(state.range(0));
  const unsigned side = 128;
  cg::device_buffer<float> a(side * side), b(side * side), c(side * side);
  a.fill(1.0f);
  b.fill(1.0f);
  const checking mode(how);
  const auto run = how == build::plain ? race_bench_plain::run_matmul : race_bench_instrumented::run_matmul;
  for (auto _ : state) run(side, a.data(), b.data(), c.data());
  if (c.to_host()[0] != static_cast<float>(side)) state.SkipWithError("wrong product");
  per_thread(state, 1ull * side * side);
}
BENCHMARK(BM_RaceCheckMatmul)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->ArgName("plain0_instrumented1_checked2")
    ->Unit(benchmark::kMillisecond);

}  // namespace
