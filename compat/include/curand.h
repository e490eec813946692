// A placeholder, found before a CUDA toolkit's own header, which does not compile for the host.
#error \
    "cohort: <curand.h> (cuRAND's host API: curandCreateGenerator, curandGenerateUniform, ...) is not supported on the host backend: generate the numbers on the host with <random> and cudaMemcpy them to the device"
