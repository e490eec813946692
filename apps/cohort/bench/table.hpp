// The bench's result table, as `cohort bench` prints it on stdout.
#pragma once

#include <cstdio>

#include "bench/report.hpp"

namespace cohort_cli {

void print_table(const report& r, std::FILE* out);

}  // namespace cohort_cli
