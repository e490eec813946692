// The kernels race checking is timed on (race_check_bench.cpp), built twice:
// plain (plain.cpp) and with the race instrumentation (instrumented.cpp),
// each into the namespace RACE_BENCH_NAMESPACE names.
#include <cohort/cohort.hpp>

namespace cg = cohort;

namespace RACE_BENCH_NAMESPACE {

constexpr unsigned threads = 256;
constexpr unsigned tile = 16;

// A tree reduction through a __shared__ array: 9 block barriers per block.
__global__ void reduce(const float* in, float* out) {
  __shared__ float partial[threads];
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * threads + t];
  __syncthreads();
  for (unsigned s = threads / 2; s > 0; s /= 2) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

// A tiled matrix product: 2 shared loads and 2 barriers per tile, 2 shared reads per multiply-add.
__global__ void matmul(const float* a, const float* b, float* c, unsigned side) {
  __shared__ float as[tile][tile];
  __shared__ float bs[tile][tile];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * tile + ty, col = blockIdx.x * tile + tx;
  float sum = 0;
  for (unsigned k0 = 0; k0 < side; k0 += tile) {
    as[ty][tx] = a[row * side + k0 + tx];
    bs[ty][tx] = b[(k0 + ty) * side + col];
    __syncthreads();
    for (unsigned k = 0; k < tile; ++k) sum += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[row * side + col] = sum;
}

void run_reduce(unsigned blocks, const float* in, float* out) {
  cg::launch(reduce, {dim3(blocks), dim3(threads)}, in, out);
}
void run_matmul(unsigned side, const float* a, const float* b, float* c) {
  cg::launch(matmul, {dim3(side / tile, side / tile), dim3(tile, tile)}, a, b, c, side);
}

}  // namespace RACE_BENCH_NAMESPACE
