// `cohort bench --json` against the schema docs/cli.md documents
// ("cohort-bench/1"): every key with its type, per bench, and the results
// consistent with the command line (sizes, variants, repeat). The --plot
// chart is checked to be an SVG with a line per variant.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "run_cohort.hpp"

namespace {

using cohort_cli_test::read_file;
using cohort_cli_test::run_cohort;
using cohort_cli_test::temp_path;
using nlohmann::json;

enum class type { string, integer, number, boolean, array, object };

bool has_type(const json& v, type t) {
  switch (t) {
    case type::string:
      return v.is_string();
    case type::integer:
      return v.is_number_integer();
    case type::number:
      return v.is_number();
    case type::boolean:
      return v.is_boolean();
    case type::array:
      return v.is_array();
    case type::object:
      return v.is_object();
  }
  return false;
}

using schema = std::vector<std::pair<std::string, type>>;

// Every key of the schema is present with its type, and no other key.
void expect_matches(const json& object, const schema& keys, const std::string& where) {
  ASSERT_TRUE(object.is_object()) << where;
  for (const auto& [key, t] : keys) {
    ASSERT_TRUE(object.contains(key)) << where << " lacks \"" << key << "\"";
    EXPECT_TRUE(has_type(object[key], t)) << where << "." << key << " has the wrong type: " << object[key];
  }
  for (const auto& [key, value] : object.items()) {
    bool documented = false;
    for (const auto& entry : keys) documented = documented || entry.first == key;
    EXPECT_TRUE(documented) << where << " has the undocumented key \"" << key << "\"";
  }
}

const schema top_level = {{"schema", type::string}, {"command", type::string}, {"backend", type::string},
                          {"device", type::object}, {"element", type::string}, {"size_unit", type::string},
                          {"seed", type::integer},  {"repeat", type::integer}, {"verified", type::boolean},
                          {"results", type::array}};
const schema device = {{"name", type::string},
                       {"backend", type::string},
                       {"compute_capability", type::string},
                       {"multiprocessor_count", type::integer},
                       {"warp_size", type::integer},
                       {"max_threads_per_block", type::integer},
                       {"max_threads_per_multiprocessor", type::integer},
                       {"shared_memory_per_multiprocessor", type::integer},
                       {"cooperative_launch", type::boolean}};
const schema time_us = {
    {"median", type::number}, {"min", type::number}, {"mean", type::number}, {"samples", type::array}};

schema row_schema(const std::string& command) {
  schema row = {{"variant", type::string}, {"size", type::integer},     {"launch", type::string},
                {"time_us", type::object}, {"verified", type::boolean}, {"check", type::string}};
  const schema extra =
      command == "sync"
          ? schema{{"syncs", type::integer}, {"baseline_us", type::number}, {"ns_per_sync", type::number}}
          : schema{{"bytes", type::integer}, {"bandwidth_gbps", type::number}, {"copy_share", type::number}};
  row.insert(row.end(), extra.begin(), extra.end());
  return row;
}

// Runs `cohort bench <command> <args> --json FILE`, checks the exit code and
// the schema, and returns the document.
json run_and_check(const std::string& command, const std::string& args, int repeat) {
  const std::string path = temp_path(command + ".json");
  const auto r =
      run_cohort("bench " + command + " " + args + " --repeat " + std::to_string(repeat) + " --json " + path);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json doc = json::parse(read_file(path));
  std::remove(path.c_str());
  expect_matches(doc, top_level, "report");
  expect_matches(doc["device"], device, "device");
  EXPECT_EQ(doc["schema"], "cohort-bench/1");
  EXPECT_EQ(doc["command"], command);
  EXPECT_EQ(doc["backend"], "host");
  EXPECT_EQ(doc["repeat"], repeat);
  EXPECT_EQ(doc["verified"], true);
  const schema row = row_schema(command);
  for (std::size_t i = 0; i < doc["results"].size(); ++i) {
    const json& result = doc["results"][i];
    const std::string where = "results[" + std::to_string(i) + "]";
    expect_matches(result, row, where);
    expect_matches(result["time_us"], time_us, where + ".time_us");
    EXPECT_EQ(result["time_us"]["samples"].size(), static_cast<std::size_t>(repeat)) << where;
    for (const json& sample : result["time_us"]["samples"]) EXPECT_TRUE(sample.is_number()) << where;
    EXPECT_EQ(result["verified"], true) << where << ": " << result["check"];
  }
  return doc;
}

// The (size, variant) pairs of a report, for comparing with what was asked.
std::set<std::pair<std::uint64_t, std::string>> rows_of(const json& doc) {
  std::set<std::pair<std::uint64_t, std::string>> rows;
  for (const json& r : doc["results"]) rows.emplace(r["size"].get<std::uint64_t>(), r["variant"].get<std::string>());
  return rows;
}

// The standard library's parallel algorithms are rows where the tool was built
// with TBB (libstdc++ runs them on it): on every size, or on none.
void add_parallel_stl_rows(const json& doc, const std::string& variant,
                           std::set<std::pair<std::uint64_t, std::string>>& expected) {
  const auto rows = rows_of(doc);
  if (std::none_of(rows.begin(), rows.end(), [&](const auto& r) { return r.second == variant; })) return;
  for (const auto& r : rows) expected.emplace(r.first, variant);
}

TEST(JsonSchema, Reduce) {
  const json doc = run_and_check("reduce", "--sizes 1024,65536", 2);
  EXPECT_EQ(doc["element"], "float32");
  EXPECT_EQ(doc["size_unit"], "elements");
  std::set<std::pair<std::uint64_t, std::string>> expected;
  for (const std::uint64_t size : {1024u, 65536u})
    for (const char* v : {"copy", "copy-vector", "memcpy", "atomic", "two-pass", "shared-tree", "warp-shuffle",
                          "cooperative", "grid-reduce", "device-reduce", "host-array-reduce"})
      expected.emplace(size, v);
  add_parallel_stl_rows(doc, "std-reduce-par-unseq", expected);
  EXPECT_EQ(rows_of(doc), expected);
  for (const json& r : doc["results"])
    if (r["variant"] == "copy" || r["variant"] == "copy-vector" || r["variant"] == "memcpy") {
      EXPECT_LE(r["copy_share"], 1.0);  // of the fastest copy
      EXPECT_EQ(r["bytes"], 2 * 4 * r["size"].get<std::uint64_t>());
    } else {
      EXPECT_EQ(r["bytes"], 4 * (r["size"].get<std::uint64_t>() + 1));
    }
}

TEST(JsonSchema, Scan) {
  const json doc = run_and_check("scan", "--sizes 4K", 1);
  EXPECT_EQ(doc["element"], "int32");
  std::set<std::pair<std::uint64_t, std::string>> expected{
      {4096, "copy"},        {4096, "copy-vector"}, {4096, "memcpy"},      {4096, "three-kernel"},
      {4096, "cooperative"}, {4096, "grid-scan"},   {4096, "device-scan"}, {4096, "host-array-scan"}};
  add_parallel_stl_rows(doc, "std-inclusive-scan-par-unseq", expected);
  EXPECT_EQ(rows_of(doc), expected);
  for (const json& r : doc["results"]) EXPECT_EQ(r["bytes"], 2 * 4 * 4096) << r["variant"];
}

TEST(JsonSchema, Sync) {
  const json doc = run_and_check("sync", "--sizes 64,128", 1);
  EXPECT_EQ(doc["element"], "none");
  EXPECT_EQ(doc["size_unit"], "threads_per_block");
  std::set<std::pair<std::uint64_t, std::string>> expected;
  for (const std::uint64_t size : {64u, 128u})
    for (const char* v :
         {"block-sync", "tile-sync-32", "cluster-sync-2", "cluster-sync-8", "grid-sync-sm", "grid-sync-full",
          "multi-grid-sync-sm", "multi-grid-sync-full", "multi-grid-sync-sm-pinned", "multi-grid-sync-full-pinned"})
      expected.emplace(size, v);
  expected.emplace(128, "tile-sync-128");  // a tile runs only where it divides the block
  EXPECT_EQ(rows_of(doc), expected);
}

TEST(Plot, IsAnSvgWithALinePerVariant) {
  const std::string path = temp_path("reduce.svg");
  const auto r = run_cohort("bench reduce --sizes 1K,4K --repeat 1 --plot " + path);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string svg = read_file(path);
  std::remove(path.c_str());
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u) << svg.substr(0, 80);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  std::size_t lines = 0;
  for (std::size_t at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1)) ++lines;
  const bool parallel_stl = svg.find(">std-reduce-par-unseq<") != std::string::npos;
  EXPECT_EQ(lines, parallel_stl ? 12u : 11u) << "one line per copy and one per reduction";
  for (const char* v : {"copy", "copy-vector", "memcpy", "atomic", "two-pass", "shared-tree", "warp-shuffle",
                        "cooperative", "grid-reduce", "device-reduce", "host-array-reduce"})
    EXPECT_NE(svg.find(std::string(">") + v + "<"), std::string::npos) << "legend lacks " << v;
}

}  // namespace
