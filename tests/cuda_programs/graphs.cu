// CUDA graphs: a graph captured from three streams that fork and join through
// events (a copy, fills, two kernels, a host function), launched several
// times; the same work built with the explicit node API (3-D copy, memset,
// kernel and host nodes), cloned, and its kernel node's arguments changed in
// the executable graph; and a capture repeated with new arguments applied by
// cudaGraphExecUpdate. Every launch's result is checked.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int kN = 1000;

__global__ void scale_add(const float* in, float* out, float scale, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += scale * in[i];
}

__global__ void total(const float* v, double* sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, (double)v[i]);
}

struct host_record {
  const double* sum;
  double seen;
  int calls;
};
void CUDART_CB note_sum(void* data) {
  host_record* r = static_cast<host_record*>(data);
  r->seen = *r->sum;
  ++r->calls;
}

static int errors = 0;
static void expect(const char* what, double got, double want) {
  if ((got - want > 1e-3 * (1 + (want < 0 ? -want : want)) || want - got > 1e-3 * (1 + (want < 0 ? -want : want))) &&
      errors++ < 10)
    std::printf("%s: got %.6f, expected %.6f\n", what, got, want);
}

int main() {
  std::vector<float> in(kN);
  double in_sum = 0;
  for (int i = 0; i < kN; ++i) {
    in[i] = (float)((i * 31) % 17) - 8.0f;
    in_sum += in[i];
  }
  float *d_in, *d_out;
  double *d_sum, *h_sum;
  CHECK(cudaMalloc(&d_in, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_out, kN * sizeof(float)));
  CHECK(cudaMalloc(&d_sum, sizeof(double)));
  CHECK(cudaMallocHost(&h_sum, sizeof(double)));
  const int blocks = (kN + 255) / 256;

  // 1. Stream capture across three streams.
  cudaStream_t s1, s2, s3, run;
  cudaEvent_t fork, filled_out, filled_sum;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaStreamCreate(&s3));
  CHECK(cudaStreamCreateWithFlags(&run, cudaStreamNonBlocking));
  CHECK(cudaEventCreate(&fork));
  CHECK(cudaEventCreate(&filled_out));
  CHECK(cudaEventCreate(&filled_sum));
  host_record record = {h_sum, -1.0, 0};
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  CHECK(cudaStreamWaitEvent(s3, fork, 0));
  CHECK(cudaMemcpyAsync(d_in, in.data(), kN * sizeof(float), cudaMemcpyHostToDevice, s1));
  CHECK(cudaMemsetAsync(d_out, 0, kN * sizeof(float), s2));
  CHECK(cudaEventRecord(filled_out, s2));
  CHECK(cudaMemsetAsync(d_sum, 0, sizeof(double), s3));
  CHECK(cudaEventRecord(filled_sum, s3));
  CHECK(cudaStreamWaitEvent(s1, filled_out, 0));
  scale_add<<<blocks, 256, 0, s1>>>(d_in, d_out, 3.0f, kN);
  CHECK(cudaStreamWaitEvent(s1, filled_sum, 0));
  total<<<blocks, 256, 0, s1>>>(d_out, d_sum, kN);
  CHECK(cudaMemcpyAsync(h_sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s1));
  CHECK(cudaLaunchHostFunc(s1, note_sum, &record));
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(s1, &status));
  if (status != cudaStreamCaptureStatusActive) std::printf("stream 1 is not capturing\n"), ++errors;
  cudaGraph_t captured;
  CHECK(cudaStreamEndCapture(s1, &captured));
  CHECK(cudaStreamIsCapturing(s1, &status));
  if (status != cudaStreamCaptureStatusNone) std::printf("stream 1 is still capturing\n"), ++errors;
  if (record.calls != 0) std::printf("the host function ran during the capture\n"), ++errors;
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(captured, nullptr, &nodes));
  if (nodes != 7) std::printf("captured %zu nodes, expected 7\n", nodes), ++errors;
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, captured, 0));
  for (int launch = 0; launch < 3; ++launch) {
    CHECK(cudaGraphLaunch(exec, run));
    CHECK(cudaStreamSynchronize(run));
    expect("captured graph: sum", *h_sum, 3.0 * in_sum);
    expect("captured graph: host node saw", record.seen, 3.0 * in_sum);
  }
  if (record.calls != 3) std::printf("host node ran %d times, expected 3\n", record.calls), ++errors;
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(captured));

  // 2. The explicit node API.
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemcpy3DParms copy;
  std::memset(&copy, 0, sizeof copy);
  copy.srcPtr = make_cudaPitchedPtr(in.data(), kN * sizeof(float), kN, 1);
  copy.dstPtr = make_cudaPitchedPtr(d_in, kN * sizeof(float), kN, 1);
  copy.extent = make_cudaExtent(kN * sizeof(float), 1, 1);
  copy.kind = cudaMemcpyHostToDevice;
  cudaMemsetParams zero_out;
  std::memset(&zero_out, 0, sizeof zero_out);
  zero_out.dst = d_out;
  zero_out.elementSize = sizeof(float);
  zero_out.width = kN;
  zero_out.height = 1;
  cudaMemsetParams zero_sum = zero_out;
  zero_sum.dst = d_sum;
  zero_sum.width = 2;  // a double as two 4-byte elements
  cudaGraphNode_t copy_node, out_node, sum_node, scale_node, total_node, back_node, host_node;
  CHECK(cudaGraphAddMemcpyNode(&copy_node, graph, nullptr, 0, &copy));
  CHECK(cudaGraphAddMemsetNode(&out_node, graph, nullptr, 0, &zero_out));
  CHECK(cudaGraphAddMemsetNode(&sum_node, graph, nullptr, 0, &zero_sum));
  float scale = 2.0f;
  int n = kN;
  void* scale_args[] = {&d_in, &d_out, &scale, &n};
  cudaKernelNodeParams scale_params;
  std::memset(&scale_params, 0, sizeof scale_params);
  scale_params.func = (void*)scale_add;
  scale_params.gridDim = dim3(blocks);
  scale_params.blockDim = dim3(256);
  scale_params.kernelParams = scale_args;
  const cudaGraphNode_t before_scale[] = {copy_node, out_node};
  CHECK(cudaGraphAddKernelNode(&scale_node, graph, before_scale, 2, &scale_params));
  scale = 100.0f;  // the node copied the arguments when it was added
  void* total_args[] = {&d_out, &d_sum, &n};
  cudaKernelNodeParams total_params = scale_params;
  total_params.func = (void*)total;
  total_params.kernelParams = total_args;
  const cudaGraphNode_t before_total[] = {scale_node, sum_node};
  CHECK(cudaGraphAddKernelNode(&total_node, graph, before_total, 2, &total_params));
  CHECK(cudaGraphAddMemcpyNode1D(&back_node, graph, &total_node, 1, h_sum, d_sum, sizeof(double),
                                 cudaMemcpyDeviceToHost));
  cudaHostNodeParams host_params = {note_sum, &record};
  CHECK(cudaGraphAddHostNode(&host_node, graph, &back_node, 1, &host_params));
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  if (nodes != 7) std::printf("built %zu nodes, expected 7\n", nodes), ++errors;
  size_t roots = 0;
  CHECK(cudaGraphGetRootNodes(graph, nullptr, &roots));
  if (roots != 3) std::printf("%zu root nodes, expected 3\n", roots), ++errors;
  cudaGraph_t clone;
  CHECK(cudaGraphClone(&clone, graph));
  cudaGraphExec_t built, cloned;
  CHECK(cudaGraphInstantiate(&built, graph, nullptr, nullptr, 0));  // CUDA 11's form
  CHECK(cudaGraphInstantiate(&cloned, clone, nullptr, nullptr, 0));
  CHECK(cudaGraphLaunch(built, run));
  CHECK(cudaStreamSynchronize(run));
  expect("built graph: sum", *h_sum, 2.0 * in_sum);
  CHECK(cudaGraphLaunch(cloned, run));
  CHECK(cudaStreamSynchronize(run));
  expect("cloned graph: sum", *h_sum, 2.0 * in_sum);
  // New arguments for the scale kernel in the executable graph only.
  float new_scale = -5.0f;
  void* new_args[] = {&d_in, &d_out, &new_scale, &n};
  scale_params.kernelParams = new_args;
  CHECK(cudaGraphExecKernelNodeSetParams(built, scale_node, &scale_params));
  CHECK(cudaGraphLaunch(built, run));
  CHECK(cudaStreamSynchronize(run));
  expect("updated kernel node: sum", *h_sum, -5.0 * in_sum);
  CHECK(cudaGraphLaunch(cloned, run));
  CHECK(cudaStreamSynchronize(run));
  expect("clone unchanged: sum", *h_sum, 2.0 * in_sum);
  CHECK(cudaGraphExecDestroy(built));
  CHECK(cudaGraphExecDestroy(cloned));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaGraphDestroy(clone));

  // 3. The same capture with a new scale each time, applied by cudaGraphExecUpdate.
  cudaGraphExec_t updated = nullptr;
  for (int k = 1; k <= 3; ++k) {
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemsetAsync(d_out, 0, kN * sizeof(float), s1));
    CHECK(cudaMemsetAsync(d_sum, 0, sizeof(double), s1));
    scale_add<<<blocks, 256, 0, s1>>>(d_in, d_out, (float)k, kN);
    total<<<blocks, 256, 0, s1>>>(d_out, d_sum, kN);
    CHECK(cudaMemcpyAsync(h_sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost, s1));
    cudaGraph_t g;
    CHECK(cudaStreamEndCapture(s1, &g));
    if (updated == nullptr) {
      CHECK(cudaGraphInstantiate(&updated, g, 0));
    } else {
      cudaGraphExecUpdateResult result;
      cudaGraphNode_t error_node;
      CHECK(cudaGraphExecUpdate(updated, g, &error_node, &result));  // CUDA 11's form
      if (result != cudaGraphExecUpdateSuccess) std::printf("update %d failed: %d\n", k, (int)result), ++errors;
    }
    CHECK(cudaGraphLaunch(updated, s1));
    CHECK(cudaStreamSynchronize(s1));
    expect("updated capture: sum", *h_sum, k * in_sum);
    CHECK(cudaGraphDestroy(g));
  }
  CHECK(cudaGraphExecDestroy(updated));

  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaStreamDestroy(s3));
  CHECK(cudaStreamDestroy(run));
  CHECK(cudaEventDestroy(fork));
  CHECK(cudaEventDestroy(filled_out));
  CHECK(cudaEventDestroy(filled_sum));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_sum));
  CHECK(cudaFreeHost(h_sum));
  if (errors) {
    std::printf("FAILED: %d mismatches\n", errors);
    return 1;
  }
  std::printf("graphs: ok\n");
  return 0;
}
