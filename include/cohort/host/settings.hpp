// The host backend's settings: every COHORT_* environment variable it reads,
// in one table (src/host_runtime/launch/settings.cpp) with each one's type, default, the
// values it takes and what it sets. docs/settings.md lists the same table, and
// a test fails when the two disagree. The environment is read once, at the
// first use of any setting; a bad value is an error (cohort::error,
// errc::invalid_argument) at each use of that setting, naming the variable,
// the value given and the values it takes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cohort::host {

struct setting {
  std::string name;           // COHORT_WORKERS
  std::string type;           // integer, byte count, choice or list
  std::string default_value;  // as the variable is written ("128K"), or what the default is worked out from
  std::string allowed;        // the values it takes, as a bad value's error says
  std::string meaning;        // what it sets, in a line
};

// Every variable, in the order docs/settings.md lists them.
const std::vector<setting>& settings_table();

// The value in effect for the variable `name` (one of the table's), written as
// the variable takes it: "131072" for COHORT_STACK_SIZE=128K, "shuffle:7",
// "memory,memcpy", the worked-out default where it is unset. Throws the
// variable's error when its value is bad, and for a name not in the table.
std::string setting_value(std::string_view name);

// For tests only: reads the environment again, so that a test that changed a
// COHORT_* variable with setenv sees its new value at the next launch (no
// launch may be running). The worker pool and the fiber stacks are made once,
// with COHORT_WORKERS and COHORT_STACK_SIZE as they were at the first launch,
// and keep that size; the virtual device changes at reset_virtual_device().
void reload_settings();

}  // namespace cohort::host
