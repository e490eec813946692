// Runs the built `cohort` program with arguments, as a shell user would, and
// collects its exit code, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace cohort_cli_test {

struct run_result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A path in the test's temporary directory, unique to the running test, so
// that tests run in parallel by ctest do not share files.
inline std::string temp_path(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string test = std::string(info->test_suite_name()) + "_" + info->name();
  for (char& c : test)
    if (c == '/') c = '_';  // parameterized tests have slashes in their names
  return ::testing::TempDir() + "cohort_cli_" + test + "_" + name;
}

// environment: assignments the shell puts before the command, e.g. "COHORT_SM_COUNT=4".
inline run_result run_cohort(const std::string& args, const std::string& environment = "") {
  const std::string err_path = temp_path("stderr");
  const std::string command = environment + " " + COHORT_CLI + " " + args + " 2>" + err_path;
  run_result r;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_file(err_path);
  std::remove(err_path.c_str());
  return r;
}

}  // namespace cohort_cli_test
