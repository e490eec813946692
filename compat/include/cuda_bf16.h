// A placeholder, found before a CUDA toolkit's own header, which does not compile for the host.
#error "cohort: <cuda_bf16.h> (the __nv_bfloat16 and __nv_bfloat162 types and their intrinsics) is not supported on the host backend: compute in float in the host build, keeping the bfloat16 code under #ifdef __CUDACC__ (defined by nvcc, not by cohort-cxx)"
