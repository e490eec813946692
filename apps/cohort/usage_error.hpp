// A bad command line found after parsing (a size the device cannot run, a
// backend not built in): main reports it like CLI11's own errors, exit code 2.
#pragma once

#include <stdexcept>

namespace cohort_cli {

class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cohort_cli
