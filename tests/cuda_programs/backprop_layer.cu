// One training step of a two-layer perceptron, with the input-to-hidden layer on
// the device: the forward kernel multiplies a 16 x 16 tile of weights by its 16
// inputs in shared memory and reduces each column, the host finishes the sums,
// the sigmoid and the output layer, and a second kernel adjusts the weights with
// momentum. The host checks the hidden units and every adjusted weight.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define WIDTH 16   // threads per block in x and y
#define HEIGHT 16
#define N_IN 2048  // input units (a multiple of HEIGHT), plus a bias unit at index 0
#define N_HID 16   // hidden units (== WIDTH), plus a bias unit at index 0
#define ETA 0.3f
#define MOMENTUM 0.3f

#define CUDA_CHECK(x) do { cudaError_t err = (x); if (err != cudaSuccess) { \
  printf("CUDA error: %s (%s:%d)\n", cudaGetErrorString(err), __FILE__, __LINE__); exit(1); } } while (0)

static float squash(float x) { return 1.0f / (1.0f + expf(-x)); }

// weights is (N_IN + 1) x (N_HID + 1), row i holds input unit i's outgoing weights
__global__ void layer_forward(const float* input, const float* weights, float* partial_sum) {
  __shared__ float input_node[HEIGHT];
  __shared__ float weight_matrix[HEIGHT][WIDTH];
  int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int row = HEIGHT * by + ty + 1;  // skip the bias unit
  if (tx == 0) input_node[ty] = input[row];
  __syncthreads();
  weight_matrix[ty][tx] = weights[row * (N_HID + 1) + tx + 1] * input_node[ty];
  __syncthreads();
  for (int stride = HEIGHT / 2; stride > 0; stride /= 2) {
    if (ty < stride) weight_matrix[ty][tx] += weight_matrix[ty + stride][tx];
    __syncthreads();
  }
  if (ty == 0) partial_sum[by * WIDTH + tx] = weight_matrix[0][tx];
}

__global__ void adjust_weights(const float* delta, const float* input, float* w, float* oldw) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = HEIGHT * blockIdx.y + ty + 1;
  int index = row * (N_HID + 1) + tx + 1;
  float dw = ETA * delta[tx + 1] * input[row] + MOMENTUM * oldw[index];
  w[index] += dw;
  oldw[index] = dw;
  if (blockIdx.y == 0 && ty == 0) {  // the bias unit's weights (its input is 1)
    float db = ETA * delta[tx + 1] + MOMENTUM * oldw[tx + 1];
    w[tx + 1] += db;
    oldw[tx + 1] = db;
  }
}

int main() {
  const int wsize = (N_IN + 1) * (N_HID + 1), blocks = N_IN / HEIGHT;
  float *input = (float*)malloc((N_IN + 1) * sizeof(float)), *w = (float*)malloc(wsize * sizeof(float));
  float *oldw = (float*)malloc(wsize * sizeof(float)), *partial = (float*)malloc(blocks * WIDTH * sizeof(float));
  float *w_out = (float*)malloc(wsize * sizeof(float)), hidden[N_HID + 1], ref_hidden[N_HID + 1], w2[N_HID + 1];
  float delta[N_HID + 1];
  srand(31);
  input[0] = 1.0f;
  for (int i = 1; i <= N_IN; i++) input[i] = (float)(rand() % 1000) / 1000.0f;
  for (int i = 0; i < wsize; i++) { w[i] = (float)(rand() % 2001 - 1000) / 40000.0f; oldw[i] = 0.001f * (i % 7); }
  for (int j = 0; j <= N_HID; j++) w2[j] = (float)(rand() % 2001 - 1000) / 1000.0f;

  float *d_input, *d_w, *d_oldw, *d_partial, *d_delta;
  CUDA_CHECK(cudaMalloc((void**)&d_input, (N_IN + 1) * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void**)&d_w, wsize * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void**)&d_oldw, wsize * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void**)&d_partial, blocks * WIDTH * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void**)&d_delta, (N_HID + 1) * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_input, input, (N_IN + 1) * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_w, w, wsize * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_oldw, oldw, wsize * sizeof(float), cudaMemcpyHostToDevice));

  dim3 grid(1, blocks), threads(WIDTH, HEIGHT);
  layer_forward<<<grid, threads>>>(d_input, d_w, d_partial);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(partial, d_partial, blocks * WIDTH * sizeof(float), cudaMemcpyDeviceToHost));
  hidden[0] = ref_hidden[0] = 1.0f;
  for (int j = 1; j <= N_HID; j++) {
    float sum = w[j];  // bias
    for (int b = 0; b < blocks; b++) sum += partial[b * WIDTH + j - 1];
    hidden[j] = squash(sum);
    double ref = w[j];
    for (int i = 1; i <= N_IN; i++) ref += (double)w[i * (N_HID + 1) + j] * input[i];
    ref_hidden[j] = squash((float)ref);
  }
  float out = 0;  // one output unit, target 1
  for (int j = 0; j <= N_HID; j++) out += w2[j] * hidden[j];
  out = squash(out);
  float out_delta = out * (1.0f - out) * (1.0f - out);
  for (int j = 0; j <= N_HID; j++) delta[j] = hidden[j] * (1.0f - hidden[j]) * w2[j] * out_delta;

  CUDA_CHECK(cudaMemcpy(d_delta, delta, (N_HID + 1) * sizeof(float), cudaMemcpyHostToDevice));
  adjust_weights<<<grid, threads>>>(d_delta, d_input, d_w, d_oldw);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(w_out, d_w, wsize * sizeof(float), cudaMemcpyDeviceToHost));

  int errors = 0;
  for (int j = 1; j <= N_HID; j++)
    if (fabsf(hidden[j] - ref_hidden[j]) > 1e-4f && errors++ < 10) printf("hidden %d: %f, expected %f\n", j, hidden[j], ref_hidden[j]);
  for (int i = 0; i <= N_IN; i++)
    for (int j = 1; j <= N_HID; j++) {
      int k = i * (N_HID + 1) + j;
      float expect = w[k] + ETA * delta[j] * input[i] + MOMENTUM * oldw[k];
      if (fabsf(w_out[k] - expect) > 1e-6f && errors++ < 10) printf("weight (%d,%d): %f, expected %f\n", i, j, w_out[k], expect);
    }
  cudaFree(d_input); cudaFree(d_w); cudaFree(d_oldw); cudaFree(d_partial); cudaFree(d_delta);
  free(input); free(w); free(oldw); free(partial); free(w_out);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
