// Public headers name their template parameters in words: a program that
// defines a one-letter macro before including cohort (as CUDA samples define
// N) still compiles.
#define N 1024
#include <cohort/cohort.hpp>

static_assert(N == 1024);
