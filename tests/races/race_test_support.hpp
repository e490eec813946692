// Helpers of the race-checking tests: the error a launch raised, and a race
// of a report found by its kind and the lines of its two accesses, each line
// named by a marker comment ("// mark:NAME") in the calling test's file.
#pragma once

#include <gtest/gtest.h>

#include <cohort/errors.hpp>
#include <fstream>
#include <regex>
#include <string>

#include "host_support.hpp"

namespace race_test {

// The launch's error, which must be a data race report.
template <class F>
cohort::error race_error(F&& launch_it) {
  const cohort::error e = cohort_test::launch_error(launch_it);
  EXPECT_EQ(e.kind(), cohort::errc::data_race) << e.what();
  return e;
}

inline std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// The line of `file` (of this directory) that ends with "// mark:NAME" (0 when none does).
inline int line_of(const std::string& file, const std::string& name) {
  std::ifstream in(std::string(RACE_TEST_SOURCE_DIR) + "/" + base_name(file));
  std::string text;
  for (int line = 1; std::getline(in, text); ++line)
    if (text.ends_with("// mark:" + name)) return line;
  ADD_FAILURE() << "no line of " << file << " is marked " << name;
  return 0;
}

inline std::string escaped(const std::string& name) { return std::regex_replace(name, std::regex(R"(\.)"), R"(\.)"); }
// A thread's access in a report: "thread (3,0,0) read at file:LINE" (with
// "of block (1,0,0)" between blocks, "atomically" before an atomic's verb).
inline std::string access_at(const std::string& file, int line) {
  return R"(thread \(\d+,\d+,\d+\) (of block \(\d+,\d+,\d+\) )?(atomically )?(read|wrote) at [^ ,]*)" +
         escaped(base_name(file)) + ":" + std::to_string(line);
}

// Whether `report` has a race of `kind` whose earlier access is on the line
// marked `earlier` and whose later one on the line marked `later`.
inline void expect_race(const std::string& report, const std::string& kind, const std::string& earlier,
                        const std::string& later, const char* file = __builtin_FILE()) {
  const std::regex race(kind + R"( in block \(\d+,\d+,\d+\): )" + access_at(file, line_of(file, later)) + ", " +
                        access_at(file, line_of(file, earlier)) + ";");
  EXPECT_TRUE(std::regex_search(report, race)) << "expected a " << kind << " race, earlier access at the line marked "
                                               << earlier << ", later at " << later << ", in:\n"
                                               << report;
}

// Whether `report` has a race between two blocks, of a kind `kinds` (a regex)
// matches, between the lines marked `one` and `other`, in either order: which
// block ran first is the workers' choice.
inline void expect_race_between_blocks(const std::string& report, const std::string& kinds, const std::string& one,
                                       const std::string& other, const char* file = __builtin_FILE()) {
  const std::string a = access_at(file, line_of(file, one)), b = access_at(file, line_of(file, other));
  const std::string blocks = R"( between blocks \(\d+,\d+,\d+\) and \(\d+,\d+,\d+\): )";
  const std::regex race("(" + kinds + ")" + blocks + "(" + a + ", " + b + "|" + b + ", " + a + ");");
  EXPECT_TRUE(std::regex_search(report, race))
      << "expected a race between blocks (" << kinds << ") of the lines marked " << one << " and " << other << ", in:\n"
      << report;
}

// How many distinct races the report counts.
inline int distinct_races(const std::string& report) {
  std::smatch m;
  if (!std::regex_search(report, m, std::regex(R"(\(COHORT_CHECK=races\): (\d+)\+? distinct race)"))) return -1;
  return std::stoi(m[1]);
}

}  // namespace race_test
