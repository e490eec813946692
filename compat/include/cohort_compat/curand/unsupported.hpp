// The parts of cuRAND's device API the host backend does not provide: each
// is a compile error where a program uses it, saying what to use instead.
#pragma once

namespace cohort::compat {

template <int generator>
struct unsupported_curand_generator {
  static_assert(generator < 0,
                "cohort: this cuRAND generator (MRG32k3a, MTGP32 or a Sobol generator) is not supported on the host "
                "backend: use curandState (XORWOW, cuRAND's default) or curandStatePhilox4_32_10_t, whose numbers "
                "equal a GPU's bit for bit");
};

template <class>
inline constexpr bool unsupported_curand_function = false;

}  // namespace cohort::compat

using curandStateMRG32k3a = cohort::compat::unsupported_curand_generator<0>;
using curandStateMtgp32 = cohort::compat::unsupported_curand_generator<1>;
using curandStateSobol32 = cohort::compat::unsupported_curand_generator<2>;
using curandStateScrambledSobol32 = cohort::compat::unsupported_curand_generator<3>;
using curandStateSobol64 = cohort::compat::unsupported_curand_generator<4>;
using curandStateScrambledSobol64 = cohort::compat::unsupported_curand_generator<5>;
using curandStateMRG32k3a_t = curandStateMRG32k3a;
using curandStateMtgp32_t = curandStateMtgp32;
using curandStateSobol32_t = curandStateSobol32;
using curandStateScrambledSobol32_t = curandStateScrambledSobol32;
using curandStateSobol64_t = curandStateSobol64;
using curandStateScrambledSobol64_t = curandStateScrambledSobol64;

template <class State>
unsigned int curand_poisson(State*, double) {
  static_assert(cohort::compat::unsupported_curand_function<State>,
                "cohort: curand_poisson is not supported on the host backend: draw a Poisson variate from "
                "curand_uniform (Knuth's product of uniforms for small lambda), or on the host with "
                "std::poisson_distribution");
  return 0;
}
template <class State, class Distribution>
unsigned int curand_discrete(State*, Distribution) {
  static_assert(cohort::compat::unsupported_curand_function<State>,
                "cohort: curand_discrete is not supported on the host backend: draw from curand_uniform with a "
                "cumulative table of your own");
  return 0;
}
