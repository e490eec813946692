// The kernel of c_host_main.c and its launcher, exported with C linkage.
__global__ void scale(float* data, int n, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

extern "C" void scale_on_device(float* data, int n, float factor) {
  scale<<<(n + 255) / 256, 256>>>(data, n, factor);
}
