// A placeholder, found before a CUDA toolkit's own header, which does not compile for the host.
#error "cohort: <cuda_texture_types.h> (texture references, removed in CUDA 12) is not supported on the host backend: read the data through a const pointer, e.g. __ldg(&p[i])"
