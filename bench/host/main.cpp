// The host benchmarks run their blocks on one worker unless COHORT_WORKERS
// says otherwise, so that per-thread costs and the comparison with a plain
// single-threaded loop are like for like.
#include <benchmark/benchmark.h>

#include <cstdlib>

int main(int argc, char** argv) {
  setenv("COHORT_WORKERS", "1", /*overwrite=*/0);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
