// A placeholder, found before a CUDA toolkit's own header, which does not compile for the host.
#error "cohort: <texture_fetch_functions.h> (tex1Dfetch, tex2D and the other texture fetches) is not supported on the host backend: read the data through a const pointer, e.g. __ldg(&p[i]), doing the filtering and addressing mode yourself"
