// Matrix transpose through 32x33 shared-memory tiles (the padding avoids bank
// conflicts), on a 2-D grid of 32x8 blocks, for a matrix whose sides are not
// multiples of the tile.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int TILE = 32, ROWS = 8;

__global__ void transpose(float* out, const float* in, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int width = 1000, height = 333;
  std::vector<float> in(width * height), out(width * height, -1.0f);
  for (int i = 0; i < width * height; ++i) in[i] = static_cast<float>(i);
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_out, out.size() * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0xff, out.size() * sizeof(float)));
  dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE), block(TILE, ROWS);
  transpose<<<grid, block>>>(d_out, d_in, width, height);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c)
      if (out[c * height + r] != in[r * width + c]) {
        std::printf("out[%d][%d]: got %f, expected %f\n", c, r, out[c * height + r], in[r * width + c]);
        return 1;
      }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  std::printf("transpose_tiles: PASS (%dx%d)\n", width, height);
  return 0;
}
