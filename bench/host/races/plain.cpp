#define RACE_BENCH_NAMESPACE race_bench_plain
#include "kernels.hpp"
