// The sum_gpu series, cooperative reduction (see reduce/cooperative.hpp).
#include "reduce/cooperative.hpp"
#include "sum/sum_example.hpp"

int main(int argc, char** argv) { return cohort_kernels::run_sum_example(cohort_kernels::sum_cooperative, argc, argv); }
