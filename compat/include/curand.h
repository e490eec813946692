// <curand.h> on the host backend: cuRAND's types and status codes, which
// programs of its device API include it for (<curand_kernel.h> does too).
// Its host API (generators created on the host that fill device memory) is
// not provided: a call to one of its functions is a compile error saying so.
#pragma once

#include <cstddef>

#include "cuda_runtime_api.h"

enum curandStatus {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104,
  CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  CURAND_STATUS_LAUNCH_FAILURE = 201,
  CURAND_STATUS_PREEXISTING_FAILURE = 202,
  CURAND_STATUS_INITIALIZATION_FAILED = 203,
  CURAND_STATUS_ARCH_MISMATCH = 204,
  CURAND_STATUS_INTERNAL_ERROR = 999
};
typedef enum curandStatus curandStatus_t;

enum curandRngType {
  CURAND_RNG_TEST = 0,
  CURAND_RNG_PSEUDO_DEFAULT = 100,
  CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_MTGP32 = 141,
  CURAND_RNG_PSEUDO_MT19937 = 142,
  CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  CURAND_RNG_QUASI_DEFAULT = 200,
  CURAND_RNG_QUASI_SOBOL32 = 201,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
  CURAND_RNG_QUASI_SOBOL64 = 203,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
};
typedef enum curandRngType curandRngType_t;

enum curandOrdering {
  CURAND_ORDERING_PSEUDO_BEST = 100,
  CURAND_ORDERING_PSEUDO_DEFAULT = 101,
  CURAND_ORDERING_PSEUDO_SEEDED = 102,
  CURAND_ORDERING_PSEUDO_LEGACY = 103,
  CURAND_ORDERING_PSEUDO_DYNAMIC = 104,
  CURAND_ORDERING_QUASI_DEFAULT = 201
};
typedef enum curandOrdering curandOrdering_t;

typedef struct curandGenerator_st* curandGenerator_t;
typedef struct curandDiscreteDistribution_st* curandDiscreteDistribution_t;
typedef unsigned int curandDirectionVectors32_t[32];
typedef unsigned long long curandDirectionVectors64_t[64];

// The host API: declared, so that a program names what it calls, and an error at each call.
#define COHORT_CURAND_HOST_API                                                                                    \
  __attribute__((error(                                                                                           \
      "cohort: cuRAND's host API (curandCreateGenerator, curandGenerate*, ...) is not supported on the host "     \
      "backend: draw the numbers in a kernel with <curand_kernel.h> (curand_init, curand_uniform, ...: the same " \
      "numbers as a GPU's), or on the host with <random> and cudaMemcpy them to the device")))
COHORT_CURAND_HOST_API curandStatus_t curandCreateGenerator(curandGenerator_t*, curandRngType_t);
COHORT_CURAND_HOST_API curandStatus_t curandCreateGeneratorHost(curandGenerator_t*, curandRngType_t);
COHORT_CURAND_HOST_API curandStatus_t curandDestroyGenerator(curandGenerator_t);
COHORT_CURAND_HOST_API curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t, unsigned long long);
COHORT_CURAND_HOST_API curandStatus_t curandSetGeneratorOffset(curandGenerator_t, unsigned long long);
COHORT_CURAND_HOST_API curandStatus_t curandSetGeneratorOrdering(curandGenerator_t, curandOrdering_t);
COHORT_CURAND_HOST_API curandStatus_t curandSetStream(curandGenerator_t, cudaStream_t);
COHORT_CURAND_HOST_API curandStatus_t curandGenerate(curandGenerator_t, unsigned int*, std::size_t);
COHORT_CURAND_HOST_API curandStatus_t curandGenerateUniform(curandGenerator_t, float*, std::size_t);
COHORT_CURAND_HOST_API curandStatus_t curandGenerateUniformDouble(curandGenerator_t, double*, std::size_t);
COHORT_CURAND_HOST_API curandStatus_t curandGenerateNormal(curandGenerator_t, float*, std::size_t, float, float);
COHORT_CURAND_HOST_API curandStatus_t curandGenerateNormalDouble(curandGenerator_t, double*, std::size_t, double,
                                                                 double);
COHORT_CURAND_HOST_API curandStatus_t curandGenerateLogNormal(curandGenerator_t, float*, std::size_t, float, float);
COHORT_CURAND_HOST_API curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t, double*, std::size_t, double,
                                                                    double);
COHORT_CURAND_HOST_API curandStatus_t curandGeneratePoisson(curandGenerator_t, unsigned int*, std::size_t, double);
#undef COHORT_CURAND_HOST_API
