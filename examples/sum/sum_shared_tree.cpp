// The sum_gpu series, shared_tree reduction (see reduce/shared_tree.hpp).
#include "reduce/shared_tree.hpp"
#include "sum/sum_example.hpp"

int main(int argc, char** argv) { return cohort_kernels::run_sum_example(cohort_kernels::sum_shared_tree, argc, argv); }
