// What `cohort bench reduce|scan|sync` was asked to do.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/random_input.hpp"

namespace cohort_cli {

struct bench_options {
  std::vector<std::uint64_t> sizes;  // elements (reduce, scan) or threads per block (sync)
  int repeat = 5;                    // timed runs per row, after one verified warm-up run
  std::uint64_t seed = cohort_kernels::default_seed;
  std::string json_path;  // empty: no JSON file
  std::string plot_path;  // empty: no chart
};

}  // namespace cohort_cli
