// What the loops engine's tests check of a kernel on both engines: the same
// results element by element, or the reason it stays on fibers.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cohort/errors.hpp"
#include "cohort/host/engine.hpp"
#include "cohort/host/statistics.hpp"

namespace loops_tests {

using cohort::host::engine_choice;

// A test that may set the engine mode, left as every test finds it: auto.
class engine_mode_test : public ::testing::Test {
 protected:
  void TearDown() override { cohort::host::set_engine_mode(cohort::host::engine_mode::automatic); }
};

inline std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(gen);
  return v;
}

inline std::vector<int> random_ints(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(-1000, 1000);
  std::vector<int> v(n);
  for (int& x : v) x = d(gen);
  return v;
}

// The run on fibers and on the engine `auto` chooses; that choice must be `expected`.
template <class T>
void expect_same_on_both(const std::function<std::vector<T>()>& run, cohort::host::engine expected) {
  using cohort::host::engine;
  using cohort::host::engine_mode;
  using cohort::host::set_engine_mode;
  set_engine_mode(engine_mode::fibers);
  const std::vector<T> on_fibers = run();
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::fibers);
  set_engine_mode(engine_mode::automatic);
  const std::vector<T> on_auto = run();
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, expected);
  ASSERT_EQ(on_fibers.size(), on_auto.size());
  for (std::size_t i = 0; i < on_fibers.size(); ++i) ASSERT_EQ(on_fibers[i], on_auto[i]) << "element " << i;
}

// A kernel the pass keeps on fibers: the reason names it, `auto` runs it on
// fibers with the right result, and COHORT_ENGINE=loops refuses it with that reason.
template <class T>
void expect_fallback(const engine_choice& choice, const std::string& reason, const std::function<std::vector<T>()>& run,
                     const std::vector<T>& expected, const std::string& file = "kernels.cpp:") {
  using cohort::host::engine;
  using cohort::host::engine_mode;
  using cohort::host::set_engine_mode;
  EXPECT_EQ(choice.chosen, engine::fibers);
  EXPECT_NE(choice.reason.find(reason), std::string::npos) << choice.reason;
  EXPECT_NE(choice.reason.find(file), std::string::npos) << choice.reason;
  set_engine_mode(engine_mode::automatic);
  EXPECT_EQ(run(), expected);
  EXPECT_EQ(cohort::host::last_launch_statistics().ran_on, engine::fibers);
  set_engine_mode(engine_mode::loops);
  try {
    run();
    ADD_FAILURE() << "COHORT_ENGINE=loops ran a kernel the pass kept on fibers";
  } catch (const cohort::error& e) {
    EXPECT_EQ(e.kind(), cohort::errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
  }
  set_engine_mode(engine_mode::automatic);
}

// The launch's error on fibers and on loops: the same kind, and the message
// the fiber engine gives (`same_text`) or one that contains `part`.
inline void expect_same_error(const std::function<void()>& run, cohort::errc kind, bool same_text,
                              const std::string& part) {
  std::string messages[2];
  using cohort::host::engine_mode;
  const engine_mode modes[] = {engine_mode::fibers, engine_mode::loops};
  for (int m = 0; m < 2; ++m) {
    cohort::host::set_engine_mode(modes[m]);
    try {
      run();
      ADD_FAILURE() << "the launch did not fail";
    } catch (const cohort::error& e) {
      EXPECT_EQ(e.kind(), kind) << e.what();
      messages[m] = e.what();
      EXPECT_NE(messages[m].find(part), std::string::npos) << messages[m];
    }
  }
  cohort::host::set_engine_mode(engine_mode::automatic);
  if (same_text) EXPECT_EQ(messages[0], messages[1]);
  // Both name the thread that called the collective first and the lane it found at odds.
  for (const std::string& message : messages) EXPECT_NE(message.find("block (0,0,0)"), std::string::npos) << message;
}

}  // namespace loops_tests
