#include "bench/report.hpp"

#include <algorithm>

namespace cohort_cli {

double result_row::metric(const std::string& key) const {
  for (const auto& [k, v] : metrics)
    if (k == key) return v;
  return 0.0;
}

bool report::all_verified() const {
  return std::all_of(rows.begin(), rows.end(), [](const result_row& r) { return r.verified; });
}

std::string size_text(std::uint64_t size) {
  static constexpr const char* suffixes[] = {"", "K", "M", "G", "T"};
  int scale = 0;
  while (scale < 4 && size >= 1024 && size % 1024 == 0) {
    size /= 1024;
    ++scale;
  }
  return std::to_string(size) + suffixes[scale];
}

}  // namespace cohort_cli
