// Warp votes and group partitions: __ballot_sync/__popc, __any_sync,
// __all_sync and __syncthreads_count agree with the CPU's counts;
// binary_partition and labeled_partition of a warp tile give each thread a
// group of the right size and rank; warp-aggregated atomics through
// coalesced_threads() hand out unique slots (stream compaction).
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

struct Counts {
  int ballot_total;
  int any_warps;
  int all_warps;
  int block_count_total;
  int partition_errors;
};

__global__ void votes(const int* values, int n, Counts* counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = i < n ? values[i] : 0;
  const bool odd = v % 2 != 0;
  const unsigned ballot = __ballot_sync(0xffffffffu, odd);
  const int lane = threadIdx.x % 32;
  if (lane == 0) {
    atomicAdd(&counts->ballot_total, __popc(ballot));
  }
  const int any = __any_sync(0xffffffffu, v > 90);
  const int all = __all_sync(0xffffffffu, v >= 0);
  if (lane == 0) {
    atomicAdd(&counts->any_warps, any ? 1 : 0);
    atomicAdd(&counts->all_warps, all ? 1 : 0);
  }
  const int block_count = __syncthreads_count(odd);
  if (threadIdx.x == 0) atomicAdd(&counts->block_count_total, block_count);

  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  cg::coalesced_group halves = cg::binary_partition(warp, odd);
  const unsigned same = __popc(ballot & 0xffffffffu);
  const unsigned expected_size = odd ? same : 32 - same;
  const unsigned expected_rank = __popc((odd ? ballot : ~ballot) & ((1u << lane) - 1));
  if (halves.size() != expected_size || halves.thread_rank() != expected_rank) atomicAdd(&counts->partition_errors, 1);

  const int label = v % 3;
  cg::coalesced_group by_label = cg::labeled_partition(warp, label);
  const unsigned peers = __match_any_sync(0xffffffffu, label);
  if (by_label.size() != (unsigned)__popc(peers) || by_label.thread_rank() != (unsigned)__popc(peers & ((1u << lane) - 1)))
    atomicAdd(&counts->partition_errors, 1);
}

__global__ void compact(const int* values, int n, int* out, int* out_count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && values[i] % 7 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    int base = 0;
    if (active.thread_rank() == 0) base = atomicAdd(out_count, (int)active.size());
    base = active.shfl(base, 0);
    out[base + active.thread_rank()] = values[i];
  }
}

int main() {
  const int threads = 128, n = 64 * threads;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = (i * 53 + 7) % 97;
  int *d_values, *d_out, *d_out_count;
  Counts* d_counts;
  CHECK(cudaMalloc(&d_values, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out_count, sizeof(int)));
  CHECK(cudaMalloc(&d_counts, sizeof(Counts)));
  CHECK(cudaMemcpy(d_values, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_counts, 0, sizeof(Counts)));
  CHECK(cudaMemset(d_out_count, 0, sizeof(int)));
  votes<<<n / threads, threads>>>(d_values, n, d_counts);
  compact<<<n / threads, threads>>>(d_values, n, d_out, d_out_count);
  CHECK(cudaGetLastError());
  Counts counts;
  int out_count = 0;
  CHECK(cudaMemcpy(&counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&out_count, d_out_count, sizeof out_count, cudaMemcpyDeviceToHost));
  std::vector<int> out(out_count > 0 ? out_count : 1);
  CHECK(cudaMemcpy(out.data(), d_out, out_count * sizeof(int), cudaMemcpyDeviceToHost));

  int odd = 0, any_warps = 0, multiples = 0;
  for (int w = 0; w < n / 32; ++w) {
    bool any = false;
    for (int l = 0; l < 32; ++l) {
      const int v = host[w * 32 + l];
      odd += v % 2 != 0;
      any = any || v > 90;
    }
    any_warps += any;
  }
  std::vector<int> seen(97, 0), expected_seen(97, 0);
  for (int v : host)
    if (v % 7 == 0) ++multiples, ++expected_seen[v];
  for (int k = 0; k < out_count; ++k) ++seen[out[k]];
  bool ok = counts.ballot_total == odd && counts.block_count_total == odd && counts.any_warps == any_warps &&
            counts.all_warps == n / 32 && counts.partition_errors == 0 && out_count == multiples &&
            seen == expected_seen;
  if (!ok) {
    std::printf("ballot %d/%d, block count %d/%d, any %d/%d, all %d/%d, partition errors %d, compacted %d/%d\n",
                counts.ballot_total, odd, counts.block_count_total, odd, counts.any_warps, any_warps,
                counts.all_warps, n / 32, counts.partition_errors, out_count, multiples);
    return 1;
  }
  CHECK(cudaFree(d_values));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_out_count));
  CHECK(cudaFree(d_counts));
  std::printf("partitions_vote: PASS (%d odd, %d compacted)\n", odd, out_count);
  return 0;
}
