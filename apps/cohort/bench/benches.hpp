// The three benches of `cohort bench`. Each runs its variants over
// options.sizes, verifies every result and returns the report; none prints
// anything but progress on stderr.
#pragma once

#include "bench/options.hpp"
#include "bench/report.hpp"

namespace cohort_cli {

report run_reduce_bench(const bench_options& options);
report run_scan_bench(const bench_options& options);
report run_sync_bench(const bench_options& options);

}  // namespace cohort_cli
