// The chart of a bench run, like the seeds' plots: one line per variant, the
// report's plot metric against size (log scale). Written as SVG by hand, so
// the tool needs no plotting library.
#pragma once

#include <string>

#include "bench/report.hpp"

namespace cohort_cli {

// Throws std::runtime_error if the file cannot be written.
void write_svg_plot(const report& r, const std::string& path);

}  // namespace cohort_cli
