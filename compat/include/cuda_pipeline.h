// A placeholder, found before a CUDA toolkit's own header, which does not compile for the host.
#error "cohort: <cuda_pipeline.h> (the __pipeline_memcpy_async primitives) is not supported on the host backend: copy to shared memory with cooperative_groups::memcpy_async and cooperative_groups::wait (<cooperative_groups/memcpy_async.h>)"
