// `cohort bench reduce`: seed 000's reductions of float32 over each size,
// against a copy of the same size. Every variant's first and last result is
// checked against a double-precision sum of the input.
#include <cstdio>

#include <cohort/cohort.hpp>

#include "bench/benches.hpp"
#include "bench/progress.hpp"
#include "bench/throughput.hpp"
#include "common/random_input.hpp"
#include "common/sum_check.hpp"
#include "reduce/variants.hpp"

namespace cohort_cli {

namespace {

std::string describe(const cohort_examples::sum_check& c) {
  char text[128];
  std::snprintf(text, sizeof text, "|sum - reference| %.3g %s %.3g", c.error, c.ok ? "<=" : ">", c.tolerance);
  return text;
}

result_row measure_variant(const cohort_examples::reduce_variant& variant, const cohort::device_buffer<float>& in,
                           const cohort_examples::reference_sum& reference, int repeat) {
  const std::size_t n = in.size();
  const cohort_examples::reduce_plan plan = variant.plan(n);
  cohort::device_buffer<float> out(1);
  const auto run = [&] { plan.run(in.data(), out.data()); };
  run();
  const cohort_examples::sum_check first = cohort_examples::check_sum(reference, out.to_host()[0]);
  result_row row{std::string(variant.name), n, plan.launch, cohort_examples::time_us(run, repeat), false, "", {}};
  // The last timed run is checked too: a race may show in one run of many.
  const cohort_examples::sum_check last = cohort_examples::check_sum(reference, out.to_host()[0]);
  row.verified = first.ok && last.ok;
  row.check = describe(first.ok ? last : first);
  return row;
}

}  // namespace

report run_reduce_bench(const bench_options& options) {
  report r{.command = "reduce",
           .size_unit = "elements",
           .element = "float32",
           .seed = options.seed,
           .repeat = options.repeat,
           .device = cohort::get_device_properties(),
           .columns = throughput_columns(),
           .plot_key = "bandwidth_gbps",
           .plot_label = "bandwidth (GB/s)",
           .rows = {}};
  const auto& variants = cohort_examples::reduce_variants;
  progress bar("reduce", options.sizes.size() * (variants.size() + 1));
  for (const std::uint64_t n : options.sizes) {
    const std::vector<float> input = cohort_examples::random_floats(n, options.seed);
    const cohort_examples::reference_sum reference = cohort_examples::sum_in_double(input.data(), n);
    const cohort::device_buffer<float> in(input);

    bar.step(size_text(n), "copy");
    const result_row copy = measure_copy(in, input, options.repeat);
    const double copy_gbps = copy.metric("bandwidth_gbps");
    r.rows.push_back(copy);
    for (const auto& variant : variants) {
      bar.step(size_text(n), std::string(variant.name));
      result_row row = measure_variant(variant, in, reference, options.repeat);
      set_throughput(row, static_cast<double>((n + 1) * sizeof(float)), copy_gbps);
      r.rows.push_back(std::move(row));
    }
  }
  return r;
}

}  // namespace cohort_cli
