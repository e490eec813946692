// Warp-level test kernels for the loops engine. Built by clang with the loops
// pass (tests/loops/CMakeLists.txt); each kernel's engine is the pass's decision.
#include "warp_kernels.hpp"

#include <type_traits>

#include <cohort/cohort.hpp>

namespace cg = cohort;

namespace warp_tests {

namespace {

constexpr unsigned full = 0xffffffffu;

// The thread's rank in its block and its element in the launch.
__device__ unsigned rank_in_block() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
__device__ unsigned element() { return blockIdx.x * (blockDim.x * blockDim.y * blockDim.z) + rank_in_block(); }

__global__ void butterfly_kernel(const float* in, float* out) {
  const unsigned i = element();
  float v = in[i];
  for (int m = 1; m < 32; m <<= 1) v += __shfl_xor_sync(full, v, m);
  out[i] = v;
}

__global__ void shuffles_kernel(const int* in, int* out, int src, unsigned delta, int width) {
  const unsigned i = element();
  const int v = in[i];
  const int lane = static_cast<int>(rank_in_block() % 32);
  out[4 * i] = __shfl_sync(full, v, (7 * lane + src) % 32);
  out[4 * i + 1] = __shfl_up_sync(full, v, delta, width);
  out[4 * i + 2] = __shfl_down_sync(full, v, delta, width);
  out[4 * i + 3] = __shfl_xor_sync(full, v, static_cast<int>(delta), width);
}

// A value of 8 bytes in two fields: passed and returned in one register.
struct float_pair {
  float a, b;
};
// Of 16 bytes in four: passed in two, so its shuffles keep the checked path.
struct int_quad {
  int a, b, c, d;
};
template <class T>
__device__ T make(int v) {
  if constexpr (std::is_same_v<T, float_pair>)
    return {v * 0.5f, -v * 0.25f};
  else if constexpr (std::is_same_v<T, int_quad>)
    return {v, v + 1, -v, v * 3};
  else
    return static_cast<T>(v);
}
template <class T>
__device__ long long flat(T v) {
  if constexpr (std::is_same_v<T, float_pair>)
    return static_cast<long long>(v.a * 4 + v.b * 4000);
  else if constexpr (std::is_same_v<T, int_quad>)
    return v.a + 3LL * v.b + 5LL * v.c + 7LL * v.d;
  else
    return static_cast<long long>(v);
}

// Each kind of shuffle of a T, every lane with its own operand (in[2 * i + 1]).
template <class T>
__global__ void typed_shuffles_kernel(const int* in, long long* out, int width) {
  const unsigned i = element();
  const T v = make<T>(in[2 * i]);
  const int operand = in[2 * i + 1];
  out[4 * i] = flat(__shfl_sync(full, v, operand, width));
  out[4 * i + 1] = flat(__shfl_up_sync(full, v, static_cast<unsigned>(operand), width));
  out[4 * i + 2] = flat(__shfl_down_sync(full, v, static_cast<unsigned>(operand), width));
  out[4 * i + 3] = flat(__shfl_xor_sync(full, v, operand, width));
}

// Shuffles in a loop of `rounds`, the next round's values stored where this
// round's are read: a double, then an int from it, each lane its own lane mask.
__global__ void looped_shuffles_kernel(const int* in, long long* out, int rounds) {
  const unsigned i = element();
  double d = in[i];
  int k = in[i] % 7;
  for (int r = 0; r < rounds; ++r) {
    d += __shfl_xor_sync(full, d, (k + r) % 32);
    k = __shfl_down_sync(full, static_cast<int>(d) % 11 + k, static_cast<unsigned>(r % 5)) % 31;
  }
  out[2 * i] = static_cast<long long>(d);
  out[2 * i + 1] = k;
}

// A mask of the eight lanes a block of eight has: the whole (short) warp.
__global__ void short_warp_kernel(const int* in, int* out) {
  const unsigned i = element();
  out[i] = __shfl_down_sync(0xffu, in[i], 1) + 100 * __shfl_sync(0xffu, in[i], 7);
}

__global__ void votes_kernel(const int* in, int* out) {
  const unsigned i = element();
  const int v = in[i];
  out[6 * i] = static_cast<int>(__ballot_sync(full, v > 0));
  out[6 * i + 1] = __any_sync(full, v > 990);
  out[6 * i + 2] = __all_sync(full, v > -990);
  out[6 * i + 3] = __reduce_add_sync(full, v);
  out[6 * i + 4] = __reduce_max_sync(full, v);
  out[6 * i + 5] = static_cast<int>(__match_any_sync(full, v & 3));
}

__global__ void reductions_kernel(const int* in, int* out) {
  const unsigned i = element();
  const int v = in[i];
  const unsigned u = static_cast<unsigned>(v) * 2654435761u;  // all 32 bits in play
  out[11 * i] = static_cast<int>(__reduce_add_sync(full, u));
  out[11 * i + 1] = __reduce_add_sync(full, v);
  out[11 * i + 2] = static_cast<int>(__reduce_min_sync(full, u));
  out[11 * i + 3] = __reduce_min_sync(full, v);
  out[11 * i + 4] = static_cast<int>(__reduce_max_sync(full, u));
  out[11 * i + 5] = static_cast<int>(__reduce_and_sync(full, u | 0x80000001u));
  out[11 * i + 6] = static_cast<int>(__reduce_or_sync(full, u & 0x0f0f0f0fu));
  out[11 * i + 7] = static_cast<int>(__reduce_xor_sync(full, u));
  out[11 * i + 8] = static_cast<int>(__ballot_sync(full, v % 7 == 0) >> 1);
  out[11 * i + 9] = __any_sync(full, v > 900) + 2 * __any_sync(full, v > 5000);
  out[11 * i + 10] = __all_sync(full, v > -900) + 2 * __all_sync(full, v > -5000);
}

template <masked_call Call>
__global__ void combine_outside_mask_kernel(const int* in, int* out) {
  constexpr unsigned half = 0x0000ffffu;
  const int v = in[threadIdx.x];
  if constexpr (Call == masked_call::ballot) out[threadIdx.x] = static_cast<int>(__ballot_sync(half, v > 0));
  if constexpr (Call == masked_call::any) out[threadIdx.x] = __any_sync(half, v > 0);
  if constexpr (Call == masked_call::all) out[threadIdx.x] = __all_sync(half, v > 0);
  if constexpr (Call == masked_call::reduce_add) out[threadIdx.x] = __reduce_add_sync(half, v);
  if constexpr (Call == masked_call::reduce_min) out[threadIdx.x] = __reduce_min_sync(half, v);
  if constexpr (Call == masked_call::syncwarp) {
    out[threadIdx.x] = v;
    __syncwarp(half);
  }
}

__global__ void syncwarp_kernel(const int* in, int* out) {
  __shared__ int values[1024];
  const unsigned t = rank_in_block(), n = blockDim.x * blockDim.y * blockDim.z;
  const unsigned i = element();
  const unsigned neighbour = (t ^ 1) < n ? t ^ 1 : t;
  values[t] = in[i];
  __syncwarp();
  const int seen = values[neighbour];
  __syncwarp();
  values[t] = 3 * seen + values[t];
  __syncwarp();
  out[i] = values[neighbour];
}

__global__ void half_warps_kernel(const int* in, int* out) {
  const unsigned i = element();
  const unsigned lane = rank_in_block() % 32;
  const unsigned mask = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  out[2 * i] = __shfl_sync(mask, in[i], static_cast<int>((lane + 3) % 16), 16);
  out[2 * i + 1] = static_cast<int>(__ballot_sync(mask, in[i] > 0));
}

template <unsigned Size>
__global__ void tiles_kernel(const int* in, int* out) {
  const auto tile = cg::tiled_partition<Size>(cg::this_thread_block());
  const unsigned i = element();
  const int v = in[i];
  const int sum = cg::reduce(tile, v, cg::plus<int>());
  tile.sync();
  out[7 * i] = sum;
  out[7 * i + 1] = tile.shfl_down(v, 1);
  out[7 * i + 2] = tile.shfl_xor(v, Size / 2);
  out[7 * i + 3] = tile.shfl(v, 0);
  if constexpr (Size <= 64)
    out[7 * i + 4] = static_cast<int>(tile.ballot(v > 0));
  else  // a wider tile's ballot is a lane_mask of its own
    out[7 * i + 4] = tile.any(v > 990) + 2 * tile.all(v > -990);
  out[7 * i + 5] = cg::inclusive_scan(tile, v);
  out[7 * i + 6] = static_cast<int>(tile.thread_rank() + 100 * tile.num_threads());
}

// A tile's shuffles with every member's own operand (a source rank past the
// tile, a delta past its end, a lane mask reaching outside a partial tile).
template <unsigned Size>
__global__ void tile_operands_kernel(const int* in, int* out) {
  const auto tile = cg::tiled_partition<Size>(cg::this_thread_block());
  const unsigned i = element();
  const int v = in[i];
  const unsigned operand = static_cast<unsigned>(v + 1000) % (2 * Size + 3);
  out[4 * i] = tile.shfl(v, operand);
  out[4 * i + 1] = tile.shfl_up(v, operand);
  out[4 * i + 2] = tile.shfl_down(v, operand);
  out[4 * i + 3] = tile.shfl_xor(v, operand);
}

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(full, v, offset);
  return v;
}

__global__ void block_sum_kernel(const float* in, float* out) {
  __shared__ float warp_sums[32];
  const unsigned t = threadIdx.x;
  float v = warp_sum(in[blockIdx.x * blockDim.x + t]);
  if (t % 32 == 0) warp_sums[t / 32] = v;
  __syncthreads();
  // Every warp reduces the warps' sums (block-uniform: no `if (warp == 0)`).
  v = warp_sum(t % 32 < (blockDim.x + 31) / 32 ? warp_sums[t % 32] : 0.0f);
  if (t == 0) out[blockIdx.x] = v;
}

__global__ void lane_outside_mask_kernel(const int* in, int* out) {
  out[threadIdx.x] = __shfl_sync(0x0000ffffu, in[threadIdx.x], 0);
}

__global__ void masks_differ_kernel(int* out) {
  out[threadIdx.x] = 1;
  __syncwarp(threadIdx.x == 1 ? 0x2u : full);
  out[threadIdx.x] += out[threadIdx.x ^ 1];
}

__global__ void shuffle_source_outside_kernel(const int* in, int* out) {
  const unsigned mask = threadIdx.x < 16 ? 0x0000ffffu : 0xffff0000u;
  out[threadIdx.x] = __shfl_sync(mask, in[threadIdx.x], 20);
}

__global__ void non_uniform_delta_kernel(const int* in, int* out) {
  // A tile wider than a warp: its shuffles need the same delta from every member.
  const auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  out[threadIdx.x] = tile.shfl_down(in[threadIdx.x], threadIdx.x % 2 + 1);
}

__global__ void divergent_shuffle_kernel(const float* in, float* out) {
  float v = in[threadIdx.x];
  if (threadIdx.x % 32 < 16) v += __shfl_xor_sync(0x0000ffffu, v, 1);
  out[threadIdx.x] = v;
}

__global__ void coalesced_odd_lanes_kernel(int* out) {
  int v = -1;
  if (threadIdx.x % 2 == 1) {
    const cg::coalesced_group odd = cg::coalesced_threads();
    v = static_cast<int>(odd.thread_rank() + 100 * odd.num_threads());
  }
  out[threadIdx.x] = v;
}

template <class T, class Kernel, class... Args>
std::vector<T> run(Kernel kernel, const std::vector<T>& in, std::size_t outputs, block_shape block, unsigned blocks,
                   Args... args) {
  cg::device_buffer<T> din(in), dout(in.size() * outputs);
  cg::launch(kernel, {dim3(blocks), dim3(block.x, block.y, block.z)}, din.data(), dout.data(), args...);
  return dout.to_host();
}

}  // namespace

std::vector<float> butterfly(const std::vector<float>& in, block_shape block, unsigned blocks) {
  return run(butterfly_kernel, in, 1, block, blocks);
}
engine_choice butterfly_engine() { return cohort::host::engine_for(butterfly_kernel); }

std::vector<int> shuffles(const std::vector<int>& in, int src, unsigned delta, int width, block_shape block,
                          unsigned blocks) {
  return run(shuffles_kernel, in, 4, block, blocks, src, delta, width);
}
engine_choice shuffles_engine() { return cohort::host::engine_for(shuffles_kernel); }

std::vector<long long> typed_shuffles(shuffled_type type, const std::vector<int>& in, int width, block_shape block,
                                      unsigned blocks) {
  const dim3 shape(block.x, block.y, block.z);
  cg::device_buffer<int> din(in);
  cg::device_buffer<long long> dout(in.size() * 2);
  auto launch = [&](auto kernel) { cg::launch(kernel, {dim3(blocks), shape}, din.data(), dout.data(), width); };
  switch (type) {
    case shuffled_type::i8:
      launch(typed_shuffles_kernel<signed char>);
      break;
    case shuffled_type::i16:
      launch(typed_shuffles_kernel<short>);
      break;
    case shuffled_type::i32:
      launch(typed_shuffles_kernel<int>);
      break;
    case shuffled_type::f32:
      launch(typed_shuffles_kernel<float>);
      break;
    case shuffled_type::f64:
      launch(typed_shuffles_kernel<double>);
      break;
    case shuffled_type::i64:
      launch(typed_shuffles_kernel<long long>);
      break;
    case shuffled_type::pair:
      launch(typed_shuffles_kernel<float_pair>);
      break;
    case shuffled_type::quad:
      launch(typed_shuffles_kernel<int_quad>);
      break;
  }
  return dout.to_host();
}
engine_choice typed_shuffles_engine() { return cohort::host::engine_for(typed_shuffles_kernel<float_pair>); }

std::vector<long long> looped_shuffles(const std::vector<int>& in, int rounds, block_shape block, unsigned blocks) {
  cg::device_buffer<int> din(in);
  cg::device_buffer<long long> dout(in.size() * 2);
  cg::launch(looped_shuffles_kernel, {dim3(blocks), dim3(block.x, block.y, block.z)}, din.data(), dout.data(), rounds);
  return dout.to_host();
}
engine_choice looped_shuffles_engine() { return cohort::host::engine_for(looped_shuffles_kernel); }

std::vector<int> short_warp(const std::vector<int>& in, unsigned blocks) {
  return run(short_warp_kernel, in, 1, {8}, blocks);
}
engine_choice short_warp_engine() { return cohort::host::engine_for(short_warp_kernel); }

std::vector<int> votes(const std::vector<int>& in, block_shape block, unsigned blocks) {
  return run(votes_kernel, in, 6, block, blocks);
}
engine_choice votes_engine() { return cohort::host::engine_for(votes_kernel); }

std::vector<int> reductions(const std::vector<int>& in, block_shape block, unsigned blocks) {
  return run(reductions_kernel, in, 11, block, blocks);
}
engine_choice reductions_engine() { return cohort::host::engine_for(reductions_kernel); }

std::vector<int> syncwarp_exchange(const std::vector<int>& in, block_shape block, unsigned blocks) {
  return run(syncwarp_kernel, in, 1, block, blocks);
}
engine_choice syncwarp_exchange_engine() { return cohort::host::engine_for(syncwarp_kernel); }

std::vector<int> half_warps(const std::vector<int>& in, block_shape block, unsigned blocks) {
  return run(half_warps_kernel, in, 2, block, blocks);
}
engine_choice half_warps_engine() { return cohort::host::engine_for(half_warps_kernel); }

namespace {
template <unsigned Size>
std::vector<int> tiles_of(const std::vector<int>& in, block_shape block, unsigned blocks) {
  return run(tiles_kernel<Size>, in, 7, block, blocks);
}
}  // namespace

std::vector<int> tiles(unsigned size, const std::vector<int>& in, block_shape block, unsigned blocks) {
  switch (size) {
    case 1:
      return tiles_of<1>(in, block, blocks);
    case 2:
      return tiles_of<2>(in, block, blocks);
    case 4:
      return tiles_of<4>(in, block, blocks);
    case 8:
      return tiles_of<8>(in, block, blocks);
    case 16:
      return tiles_of<16>(in, block, blocks);
    case 32:
      return tiles_of<32>(in, block, blocks);
    case 64:
      return tiles_of<64>(in, block, blocks);
    default:
      return tiles_of<256>(in, block, blocks);
  }
}
engine_choice tiles_engine(unsigned size) {
  switch (size) {
    case 1:
      return cohort::host::engine_for(tiles_kernel<1>);
    case 2:
      return cohort::host::engine_for(tiles_kernel<2>);
    case 4:
      return cohort::host::engine_for(tiles_kernel<4>);
    case 8:
      return cohort::host::engine_for(tiles_kernel<8>);
    case 16:
      return cohort::host::engine_for(tiles_kernel<16>);
    case 32:
      return cohort::host::engine_for(tiles_kernel<32>);
    case 64:
      return cohort::host::engine_for(tiles_kernel<64>);
    default:
      return cohort::host::engine_for(tiles_kernel<256>);
  }
}

namespace {
// f(tile_operands_kernel<N>) for size N (1 to 32).
template <class F>
auto with_tile_operands_kernel(unsigned size, F f) {
  switch (size) {
    case 1:
      return f(tile_operands_kernel<1>);
    case 2:
      return f(tile_operands_kernel<2>);
    case 4:
      return f(tile_operands_kernel<4>);
    case 8:
      return f(tile_operands_kernel<8>);
    case 16:
      return f(tile_operands_kernel<16>);
    default:
      return f(tile_operands_kernel<32>);
  }
}
}  // namespace

std::vector<int> tile_operands(unsigned size, const std::vector<int>& in, block_shape block, unsigned blocks) {
  return with_tile_operands_kernel(size, [&](auto kernel) { return run(kernel, in, 4, block, blocks); });
}
engine_choice tile_operands_engine(unsigned size) {
  return with_tile_operands_kernel(size, [](auto kernel) { return cohort::host::engine_for(kernel); });
}

std::vector<float> block_sum(const std::vector<float>& in, unsigned block, unsigned blocks) {
  cg::device_buffer<float> din(in), dout(blocks);
  cg::launch(block_sum_kernel, {dim3(blocks), dim3(block)}, din.data(), dout.data());
  return dout.to_host();
}
engine_choice block_sum_engine() { return cohort::host::engine_for(block_sum_kernel); }

void lane_outside_mask() { run(lane_outside_mask_kernel, std::vector<int>(32, 1), 1, {32}, 1); }
void masks_differ() {
  cg::device_buffer<int> out(32);
  cg::launch(masks_differ_kernel, {dim3(1), dim3(32)}, out.data());
}
void shuffle_source_outside() { run(shuffle_source_outside_kernel, std::vector<int>(32, 1), 1, {32}, 1); }
void non_uniform_delta() { run(non_uniform_delta_kernel, std::vector<int>(64, 1), 1, {64}, 1); }
engine_choice misuse_engine() { return cohort::host::engine_for(lane_outside_mask_kernel); }

namespace {
template <class Visit>
auto with_combine_outside_mask(masked_call call, Visit visit) {
  switch (call) {
    case masked_call::ballot:
      return visit(combine_outside_mask_kernel<masked_call::ballot>);
    case masked_call::any:
      return visit(combine_outside_mask_kernel<masked_call::any>);
    case masked_call::all:
      return visit(combine_outside_mask_kernel<masked_call::all>);
    case masked_call::reduce_add:
      return visit(combine_outside_mask_kernel<masked_call::reduce_add>);
    case masked_call::reduce_min:
      return visit(combine_outside_mask_kernel<masked_call::reduce_min>);
    case masked_call::syncwarp:
      break;
  }
  return visit(combine_outside_mask_kernel<masked_call::syncwarp>);
}
}  // namespace

void combine_outside_mask(masked_call call) {
  with_combine_outside_mask(call, [](auto kernel) {
    run(kernel, std::vector<int>(32, 1), 1, {32}, 1);
    return 0;
  });
}
engine_choice combine_outside_mask_engine(masked_call call) {
  return with_combine_outside_mask(call, [](auto kernel) { return cohort::host::engine_for(kernel); });
}

std::vector<float> divergent_shuffle(const std::vector<float>& in, unsigned block) {
  return run(divergent_shuffle_kernel, in, 1, {block}, 1);
}
engine_choice divergent_shuffle_engine() { return cohort::host::engine_for(divergent_shuffle_kernel); }

std::vector<int> coalesced_odd_lanes(unsigned block) {
  cg::device_buffer<int> out(block);
  cg::launch(coalesced_odd_lanes_kernel, {dim3(1), dim3(block)}, out.data());
  return out.to_host();
}
engine_choice coalesced_odd_lanes_engine() { return cohort::host::engine_for(coalesced_odd_lanes_kernel); }

}  // namespace warp_tests
