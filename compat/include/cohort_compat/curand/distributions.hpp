// cuRAND's distributions on the host backend, for curandState (XORWOW) and
// curandStatePhilox4_32_10: each draws the generator's numbers as cuRAND
// does, so uniform values equal a GPU's bit for bit; normal and log-normal
// values go through the host's logf/sinf/cosf where the GPU uses its own
// (__sincosf, sincospi), so they agree to a few units in the last place
// (docs/cuda-compat.md, "cuRAND").
#pragma once

#include <cmath>

#include "cohort_compat/curand/philox.hpp"
#include "cohort_compat/curand/xorwow.hpp"
#include "vector_types.h"

namespace cohort::compat {

inline constexpr float two_pow_minus_32 = 2.3283064e-10f;
inline constexpr double two_pow_minus_32_double = 2.3283064365386963e-10;
inline constexpr double two_pow_minus_53_double = 1.1102230246251565e-16;
inline constexpr float two_pi_over_two_pow_32 = 2.3283064e-10f * 6.2831855f;
inline constexpr double pi_double = 3.1415926535897932;
// Which transform's second value a state keeps for its next call.
inline constexpr int kept_normal = 1, kept_log_normal = 2;

// (0, 1]: never 0, so that the logarithm of a Box-Muller transform is finite.
inline float uniform_of(unsigned int x) { return x * two_pow_minus_32 + two_pow_minus_32 / 2.0f; }
inline double uniform_double_of(unsigned int x) { return x * two_pow_minus_32_double + two_pow_minus_32_double; }
// 53 bits from two numbers.
inline double uniform_double_of(unsigned int x, unsigned int y) {
  const unsigned long long z = static_cast<unsigned long long>(x) ^ (static_cast<unsigned long long>(y) << (53 - 32));
  return z * two_pow_minus_53_double + two_pow_minus_53_double / 2.0;
}

inline float2 box_muller(unsigned int x, unsigned int y) {
  const float u = x * two_pow_minus_32 + two_pow_minus_32 / 2;
  const float v = y * two_pi_over_two_pow_32 + two_pi_over_two_pow_32 / 2;
  const float s = std::sqrt(-2.0f * std::log(u));
  return {std::sin(v) * s, std::cos(v) * s};
}

inline double2 box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1) {
  const unsigned long long zx = static_cast<unsigned long long>(x0) ^ (static_cast<unsigned long long>(x1) << 21);
  const unsigned long long zy = static_cast<unsigned long long>(y0) ^ (static_cast<unsigned long long>(y1) << 21);
  const double u = zx * two_pow_minus_53_double + two_pow_minus_53_double / 2.0;
  const double v = zy * (two_pow_minus_53_double * 2.0) + two_pow_minus_53_double;
  const double s = std::sqrt(-2.0 * std::log(u));
  return {std::sin(v * pi_double) * s, std::cos(v * pi_double) * s};
}

// A pair's first value now and its second at the next call of the same kind
// (cuRAND keeps it in the state, one slot for normal, one for log-normal).
template <class State, class Pair, class Map>
auto first_then_kept(State* state, int& flag, auto& extra, int kind, Pair draw, Map map) {
  if (flag != kind) {
    const auto pair = draw(state);
    extra = map(pair.y);
    flag = kind;
    return map(pair.x);
  }
  flag = 0;
  return extra;
}

template <class State>
concept curand_generator = requires(State* s) {
  { curand(s) };
  { s->boxmuller_flag };
};

template <class State>
float2 normal_pair(State* s) {
  const unsigned int x = curand(s);
  return box_muller(x, curand(s));
}

// XORWOW's four numbers come one at a time, Philox's as one curand4.
inline double2 normal_pair_double(curandStateXORWOW_t* s) {
  const unsigned int x0 = curand(s), x1 = curand(s), y0 = curand(s);
  return box_muller_double(x0, x1, y0, curand(s));
}
inline double2 normal_pair_double(curandStatePhilox4_32_10_t* s) {
  const uint4 x = curand4(s);
  return box_muller_double(x.x, x.y, x.z, x.w);
}

}  // namespace cohort::compat

inline float curand_uniform(curandStateXORWOW_t* state) { return cohort::compat::uniform_of(curand(state)); }
inline float curand_uniform(curandStatePhilox4_32_10_t* state) { return cohort::compat::uniform_of(curand(state)); }
inline double curand_uniform_double(curandStateXORWOW_t* state) {
  const unsigned int x = curand(state);
  return cohort::compat::uniform_double_of(x, curand(state));
}
// cuRAND draws one 32-bit number for Philox's (curand_uniform2_double gives 53 bits).
inline double curand_uniform_double(curandStatePhilox4_32_10_t* state) {
  return cohort::compat::uniform_double_of(curand(state));
}
inline float4 curand_uniform4(curandStatePhilox4_32_10_t* state) {
  using cohort::compat::uniform_of;
  const uint4 x = curand4(state);
  return {uniform_of(x.x), uniform_of(x.y), uniform_of(x.z), uniform_of(x.w)};
}
inline double2 curand_uniform2_double(curandStatePhilox4_32_10_t* state) {
  using cohort::compat::uniform_double_of;
  const uint4 x = curand4(state);
  return {uniform_double_of(x.x, x.y), uniform_double_of(x.z, x.w)};
}
inline double4 curand_uniform4_double(curandStatePhilox4_32_10_t* state) {
  const double2 a = curand_uniform2_double(state), b = curand_uniform2_double(state);
  return {a.x, a.y, b.x, b.y};
}

template <cohort::compat::curand_generator State>
float curand_normal(State* state) {
  using namespace cohort::compat;
  return first_then_kept(state, state->boxmuller_flag, state->boxmuller_extra, kept_normal, normal_pair<State>,
                         [](float x) { return x; });
}
template <cohort::compat::curand_generator State>
double curand_normal_double(State* state) {
  using namespace cohort::compat;
  return first_then_kept(
      state, state->boxmuller_flag_double, state->boxmuller_extra_double, kept_normal,
      [](State* s) { return normal_pair_double(s); }, [](double x) { return x; });
}
template <cohort::compat::curand_generator State>
float curand_log_normal(State* state, float mean, float stddev) {
  using namespace cohort::compat;
  return first_then_kept(state, state->boxmuller_flag, state->boxmuller_extra, kept_log_normal, normal_pair<State>,
                         [=](float x) { return std::exp(mean + stddev * x); });
}
template <cohort::compat::curand_generator State>
double curand_log_normal_double(State* state, double mean, double stddev) {
  using namespace cohort::compat;
  return first_then_kept(
      state, state->boxmuller_flag_double, state->boxmuller_extra_double, kept_log_normal,
      [](State* s) { return normal_pair_double(s); }, [=](double x) { return std::exp(mean + stddev * x); });
}

template <cohort::compat::curand_generator State>
float2 curand_normal2(State* state) {
  return cohort::compat::normal_pair(state);
}
template <cohort::compat::curand_generator State>
double2 curand_normal2_double(State* state) {
  return cohort::compat::normal_pair_double(state);
}
template <cohort::compat::curand_generator State>
float2 curand_log_normal2(State* state, float mean, float stddev) {
  const float2 v = cohort::compat::normal_pair(state);
  return {std::exp(mean + stddev * v.x), std::exp(mean + stddev * v.y)};
}
template <cohort::compat::curand_generator State>
double2 curand_log_normal2_double(State* state, double mean, double stddev) {
  const double2 v = cohort::compat::normal_pair_double(state);
  return {std::exp(mean + stddev * v.x), std::exp(mean + stddev * v.y)};
}

inline float4 curand_normal4(curandStatePhilox4_32_10_t* state) {
  const uint4 x = curand4(state);
  const float2 a = cohort::compat::box_muller(x.x, x.y), b = cohort::compat::box_muller(x.z, x.w);
  return {a.x, a.y, b.x, b.y};
}
inline double4 curand_normal4_double(curandStatePhilox4_32_10_t* state) {
  const double2 a = cohort::compat::normal_pair_double(state), b = cohort::compat::normal_pair_double(state);
  return {a.x, a.y, b.x, b.y};
}
inline float4 curand_log_normal4(curandStatePhilox4_32_10_t* state, float mean, float stddev) {
  const float4 v = curand_normal4(state);
  return {std::exp(mean + stddev * v.x), std::exp(mean + stddev * v.y), std::exp(mean + stddev * v.z),
          std::exp(mean + stddev * v.w)};
}
inline double4 curand_log_normal4_double(curandStatePhilox4_32_10_t* state, double mean, double stddev) {
  const double4 v = curand_normal4_double(state);
  return {std::exp(mean + stddev * v.x), std::exp(mean + stddev * v.y), std::exp(mean + stddev * v.z),
          std::exp(mean + stddev * v.w)};
}
