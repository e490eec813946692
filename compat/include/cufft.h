// A placeholder, found before a CUDA toolkit's own header, which does not compile for the host.
#error \
    "cohort: <cufft.h> (cuFFT) is not supported on the host backend: call a CPU FFT library (e.g. FFTW) in the host build"
