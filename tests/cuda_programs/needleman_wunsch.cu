// Global alignment of two DNA sequences by Needleman-Wunsch: the score matrix is
// filled in 16 x 16 blocks along block anti-diagonals (one launch per diagonal),
// and inside a block along cell anti-diagonals, 16 threads with a barrier each step.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK_SIZE 16
#define SEQ_LEN 512  // a multiple of BLOCK_SIZE
#define PENALTY 4

#define cudaCheck(stmt) do { cudaError_t e_ = (stmt); if (e_ != cudaSuccess) { \
  printf("%s failed: %s\n", #stmt, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ __host__ inline int maximum(int a, int b, int c) {
  int k = a > b ? a : b;
  return k > c ? k : c;
}

// similarity of two bases: match, transition, transversion
static const int kSimilarity[4][4] = {{5, -1, -2, -2}, {-1, 5, -2, -2}, {-2, -2, 5, -1}, {-2, -2, -1, 5}};

__global__ void nw_block_diagonal(const int* reference, int* score, int cols, int diagonal, int blocks_per_side) {
  __shared__ int tmp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
  __shared__ int ref[BLOCK_SIZE][BLOCK_SIZE];
  int first = diagonal - (blocks_per_side - 1) > 0 ? diagonal - (blocks_per_side - 1) : 0;
  int bx = first + blockIdx.x, by = diagonal - bx;
  int tx = threadIdx.x;
  int row0 = by * BLOCK_SIZE, col0 = bx * BLOCK_SIZE;  // the block's upper-left neighbour cell

  for (int i = 0; i < BLOCK_SIZE; i++) ref[i][tx] = reference[(row0 + i + 1) * cols + col0 + tx + 1];
  if (tx == 0) tmp[0][0] = score[row0 * cols + col0];
  tmp[tx + 1][0] = score[(row0 + tx + 1) * cols + col0];
  tmp[0][tx + 1] = score[row0 * cols + col0 + tx + 1];
  __syncthreads();

  for (int m = 0; m < BLOCK_SIZE; m++) {  // upper-left triangle, anti-diagonal m
    if (tx <= m) {
      int x = tx + 1, y = m - tx + 1;
      tmp[y][x] = maximum(tmp[y - 1][x - 1] + ref[y - 1][x - 1], tmp[y][x - 1] - PENALTY, tmp[y - 1][x] - PENALTY);
    }
    __syncthreads();
  }
  for (int m = BLOCK_SIZE - 2; m >= 0; m--) {  // lower-right triangle
    if (tx <= m) {
      int x = tx + BLOCK_SIZE - m, y = BLOCK_SIZE - tx;
      tmp[y][x] = maximum(tmp[y - 1][x - 1] + ref[y - 1][x - 1], tmp[y][x - 1] - PENALTY, tmp[y - 1][x] - PENALTY);
    }
    __syncthreads();
  }
  for (int i = 0; i < BLOCK_SIZE; i++) score[(row0 + i + 1) * cols + col0 + tx + 1] = tmp[i + 1][tx + 1];
}

int main() {
  const int cols = SEQ_LEN + 1, rows = SEQ_LEN + 1;
  int* seq_a = (int*)malloc(SEQ_LEN * sizeof(int));
  int* seq_b = (int*)malloc(SEQ_LEN * sizeof(int));
  int* reference = (int*)malloc(rows * cols * sizeof(int));
  int* score = (int*)calloc(rows * cols, sizeof(int));
  int* ref_score = (int*)calloc(rows * cols, sizeof(int));
  srand(7);
  for (int i = 0; i < SEQ_LEN; i++) {
    seq_a[i] = rand() % 4;
    seq_b[i] = rand() % 4;
  }
  for (int i = 1; i < rows; i++)
    for (int j = 1; j < cols; j++) reference[i * cols + j] = kSimilarity[seq_a[i - 1]][seq_b[j - 1]];
  for (int i = 0; i < rows; i++) score[i * cols] = ref_score[i * cols] = -i * PENALTY;
  for (int j = 0; j < cols; j++) score[j] = ref_score[j] = -j * PENALTY;

  int *d_reference, *d_score;
  size_t bytes = sizeof(int) * rows * cols;
  cudaCheck(cudaMalloc((void**)&d_reference, bytes));
  cudaCheck(cudaMalloc((void**)&d_score, bytes));
  cudaCheck(cudaMemcpy(d_reference, reference, bytes, cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpy(d_score, score, bytes, cudaMemcpyHostToDevice));

  int blocks_per_side = SEQ_LEN / BLOCK_SIZE;
  dim3 dimBlock(BLOCK_SIZE);
  for (int d = 0; d < 2 * blocks_per_side - 1; d++) {
    int count = d < blocks_per_side ? d + 1 : 2 * blocks_per_side - 1 - d;
    dim3 dimGrid(count);
    nw_block_diagonal<<<dimGrid, dimBlock>>>(d_reference, d_score, cols, d, blocks_per_side);
  }
  cudaCheck(cudaGetLastError());
  cudaCheck(cudaMemcpy(score, d_score, bytes, cudaMemcpyDeviceToHost));

  for (int i = 1; i < rows; i++)
    for (int j = 1; j < cols; j++)
      ref_score[i * cols + j] = maximum(ref_score[(i - 1) * cols + j - 1] + reference[i * cols + j],
                                        ref_score[i * cols + j - 1] - PENALTY, ref_score[(i - 1) * cols + j] - PENALTY);
  int errors = 0;
  for (int i = 0; i < rows * cols; i++)
    if (score[i] != ref_score[i] && errors++ < 10)
      printf("cell (%d,%d): %d, expected %d\n", i / cols, i % cols, score[i], ref_score[i]);
  printf("alignment score %d\n", score[rows * cols - 1]);
  cudaFree(d_reference); cudaFree(d_score);
  free(seq_a); free(seq_b); free(reference); free(score); free(ref_score);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
