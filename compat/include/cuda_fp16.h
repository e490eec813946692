// A placeholder, found before a CUDA toolkit's own header, which does not compile for the host.
#error "cohort: <cuda_fp16.h> (the __half and __half2 types and their intrinsics) is not supported on the host backend: compute in float in the host build, keeping the half-precision code under #ifdef __CUDACC__ (defined by nvcc, not by cohort-cxx)"
