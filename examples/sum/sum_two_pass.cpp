// The sum_gpu series, two_pass reduction (see reduce/two_pass.hpp).
#include "reduce/two_pass.hpp"
#include "sum/sum_example.hpp"

int main(int argc, char** argv) { return cohort_kernels::run_sum_example(cohort_kernels::sum_two_pass, argc, argv); }
