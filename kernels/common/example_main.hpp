// The frame of the programming_model examples: positional count arguments
// with defaults, a header naming the program and the device, and a verdict
// the test can read off the exit code — 0 and PASS when every check held, 1
// and FAIL when one did not or the library reported an error, 2 for a bad
// command line (ctest then reports a usage error, not a wrong result).
#pragma once

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/device_summary.hpp"

namespace cohort_kernels {

struct example_info {
  const char* title;               // one line: the program, its seed section and what it checks
  const char* usage;               // the arguments, e.g. "[blocks] [threads]  (defaults 3 100)"
  std::vector<unsigned> defaults;  // one per argument: every argument is a count > 0
};

// Runs body(args), a bool(const std::vector<unsigned>&) that prints its
// findings and returns whether they were right.
template <class Body>
int run_example(int argc, char** argv, const example_info& info, Body&& body) {
  std::vector<unsigned> args = info.defaults;
  bool usable = argc - 1 <= static_cast<int>(args.size());
  for (int i = 1; usable && i < argc; ++i) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(argv[i], &end, 0);
    usable = argv[i][0] != '-' && end != argv[i] && *end == '\0' && errno == 0 && v > 0 && v <= UINT_MAX;
    args[static_cast<std::size_t>(i - 1)] = static_cast<unsigned>(v);
  }
  if (!usable) {
    std::fprintf(stderr, "usage: %s %s\n", argv[0], info.usage);
    return 2;
  }
  try {
    std::printf("%s\ndevice  %s\n", info.title, device_summary(cohort::get_device_properties()).c_str());
    const bool ok = body(args);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\nFAIL\n", e.what());
    return 1;
  }
}

}  // namespace cohort_kernels
