// clang-format off: a placeholder, found before a CUDA toolkit header of its name, which does not compile for the host (its #error stays on one line: tests/cuda_programs/unsupported_headers_test.cmake reads it).
#error "cohort: <cufft.h> (cuFFT) is not supported on the host backend: call a CPU FFT library (e.g. FFTW) in the host build"
