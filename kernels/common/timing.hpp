// Wall-clock timing of device work, written once for both backends: a sample
// is one call of the work followed by cohort::device_synchronize(), so that an
// asynchronous launch (CUDA) is timed to its completion, not to its return.
#pragma once

#include <chrono>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/statistics.hpp"

namespace cohort_kernels {

// Runs work warmups times untimed, then repeats times timed; returns the
// samples in microseconds.
template <class Work>
std::vector<double> time_us(Work&& work, int repeats, int warmups = 0) {
  for (int i = 0; i < warmups; ++i) work();
  cohort::device_synchronize();
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(repeats));
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    cohort::device_synchronize();
    samples.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  return samples;
}

}  // namespace cohort_kernels
