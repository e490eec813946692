// A saturating histogram (the benchmark-suite kind whose bins are bytes that
// stop at 255): blocks count a 2-D image's values into a private shared-memory
// histogram, then merge it into the global bins with an atomicCAS loop that
// clamps at 255; a last kernel packs the bins into bytes and records the
// largest bin with atomicMax. Exact comparison with the host's histogram.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define IMG_WIDTH 512
#define IMG_HEIGHT 384
#define HISTO_BINS 1024
#define UINT8_MAXIMUM 255u
#define THREADS 256

#define CUDA_ERRCK { cudaError_t err = cudaGetLastError(); if (err != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err), __FILE__, __LINE__); exit(1); } }

__global__ void histo_private(const unsigned* img, int width, int height, unsigned* bins) {
  __shared__ unsigned s_histo[HISTO_BINS];
  for (int b = threadIdx.x; b < HISTO_BINS; b += blockDim.x) s_histo[b] = 0;
  __syncthreads();
  int size = width * height;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += blockDim.x * gridDim.x) {
    int row = i / width, col = i % width;
    atomicAdd(&s_histo[img[row * width + col]], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < HISTO_BINS; b += blockDim.x) {
    unsigned add = s_histo[b];
    if (add == 0) continue;
    unsigned old = bins[b], assumed;
    do {
      assumed = old;
      unsigned next = min(assumed + add, UINT8_MAXIMUM);
      if (next == assumed) break;
      old = atomicCAS(&bins[b], assumed, next);
    } while (old != assumed);
  }
}

__global__ void histo_pack(const unsigned* bins, unsigned char* out, unsigned* peak, unsigned* saturated) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < HISTO_BINS) {
    unsigned v = bins[b];
    out[b] = (unsigned char)v;
    atomicMax(peak, v);
    if (v == UINT8_MAXIMUM) atomicAdd(saturated, 1u);
  }
}

int main() {
  const int size = IMG_WIDTH * IMG_HEIGHT;
  unsigned* img = (unsigned*)malloc(size * sizeof(unsigned));
  unsigned ref[HISTO_BINS] = {0};
  srand(2010);
  for (int i = 0; i < size; i++) {  // a bell shape: a few bins overflow, the tails do not
    unsigned v = 0;
    for (int k = 0; k < 4; k++) v += rand() % (HISTO_BINS / 4);
    img[i] = v;
    ref[v]++;
  }
  unsigned *d_img, *d_bins, *d_stats;
  unsigned char* d_out;
  cudaMalloc((void**)&d_img, size * sizeof(unsigned));
  cudaMalloc((void**)&d_bins, HISTO_BINS * sizeof(unsigned));
  cudaMalloc((void**)&d_stats, 2 * sizeof(unsigned));
  cudaMalloc((void**)&d_out, HISTO_BINS);
  CUDA_ERRCK
  cudaMemcpy(d_img, img, size * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemset(d_bins, 0, HISTO_BINS * sizeof(unsigned));
  cudaMemset(d_stats, 0, 2 * sizeof(unsigned));
  CUDA_ERRCK
  histo_private<<<48, THREADS>>>(d_img, IMG_WIDTH, IMG_HEIGHT, d_bins);
  CUDA_ERRCK
  histo_pack<<<(HISTO_BINS + THREADS - 1) / THREADS, THREADS>>>(d_bins, d_out, d_stats, d_stats + 1);
  CUDA_ERRCK
  unsigned char out[HISTO_BINS];
  unsigned stats[2];
  cudaMemcpy(out, d_out, HISTO_BINS, cudaMemcpyDeviceToHost);
  cudaMemcpy(stats, d_stats, sizeof stats, cudaMemcpyDeviceToHost);
  CUDA_ERRCK

  int errors = 0;
  unsigned ref_peak = 0, ref_saturated = 0;
  for (int b = 0; b < HISTO_BINS; b++) {
    unsigned expect = ref[b] > UINT8_MAXIMUM ? UINT8_MAXIMUM : ref[b];
    if (expect > ref_peak) ref_peak = expect;
    if (expect == UINT8_MAXIMUM) ref_saturated++;
    if (out[b] != expect && errors++ < 10) printf("bin %d: %u, expected %u\n", b, out[b], expect);
  }
  if (stats[0] != ref_peak || stats[1] != ref_saturated) {
    printf("peak %u, saturated %u; expected %u, %u\n", stats[0], stats[1], ref_peak, ref_saturated);
    errors++;
  }
  printf("%u of %d bins saturated\n", stats[1], HISTO_BINS);
  cudaFree(d_img); cudaFree(d_bins); cudaFree(d_stats); cudaFree(d_out);
  free(img);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
