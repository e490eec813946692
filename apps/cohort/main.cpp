// cohort: device information, cooperative-launch checks and the seed
// benchmarks, on the backend this binary was built with. Exit codes: 0 done,
// 1 a failed check or verification or a runtime error, 2 a bad command line.

#include <array>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iterator>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "backend.hpp"
#include "bench/benches.hpp"
#include "bench/json_report.hpp"
#include "bench/sizes.hpp"
#include "bench/svg_plot.hpp"
#include "bench/table.hpp"
#include "common/device_summary.hpp"
#include "doctor.hpp"
#include "info.hpp"
#include "soak.hpp"
#include "usage_error.hpp"

namespace {

using namespace cohort_cli;

constexpr int exit_usage = 2;

struct bench_command {
  const char* name;
  const char* description;
  const char* default_sizes;
  report (*run)(const bench_options&);
};

constexpr bench_command bench_commands[] = {
    {"reduce",
     "float sums: five classic reductions, cohort's grid reduce (cohort-cuda: also CUB, NVIDIA CG); bandwidth against "
     "a copy",
     "1K..16M:4", &run_reduce_bench},
    {"scan",
     "int scans over the grid: three kernels, one cooperative, cohort's grid scan (cohort-cuda: also CUB); "
     "bandwidth against a copy",
     "1K..16M:4", &run_scan_bench},
    {"sync",
     "block, tile and grid barriers (cohort-cuda: also NVIDIA CG's): time per barrier at each block size "
     "(--sizes: threads per block)",
     "64..1024", &run_sync_bench},
};

// The command line of `cohort bench <name>`, before its sizes are parsed.
struct bench_arguments {
  std::string backend = cohort_kernels::backend_name(built_in_backend());
  std::string sizes;
  bench_options options;
};

const CLI::Validator sizes_syntax(
    [](std::string& text) {
      try {
        parse_sizes(text);
        return std::string();
      } catch (const std::invalid_argument& e) {
        return std::string(e.what());
      }
    },
    "SIZES");

// CLI11 alone would clamp a number past the seed type's maximum to it and wrap
// "-1" around to it: a seed is decimal digits that fit, and nothing else.
template <class Seed>
CLI::Validator seed_syntax() {
  const std::string max = std::to_string(std::numeric_limits<Seed>::max());
  return CLI::Validator(
      [max](std::string& text) {
        Seed seed{};
        const char* end = text.data() + text.size();
        const auto [stop, failure] = std::from_chars(text.data(), end, seed);
        if (failure == std::errc() && stop == end) return std::string();
        return "bad seed `" + text + "`: expected decimal digits from 0 to " + max + ", without a sign";
      },
      "0.." + max);
}

void add_bench_options(CLI::App& command, bench_arguments& args, const char* default_sizes) {
  args.sizes = default_sizes;
  command.add_option("--backend", args.backend, "backend to run on: host or cuda (the one built in)")
      ->check(CLI::IsMember({"host", "cuda"}))
      ->capture_default_str();
  command
      .add_option("--sizes", args.sizes,
                  "comma-separated sizes and ranges: 4096, 64K, 16M; LO..HI doubles, LO..HI:F multiplies by F")
      ->check(sizes_syntax)
      ->capture_default_str();
  command.add_option("--repeat", args.options.repeat, "timed runs per measurement (after one checked warm-up)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  command.add_option("--seed", args.options.seed, "seed of the random input")
      ->check(seed_syntax<std::uint64_t>())
      ->capture_default_str();
  const auto named = [](const std::string& path) { return path.empty() ? std::string("needs a file name") : ""; };
  command.add_option("--json", args.options.json_path, "write the results as JSON (schema: docs/cli.md)")->check(named);
  command.add_option("--plot", args.options.plot_path, "write a chart of the results as SVG")->check(named);
}

// A report that cannot be written would be lost after the whole run, which
// may take minutes: the place is checked before anything is measured.
void require_writable(const char* option, const std::string& path) {
  if (path.empty()) return;
  namespace fs = std::filesystem;
  std::error_code ignored;
  if (fs::is_directory(path, ignored))
    throw usage_error(std::string(option) + " " + path + ": is a directory; name a file to write");
  // Opening it is the one test that holds for root and for file systems that
  // refuse new files whatever the permissions say (/sys, /proc).
  const bool existed = fs::exists(path, ignored);
  errno = 0;
  if (std::FILE* f = std::fopen(path.c_str(), "a")) {
    std::fclose(f);
    if (!existed) fs::remove(path, ignored);
    return;
  }
  throw usage_error(std::string(option) + " " + path + ": cannot write there (" + std::strerror(errno) +
                    "); name a file in a directory that exists and is writable");
}

int run_bench(const bench_command& command, bench_arguments& args) {
  const cohort::backend built_in = built_in_backend();
  if (args.backend != cohort_kernels::backend_name(built_in)) {
    const cohort::backend other = built_in == cohort::backend::host ? cohort::backend::cuda : cohort::backend::host;
    throw usage_error("--backend " + args.backend + ": this binary has only the " +
                      cohort_kernels::backend_name(built_in) + " backend built in; run " + program_for(other) +
                      (other == cohort::backend::cuda ? " (built where nvcc is found, -DCOHORT_BUILD_CUDA=ON)" : ""));
  }
  if (!args.options.plot_path.empty() && !args.options.plot_path.ends_with(".svg"))
    throw usage_error("--plot " + args.options.plot_path + ": the chart is written as SVG; name it *.svg");
  require_writable("--json", args.options.json_path);
  require_writable("--plot", args.options.plot_path);
  if (!args.options.json_path.empty() && args.options.json_path == args.options.plot_path)
    throw usage_error("--json and --plot both name " + args.options.json_path + "; the chart would overwrite the JSON");
  args.options.sizes = parse_sizes(args.sizes);

  const report r = command.run(args.options);
  print_table(r, stdout);
  if (!args.options.json_path.empty()) write_json(r, args.options.json_path);
  if (!args.options.plot_path.empty()) write_svg_plot(r, args.options.plot_path);
  if (!r.all_verified()) {
    std::fprintf(stderr, "cohort: some results were wrong (FAIL rows above)\n");
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cohort: Cooperative Groups for C++ on the host and on NVIDIA GPUs", "cohort"};
  app.set_version_flag("--version", std::string("cohort ") + COHORT_VERSION);
  // Subcommands are checked after parsing, so that a mistyped one is named in
  // the error rather than reported as a missing one.
  app.require_subcommand(0, 1);
  CLI::App* info = app.add_subcommand("info", "backends built in, devices and their properties");
  CLI::App* doctor =
      app.add_subcommand("doctor", "check every precondition of cooperative launches; exit 1 if one fails");
  CLI::App* soak = app.add_subcommand("soak", "run the grid barrier for a long time and verify every phase's data");
  soak_options soak_args;
  soak->add_option("--phases", soak_args.phases, "phases per launch, two grid barriers each")
      ->check(CLI::Range(1LL, 1LL << 40))
      ->capture_default_str();
  soak->add_option("--launches", soak_args.launches, "launches of the whole grid")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  soak->add_option("--threads", soak_args.threads, "threads per block (the grid is the largest cooperative one)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  soak->add_option("--seed", soak_args.seed, "seed of the published values")
      ->check(seed_syntax<std::uint32_t>())
      ->capture_default_str();
  CLI::App* bench = app.add_subcommand("bench", "benchmark kernels on this device and verify every result");
  bench->require_subcommand(0, 1);
  // Each bench has its own arguments, so that each keeps its own defaults.
  std::array<bench_arguments, std::size(bench_commands)> args;
  std::size_t chosen = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    CLI::App* sub = bench->add_subcommand(bench_commands[i].name, bench_commands[i].description);
    add_bench_options(*sub, args[i], bench_commands[i].default_sizes);
    sub->callback([&chosen, i] { chosen = i; });
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : exit_usage;
  }

  try {
    if (*info) return run_info();
    if (*doctor) return run_doctor();
    if (*soak) return run_soak(soak_args);
    if (bench->get_subcommands().empty())
      throw usage_error(*bench ? "bench needs a benchmark: reduce, scan or sync"
                               : "a command is required: info, doctor, bench or soak");
    return run_bench(bench_commands[chosen], args[chosen]);
  } catch (const usage_error& e) {
    std::fprintf(stderr, "%s\nRun with --help for more information.\n", e.what());
    return exit_usage;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "cohort: error: out of host memory: the run's inputs, outputs and reference copies do not "
                 "fit in this machine's memory; ask for smaller --sizes\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cohort: error: %s\n", e.what());
    return 1;
  }
}
