// A verdict of `cohort doctor` and of the environment checks: one line
// per check, so that a failed precondition says which one and why.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace cohort_kernels {

struct check_result {
  std::string name;
  bool passed = false;
  std::string detail;  // the value found, or "n/a: why the check does not apply" (a pass)
};

// "PASS  name  detail" per check; returns whether all passed.
inline bool print_checks(const std::vector<check_result>& checks, std::FILE* out = stdout) {
  bool all = true;
  for (const check_result& c : checks) {
    std::fprintf(out, "%s  %-36s %s\n", c.passed ? "PASS" : "FAIL", c.name.c_str(), c.detail.c_str());
    all = all && c.passed;
  }
  return all;
}

}  // namespace cohort_kernels
