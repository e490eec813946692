// Kernels with memcpy_async and split block barriers (async_kernels.hpp). Built by clang with the loops pass.
#include "async_kernels.hpp"

#include <cohort/cohort.hpp>
#include <source_location>

namespace cg = cohort;

extern "C" [[noreturn]] void cohort_loops_unchecked_copy(std::source_location where);

namespace {

__global__ void double_buffered_kernel(const float* in, float* out, unsigned chunks, unsigned chunk) {
  __shared__ float stage[2][512];
  const cg::thread_block block = cg::this_thread_block();
  const float* src = in + blockIdx.x * chunks * chunk;
  float sum = 0.0f;
  cg::memcpy_async(block, stage[0], src, chunk * sizeof(float));
  for (unsigned c = 0; c < chunks; ++c) {
    if (c + 1 < chunks) {
      cg::memcpy_async(block, stage[(c + 1) % 2], src + (c + 1) * chunk, chunk * sizeof(float));
      cg::wait_prior<1>(block);
    } else {
      cg::wait(block);
    }
    for (unsigned k = threadIdx.x; k < chunk; k += blockDim.x) sum += stage[c % 2][k] * static_cast<float>(k % 5 + 1);
    block.sync();  // every thread has read the stage before the next copy into it
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

template <unsigned N>
__global__ void tile_copies_kernel(const int* in, int* out) {
  __shared__ int first[2 * 1024 + 64], second[2 * 1024 + 64];
  const auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  const unsigned base = threadIdx.x - tile.thread_rank();  // the tile's first thread
  const int* src = in + blockIdx.x * 3 * (blockDim.x + N);
  cg::memcpy_async(tile, first + 2 * base, src + 2 * base, 2 * N * sizeof(int));
  cg::memcpy_async(tile, second + 2 * base, src + 2 * base + N, 2 * N * sizeof(int));
  cg::wait_prior<1>(tile);
  int v = first[2 * base + (tile.thread_rank() * 3 + 1) % (2 * N)];
  cg::wait(tile);
  v = v * 7 + second[2 * base + (2 * N - 1 - tile.thread_rank())];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void split_rounds_kernel(const float* in, float* out, unsigned rounds) {
  float* slots = cg::dynamic_shared<float>();
  const cg::thread_block block = cg::this_thread_block();
  const unsigned n = block.num_threads(), me = block.thread_rank();
  const unsigned i = blockIdx.x * n + me;
  float v = in[i];
  for (unsigned r = 0; r < rounds; ++r) {
    slots[me] = v;
    auto token = block.barrier_arrive();
    const float mine = v * 0.5f + static_cast<float>(r);  // independent of the other threads
    block.barrier_wait(std::move(token));
    v = mine + slots[(me + r + 1) % n];
    block.sync();
  }
  out[i] = v;
}

__global__ void split_after_exit_kernel(const float* in, float* out, unsigned live, unsigned rounds) {
  float* slots = cg::dynamic_shared<float>();
  const cg::thread_block block = cg::this_thread_block();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = -1.0f;
  if (threadIdx.x >= live) return;
  float v = in[i];
  for (unsigned r = 0; r < rounds; ++r) {
    slots[threadIdx.x] = v;
    auto token = block.barrier_arrive();
    const float mine = v - static_cast<float>(r);
    block.barrier_wait(std::move(token));
    v = mine + slots[(threadIdx.x + 2 * r + 1) % live] * 0.25f;
    block.sync();
  }
  out[i] = v;
}

__global__ void split_against_sync_kernel(int* out) {
  const cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x < 16) {
    auto token = block.barrier_arrive();  // split_arrive_line
    block.barrier_wait(std::move(token));
  } else {
    __syncthreads();  // split_sync_line
  }
  out[threadIdx.x] = 1;
}

__global__ void split_token_twice_kernel(int* out) {
  const cg::thread_block block = cg::this_thread_block();
  auto token = block.barrier_arrive();
  out[threadIdx.x] = 1;
  block.barrier_wait(std::move(token));
  block.barrier_wait(std::move(token));
}

__global__ void split_arrives_twice_kernel(int* out) {
  const cg::thread_block block = cg::this_thread_block();
  auto first = block.barrier_arrive();
  auto second = block.barrier_arrive();
  out[threadIdx.x] = 1;
  block.barrier_wait(std::move(second));
  block.barrier_wait(std::move(first));
}

__global__ void copy_then_wait_kernel(const int* src, int* out, int write) {
  __shared__ int smem[256];
  const cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, smem, src, sizeof smem);  // copy_then_wait_line
  if (write) smem[threadIdx.x] = 1;
  cg::wait(block);
  out[threadIdx.x] = smem[threadIdx.x];
}

__global__ void unchecked_copy_kernel() { cohort_loops_unchecked_copy(std::source_location::current()); }

}  // namespace

namespace loops_tests {

const unsigned split_arrive_line = 85, split_sync_line = 88, copy_then_wait_line = 113;

std::vector<float> double_buffered(const std::vector<float>& in, unsigned blocks, unsigned block, unsigned chunks,
                                   unsigned chunk) {
  cg::device_buffer<float> din(in), dout(blocks * block);
  cg::launch(double_buffered_kernel, {dim3(blocks), dim3(block)}, din.data(), dout.data(), chunks, chunk);
  return dout.to_host();
}
engine_choice double_buffered_engine() { return cohort::host::engine_for(double_buffered_kernel); }

std::vector<int> tile_copies(const std::vector<int>& in, unsigned blocks, unsigned block, unsigned tile) {
  cg::device_buffer<int> din(in), dout(blocks * block);
  if (tile == 8)
    cg::launch(tile_copies_kernel<8>, {dim3(blocks), dim3(block)}, din.data(), dout.data());
  else
    cg::launch(tile_copies_kernel<32>, {dim3(blocks), dim3(block)}, din.data(), dout.data());
  return dout.to_host();
}
engine_choice tile_copies_engine(unsigned tile) {
  return tile == 8 ? cohort::host::engine_for(tile_copies_kernel<8>) : cohort::host::engine_for(tile_copies_kernel<32>);
}

std::vector<float> split_rounds(const std::vector<float>& in, unsigned blocks, unsigned block_x, unsigned block_y,
                                unsigned rounds) {
  cg::device_buffer<float> din(in), dout(in.size());
  cg::launch(split_rounds_kernel, {dim3(blocks), dim3(block_x, block_y), block_x * block_y * sizeof(float)}, din.data(),
             dout.data(), rounds);
  return dout.to_host();
}
engine_choice split_rounds_engine() { return cohort::host::engine_for(split_rounds_kernel); }

std::vector<float> split_after_exit(const std::vector<float>& in, unsigned blocks, unsigned block, unsigned live,
                                    unsigned rounds) {
  cg::device_buffer<float> din(in), dout(in.size());
  cg::launch(split_after_exit_kernel, {dim3(blocks), dim3(block), block * sizeof(float)}, din.data(), dout.data(), live,
             rounds);
  return dout.to_host();
}
engine_choice split_after_exit_engine() { return cohort::host::engine_for(split_after_exit_kernel); }

void split_against_sync(unsigned block) {
  cg::device_buffer<int> out(block);
  cg::launch(split_against_sync_kernel, {dim3(1), dim3(block)}, out.data());
}

void split_token_twice(unsigned block) {
  cg::device_buffer<int> out(block);
  cg::launch(split_token_twice_kernel, {dim3(1), dim3(block)}, out.data());
}
engine_choice split_token_twice_engine() { return cohort::host::engine_for(split_token_twice_kernel); }

void split_arrives_twice(unsigned block) {
  cg::device_buffer<int> out(block);
  cg::launch(split_arrives_twice_kernel, {dim3(1), dim3(block)}, out.data());
}
engine_choice split_arrives_twice_engine() { return cohort::host::engine_for(split_arrives_twice_kernel); }

std::vector<int> copy_then_wait(const std::vector<int>& in, bool write) {
  cg::device_buffer<int> din(in), dout(256);
  cg::launch(copy_then_wait_kernel, {dim3(1), dim3(256)}, din.data(), dout.data(), write ? 1 : 0);
  return dout.to_host();
}
engine_choice copy_then_wait_engine() { return cohort::host::engine_for(copy_then_wait_kernel); }

void unchecked_copy_reached() { cg::launch(unchecked_copy_kernel, {dim3(1), dim3(1)}); }

}  // namespace loops_tests
