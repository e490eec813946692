// `cohort bench reduce`: five classic reductions of float32 and cohort's
// whole-array reduce inside a kernel and from the host (and, in cohort-cuda, CUB's and one with NVIDIA's
// cooperative groups) over each size, against a copy of the same size. Every
// variant's first and last result is checked against a double-precision sum
// of the input.
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <cohort/cohort.hpp>

#include "bench/benches.hpp"
#include "bench/rivals.hpp"
#include "bench/throughput.hpp"
#include "common/random_input.hpp"
#include "common/sum_check.hpp"
#include "reduce/variants.hpp"
#include "timed/grid_reduce.hpp"

namespace cohort_cli {

using namespace cohort_kernels;  // the kernels it times (kernels/timed)

namespace {

verdict judge_sum(const cohort_kernels::reference_sum& reference, float got) {
  const cohort_kernels::sum_check c = cohort_kernels::check_sum(reference, got);
  char text[128];
  std::snprintf(text, sizeof text, "|sum - reference| %.3g %s %.3g", c.error, c.ok ? "<=" : ">", c.tolerance);
  return {c.ok, text};
}

// A reduction reads n floats and writes one. Its result starts as NaN, so a
// variant that never writes it fails.
expectation<float> expect_sum(const std::vector<float>& input) {
  const cohort_kernels::reference_sum reference = cohort_kernels::sum_in_double(input.data(), input.size());
  return {1, std::numeric_limits<float>::quiet_NaN(), static_cast<double>((input.size() + 1) * sizeof(float)),
          [reference](const std::vector<float>& out) { return judge_sum(reference, out[0]); }};
}

}  // namespace

report run_reduce_bench(const bench_options& options) {
  std::vector<cohort_kernels::reduce_variant> variants(cohort_kernels::reduce_variants.begin(),
                                                       cohort_kernels::reduce_variants.end());
  variants.push_back(sum_grid_collective);
  variants.push_back(device_reduce);
  for (const auto& rival : reduce_rivals()) variants.push_back(rival);
  return run_throughput_bench("reduce", "float32", options, variants, &cohort_kernels::random_floats, &expect_sum);
}

}  // namespace cohort_cli
