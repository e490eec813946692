// `cohort doctor`: every precondition of cooperative launches, and more,
// checked on every device; one verdict line per check.
// Returns 0 if all passed, 1 otherwise.
#pragma once

namespace cohort_cli {

int run_doctor();

}  // namespace cohort_cli
