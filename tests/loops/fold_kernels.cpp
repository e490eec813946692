// Tiles' cg::reduce and scans for the loops engine's tests. Built by clang
// with the loops pass (tests/loops/CMakeLists.txt); each kernel's engine is
// the pass's decision.
#include "fold_kernels.hpp"

#include <type_traits>

#include <cohort/cohort.hpp>

namespace cg = cohort;

namespace fold_tests {

namespace {

// Non-commutative and non-associative: the order of the fold shows.
template <class T>
struct minus {
  __device__ T operator()(T a, T b) const { return a - b; }
};
// plus, holding state: its copies are not interchangeable, so the records.
template <class T>
struct stateful_plus {
  T zero;
  __device__ T operator()(T a, T b) const { return a + b + zero; }
};

template <unsigned Size, class T>
__global__ void folds_kernel(const double* in, double* out, T zero) {
  const auto tile = cg::tiled_partition<Size>(cg::this_thread_block());
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const T v = static_cast<T>(in[i]);
  double* o = out + kFolds * i;
  auto each = [&](unsigned k, auto op) {
    o[k] = static_cast<double>(cg::reduce(tile, v, op));
    o[k + 1] = static_cast<double>(cg::inclusive_scan(tile, v, op));
    o[k + 2] = static_cast<double>(cg::exclusive_scan(tile, v, op));
  };
  each(0, cg::plus<T>());
  each(3, cg::less<T>());
  each(6, cg::greater<T>());
  each(9, minus<T>());
  each(12, stateful_plus<T>{zero});
  if constexpr (std::is_integral_v<T>) {
    each(15, cg::bit_and<T>());
    o[18] = static_cast<double>(cg::reduce(tile, v, cg::bit_or<T>()));
    o[19] = static_cast<double>(cg::inclusive_scan(tile, v, cg::bit_xor<T>()));
    o[20] = static_cast<double>(cg::exclusive_scan(tile, v, cg::bit_or<T>()));
  }
}

template <unsigned Size>
__global__ void votes_kernel(const int* in, int* out) {
  const auto tile = cg::tiled_partition<Size>(cg::this_thread_block());
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  const bool predicates[] = {v > 0, v > -900, v > 900};
  for (unsigned k = 0; k < 3; ++k) {
    out[kVotes * i + 3 * k] = tile.any(predicates[k]);
    out[kVotes * i + 3 * k + 1] = tile.all(predicates[k]);
    out[kVotes * i + 3 * k + 2] = static_cast<int>(tile.ballot(predicates[k]));
  }
}

struct three_channels {
  unsigned char c[3];
};
struct add_channels {
  __device__ three_channels operator()(three_channels a, three_channels b) const {
    for (int k = 0; k < 3; ++k) a.c[k] = static_cast<unsigned char>(a.c[k] + b.c[k]);
    return a;
  }
};

__global__ void three_bytes_kernel(const int* in, int* out) {
  const auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  const three_channels value{
      {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 3), static_cast<unsigned char>(v >> 6)}};
  const three_channels sum = cg::reduce(tile, value, add_channels());
  const three_channels prefix = cg::inclusive_scan(tile, value, add_channels());
  for (int k = 0; k < 3; ++k) {
    out[6 * i + k] = sum.c[k];
    out[6 * i + 3 + k] = prefix.c[k];
  }
}

__global__ void first_warps_kernel(const int* in, int* out) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int sum = -1, prefix = -1;
  if (threadIdx.x < 64) {
    sum = cg::reduce(tile, in[i], cg::plus<int>());
    prefix = cg::inclusive_scan(tile, in[i], cg::plus<int>());
  }
  out[2 * i] = sum;
  out[2 * i + 1] = prefix;
}

template <class T, class Kernel, class... Args>
std::vector<T> run(Kernel kernel, const std::vector<T>& in, std::size_t outputs, unsigned threads, unsigned blocks,
                   Args... args) {
  cg::device_buffer<T> din(in), dout(in.size() * outputs);
  cg::launch(kernel, {dim3(blocks), dim3(threads)}, din.data(), dout.data(), args...);
  return dout.to_host();
}

// `f` called with the kernel of `size` (1 to 32, or 64) and `type`.
template <class F>
auto with_kernel(value_type type, unsigned size, F f) {
  auto sized = [&]<class T>(T) {
    switch (size) {
      case 1:
        return f(folds_kernel<1, T>);
      case 2:
        return f(folds_kernel<2, T>);
      case 4:
        return f(folds_kernel<4, T>);
      case 8:
        return f(folds_kernel<8, T>);
      case 16:
        return f(folds_kernel<16, T>);
      case 32:
        return f(folds_kernel<32, T>);
      default:
        return f(folds_kernel<64, T>);
    }
  };
  switch (type) {
    case value_type::i32:
      return sized(int{});
    case value_type::u32:
      return sized(unsigned{});
    case value_type::i64:
      return sized(0LL);
    case value_type::f32:
      return sized(0.0f);
    default:
      return sized(0.0);
  }
}

}  // namespace

std::vector<double> folds(value_type type, unsigned size, const std::vector<double>& in, unsigned threads,
                          unsigned blocks) {
  return with_kernel(type, size, [&]<class T>(void (*kernel)(const double*, double*, T)) {
    return run(kernel, in, kFolds, threads, blocks, T{});
  });
}
engine_choice folds_engine(value_type type, unsigned size) {
  return with_kernel(type, size, [](auto kernel) { return cohort::host::engine_for(kernel); });
}

namespace {
template <class F>
auto with_votes_kernel(unsigned size, F f) {
  switch (size) {
    case 1:
      return f(votes_kernel<1>);
    case 2:
      return f(votes_kernel<2>);
    case 4:
      return f(votes_kernel<4>);
    case 8:
      return f(votes_kernel<8>);
    case 16:
      return f(votes_kernel<16>);
    case 32:
      return f(votes_kernel<32>);
    default:
      return f(votes_kernel<64>);
  }
}
}  // namespace

std::vector<int> votes(unsigned size, const std::vector<int>& in, unsigned threads, unsigned blocks) {
  return with_votes_kernel(size, [&](auto kernel) { return run(kernel, in, kVotes, threads, blocks); });
}
engine_choice votes_engine(unsigned size) {
  return with_votes_kernel(size, [](auto kernel) { return cohort::host::engine_for(kernel); });
}

std::vector<int> three_bytes(const std::vector<int>& in, unsigned threads, unsigned blocks) {
  return run(three_bytes_kernel, in, 6, threads, blocks);
}

std::vector<int> first_warps(const std::vector<int>& in, unsigned threads, unsigned blocks) {
  return run(first_warps_kernel, in, 2, threads, blocks);
}
engine_choice first_warps_engine() { return cohort::host::engine_for(first_warps_kernel); }

}  // namespace fold_tests
