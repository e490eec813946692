#define RACE_BENCH_NAMESPACE race_bench_instrumented
#include "kernels.hpp"
