// The sum_gpu series, atomic reduction (see reduce/atomic.hpp).
#include "reduce/atomic.hpp"
#include "sum/sum_example.hpp"

int main(int argc, char** argv) { return cohort_kernels::run_sum_example(cohort_kernels::sum_atomic, argc, argv); }
