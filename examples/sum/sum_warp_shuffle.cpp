// The sum_gpu series, warp_shuffle reduction (see reduce/warp_shuffle.hpp).
#include "reduce/warp_shuffle.hpp"
#include "sum/sum_example.hpp"

int main(int argc, char** argv) {
  return cohort_kernels::run_sum_example(cohort_kernels::sum_warp_shuffle, argc, argv);
}
