#include "bench/table.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "common/device_summary.hpp"
#include "common/statistics.hpp"

namespace cohort_cli {

namespace {

std::string format(double value, const column& c) {
  char text[64];
  switch (c.how) {
    case column::style::integer:
      std::snprintf(text, sizeof text, "%.0f", value);
      break;
    case column::style::percent:
      std::snprintf(text, sizeof text, "%.*f%%", c.precision, value * 100);
      break;
    case column::style::fixed:
      std::snprintf(text, sizeof text, "%.*f", c.precision, value);
      break;
  }
  return text;
}

std::string microseconds(double us) {
  char text[32];
  std::snprintf(text, sizeof text, us < 100 ? "%.2f" : us < 10000 ? "%.1f" : "%.0f", us);
  return text;
}

struct text_table {
  std::vector<std::string> header;
  std::vector<bool> right_aligned;
  std::vector<std::vector<std::string>> rows;  // an empty row prints as a blank line

  void print(std::FILE* out) const {
    std::vector<std::size_t> width(header.size());
    for (std::size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
    for (const auto& row : rows)
      for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    const auto line = [&](const std::vector<std::string>& cells) {
      std::string s;
      for (std::size_t c = 0; c < cells.size(); ++c) {
        const std::string pad(width[c] - cells[c].size(), ' ');
        s += c ? "  " : "";
        // The last column is free text: no trailing padding.
        s += right_aligned[c] ? pad + cells[c] : c + 1 == cells.size() ? cells[c] : cells[c] + pad;
      }
      std::fprintf(out, "%s\n", s.c_str());
    };
    line(header);
    for (const auto& row : rows)
      if (row.empty())
        std::fprintf(out, "\n");
      else
        line(row);
  }
};

}  // namespace

void print_table(const report& r, std::FILE* out) {
  std::fprintf(out, "cohort bench %s: %s; %s%smedian of %d runs\n\n", r.command.c_str(),
               cohort_kernels::device_summary(r.device).c_str(), r.element == "none" ? "" : r.element.c_str(),
               r.element == "none" ? "" : ", ", r.repeat);
  text_table t;
  t.header = {r.size_unit == "elements" ? "size" : "threads", "variant", "launch", "time (us)"};
  t.right_aligned = {true, false, false, true};
  for (const column& c : r.columns) {
    if (!c.in_table) continue;
    t.header.push_back(c.header);
    t.right_aligned.push_back(true);
  }
  t.header.push_back("check");
  t.right_aligned.push_back(false);

  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const result_row& row = r.rows[i];
    if (i && row.size != r.rows[i - 1].size) t.rows.emplace_back();
    std::vector<std::string> cells{size_text(row.size), row.variant, row.launch,
                                   microseconds(cohort_kernels::median_of(row.samples_us))};
    for (const column& c : r.columns)
      if (c.in_table) cells.push_back(format(row.metric(c.key), c));
    cells.push_back(row.verified ? "ok" : "FAIL: " + row.check);
    t.rows.push_back(std::move(cells));
  }
  t.print(out);
}

}  // namespace cohort_cli
