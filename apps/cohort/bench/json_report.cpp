#include "bench/json_report.hpp"

#include <fstream>
#include <stdexcept>

#include "common/device_summary.hpp"
#include "common/statistics.hpp"

namespace cohort_cli {

namespace {

nlohmann::json device_json(const cohort::device_properties& p) {
  const bool host = p.kind == cohort::backend::host;
  return {
      {"name", p.name},
      {"backend", cohort_kernels::backend_name(p.kind)},
      {"compute_capability",
       host ? "n/a" : std::to_string(p.compute_capability_major) + "." + std::to_string(p.compute_capability_minor)},
      {"multiprocessor_count", p.multiprocessor_count},
      {"warp_size", p.warp_size},
      {"max_threads_per_block", p.max_threads_per_block},
      {"max_threads_per_multiprocessor", p.max_threads_per_multiprocessor},
      {"shared_memory_per_multiprocessor", p.shared_memory_per_multiprocessor},
      {"cooperative_launch", p.cooperative_launch}};
}

nlohmann::json row_json(const result_row& row, const report& r) {
  using cohort_kernels::mean_of;
  using cohort_kernels::median_of;
  using cohort_kernels::min_of;
  nlohmann::json j = {{"variant", row.variant},
                      {"size", row.size},
                      {"launch", row.launch},
                      {"time_us",
                       {{"median", median_of(row.samples_us)},
                        {"min", min_of(row.samples_us)},
                        {"mean", mean_of(row.samples_us)},
                        {"samples", row.samples_us}}},
                      {"verified", row.verified},
                      {"check", row.check}};
  // Metrics the bench declares integral (bytes, syncs) are JSON integers.
  for (const column& c : r.columns) {
    const double v = row.metric(c.key);
    if (c.how == column::style::integer)
      j[c.key] = static_cast<std::uint64_t>(v);
    else
      j[c.key] = v;
  }
  return j;
}

}  // namespace

nlohmann::json to_json(const report& r) {
  nlohmann::json results = nlohmann::json::array();
  for (const result_row& row : r.rows) results.push_back(row_json(row, r));
  return {{"schema", json_schema_id},
          {"command", r.command},
          {"backend", cohort_kernels::backend_name(r.device.kind)},
          {"device", device_json(r.device)},
          {"element", r.element},
          {"size_unit", r.size_unit},
          {"seed", r.seed},
          {"repeat", r.repeat},
          {"verified", r.all_verified()},
          {"results", std::move(results)}};
}

void write_json(const report& r, const std::string& path) {
  std::ofstream out(path);
  out << to_json(r).dump(2) << '\n';
  if (!out) throw std::runtime_error("cannot write the JSON report to " + path);
}

}  // namespace cohort_cli
