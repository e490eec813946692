// The CUDA toolkit headers cohort writes for itself: <math_constants.h> and
// <cuComplex.h> give NVIDIA's values and results (checked, bit for bit, against
// NVIDIA's own headers where CMake found a CUDA toolkit: nvidia_toolkit_headers.cpp),
// in host code and in kernels; the toolkit's internal headers that older programs
// include directly, and libcu++'s <cuda/std/...> headers, compile.
#include <builtin_types.h>
#include <crt/host_defines.h>
#include <cuComplex.h>
#include <device_functions.h>
#include <gtest/gtest.h>
#include <host_defines.h>
#include <math_constants.h>
#include <math_functions.h>
#include <sm_20_atomic_functions.h>
#include <sm_60_atomic_functions.h>
#include <cuda/std/complex>
#include <cuda/std/numeric>
#include <cuda/std/optional>
#include <cuda/std/span>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

#define TOOLKIT_HEADER_SIDE cohort_side
#include "toolkit_header_values.inc"

#if COHORT_NVIDIA_TOOLKIT_HEADERS
namespace nvidia_side {
std::vector<double> math_constants_out_of_line();
void complex_op_out_of_line(int op, const float* x, const float* y, const float* d, float* out);
void complex_op_out_of_line(int op, const double* x, const double* y, const double* d, double* out);
}  // namespace nvidia_side
#endif

namespace {

template <class T>
auto bits(T v) {
  return std::bit_cast<std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>(v);
}

TEST(ToolkitHeaders, SpecialValuesAreAGpusBitPatterns) {
  EXPECT_EQ(bits(CUDART_INF_F), 0x7f800000u);
  EXPECT_EQ(bits(CUDART_NAN_F), 0x7fffffffu);
  EXPECT_EQ(bits(CUDART_MIN_DENORM_F), 0x00000001u);
  EXPECT_EQ(bits(CUDART_MAX_NORMAL_F), 0x7f7fffffu);
  EXPECT_EQ(bits(CUDART_NEG_ZERO_F), 0x80000000u);
  EXPECT_EQ(bits(CUDART_INF), 0x7ff0000000000000u);
  EXPECT_EQ(bits(CUDART_NAN), 0xfff8000000000000u);
  EXPECT_EQ(bits(CUDART_NEG_ZERO), 0x8000000000000000u);
  EXPECT_EQ(bits(CUDART_MIN_DENORM), 0x0000000000000001u);
  EXPECT_EQ(CUDART_REMQUO_MASK_F, 7u);
}

TEST(ToolkitHeaders, MathConstantsAreTheNumbersTheirNamesSay) {
  EXPECT_EQ(CUDART_PI_F, static_cast<float>(M_PI));
  EXPECT_EQ(CUDART_PI, M_PI);
  EXPECT_EQ(CUDART_PI_HI + CUDART_PI_LO, M_PI);  // the low part is below the high part's last bit
  EXPECT_EQ(CUDART_LN2, M_LN2);
  EXPECT_EQ(CUDART_L2E, M_LOG2E);
  EXPECT_EQ(CUDART_LGE, M_LOG10E);
  EXPECT_EQ(CUDART_SQRT_TWO, M_SQRT2);
  EXPECT_EQ(CUDART_TWO_TO_M1022, std::ldexp(1.0, -1022));
  EXPECT_EQ(CUDART_DBL2INT_CVT + 2.5 - CUDART_DBL2INT_CVT, 2.0);  // rounds half to even
}

#if COHORT_NVIDIA_TOOLKIT_HEADERS
TEST(ToolkitHeaders, MathConstantsAreNvidias) {
  const std::vector<double> ours = cohort_side::math_constants(), theirs = nvidia_side::math_constants_out_of_line();
  const char* names[] = {
#define TOOLKIT_NAME(name) #name,
      TOOLKIT_MATH_CONSTANTS(TOOLKIT_NAME)
#undef TOOLKIT_NAME
  };
  ASSERT_EQ(ours.size(), theirs.size());
  for (std::size_t i = 0; i < ours.size(); ++i)
    EXPECT_EQ(bits(ours[i]), bits(theirs[i])) << "CUDART_" << names[i] << ": " << ours[i] << " vs " << theirs[i];
}

// Operands of every magnitude a program meets, zeros, infinities and NaN among them.
template <class Real>
std::vector<Real> operands(std::mt19937& rng) {
  std::vector<Real> v = {0, -0.0, 1, -1, 3, 4, 1e-30f, 1e30f, INFINITY, -INFINITY, NAN};
  std::uniform_real_distribution<Real> mantissa(-1, 1);
  std::uniform_int_distribution<int> exponent(-60, 60);
  for (int i = 0; i < 200; ++i) v.push_back(std::ldexp(mantissa(rng), exponent(rng)));
  return v;
}

template <class Real>
void expect_complex_ops_as_nvidias() {
  std::mt19937 rng(20261129);
  const std::vector<Real> v = operands<Real>(rng);
  std::uniform_int_distribution<std::size_t> pick(0, v.size() - 1);
  for (int trial = 0; trial < 20000; ++trial) {
    const Real x[2] = {v[pick(rng)], v[pick(rng)]}, y[2] = {v[pick(rng)], v[pick(rng)]}, d[2] = {v[pick(rng)], 1};
    for (int op = 0; op < cohort_side::complex_ops; ++op) {
      Real ours[2], theirs[2];
      cohort_side::complex_op(op, x, y, d, ours);
      nvidia_side::complex_op_out_of_line(op, x, y, d, theirs);
      for (int part = 0; part < 2; ++part) {
        if (std::isnan(ours[part]) && std::isnan(theirs[part])) continue;
        ASSERT_EQ(bits(ours[part]), bits(theirs[part]))
            << "op " << op << " part " << part << " of (" << x[0] << ", " << x[1] << ") and (" << y[0] << ", " << y[1]
            << "): " << ours[part] << " vs " << theirs[part];
      }
    }
  }
}

TEST(ToolkitHeaders, ComplexArithmeticIsNvidiasBitForBit) {
  expect_complex_ops_as_nvidias<float>();
  expect_complex_ops_as_nvidias<double>();
}
#else
TEST(ToolkitHeaders, MathConstantsAreNvidias) { GTEST_SKIP() << "no CUDA toolkit's headers to compare with"; }
#endif

// The arithmetic in a kernel, as a program's FFT twiddle would use it.
__global__ void rotate(cuDoubleComplex* z, cuFloatComplex* f, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double angle = 2 * CUDART_PI * i / n;
  z[i] = cuCmul(z[i], make_cuDoubleComplex(cos(angle), sin(angle)));
  f[i] = cuCdivf(f[i], make_cuFloatComplex(0, 1));
}

TEST(ToolkitHeaders, ComplexArithmeticInAKernel) {
  const int n = 100;
  cuDoubleComplex* z;
  cuFloatComplex* f;
  ASSERT_EQ(cudaMallocManaged(&z, n * sizeof *z), cudaSuccess);
  ASSERT_EQ(cudaMallocManaged(&f, n * sizeof *f), cudaSuccess);
  for (int i = 0; i < n; ++i) z[i] = make_cuDoubleComplex(1, 0), f[i] = make_cuFloatComplex(i, 0);
  rotate<<<2, 64>>>(z, f, n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(cuCabs(z[i]), 1.0, 1e-15) << i;
    EXPECT_NEAR(atan2(cuCimag(z[i]), cuCreal(z[i])), std::remainder(2 * M_PI * i / n, 2 * M_PI), 1e-12) << i;
    EXPECT_EQ(cuCrealf(f[i]), 0.0f);
    EXPECT_EQ(cuCimagf(f[i]), -static_cast<float>(i));
  }
  cudaFree(z);
  cudaFree(f);
}

TEST(ToolkitHeaders, LibcuxxHeadersAreTheStandardOnes) {
  cuda::std::complex<float> c(1, 2);
  EXPECT_EQ(c * c, cuda::std::complex<float>(-3, 4));
  const int values[] = {1, 2, 3};
  EXPECT_EQ(
      cuda::std::accumulate(cuda::std::span<const int>(values).begin(), cuda::std::span<const int>(values).end(), 0),
      6);
  EXPECT_FALSE(cuda::std::optional<int>().has_value());
}

}  // namespace
