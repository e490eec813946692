// <cuComplex.h> on the host backend: CUDA's single and double precision
// complex numbers (float2 and double2) and their arithmetic, written for
// cohort. Division scales both operands by the divisor's |re| + |im|, and the
// modulus divides by the larger part, so that neither overflows where the
// result does not; a GPU's fused multiply-adds may round the last bit of a
// product or quotient differently. Usable from C as from C++.
#ifndef CU_COMPLEX_H_
#define CU_COMPLEX_H_  // NVIDIA's include guard

#include <math.h>

#include "vector_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

static inline float cuCrealf(cuFloatComplex x) { return x.x; }
static inline float cuCimagf(cuFloatComplex x) { return x.y; }
static inline cuFloatComplex make_cuFloatComplex(float r, float i) {
  cuFloatComplex z;
  z.x = r;
  z.y = i;
  return z;
}
static inline cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
static inline cuFloatComplex cuCaddf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x + y.x, x.y + y.y);
}
static inline cuFloatComplex cuCsubf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x - y.x, x.y - y.y);
}
static inline cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
static inline cuFloatComplex cuCdivf(cuFloatComplex x, cuFloatComplex y) {
  const float scale = 1.0f / (fabsf(y.x) + fabsf(y.y));
  const float xr = x.x * scale, xi = x.y * scale, yr = y.x * scale, yi = y.y * scale;
  const float norm = 1.0f / (yr * yr + yi * yi);
  return make_cuFloatComplex((xr * yr + xi * yi) * norm, (xi * yr - xr * yi) * norm);
}
static inline float cuCabsf(cuFloatComplex x) {
  const float a = fabsf(x.x), b = fabsf(x.y);
  const float larger = a > b ? a : b, smaller = a > b ? b : a;  // a NaN part ends up in `smaller`
  if (larger == 0.0f || larger > 3.40282347e+38F || smaller > 3.40282347e+38F) return larger + smaller;
  const float ratio = smaller / larger;
  return larger * sqrtf(1.0f + ratio * ratio);
}

static inline double cuCreal(cuDoubleComplex x) { return x.x; }
static inline double cuCimag(cuDoubleComplex x) { return x.y; }
static inline cuDoubleComplex make_cuDoubleComplex(double r, double i) {
  cuDoubleComplex z;
  z.x = r;
  z.y = i;
  return z;
}
static inline cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
static inline cuDoubleComplex cuCadd(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x + y.x, x.y + y.y);
}
static inline cuDoubleComplex cuCsub(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x - y.x, x.y - y.y);
}
static inline cuDoubleComplex cuCmul(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
static inline cuDoubleComplex cuCdiv(cuDoubleComplex x, cuDoubleComplex y) {
  const double scale = 1.0 / (fabs(y.x) + fabs(y.y));
  const double xr = x.x * scale, xi = x.y * scale, yr = y.x * scale, yi = y.y * scale;
  const double norm = 1.0 / (yr * yr + yi * yi);
  return make_cuDoubleComplex((xr * yr + xi * yi) * norm, (xi * yr - xr * yi) * norm);
}
static inline double cuCabs(cuDoubleComplex x) {
  const double a = fabs(x.x), b = fabs(x.y);
  const double larger = a > b ? a : b, smaller = a > b ? b : a;
  if (larger == 0.0 || larger > 1.7976931348623157e+308 || smaller > 1.7976931348623157e+308) return larger + smaller;
  const double ratio = smaller / larger;
  return larger * sqrt(1.0 + ratio * ratio);
}

static inline cuComplex make_cuComplex(float x, float y) { return make_cuFloatComplex(x, y); }
static inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex((double)c.x, (double)c.y);
}
static inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex((float)c.x, (float)c.y);
}
// x * y + d, the real and imaginary parts each as two multiply-adds.
static inline cuComplex cuCfmaf(cuComplex x, cuComplex y, cuComplex d) {
  const float real = -x.y * y.y + (x.x * y.x + d.x);
  const float imag = x.y * y.x + (x.x * y.y + d.y);
  return make_cuComplex(real, imag);
}
static inline cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
  const double real = -x.y * y.y + (x.x * y.x + d.x);
  const double imag = x.y * y.x + (x.x * y.y + d.y);
  return make_cuDoubleComplex(real, imag);
}

#ifdef __cplusplus
}
#endif

#endif  // CU_COMPLEX_H_
