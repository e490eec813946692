// NVIDIA's <math_constants.h> and <cuComplex.h>, from a CUDA toolkit's include
// folder (the only one CMake gives this file), for toolkit_headers_test.cu.
#include <cuComplex.h>
#include <math_constants.h>

#define TOOLKIT_HEADER_SIDE nvidia_side
#include "toolkit_header_values.inc"

namespace nvidia_side {
// Out of line, so that the test's translation unit, with cohort's headers, can call them.
std::vector<double> math_constants_out_of_line() { return math_constants(); }
void complex_op_out_of_line(int op, const float* x, const float* y, const float* d, float* out) {
  complex_op(op, x, y, d, out);
}
void complex_op_out_of_line(int op, const double* x, const double* y, const double* d, double* out) {
  complex_op(op, x, y, d, out);
}
}  // namespace nvidia_side
