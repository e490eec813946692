// memcpy_async and split block barriers, built by clang with the loops pass
// (async_kernels.hpp). Each launch function runs one launch.
#include "async_kernels.hpp"

#include <cohort/cohort.hpp>

namespace cg = cohort;

namespace {

__global__ void copy_stages_kernel(const float* in, float* out, unsigned chunks) {
  __shared__ float stage[2][4 * 1024];
  const cg::thread_block block = cg::this_thread_block();
  const unsigned chunk = 4 * blockDim.x;
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
    for (unsigned k = 0; k < 4; ++k) sum += stage[c % 2][k * blockDim.x + threadIdx.x];
    block.sync();  // every thread has read the stage before the next copy into it
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void split_barriers_kernel(unsigned rounds, unsigned* out) {
  const cg::thread_block block = cg::this_thread_block();
  unsigned v = threadIdx.x;
  for (unsigned r = 0; r < rounds; ++r) {
    auto token = block.barrier_arrive();
    v = v * 1664525u + r;
    block.barrier_wait(std::move(token));
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

}  // namespace

namespace loops_bench {

void copy_stages(const float* in, float* out, unsigned n, unsigned blocks, unsigned block) {
  cg::launch(copy_stages_kernel, {dim3(blocks), dim3(block)}, in, out, n / blocks / (4 * block));
}

void split_barriers(unsigned rounds, unsigned* out, unsigned blocks, unsigned block) {
  cg::launch(split_barriers_kernel, {dim3(blocks), dim3(block)}, rounds, out);
}

}  // namespace loops_bench
