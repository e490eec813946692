// clang-format off: a placeholder, found before a CUDA toolkit header of its name, which does not compile for the host (its #error stays on one line: tests/cuda_programs/unsupported_headers_test.cmake reads it).
#error "cohort: <cublas_v2.h> (cuBLAS) is not supported on the host backend: call a CPU BLAS (e.g. cblas_sgemm) in the host build, or write the operation as a kernel"
