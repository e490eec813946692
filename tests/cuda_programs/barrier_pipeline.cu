// libcu++'s split barrier and pipelines, and <cuda_pipeline.h>'s primitives:
// - cuda::barrier<thread_scope_block> in shared memory: init by one thread,
//   arrive/wait across a neighbour exchange, arrive_and_wait, arrive_and_drop
//   (half the threads leave, the others keep synchronizing), cuda::memcpy_async
//   of a tile completed through the barrier;
// - cuda::pipeline for the block, double buffered with memcpy_async, with
//   every thread producing and consuming, and with one warp producing for
//   the others (cuda::pipeline_role);
// - cuda::pipeline for one thread and pipeline_consumer_wait_prior;
// - __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

// nvcc: a __shared__ barrier is initialized by init(), not by its constructor.
#pragma nv_diag_suppress static_var_with_dynamic_init

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int kThreads = 128;
constexpr int kChunk = 256;

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// out[i] = in[(i + 1) % n] + in[(i + n - 1) % n] for each block's tile, then
// the tile's rounds: the surviving even threads add 1 per round after the odd
// ones dropped out.
__global__ void barrier_kernel(const int* in, int* out, int* rounds_seen) {
  __shared__ int tile[kThreads];
  __shared__ block_barrier bar;
  __shared__ int counter;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) {
    init(&bar, block.size());
    counter = 0;
  }
  block.sync();
  const int t = threadIdx.x;
  cuda::memcpy_async(block, tile, in + blockIdx.x * kThreads, sizeof(int) * kThreads, bar);
  bar.arrive_and_wait();
  const int left = tile[(t + kThreads - 1) % kThreads], right = tile[(t + 1) % kThreads];
  block_barrier::arrival_token token = bar.arrive();  // everyone has read before anyone writes
  bar.wait(std::move(token));
  tile[t] = left + right;
  bar.arrive_and_wait();
  out[blockIdx.x * kThreads + t] = tile[t];
  if (t % 2 == 1) {
    bar.arrive_and_drop();
    return;
  }
  for (int round = 0; round < 3; ++round) {
    atomicAdd(&counter, 1);
    bar.arrive_and_wait();  // kThreads / 2 expected from now on
    if (t == 0) rounds_seen[blockIdx.x * 3 + round] = atomicAdd(&counter, 0);
    bar.arrive_and_wait();
  }
}

// Sums each block's chunks through a two-stage block pipeline.
__global__ void block_pipeline_kernel(const int* in, int chunks, long long* sums) {
  __shared__ int buffer[2][kChunk];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  cg::thread_block block = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &state);
  const int* base = in + (size_t)blockIdx.x * chunks * kChunk;
  long long local = 0;
  int fetched = 0;
  for (; fetched < 2 && fetched < chunks; ++fetched) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, buffer[fetched % 2], base + fetched * kChunk, sizeof(int) * kChunk, pipe);
    pipe.producer_commit();
  }
  for (int c = 0; c < chunks; ++c) {
    pipe.consumer_wait();
    for (int i = threadIdx.x; i < kChunk; i += blockDim.x) local += buffer[c % 2][i];
    pipe.consumer_release();
    if (fetched < chunks) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buffer[fetched % 2], base + fetched * kChunk, sizeof(int) * kChunk, pipe);
      pipe.producer_commit();
      ++fetched;
    }
  }
  atomicAdd(reinterpret_cast<unsigned long long*>(&sums[blockIdx.x]), (unsigned long long)local);
}

// The same sums with roles: warp 0 copies, the other warps add.
__global__ void role_pipeline_kernel(const int* in, int chunks, long long* sums) {
  constexpr int stages = 3;
  __shared__ int buffer[stages][kChunk];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
  cg::thread_block block = cg::this_thread_block();
  const bool producer = threadIdx.x < 32;
  cuda::pipeline<cuda::thread_scope_block> pipe =
      cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  const int* base = in + (size_t)blockIdx.x * chunks * kChunk;
  long long local = 0;
  for (int c = 0; c < chunks; ++c) {
    if (producer) {
      pipe.producer_acquire();
      for (int i = threadIdx.x; i < kChunk; i += 32)
        cuda::memcpy_async(&buffer[c % stages][i], &base[c * kChunk + i], sizeof(int), pipe);
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      for (int i = threadIdx.x - 32; i < kChunk; i += blockDim.x - 32) local += buffer[c % stages][i];
      pipe.consumer_release();
    }
  }
  atomicAdd(reinterpret_cast<unsigned long long*>(&sums[blockIdx.x]), (unsigned long long)local);
}

// Each thread stages its own elements: cuda::pipeline for one thread, then
// the primitives of <cuda_pipeline.h>.
__global__ void thread_pipeline_kernel(const int* in, int* doubled, int* tripled) {
  __shared__ int mine[kThreads * 2];
  const int t = threadIdx.x, g = blockIdx.x * kThreads + t;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&mine[t], &in[g], sizeof(int), pipe);
  pipe.producer_commit();
  pipe.producer_acquire();
  cuda::memcpy_async(&mine[kThreads + t], &in[(g + 1) % (gridDim.x * kThreads)], sizeof(int), pipe);
  pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<1>(pipe);
  pipe.consumer_release();
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  doubled[g] = mine[t] + mine[kThreads + t];
  pipe.consumer_release();
  __syncthreads();
  __pipeline_memcpy_async(&mine[t], &in[g], sizeof(int));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  tripled[g] = 3 * mine[t];
}

int main() {
  const int blocks = 6, chunks = 5;
  const int n = blocks * kThreads, m = blocks * chunks * kChunk;
  std::vector<int> host(m);
  for (int i = 0; i < m; ++i) host[i] = (i * 37 + 11) % 1001 - 500;
  int *in, *out, *rounds, *doubled, *tripled;
  long long *sums, *role_sums;
  CHECK(cudaMalloc(&in, m * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&rounds, blocks * 3 * sizeof(int)));
  CHECK(cudaMalloc(&doubled, n * sizeof(int)));
  CHECK(cudaMalloc(&tripled, n * sizeof(int)));
  CHECK(cudaMalloc(&sums, blocks * sizeof(long long)));
  CHECK(cudaMemcpy(in, host.data(), m * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(sums, 0, blocks * sizeof(long long)));
  CHECK(cudaMalloc(&role_sums, blocks * sizeof(long long)));
  CHECK(cudaMemset(role_sums, 0, blocks * sizeof(long long)));

  barrier_kernel<<<blocks, kThreads>>>(in, out, rounds);
  CHECK(cudaGetLastError());
  block_pipeline_kernel<<<blocks, kThreads>>>(in, chunks, sums);
  CHECK(cudaGetLastError());
  role_pipeline_kernel<<<blocks, kThreads>>>(in, chunks, role_sums);
  CHECK(cudaGetLastError());
  thread_pipeline_kernel<<<blocks, kThreads>>>(in, doubled, tripled);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<int> got(n), got_rounds(blocks * 3), got_doubled(n), got_tripled(n);
  std::vector<long long> got_sums(blocks), got_role_sums(blocks);
  CHECK(cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_rounds.data(), rounds, blocks * 3 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_doubled.data(), doubled, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_tripled.data(), tripled, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_sums.data(), sums, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_role_sums.data(), role_sums, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  int errors = 0;
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < kThreads; ++t) {
      const int* tile = host.data() + b * kThreads;
      const int want = tile[(t + kThreads - 1) % kThreads] + tile[(t + 1) % kThreads];
      if (got[b * kThreads + t] != want && errors++ < 5)
        std::printf("barrier: block %d thread %d: %d, expected %d\n", b, t, got[b * kThreads + t], want);
      const int g = b * kThreads + t;
      if (got_doubled[g] != host[g] + host[(g + 1) % n] && errors++ < 5)
        std::printf("thread pipeline: %d: %d, expected %d\n", g, got_doubled[g], host[g] + host[(g + 1) % n]);
      if (got_tripled[g] != 3 * host[g] && errors++ < 5)
        std::printf("pipeline primitives: %d: %d, expected %d\n", g, got_tripled[g], 3 * host[g]);
    }
    for (int r = 0; r < 3; ++r)
      if (got_rounds[b * 3 + r] != (r + 1) * kThreads / 2 && errors++ < 5)
        std::printf("arrive_and_drop: block %d round %d saw %d, expected %d\n", b, r, got_rounds[b * 3 + r],
                    (r + 1) * kThreads / 2);
    long long want = 0;
    for (int i = 0; i < chunks * kChunk; ++i) want += host[(size_t)b * chunks * kChunk + i];
    if (got_sums[b] != want && errors++ < 5)
      std::printf("block pipeline: block %d: %lld, expected %lld\n", b, got_sums[b], want);
    if (got_role_sums[b] != want && errors++ < 5)
      std::printf("producer/consumer pipeline: block %d: %lld, expected %lld\n", b, got_role_sums[b], want);
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(rounds));
  CHECK(cudaFree(doubled));
  CHECK(cudaFree(tripled));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(role_sums));
  if (errors) {
    std::printf("FAILED: %d mismatches\n", errors);
    return 1;
  }
  std::printf("barriers and pipelines: ok\n");
  return 0;
}
