// A placeholder, found before a CUDA toolkit's own header, which does not compile for the host.
#error \
    "cohort: <cublas_v2.h> (cuBLAS) is not supported on the host backend: call a CPU BLAS (e.g. cblas_sgemm) in the host build, or write the operation as a kernel"
