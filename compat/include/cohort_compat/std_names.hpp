// Standard-library names that C++20 adds to the global namespace and CUDA
// code, written for nvcc's default C++17, defines for itself: cohort-cxx
// compiles as C++20, where libstdc++'s <math.h> exports std::lerp, which would
// collide with NVIDIA's helper_math.h's `float lerp(float, float, float)`.
// <cmath> and <math.h> are included here, first (<cuda_runtime.h> includes
// this before anything else), with std::lerp under another name; later
// inclusions are no-ops. std::lerp is thus not available, as with nvcc's default.
#pragma once

#define lerp cohort_std_lerp
#include <math.h>
#include <cmath>
#undef lerp
