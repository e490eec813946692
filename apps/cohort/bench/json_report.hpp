// The bench's results as JSON; docs/cli.md documents the schema ("cohort-bench/1").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "bench/report.hpp"

namespace cohort_cli {

inline constexpr const char* json_schema_id = "cohort-bench/1";

nlohmann::json to_json(const report& r);
// Throws std::runtime_error if the file cannot be written.
void write_json(const report& r, const std::string& path);

}  // namespace cohort_cli
