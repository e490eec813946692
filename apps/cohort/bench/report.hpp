// What a `cohort bench` run produces: one row per (size, variant) with its
// timing samples, its verification and the bench's own metrics. The table,
// the JSON file and the chart are all written from this one record.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <cohort/launch/device.hpp>

namespace cohort_cli {

struct result_row {
  std::string variant;
  std::uint64_t size = 0;  // elements, or threads per block (report::size_unit)
  std::string launch;      // the grids launched, e.g. "16x256 cooperative"
  std::vector<double> samples_us;
  bool verified = false;
  std::string check;  // what verification found, e.g. "|sum - reference| 3.6e-05 <= 0.52"
  // The bench's metrics, keyed as report::columns names them.
  std::vector<std::pair<std::string, double>> metrics;

  double metric(const std::string& key) const;
};

// A metric: its JSON key, its table header and how to print it. Every
// metric goes to the JSON file; in_table ones also to the table.
struct column {
  enum class style { integer, fixed, percent };
  std::string key;
  std::string header;
  style how = style::fixed;
  int precision = 2;
  bool in_table = true;
};

struct report {
  std::string command;    // reduce | scan | sync
  std::string size_unit;  // elements | threads_per_block
  std::string element;    // float32 | int32 | none
  std::uint64_t seed = 0;
  int repeat = 0;
  cohort::device_properties device;
  std::vector<column> columns;
  std::string plot_key;    // the metric the chart draws against size
  std::string plot_label;  // its axis label
  std::vector<result_row> rows;

  bool all_verified() const;
};

// 1K, 64K, 16M for multiples of 1024; the plain count otherwise.
std::string size_text(std::uint64_t size);

}  // namespace cohort_cli
