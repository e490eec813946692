// What the GPU benchmarks share: cohort and a rival (NVIDIA's CG, CUB) timed
// alternately with CUDA events in one process, medians per operation, and
// the ratio table each benchmark prints last.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cohort/cohort.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace rival_timing {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

struct timer {
  cudaEvent_t start, stop;
  timer() {
    check(cudaEventCreate(&start), "event");
    check(cudaEventCreate(&stop), "event");
  }
  ~timer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  template <class Launch>
  double milliseconds(Launch&& launch) {
    check(cudaEventRecord(start), "record");
    launch();
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "synchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
    return ms;
  }
};

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct row {
  std::string name;
  unsigned blocks, threads;
  double ours, theirs;  // per operation, in `unit`
  const char* unit;
};

inline constexpr int warmups = 3, repetitions = 15;

// Times `ours` and `theirs` alternately; returns their medians divided by
// `operations` and multiplied by `scale` (1e3: microseconds, 1e6: nanoseconds).
template <class Ours, class Theirs>
std::pair<double, double> race(Ours&& ours, Theirs&& theirs, int operations, double scale) {
  timer t;
  for (int i = 0; i < warmups; ++i) {
    t.milliseconds(ours);
    t.milliseconds(theirs);
  }
  std::vector<double> a, b;
  for (int i = 0; i < repetitions; ++i) {
    a.push_back(t.milliseconds(ours));
    b.push_back(t.milliseconds(theirs));
  }
  return {median(a) * scale / operations, median(b) * scale / operations};
}

inline void print_device(const cohort::device_properties& p) {
  std::printf("device: %s, %d SMs, compute capability %d.%d\n", p.name.c_str(), p.multiprocessor_count,
              p.compute_capability_major, p.compute_capability_minor);
}

inline void print_row(const row& r) {
  std::printf("%-34s %6u blocks x %4u threads: cohort %.3f %s, NVIDIA %.3f %s\n", r.name.c_str(), r.blocks, r.threads,
              r.ours, r.unit, r.theirs, r.unit);
}

inline void print_table(const cohort::device_properties& p, const char* per, const std::vector<row>& rows) {
  std::printf("\n== cohort vs NVIDIA cooperative_groups on %s: median of %d, %s; ratio = cohort / NVIDIA ==\n",
              p.name.c_str(), repetitions, per);
  std::printf("%-34s %7s %8s %10s %10s %7s\n", "benchmark", "blocks", "threads", "cohort", "NVIDIA", "ratio");
  for (const row& r : rows)
    std::printf("%-34s %7u %8u %7.3f %s %7.3f %s %7.2f\n", r.name.c_str(), r.blocks, r.threads, r.ours, r.unit,
                r.theirs, r.unit, r.ours / r.theirs);
}

// Runs a benchmark's body, reporting cohort's errors with the program's name.
template <class Run>
int main_of(const char* program, Run&& run) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // line by line, so a run cut short keeps what it measured
  try {
    run();
  } catch (const cohort::error& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return 1;
  }
  return 0;
}

}  // namespace rival_timing
