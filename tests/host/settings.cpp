// The settings table (cohort/host/settings.hpp): each variable's default, each
// bad value's error naming the variable, the value and what it takes, the
// values the runtime then uses, and docs/settings.md listing the same table.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cohort/cohort.hpp"
#include "cohort/host/settings.hpp"
#include "cohort/host/statistics.hpp"
#include "host_support.hpp"

namespace cg = cohort;
using cohort_test::scoped_env;
using ::testing::HasSubstr;

namespace {

std::vector<std::string> table_names() {
  std::vector<std::string> names;
  for (const auto& s : cohort::host::settings_table()) names.push_back(s.name);
  return names;
}

// The error a read of `name` throws.
std::string refusal(const char* name) {
  try {
    cohort::host::setting_value(name);
  } catch (const cg::error& e) {
    EXPECT_EQ(e.kind(), cg::errc::invalid_argument) << e.what();
    return e.what();
  }
  ADD_FAILURE() << name << ": no error";
  return "";
}

// Every variable of the table unset for the scope, whatever the suite was run with.
class all_unset {
 public:
  all_unset() {
    for (const std::string& name : table_names()) {
      if (const char* v = std::getenv(name.c_str())) saved_.emplace_back(name, v);
      unsetenv(name.c_str());
    }
    cohort::host::reload_settings();
  }
  ~all_unset() {
    for (const auto& [name, value] : saved_) setenv(name.c_str(), value.c_str(), 1);
    cohort::host::reload_settings();
  }
  all_unset(const all_unset&) = delete;
  all_unset& operator=(const all_unset&) = delete;

 private:
  std::vector<std::pair<std::string, std::string>> saved_;
};

TEST(Settings, EveryVariableHasItsDefault) {
  const all_unset none;
  const std::string hardware_threads = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  const std::size_t machine =
      static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::vector<std::pair<std::string, std::string>> defaults = {
      {"COHORT_WORKERS", hardware_threads},
      {"COHORT_STACK_SIZE", "131072"},
      {"COHORT_SCHEDULE", "ordered"},
      {"COHORT_CHECK", "none"},
      {"COHORT_WATCHDOG", "10"},
      {"COHORT_ENGINE", "auto"},
      {"COHORT_ENGINE_REPORT", "0"},
      {"COHORT_DEVICE_COUNT", "1"},
      {"COHORT_DEVICE_MEMORY", std::to_string(machine)},
      {"COHORT_SM_COUNT", hardware_threads},
      {"COHORT_WARP_SIZE", "32"},
      {"COHORT_MAX_THREADS_PER_BLOCK", "1024"},
      {"COHORT_MAX_THREADS_PER_SM", "2048"},
      {"COHORT_MAX_BLOCKS_PER_SM", "32"},
      {"COHORT_SHARED_PER_SM", "233472"},
      {"COHORT_SHARED_PER_BLOCK", "49152"},
  };
  ASSERT_EQ(defaults.size(), cohort::host::settings_table().size()) << "a variable without its default here";
  for (const auto& [name, value] : defaults) EXPECT_EQ(cohort::host::setting_value(name), value) << name;
  // The virtual device is made of them.
  const cg::device_properties p = cohort::host::default_virtual_device();
  EXPECT_EQ(p.multiprocessor_count, std::stoi(hardware_threads));
  EXPECT_EQ(p.warp_size, 32);
  EXPECT_EQ(p.shared_memory_per_block, 48u * 1024);
  EXPECT_EQ(p.total_global_memory, machine);
}

// A value given is the value in effect, written as the variable takes it.
TEST(Settings, GivenValuesAreTheValuesInEffect) {
  const all_unset none;
  const std::vector<std::pair<std::string, std::string>> given = {
      {"COHORT_STACK_SIZE", "256K"},  {"COHORT_SCHEDULE", "shuffle"}, {"COHORT_CHECK", "memcpy,memory,none"},
      {"COHORT_WATCHDOG", "0"},       {"COHORT_ENGINE", "fibers"},    {"COHORT_DEVICE_COUNT", "4"},
      {"COHORT_DEVICE_MEMORY", "1g"}, {"COHORT_WARP_SIZE", "64"},     {"COHORT_SHARED_PER_SM", "100K"},
  };
  const std::vector<std::pair<std::string, std::string>> in_effect = {
      {"COHORT_STACK_SIZE", "262144"},
      {"COHORT_SCHEDULE", "shuffle:1"},
      {"COHORT_CHECK", "memory,memcpy"},
      {"COHORT_WATCHDOG", "0"},
      {"COHORT_ENGINE", "fibers"},
      {"COHORT_DEVICE_COUNT", "4"},
      {"COHORT_DEVICE_MEMORY", "1073741824"},
      {"COHORT_WARP_SIZE", "64"},
      {"COHORT_SHARED_PER_SM", "102400"},
  };
  for (std::size_t i = 0; i < given.size(); ++i) {
    const scoped_env set(given[i].first.c_str(), given[i].second.c_str());
    EXPECT_EQ(cohort::host::setting_value(in_effect[i].first), in_effect[i].second) << given[i].second;
  }
  {
    // Worked out from another: the device memory from the device count, the
    // shared memory per block from the SM's (1K reserved per block).
    const scoped_env devices("COHORT_DEVICE_COUNT", "4");
    const std::size_t machine =
        static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    EXPECT_EQ(cohort::host::setting_value("COHORT_DEVICE_MEMORY"), std::to_string(machine / 4));
    const scoped_env per_sm("COHORT_SHARED_PER_SM", "33K");
    EXPECT_EQ(cohort::host::setting_value("COHORT_SHARED_PER_BLOCK"), std::to_string(32 * 1024));
  }
  EXPECT_EQ(cohort::host::setting_value("COHORT_SCHEDULE"), "ordered");  // unset again
}

struct bad_value {
  const char* name;
  const char* value;
  const char* expected;  // after "NAME=VALUE is not valid: expected "
};

// Every variable, bad values of each kind: the error names the variable, the
// value and what it takes.
TEST(Settings, EachBadValueIsRefusedNamingTheVariable) {
  const all_unset none;
  const std::vector<bad_value> cases = {
      {"COHORT_WORKERS", "0", "an integer from 1 to 4096"},
      {"COHORT_WORKERS", "4097", "an integer from 1 to 4096"},
      {"COHORT_WORKERS", "abc", "an integer from 1 to 4096"},
      {"COHORT_STACK_SIZE", "8K", "a byte count such as 65536, 64K or 1M, from 16384 to 1125899906842624 (2^50)"},
      {"COHORT_STACK_SIZE", "64KB", "a byte count such as 65536, 64K or 1M, from 16384 to 1125899906842624 (2^50)"},
      {"COHORT_STACK_SIZE", "2048T", "a byte count such as 65536, 64K or 1M, from 16384 to 1125899906842624 (2^50)"},
      {"COHORT_SCHEDULE", "random",
       "`ordered`, `shuffle` or `shuffle:SEED`, where SEED is decimal digits from 0 to 18446744073709551615 "
       "(2^64 - 1)"},
      {"COHORT_SCHEDULE", "shuffle:-1", "`ordered`, `shuffle` or `shuffle:SEED`"},
      {"COHORT_CHECK", "memory,everything",
       "a comma-separated list of `memory`, `races`, `memcpy`, `memcpy-poison` or `none`"},
      {"COHORT_WATCHDOG", "-1", "an integer from 0 to 1073741824"},
      {"COHORT_WATCHDOG", "1073741825", "an integer from 0 to 1073741824"},
      {"COHORT_ENGINE", "threads", "`auto`, `loops` or `fibers`"},
      {"COHORT_ENGINE_REPORT", "2", "an integer from 0 to 1"},
      {"COHORT_ENGINE_REPORT", "yes", "an integer from 0 to 1"},
      {"COHORT_DEVICE_COUNT", "0", "an integer from 1 to 64"},
      {"COHORT_DEVICE_COUNT", "65", "an integer from 1 to 64"},
      {"COHORT_DEVICE_MEMORY", "0", "a byte count such as 65536, 64K or 1M, from 1 to 1125899906842624 (2^50)"},
      {"COHORT_DEVICE_MEMORY", "lots", "a byte count such as 65536, 64K or 1M, from 1 to 1125899906842624 (2^50)"},
      {"COHORT_SM_COUNT", "65537", "an integer from 1 to 65536"},
      {"COHORT_WARP_SIZE", "48", "32 or 64"},
      {"COHORT_WARP_SIZE", "0x20", "32 or 64"},
      {"COHORT_MAX_THREADS_PER_BLOCK", "2048", "an integer from 1 to 1024"},
      {"COHORT_MAX_THREADS_PER_BLOCK", "100", "a multiple of the warp size (32)"},
      {"COHORT_MAX_THREADS_PER_SM", "0", "an integer from 1 to 65536"},
      {"COHORT_MAX_THREADS_PER_SM", "512",
       "at least the threads a block may have (1024, COHORT_MAX_THREADS_PER_BLOCK)"},
      {"COHORT_MAX_BLOCKS_PER_SM", "1025", "an integer from 1 to 1024"},
      {"COHORT_SHARED_PER_SM", "1023", "a byte count such as 65536, 64K or 1M, from 1024 to 1125899906842624 (2^50)"},
      {"COHORT_SHARED_PER_BLOCK", "1P", "a byte count such as 65536, 64K or 1M, from 0 to 1125899906842624 (2^50)"},
      {"COHORT_SHARED_PER_BLOCK", "1G",
       "at most 232448 bytes, the most a block may opt in to (COHORT_SHARED_PER_SM, 233472 bytes, less the 1024 "
       "reserved per block)"},
  };
  std::vector<std::string> covered;
  for (const bad_value& c : cases) {
    SCOPED_TRACE(std::string(c.name) + "=" + c.value);
    const scoped_env set(c.name, c.value);
    EXPECT_THAT(refusal(c.name),
                HasSubstr(std::string(c.name) + "=" + c.value + " is not valid: expected " + c.expected));
    covered.push_back(c.name);
  }
  for (const std::string& name : table_names())
    EXPECT_NE(std::find(covered.begin(), covered.end(), name), covered.end()) << name << " has no bad value here";
}

__global__ void does_nothing(int*) {}

// A bad value is an error where the runtime uses it, each time, and leaves
// the other variables working.
TEST(Settings, ABadValueFailsEachUseAndNoOther) {
  const all_unset none;
  cg::device_buffer<int> buffer(1);
  {
    const scoped_env bad("COHORT_WATCHDOG", "soon");
    for (int attempt = 0; attempt < 2; ++attempt)
      EXPECT_THAT(
          cohort_test::launch_error([&] { cg::launch(does_nothing, {dim3(1), dim3(1)}, buffer.data()); }).what(),
          HasSubstr("COHORT_WATCHDOG=soon is not valid: expected an integer from 0 to 1073741824"));
    EXPECT_EQ(cohort::host::setting_value("COHORT_SCHEDULE"), "ordered");
  }
  {
    const scoped_env bad("COHORT_CHECK", "memory;memcpy");
    EXPECT_THAT(cohort_test::launch_error([] { cg::device_buffer<int> allocated(4); }).what(),
                HasSubstr("COHORT_CHECK=memory;memcpy is not valid"));
  }
  {
    const scoped_env bad("COHORT_DEVICE_COUNT", "many");
    EXPECT_THAT(cohort_test::launch_error([] { cg::set_device(0); }).what(),
                HasSubstr("COHORT_DEVICE_COUNT=many is not valid: expected an integer from 1 to 64"));
    // The device memory's default is worked out from the count: its read names the count.
    EXPECT_THAT(refusal("COHORT_DEVICE_MEMORY"), HasSubstr("COHORT_DEVICE_COUNT=many is not valid"));
  }
  cg::launch(does_nothing, {dim3(1), dim3(1)}, buffer.data());  // all well again
}

TEST(Settings, ANameNotInTheTableIsRefused) {
  EXPECT_THAT(refusal("COHORT_WORKER"), HasSubstr("COHORT_WORKER is not a setting (docs/settings.md)"));
}

// The table as docs/settings.md lists it, between its two markers.
std::string table_as_markdown() {
  std::ostringstream out;
  out << "| variable | type | default | values | meaning |\n|---|---|---|---|---|\n";
  for (const auto& s : cohort::host::settings_table())
    out << "| `" << s.name << "` | " << s.type << " | " << s.default_value << " | " << s.allowed << " | " << s.meaning
        << " |\n";
  return out.str();
}

TEST(Settings, DocsListTheTable) {
  std::ifstream doc(COHORT_SETTINGS_DOC);
  ASSERT_TRUE(doc) << COHORT_SETTINGS_DOC;
  const std::string text((std::istreambuf_iterator<char>(doc)), std::istreambuf_iterator<char>());
  const std::string begin = "<!-- settings table begin -->\n", end = "<!-- settings table end -->";
  const auto from = text.find(begin), to = text.find(end);
  ASSERT_NE(from, std::string::npos) << "no " << begin;
  ASSERT_NE(to, std::string::npos) << "no " << end;
  EXPECT_EQ(text.substr(from + begin.size(), to - from - begin.size()), table_as_markdown())
      << "docs/settings.md's table differs from src/host_runtime/launch/settings.cpp's; the table is:\n"
      << table_as_markdown();
}

}  // namespace
