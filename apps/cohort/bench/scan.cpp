// `cohort bench scan`: grid-wide inclusive scans of int32 over each size,
// against a copy of the same size. Integer sums are exact, so every element
// of the first and the last run is compared with the CPU's scan.
#include <cstdint>
#include <vector>

#include <cohort/cohort.hpp>

#include "bench/benches.hpp"
#include "bench/progress.hpp"
#include "bench/throughput.hpp"
#include "common/random_input.hpp"
#include "kernels/scan.hpp"

namespace cohort_cli {

namespace {

std::vector<int> inclusive_scan_on_cpu(const std::vector<int>& in) {
  std::vector<int> out(in.size());
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = static_cast<int>(sum += in[i]);
  return out;
}

// Empty if got equals expected, otherwise the first difference.
std::string first_difference(const std::vector<int>& got, const std::vector<int>& expected) {
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != expected[i])
      return "out[" + std::to_string(i) + "] = " + std::to_string(got[i]) + ", expected " + std::to_string(expected[i]);
  return {};
}

result_row measure_variant(const scan_variant& variant, const cohort::device_buffer<int>& in,
                           const std::vector<int>& expected, int repeat) {
  const std::size_t n = in.size();
  const scan_plan plan = variant.plan(n);
  cohort::device_buffer<int> out(n);
  const auto run = [&] { plan.run(in.data(), out.data()); };
  out.fill(-1);  // poisoned, so that an element no block writes is caught
  run();
  const std::string first = first_difference(out.to_host(), expected);
  result_row row{std::string(variant.name), n, plan.launch, cohort_examples::time_us(run, repeat), false, "", {}};
  const std::string last = first_difference(out.to_host(), expected);
  row.verified = first.empty() && last.empty();
  row.check = row.verified ? "every element exact" : first.empty() ? "last run: " + last : "first run: " + first;
  return row;
}

}  // namespace

report run_scan_bench(const bench_options& options) {
  report r{.command = "scan",
           .size_unit = "elements",
           .element = "int32",
           .seed = options.seed,
           .repeat = options.repeat,
           .device = cohort::get_device_properties(),
           .columns = throughput_columns(),
           .plot_key = "bandwidth_gbps",
           .plot_label = "bandwidth (GB/s)",
           .rows = {}};
  progress bar("scan", options.sizes.size() * (std::size(scan_variants) + 1));
  for (const std::uint64_t n : options.sizes) {
    const std::vector<int> input = cohort_examples::random_ints(n, options.seed);
    const std::vector<int> expected = inclusive_scan_on_cpu(input);
    const cohort::device_buffer<int> in(input);

    bar.step(size_text(n), "copy");
    const result_row copy = measure_copy(in, input, options.repeat);
    const double copy_gbps = copy.metric("bandwidth_gbps");
    r.rows.push_back(copy);
    for (const scan_variant& variant : scan_variants) {
      bar.step(size_text(n), std::string(variant.name));
      result_row row = measure_variant(variant, in, expected, options.repeat);
      // A scan must read n elements and write n, as a copy does.
      set_throughput(row, 2.0 * static_cast<double>(n * sizeof(int)), copy_gbps);
      r.rows.push_back(std::move(row));
    }
  }
  return r;
}

}  // namespace cohort_cli
