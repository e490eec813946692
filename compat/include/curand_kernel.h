// A placeholder, found before a CUDA toolkit's own header, which does not compile for the host.
#error \
    "cohort: <curand_kernel.h> (cuRAND's device API: curand_init, curand_uniform, ...) is not supported on the host backend: generate the numbers on the host with <random> and cudaMemcpy them to the device, or derive them from a hash of the thread's global index"
