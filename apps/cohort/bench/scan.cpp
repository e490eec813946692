// `cohort bench scan`: grid-wide inclusive scans of int32 (and, in
// cohort-cuda, CUB's) over each size, against a copy of the same size.
// Integer sums are exact, so every element of the first and the last run is
// compared with the CPU's scan.
#include <cstdint>
#include <string>
#include <vector>

#include <cohort/cohort.hpp>

#include "bench/benches.hpp"
#include "bench/rivals.hpp"
#include "bench/throughput.hpp"
#include "common/random_input.hpp"
#include "timed/scan.hpp"

namespace cohort_cli {

using namespace cohort_kernels;  // the kernels it times (kernels/timed)

namespace {

std::vector<int> inclusive_scan_on_cpu(const std::vector<int>& in) {
  std::vector<int> out(in.size());
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = static_cast<int>(sum += in[i]);
  return out;
}

verdict judge_scan(const std::vector<int>& got, const std::vector<int>& expected) {
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != expected[i])
      return {false, "out[" + std::to_string(i) + "] = " + std::to_string(got[i]) + ", expected " +
                         std::to_string(expected[i])};
  return {true, "every element exact"};
}

// A scan must read n elements and write n, as a copy does.
expectation<int> expect_scan(const std::vector<int>& input) {
  return {input.size(), -1, 2.0 * static_cast<double>(input.size() * sizeof(int)),
          [expected = inclusive_scan_on_cpu(input)](const std::vector<int>& out) { return judge_scan(out, expected); }};
}

}  // namespace

report run_scan_bench(const bench_options& options) {
  std::vector<scan_variant> variants(std::begin(scan_variants), std::end(scan_variants));
  for (const scan_variant& rival : scan_rivals()) variants.push_back(rival);
  return run_throughput_bench("scan", "int32", options, variants, &cohort_kernels::random_ints, &expect_scan);
}

}  // namespace cohort_cli
