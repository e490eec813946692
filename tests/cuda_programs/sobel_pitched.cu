// Sobel edge detection on an 8-bit image in pitched device memory: the image goes
// in and out with cudaMallocPitch / cudaMemcpy2D, rows are reached through the
// pitch with (unsigned char*)((char*)base + y * pitch), and each 2-D block stages
// its tile and a one-pixel apron in shared memory. |gx| + |gy| clamped to 255,
// border pixels 0; exact comparison with the host.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE_W 32
#define TILE_H 8
#define WIDTH 300
#define HEIGHT 200

#define checkCudaErrors(x) do { cudaError_t err__ = (x); if (err__ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err__)); exit(1); } } while (0)

__global__ void sobel(const unsigned char* src, size_t src_pitch, unsigned char* dst, size_t dst_pitch, int w, int h) {
  __shared__ unsigned char tile[TILE_H + 2][TILE_W + 2];
  int x = blockIdx.x * TILE_W + threadIdx.x, y = blockIdx.y * TILE_H + threadIdx.y;
  // the tile with its apron, (TILE_W + 2) x (TILE_H + 2) pixels loaded by TILE_W x TILE_H threads
  for (int ty = threadIdx.y; ty < TILE_H + 2; ty += TILE_H)
    for (int tx = threadIdx.x; tx < TILE_W + 2; tx += TILE_W) {
      int gx = min(max((int)(blockIdx.x * TILE_W) + tx - 1, 0), w - 1);
      int gy = min(max((int)(blockIdx.y * TILE_H) + ty - 1, 0), h - 1);
      const unsigned char* row = (const unsigned char*)((const char*)src + gy * src_pitch);
      tile[ty][tx] = row[gx];
    }
  __syncthreads();
  if (x >= w || y >= h) return;
  unsigned char* out = (unsigned char*)((char*)dst + y * dst_pitch);
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { out[x] = 0; return; }
  int cx = threadIdx.x + 1, cy = threadIdx.y + 1;
  int gx = (tile[cy - 1][cx + 1] + 2 * tile[cy][cx + 1] + tile[cy + 1][cx + 1]) -
           (tile[cy - 1][cx - 1] + 2 * tile[cy][cx - 1] + tile[cy + 1][cx - 1]);
  int gy = (tile[cy + 1][cx - 1] + 2 * tile[cy + 1][cx] + tile[cy + 1][cx + 1]) -
           (tile[cy - 1][cx - 1] + 2 * tile[cy - 1][cx] + tile[cy - 1][cx + 1]);
  out[x] = (unsigned char)min(abs(gx) + abs(gy), 255);
}

int main() {
  unsigned char* h_img = (unsigned char*)malloc(WIDTH * HEIGHT);
  unsigned char* h_out = (unsigned char*)malloc(WIDTH * HEIGHT);
  srand(21);
  for (int y = 0; y < HEIGHT; y++)  // a few bright rectangles on a noisy background
    for (int x = 0; x < WIDTH; x++)
      h_img[y * WIDTH + x] = (unsigned char)(((x / 40 + y / 30) % 3 == 0 ? 180 : 40) + rand() % 30);
  unsigned char *d_src, *d_dst;
  size_t src_pitch, dst_pitch;
  checkCudaErrors(cudaMallocPitch((void**)&d_src, &src_pitch, WIDTH, HEIGHT));
  checkCudaErrors(cudaMallocPitch((void**)&d_dst, &dst_pitch, WIDTH, HEIGHT));
  checkCudaErrors(cudaMemcpy2D(d_src, src_pitch, h_img, WIDTH, WIDTH, HEIGHT, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset2D(d_dst, dst_pitch, 0x77, WIDTH, HEIGHT));
  dim3 block(TILE_W, TILE_H), grid((WIDTH + TILE_W - 1) / TILE_W, (HEIGHT + TILE_H - 1) / TILE_H);
  sobel<<<grid, block>>>(d_src, src_pitch, d_dst, dst_pitch, WIDTH, HEIGHT);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaMemcpy2D(h_out, WIDTH, d_dst, dst_pitch, WIDTH, HEIGHT, cudaMemcpyDeviceToHost));
  int errors = 0, edges = 0;
  for (int y = 0; y < HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++) {
      int expect = 0;
      if (x > 0 && y > 0 && x < WIDTH - 1 && y < HEIGHT - 1) {
#define P(dx, dy) ((int)h_img[(y + (dy)) * WIDTH + x + (dx)])
        int gx = P(1, -1) + 2 * P(1, 0) + P(1, 1) - P(-1, -1) - 2 * P(-1, 0) - P(-1, 1);
        int gy = P(-1, 1) + 2 * P(0, 1) + P(1, 1) - P(-1, -1) - 2 * P(0, -1) - P(1, -1);
#undef P
        expect = abs(gx) + abs(gy) > 255 ? 255 : abs(gx) + abs(gy);
      }
      edges += expect == 255;
      if (h_out[y * WIDTH + x] != expect && errors++ < 10) printf("(%d,%d): %d, expected %d\n", x, y, h_out[y * WIDTH + x], expect);
    }
  printf("pitch %zu bytes for rows of %d, %d strong edge pixels\n", src_pitch, WIDTH, edges);
  cudaFree(d_src); cudaFree(d_dst);
  free(h_img); free(h_out);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
