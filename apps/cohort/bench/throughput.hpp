// What the reduce and scan benches share: at each size, a copy of the input
// and then every variant over the same input, each run once and checked,
// timed, and checked again; bandwidth against the fastest of three copies. A bench supplies
// only its variants, its input and what a right output is.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <cohort/cohort.hpp>

#include "bench/options.hpp"
#include "bench/progress.hpp"
#include "bench/report.hpp"
#include "common/grid_size.hpp"
#include "common/timing.hpp"
#include "timed/copy.hpp"

namespace cohort_cli {

using namespace cohort_kernels;  // the kernels it times (kernels/timed)

inline constexpr unsigned copy_block_threads = 256;

inline std::vector<column> throughput_columns() {
  return {{"bytes", "bytes", column::style::integer, 0, false},
          {"bandwidth_gbps", "GB/s", column::style::fixed, 2},
          {"copy_share", "% copy", column::style::percent, 0}};
}

// Bandwidth counts the bytes the operation must move (a reduction reads its
// input and writes one value; a copy reads and writes n), over the median time.
inline void set_throughput(result_row& row, double bytes, double copy_gbps) {
  const double gbps = cohort_kernels::gigabytes_per_second(bytes, cohort_kernels::median_of(row.samples_us));
  row.metrics = {{"bytes", bytes}, {"bandwidth_gbps", gbps}, {"copy_share", copy_gbps > 0 ? gbps / copy_gbps : 0.0}};
}

// What verification found in one output, right or wrong.
struct verdict {
  bool ok = false;
  std::string text;
};

// What every variant's output must be for one input.
template <class T>
struct expectation {
  std::size_t output_elements = 0;
  T poison{};        // the output's value before the first run, so that an element no run writes is caught
  double bytes = 0;  // what the operation must move per run
  std::function<verdict(const std::vector<T>& out)> judge;
};

// The copy planned for one size, shaped as reduce_plan and scan_plan are.
template <class T>
struct throughput_plan {
  std::string launch;
  std::function<void(const T* in, T* out)> run;
};

template <class T>
throughput_plan<T> plan_copy(std::size_t n) {
  const unsigned grid = cohort_kernels::resident_grid(copy_kernel<T>, copy_block_threads, n);
  return {cohort_kernels::launch_text(grid, copy_block_threads),
          [grid, n](const T* in, T* out) { cohort::launch<copy_kernel<T>>({grid, copy_block_threads}, out, in, n); }};
}

template <class T>
throughput_plan<T> plan_vector_copy(std::size_t n) {
  const std::size_t vectors = (n * sizeof(T) + sizeof(sixteen_bytes) - 1) / sizeof(sixteen_bytes);
  const unsigned grid = cohort_kernels::resident_grid(vector_copy_kernel<T>, copy_block_threads, vectors);
  return {cohort_kernels::launch_text(grid, copy_block_threads), [grid, n](const T* in, T* out) {
            cohort::launch<vector_copy_kernel<T>>({grid, copy_block_threads}, out, in, n);
          }};
}

template <class T>
throughput_plan<T> plan_memcpy(std::size_t n) {
  return {"copy_on_device", [n](const T* in, T* out) { cohort::copy_on_device(out, in, n); }};
}

// Runs plan once and judges it, times it repeat times, and judges the last
// timed run too: a race may show in one run of many.
template <class T, class Plan>
result_row measure_throughput(std::string variant, const Plan& plan, const cohort::device_buffer<T>& in,
                              const expectation<T>& expected, double copy_gbps, int repeat) {
  cohort::device_buffer<T> out(expected.output_elements);
  out.fill(expected.poison);
  const auto run = [&] { plan.run(in.data(), out.data()); };
  run();
  const verdict first = expected.judge(out.to_host());
  result_row row{std::move(variant), in.size(), plan.launch, cohort_kernels::time_us(run, repeat), false, "", {}};
  const verdict last = expected.judge(out.to_host());
  row.verified = first.ok && last.ok;
  row.check = !first.ok ? "first run: " + first.text : !last.ok ? "last run: " + last.text : last.text;
  set_throughput(row, expected.bytes, copy_gbps);
  return row;
}

// The bench over options.sizes: make_input(n, seed) is the input, expect(input)
// what the variants must output. Variant: .name and .plan(n), a plan with
// .launch and .run(in, out) on device pointers.
template <class T, class Variant, class Expect>
report run_throughput_bench(std::string command, std::string element, const bench_options& options,
                            const std::vector<Variant>& variants,
                            std::vector<T> (*make_input)(std::size_t n, std::uint64_t seed), Expect expect) {
  report r{.command = command,
           .size_unit = "elements",
           .element = std::move(element),
           .seed = options.seed,
           .repeat = options.repeat,
           .device = cohort::get_device_properties(),
           .columns = throughput_columns(),
           .plot_key = "bandwidth_gbps",
           .plot_label = "bandwidth (GB/s)",
           .rows = {}};
  progress bar(command, options.sizes.size() * (variants.size() + 3));
  for (const std::uint64_t n : options.sizes) {
    const std::vector<T> input = make_input(n, options.seed);
    const expectation<T> expected = expect(input);
    const cohort::device_buffer<T> in(input);

    const double copy_bytes = 2.0 * static_cast<double>(n * sizeof(T));
    const expectation<T> copied{n, expected.poison, copy_bytes, [&input](const std::vector<T>& out) {
                                  return out == input ? verdict{true, "output equals input"}
                                                      : verdict{false, "the copy differs from its input"};
                                }};
    // Every share is set against the fastest copy, once all three are known.
    const std::pair<const char*, throughput_plan<T> (*)(std::size_t)> copies[] = {
        {"copy", &plan_copy<T>}, {"copy-vector", &plan_vector_copy<T>}, {"memcpy", &plan_memcpy<T>}};
    const std::size_t first_copy = r.rows.size();
    double copy_gbps = 0;
    for (const auto& [name, plan] : copies) {
      bar.step(size_text(n), name);
      r.rows.push_back(measure_throughput(name, plan(n), in, copied, 0.0, options.repeat));
      copy_gbps = std::max(copy_gbps, r.rows.back().metric("bandwidth_gbps"));
    }
    for (std::size_t i = first_copy; i < r.rows.size(); ++i) set_throughput(r.rows[i], copy_bytes, copy_gbps);

    for (const Variant& variant : variants) {
      bar.step(size_text(n), std::string(variant.name));
      r.rows.push_back(
          measure_throughput(std::string(variant.name), variant.plan(n), in, expected, copy_gbps, options.repeat));
    }
  }
  return r;
}

}  // namespace cohort_cli
