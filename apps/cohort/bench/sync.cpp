// `cohort bench sync`: the cost of a block's, a tile's and the grid's barrier
// at each block size (and, in cohort-cuda, of NVIDIA's, in the same kernels).
// A launch runs sync_iterations barriers; the same launch with none is timed
// too, and the difference over the count is the time per barrier, free of
// launch overhead.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <cohort/cohort.hpp>

#include "bench/benches.hpp"
#include "bench/progress.hpp"
#include "bench/rivals.hpp"
#include "common/timing.hpp"
#include "timed/sync.hpp"
#include "usage_error.hpp"

namespace cohort_cli {

using namespace cohort_kernels;  // the kernels it times (kernels/timed)

namespace {

constexpr unsigned sync_iterations = 100;

// Times the plan at sync_iterations against 0; the stale stamps of every run
// are counted, and checked after the first run and after the timing.
result_row measure(const sync_variant& variant, const sync_plan& plan, unsigned threads, int repeat) {
  const auto launch = [&](unsigned iterations) { plan.run(iterations); };
  launch(sync_iterations);
  const unsigned first = plan.stale->total();
  result_row row{variant.name, threads, plan.launch, cohort_kernels::time_us([&] { launch(sync_iterations); }, repeat),
                 false,        "",      {}};
  const double baseline_us = cohort_kernels::median_of(cohort_kernels::time_us([&] { launch(0); }, repeat));
  const unsigned total = plan.stale->total();
  row.verified = total == 0;
  row.check = row.verified ? "every thread saw its neighbour's stamp"
                           : std::to_string(total) + " stale stamps (" + std::to_string(first) + " in the first run)";
  const double per_sync_us =
      std::max(0.0, cohort_kernels::median_of(row.samples_us) - baseline_us) / static_cast<double>(sync_iterations);
  row.metrics = {{"syncs", sync_iterations}, {"baseline_us", baseline_us}, {"ns_per_sync", per_sync_us * 1e3}};
  return row;
}

}  // namespace

report run_sync_bench(const bench_options& options) {
  report r{.command = "sync",
           .size_unit = "threads_per_block",
           .element = "none",
           .seed = options.seed,
           .repeat = options.repeat,
           .device = cohort::get_device_properties(),
           .columns = {{"syncs", "syncs", column::style::integer, 0, false},
                       {"baseline_us", "no-sync launch (us)", column::style::fixed, 2, false},
                       {"ns_per_sync", "ns/sync", column::style::fixed, 1}},
           .plot_key = "ns_per_sync",
           .plot_label = "time per barrier (ns)",
           .rows = {}};
  for (const std::uint64_t threads : options.sizes)
    if (threads > static_cast<std::uint64_t>(r.device.max_threads_per_block))
      throw usage_error("--sizes: " + std::to_string(threads) + " threads per block is more than this device's " +
                        std::to_string(r.device.max_threads_per_block));
  std::vector<sync_variant> variants = sync_variants<cohort_groups>("");
  for (sync_variant& rival : sync_rivals()) variants.push_back(std::move(rival));

  std::size_t steps = 0;
  for (const std::uint64_t threads : options.sizes)
    steps += std::count_if(variants.begin(), variants.end(),
                           [&](const sync_variant& v) { return v.fits(static_cast<unsigned>(threads)); });
  progress bar("sync", steps);
  for (const std::uint64_t threads : options.sizes) {
    const unsigned t = static_cast<unsigned>(threads);
    for (const sync_variant& variant : variants) {
      if (!variant.fits(t)) continue;
      bar.step(std::to_string(t) + " threads", variant.name);
      const sync_plan plan = variant.plan(t);
      if (!plan.unavailable.empty()) {
        std::fprintf(stderr, "cohort bench sync: %s at %u threads left out: %s\n", variant.name.c_str(), t,
                     plan.unavailable.c_str());
        continue;
      }
      r.rows.push_back(measure(variant, plan, t, options.repeat));
    }
  }
  return r;
}

}  // namespace cohort_cli
