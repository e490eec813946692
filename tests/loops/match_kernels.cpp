// __match_*_sync and tiles' match_* for the loops engine's tests. Built by
// clang with the loops pass (tests/loops/CMakeLists.txt); each kernel's engine
// is the pass's decision.
#include "match_kernels.hpp"

#include <type_traits>

#include <cohort/cohort.hpp>

namespace cg = cohort;

namespace match_tests {

namespace {

struct bytes3 {
  unsigned char c[3];
};
struct bytes12 {
  int a, b, c;
};
struct bytes16 {
  long long a;
  int b;
  float c;
};
struct bytes24 {
  long long a, b, c;
};
static_assert(sizeof(bytes3) == 3 && sizeof(bytes12) == 12 && sizeof(bytes16) == 16 && sizeof(bytes24) == 24);

// A value of type V made from v: equal v, equal bytes (but 0 as a float is -0.0f and 1 is +0.0f, which the
// hardware's match tells apart).
template <class V>
__device__ V make(int v) {
  if constexpr (std::is_same_v<V, float>)
    return v == 0 ? -0.0f : v == 1 ? 0.0f : static_cast<float>(v);
  else if constexpr (std::is_arithmetic_v<V>)
    return static_cast<V>(v);
  else if constexpr (std::is_same_v<V, bytes3>)
    return {{static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8), 7}};
  else if constexpr (std::is_same_v<V, bytes12>)
    return {v, 5, v >> 3};
  else if constexpr (std::is_same_v<V, bytes16>)
    return {v, 9, static_cast<float>(v) / 4};
  else
    return {v, 1, 3LL * v};
}

__device__ unsigned linear_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }

template <class V, unsigned long long Mask>
__global__ void warp_matches_kernel(const int* in, unsigned long long* out) {
  const unsigned i = blockIdx.x * blockDim.x * blockDim.y * blockDim.z + linear_rank();
  const int v = in[i];
  unsigned long long* o = out + kWarpMatches * i;
  int pred = -1, uniform_pred = -1;
  o[0] = __match_any_sync(Mask, make<V>(v & 3));
  o[1] = __match_all_sync(Mask, make<V>(v & 3), &pred);
  o[2] = static_cast<unsigned long long>(pred);
  o[3] = __match_all_sync(Mask, make<V>(static_cast<int>(blockIdx.x)), &uniform_pred);
  o[4] = static_cast<unsigned long long>(uniform_pred);
  o[5] = __match_any_sync(Mask, make<V>(v));
}

template <unsigned Size, class V>
__global__ void tile_matches_kernel(const int* in, unsigned long long* out) {
  const auto tile = cg::tiled_partition<Size>(cg::this_thread_block());
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  unsigned long long* o = out + kTileMatches * i;
  int pred = -1, uniform_pred = -1;
  o[0] = tile.match_any(make<V>(v & 3));
  o[1] = tile.match_all(make<V>(v & 3), pred);
  o[2] = static_cast<unsigned long long>(pred);
  o[3] = tile.match_all(make<V>(static_cast<int>(blockIdx.x)), uniform_pred);
  o[4] = static_cast<unsigned long long>(uniform_pred);
}

__global__ void later_warp_matches_kernel(const int* in, unsigned long long* out) {
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  unsigned long long any = 0, all = 0, tile_any = 0;
  if (threadIdx.x >= 32) {
    int pred = -1;
    any = __match_any_sync(0xffffffffu, v & 3);
    all = __match_all_sync(0xffffffffu, v & 1, &pred) | static_cast<unsigned long long>(pred) << 48;
    tile_any = tile.match_any(v & 3);
  }
  out[kLaterWarpMatches * i] = any;
  out[kLaterWarpMatches * i + 1] = all;
  out[kLaterWarpMatches * i + 2] = tile_any;
}

template <bool All, bool Later>
__global__ void outside_mask_kernel(int* out) {
  const int v = out[threadIdx.x];
  if (!Later || threadIdx.x >= 32) {
    int pred = 0;
    out[threadIdx.x] =
        static_cast<int>(All ? __match_all_sync(0x0000ffffu, v, &pred) : __match_any_sync(0x0000ffffu, v)) + pred;
  }
}

__global__ void narrow_mask_kernel(int* out) {
  out[threadIdx.x] = static_cast<int>(__match_any_sync(0xffffffffu, out[threadIdx.x]));
}

// `f` called with a value of the type.
template <class F>
auto with_type(value_type type, F f) {
  switch (type) {
    case value_type::i8:
      return f(static_cast<signed char>(0));
    case value_type::i16:
      return f(short{});
    case value_type::i32:
      return f(int{});
    case value_type::f32:
      return f(float{});
    case value_type::i64:
      return f(0LL);
    case value_type::f64:
      return f(double{});
    case value_type::bytes3:
      return f(bytes3{});
    case value_type::bytes12:
      return f(bytes12{});
    case value_type::bytes16:
      return f(bytes16{});
    default:
      return f(bytes24{});
  }
}

template <class F>
auto with_warp_kernel(value_type type, bool short_mask, F f) {
  return with_type(type, [&]<class V>(V) {
    return short_mask ? f(warp_matches_kernel<V, 0xffull>) : f(warp_matches_kernel<V, 0xffffffffull>);
  });
}

template <class F>
auto with_tile_kernel(value_type type, unsigned size, F f) {
  return with_type(type, [&]<class V>(V) {
    switch (size) {
      case 1:
        return f(tile_matches_kernel<1, V>);
      case 2:
        return f(tile_matches_kernel<2, V>);
      case 4:
        return f(tile_matches_kernel<4, V>);
      case 8:
        return f(tile_matches_kernel<8, V>);
      case 16:
        return f(tile_matches_kernel<16, V>);
      case 32:
        return f(tile_matches_kernel<32, V>);
      default:
        return f(tile_matches_kernel<64, V>);
    }
  });
}

template <class F>
auto with_misuse_kernel(bool all, bool later_warps, F f) {
  if (all) return later_warps ? f(outside_mask_kernel<true, true>) : f(outside_mask_kernel<true, false>);
  return later_warps ? f(outside_mask_kernel<false, true>) : f(outside_mask_kernel<false, false>);
}

std::vector<unsigned long long> run(void (*kernel)(const int*, unsigned long long*), const std::vector<int>& in,
                                    unsigned outputs, dim3 block, unsigned blocks) {
  cg::device_buffer<int> din(in);
  cg::device_buffer<unsigned long long> dout(in.size() * outputs);
  cg::launch(kernel, {dim3(blocks), block}, din.data(), dout.data());
  return dout.to_host();
}

}  // namespace

std::vector<unsigned long long> warp_matches(value_type type, const std::vector<int>& in, unsigned x, unsigned y,
                                             unsigned z, unsigned blocks, bool short_mask) {
  return with_warp_kernel(type, short_mask,
                          [&](auto kernel) { return run(kernel, in, kWarpMatches, dim3(x, y, z), blocks); });
}
engine_choice warp_matches_engine(value_type type, bool short_mask) {
  return with_warp_kernel(type, short_mask, [](auto kernel) { return cohort::host::engine_for(kernel); });
}

std::vector<unsigned long long> tile_matches(value_type type, unsigned size, const std::vector<int>& in,
                                             unsigned threads, unsigned blocks) {
  return with_tile_kernel(type, size,
                          [&](auto kernel) { return run(kernel, in, kTileMatches, dim3(threads), blocks); });
}
engine_choice tile_matches_engine(value_type type, unsigned size) {
  return with_tile_kernel(type, size, [](auto kernel) { return cohort::host::engine_for(kernel); });
}

std::vector<unsigned long long> later_warp_matches(const std::vector<int>& in, unsigned threads, unsigned blocks) {
  return run(later_warp_matches_kernel, in, kLaterWarpMatches, dim3(threads), blocks);
}
engine_choice later_warp_matches_engine() { return cohort::host::engine_for(later_warp_matches_kernel); }

void match_outside_mask(bool all, bool later_warps) {
  with_misuse_kernel(all, later_warps, [](auto kernel) {
    cg::device_buffer<int> out(std::vector<int>(64, 3));
    cg::launch(kernel, {dim3(1), dim3(64)}, out.data());
    return 0;
  });
}
engine_choice match_outside_mask_engine(bool all, bool later_warps) {
  return with_misuse_kernel(all, later_warps, [](auto kernel) { return cohort::host::engine_for(kernel); });
}

void match_narrow_mask_on_wide_warps() {
  cg::device_buffer<int> out(std::vector<int>(64, 3));
  cg::launch(narrow_mask_kernel, {dim3(1), dim3(64)}, out.data());
}

}  // namespace match_tests
