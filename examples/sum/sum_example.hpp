// The body of every sum_* example: sum n seeded random floats with one of
// the reductions, print the sum next to the double-precision
// reference, and exit non-zero unless they agree within the tolerance.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include <cohort/cohort.hpp>

#include "common/device_summary.hpp"
#include "common/random_input.hpp"
#include "common/sum_check.hpp"
#include "reduce/reduce_plan.hpp"

namespace cohort_kernels {

// Usage: <program> [n]   (n defaults to 2^20: a second or less on two cores)
inline int run_sum_example(const reduce_variant& variant, int argc, char** argv) {
  try {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : std::size_t{1} << 20;
    if (n == 0) {
      std::fprintf(stderr, "usage: %s [n]  (n > 0 elements; default 1048576)\n", argv[0]);
      return 2;
    }
    const std::vector<float> input = random_floats(n);
    const cohort::device_buffer<float> in(input);
    const cohort::device_buffer<float> out(1);
    const reduce_plan plan = variant.plan(n);
    plan.run(in.data(), out.data());
    const float sum = out.to_host()[0];
    const sum_check check = check_sum(input, sum);

    const std::string program = argv[0];
    std::printf("%s: %.*s\n", program.substr(program.find_last_of('/') + 1).c_str(),
                static_cast<int>(variant.summary.size()), variant.summary.data());
    std::printf("device     %s\n", device_summary(cohort::get_device_properties()).c_str());
    std::printf("input      %zu floats, uniform in [-1, 1), seed %llu\n", n,
                static_cast<unsigned long long>(default_seed));
    std::printf("launch     %s\n", plan.launch.c_str());
    std::printf("sum        %.6f\n", static_cast<double>(sum));
    std::printf("reference  %.6f (double)\n", check.reference);
    std::printf("error      %.3g (tolerance %.3g)\n", check.error, check.tolerance);
    std::printf("%s\n", check.ok ? "PASS" : "FAIL");
    return check.ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\nFAIL\n", e.what());
    return 1;
  }
}

}  // namespace cohort_kernels
