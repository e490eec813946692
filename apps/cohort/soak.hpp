// `cohort soak`: the grid barrier run for a long time with exact checksums,
// on the backend this binary was built with (docs/cli.md). Returns 0 if every
// phase's data arrived intact, 1 otherwise.
#pragma once

#include <cstdint>

namespace cohort_cli {

struct soak_options {
  long long phases = 10000;  // per launch, two grid barriers each
  int launches = 1;
  int threads = 256;  // per block; the grid is the largest cooperative one
  std::uint32_t seed = 1;
};

int run_soak(const soak_options& options);

}  // namespace cohort_cli
