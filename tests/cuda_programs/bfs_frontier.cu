// Breadth-first search over a random graph in compressed adjacency form, one
// thread per node and two kernels per level (expand the frontier mask, then
// promote the updating mask), in the style of the academic GPU BFS benchmarks.
// The host checks every node's level against a queue-based BFS.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <queue>
#include <vector>

#define MAX_THREADS_PER_BLOCK 256
#define NUM_NODES 20000
#define MAX_DEGREE 6

#define CUDA_SAFE_CALL(call)                                                         \
  do {                                                                               \
    cudaError_t err = call;                                                          \
    if (err != cudaSuccess) {                                                        \
      fprintf(stderr, "Cuda error in %s:%d : %s\n", __FILE__, __LINE__,             \
              cudaGetErrorString(err));                                              \
      exit(EXIT_FAILURE);                                                            \
    }                                                                                \
  } while (0)

// node.x: first edge, node.y: number of edges
__global__ void expand_frontier(const int2* g_nodes, const int* g_edges, bool* g_frontier,
                                bool* g_updating, const bool* g_visited, int* g_cost, int no_of_nodes) {
  int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
  if (tid < no_of_nodes && g_frontier[tid]) {
    g_frontier[tid] = false;
    int2 node = g_nodes[tid];
    for (int i = node.x; i < node.x + node.y; i++) {
      int id = g_edges[i];
      if (!g_visited[id]) {
        g_cost[id] = g_cost[tid] + 1;  // every writer of a level writes the same value
        g_updating[id] = true;
      }
    }
  }
}

__global__ void promote_frontier(bool* g_frontier, bool* g_updating, bool* g_visited, bool* g_over,
                                 int no_of_nodes) {
  int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
  if (tid < no_of_nodes && g_updating[tid]) {
    g_frontier[tid] = true;
    g_visited[tid] = true;
    *g_over = true;
    g_updating[tid] = false;
  }
}

int main() {
  srand(2024);
  std::vector<int2> h_nodes(NUM_NODES);
  std::vector<int> h_edges;
  for (int i = 0; i < NUM_NODES; i++) {
    int degree = rand() % MAX_DEGREE + 1;
    h_nodes[i] = make_int2((int)h_edges.size(), degree);
    for (int e = 0; e < degree; e++) h_edges.push_back(rand() % NUM_NODES);
  }
  int edge_list_size = (int)h_edges.size();
  int source = 0;
  bool* h_mask = (bool*)calloc(NUM_NODES, sizeof(bool));
  int* h_cost = (int*)malloc(NUM_NODES * sizeof(int));
  for (int i = 0; i < NUM_NODES; i++) h_cost[i] = -1;
  h_mask[source] = true;
  h_cost[source] = 0;

  int2* d_nodes;
  int* d_edges;
  bool *d_mask, *d_updating, *d_visited, *d_over;
  int* d_cost;
  CUDA_SAFE_CALL(cudaMalloc((void**)&d_nodes, sizeof(int2) * NUM_NODES));
  CUDA_SAFE_CALL(cudaMalloc((void**)&d_edges, sizeof(int) * edge_list_size));
  CUDA_SAFE_CALL(cudaMalloc((void**)&d_mask, sizeof(bool) * NUM_NODES));
  CUDA_SAFE_CALL(cudaMalloc((void**)&d_updating, sizeof(bool) * NUM_NODES));
  CUDA_SAFE_CALL(cudaMalloc((void**)&d_visited, sizeof(bool) * NUM_NODES));
  CUDA_SAFE_CALL(cudaMalloc((void**)&d_cost, sizeof(int) * NUM_NODES));
  CUDA_SAFE_CALL(cudaMalloc((void**)&d_over, sizeof(bool)));
  CUDA_SAFE_CALL(cudaMemcpy(d_nodes, h_nodes.data(), sizeof(int2) * NUM_NODES, cudaMemcpyHostToDevice));
  CUDA_SAFE_CALL(cudaMemcpy(d_edges, h_edges.data(), sizeof(int) * edge_list_size, cudaMemcpyHostToDevice));
  CUDA_SAFE_CALL(cudaMemcpy(d_mask, h_mask, sizeof(bool) * NUM_NODES, cudaMemcpyHostToDevice));
  CUDA_SAFE_CALL(cudaMemcpy(d_visited, h_mask, sizeof(bool) * NUM_NODES, cudaMemcpyHostToDevice));
  CUDA_SAFE_CALL(cudaMemset(d_updating, 0, sizeof(bool) * NUM_NODES));
  CUDA_SAFE_CALL(cudaMemcpy(d_cost, h_cost, sizeof(int) * NUM_NODES, cudaMemcpyHostToDevice));

  int num_blocks = (NUM_NODES + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK;
  dim3 grid(num_blocks, 1, 1);
  dim3 threads(MAX_THREADS_PER_BLOCK, 1, 1);
  int levels = 0;
  bool stop;
  do {
    stop = false;
    CUDA_SAFE_CALL(cudaMemcpy(d_over, &stop, sizeof(bool), cudaMemcpyHostToDevice));
    expand_frontier<<<grid, threads, 0>>>(d_nodes, d_edges, d_mask, d_updating, d_visited, d_cost, NUM_NODES);
    promote_frontier<<<grid, threads, 0>>>(d_mask, d_updating, d_visited, d_over, NUM_NODES);
    CUDA_SAFE_CALL(cudaGetLastError());
#if CUDART_VERSION < 13000
    cudaThreadSynchronize();
#else
    cudaDeviceSynchronize();
#endif
    CUDA_SAFE_CALL(cudaMemcpy(&stop, d_over, sizeof(bool), cudaMemcpyDeviceToHost));
    levels++;
  } while (stop);
  CUDA_SAFE_CALL(cudaMemcpy(h_cost, d_cost, sizeof(int) * NUM_NODES, cudaMemcpyDeviceToHost));

  std::vector<int> ref(NUM_NODES, -1);
  std::queue<int> q;
  ref[source] = 0;
  q.push(source);
  while (!q.empty()) {
    int u = q.front();
    q.pop();
    for (int i = h_nodes[u].x; i < h_nodes[u].x + h_nodes[u].y; i++)
      if (ref[h_edges[i]] < 0) {
        ref[h_edges[i]] = ref[u] + 1;
        q.push(h_edges[i]);
      }
  }
  int errors = 0;
  for (int i = 0; i < NUM_NODES; i++)
    if (ref[i] != h_cost[i] && errors++ < 10) printf("node %d: cost %d, expected %d\n", i, h_cost[i], ref[i]);
  printf("%d levels, %d edges\n", levels, edge_list_size);
  cudaFree(d_nodes); cudaFree(d_edges); cudaFree(d_mask); cudaFree(d_updating);
  cudaFree(d_visited); cudaFree(d_cost); cudaFree(d_over);
  free(h_mask); free(h_cost);
  if (errors) { printf("Test failed: %d mismatches\n", errors); return 1; }
  printf("Test passed\n");
  return 0;
}
