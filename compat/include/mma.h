// A placeholder, found before a CUDA toolkit's own header, which does not compile for the host.
#error \
    "cohort: <mma.h> (nvcuda::wmma, warp matrix multiply-accumulate on tensor cores) is not supported on the host backend: keep the wmma code under #ifdef __CUDACC__ (defined by nvcc, not by cohort-cxx) and multiply with plain loops otherwise"
