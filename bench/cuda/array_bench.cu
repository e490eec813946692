// Whole-array reduce and scan on the GPU: cohort's device_reduce and
// device_inclusive_scan (one launch each), cohort's grid_reduce and
// grid_inclusive_scan called from a user's cooperative kernel, CUB's
// DeviceReduce::Sum and DeviceScan::InclusiveSum, and seed 000's cooperative
// reduction written with NVIDIA's cooperative groups, against two copies of
// the same bytes (cudaMemcpy device to device, and a 16-byte vectorized copy
// kernel). All in one process: each repetition runs every variant once in
// turn, each timed with CUDA events around its call(s); medians. Every
// variant's output is checked against the CPU after its last timed run.
//
// Usage: cohort_bench_cuda_array [repetitions [reduce|scan|all [largest size as a power of 2]]]
#include <algorithm>
#include <cmath>
#include <cohort/cohort.hpp>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "nvidia_rivals.cuh"
#include "rival_timing.hpp"

namespace cg = cohort;
using rival_timing::check;

namespace {

constexpr unsigned block_threads = 256;

// The copy a kernel can stream: 16 bytes per thread per step, grid-stride.
__global__ void vector_copy_kernel(uint4* __restrict__ out, const uint4* __restrict__ in, std::size_t vectors) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors; i += stride)
    out[i] = in[i];
}

template <class... P>
unsigned resident(void (*kernel)(P...)) {
  int per_sm = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_threads, 0), "occupancy");
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count");
  return static_cast<unsigned>(per_sm * sms);
}

// Seed 000's reduction in one call inside the user's cooperative kernel.
__global__ void cohort_grid_reduce_kernel(const float* in, std::size_t n, float* out) {
  cg::grid_reduce(cg::this_grid(), in, n, out, cg::plus<float>());
}

__global__ void cohort_grid_scan_kernel(const int* in, int* out, std::size_t n) {
  cg::grid_inclusive_scan(cg::this_grid(), in, out, n, cg::plus<int>());
}

template <class... P>
void cooperative(void (*kernel)(P...), unsigned blocks, std::type_identity_t<P>... args) {
  void* addresses[] = {static_cast<void*>(&args)...};
  check(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), blocks, block_threads, addresses),
        "cooperative launch");
}

struct variant {
  std::string name;
  std::string launch;
  std::function<void()> run;
  std::function<std::string()> verify;  // "" when right
  double bytes;                         // what the operation must move
  std::vector<double> ms{};
  std::string verdict{};
};

struct size_result {
  std::size_t n;
  std::vector<variant> variants;
};

void time_all(std::vector<variant>& variants, int repetitions) {
  rival_timing::timer t;
  for (int i = 0; i < 3; ++i)
    for (variant& v : variants) t.milliseconds(v.run);
  for (int i = 0; i < repetitions; ++i)
    for (variant& v : variants) v.ms.push_back(t.milliseconds(v.run));
  check(cudaDeviceSynchronize(), "timed runs");
  for (variant& v : variants) v.verdict = v.verify();
}

void print_table(const char* what, const std::vector<size_result>& sizes) {
  std::printf(
      "\n%s (median us; GB/s counts the bytes the operation must move; %% peak: of the faster copy; "
      "x CUB: CUB's time over this one's)\n",
      what);
  std::printf("%-12s %-24s %-14s %10s %9s %7s %7s  %s\n", "n", "variant", "launch", "us", "GB/s", "% peak", "x CUB",
              "check");
  for (const size_result& s : sizes) {
    double best_copy = 0, cub_ms = 0;
    for (const variant& v : s.variants) {
      const double gbps = v.bytes / (rival_timing::median(v.ms) * 1e6);
      if (v.name.rfind("copy", 0) == 0) best_copy = std::max(best_copy, gbps);
      if (v.name.rfind("cub", 0) == 0) cub_ms = rival_timing::median(v.ms);
    }
    for (const variant& v : s.variants) {
      const double ms = rival_timing::median(v.ms);
      const double gbps = v.bytes / (ms * 1e6);
      const std::string& verdict = v.verdict;
      std::printf("%-12zu %-24s %-14s %10.2f %9.1f %6.0f%% %7.2f  %s\n", s.n, v.name.c_str(), v.launch.c_str(),
                  ms * 1e3, gbps, 100 * gbps / best_copy, cub_ms / ms, verdict.empty() ? "ok" : verdict.c_str());
    }
  }
}

std::string launch_text(unsigned blocks) { return std::to_string(blocks) + "x" + std::to_string(block_threads); }

template <class T>
T* device_copy_of(const std::vector<T>& host) {
  T* d = nullptr;
  check(cudaMalloc(&d, host.size() * sizeof(T) + 16), "malloc");
  check(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
  return d;
}

template <class T>
T* device_array(std::size_t n) {
  T* d = nullptr;
  check(cudaMalloc(&d, n * sizeof(T) + 16), "malloc");
  return d;
}

template <class T>
std::vector<T> to_host(const T* d, std::size_t n) {
  std::vector<T> h(n);
  check(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
  return h;
}

// The two copies of n elements of T from in to out.
template <class T>
void add_copies(std::vector<variant>& v, const T* in, T* out, std::size_t n) {
  const double bytes = 2.0 * n * sizeof(T);
  v.push_back({"copy cudaMemcpy", "d2d",
               [=] { check(cudaMemcpy(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice), "memcpy"); },
               [] { return std::string(); }, bytes});
  const unsigned blocks = resident(vector_copy_kernel);
  const std::size_t vectors = n * sizeof(T) / 16;  // sizes here are multiples of 16 bytes
  v.push_back({"copy 16-byte kernel", launch_text(blocks),
               [=] {
                 vector_copy_kernel<<<blocks, block_threads>>>(reinterpret_cast<uint4*>(out),
                                                               reinterpret_cast<const uint4*>(in), vectors);
               },
               [] { return std::string(); }, bytes});
}

size_result reduce_at(std::size_t n, std::mt19937& rng) {
  std::vector<float> host(n);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  double reference = 0;
  for (float& x : host) reference += x = dist(rng);
  float* in = device_copy_of(host);
  float* copy_out = device_array<float>(n);
  float* out = device_array<float>(64);
  float* block_sums = device_array<float>(1 << 16);
  const auto judge = [=](int slot) {
    return [=] {
      const float got = to_host(out + slot, 1)[0];
      const double tolerance = 1e-5 * std::sqrt(static_cast<double>(n)) + 1e-3;
      return std::fabs(got - reference) <= tolerance
                 ? std::string()
                 : "sum " + std::to_string(got) + ", expected " + std::to_string(reference);
    };
  };
  size_result r{n, {}};
  add_copies(r.variants, in, copy_out, n);
  const double bytes = 4.0 * n;
  const nvidia_rivals::cub_call<float, nvidia_rivals::cub_sum> cub_sum(n, {});
  check(cub_sum.prepared(), "cub scratch");
  r.variants.push_back(
      {"cub DeviceReduce::Sum", "2 kernels", [=] { check(cub_sum(in, out + 0), "cub"); }, judge(0), bytes});
  r.variants.push_back({"cohort device_reduce", "1 kernel",
                        [=] { cg::device_reduce(in, n, out + 1, cg::plus<float>()); }, judge(1), bytes});
  const unsigned grid_blocks = resident(cohort_grid_reduce_kernel);
  r.variants.push_back({"cohort grid_reduce", launch_text(grid_blocks) + " coop",
                        [=] { cooperative(cohort_grid_reduce_kernel, grid_blocks, in, n, out + 2); }, judge(2), bytes});
  const auto nvidia_cg_sum = nvidia_rivals::cg_sum_kernel<float>;
  const unsigned nv_blocks = resident(nvidia_cg_sum);
  r.variants.push_back({"nvidia-cg grid.sync", launch_text(nv_blocks) + " coop",
                        [=] { cooperative(nvidia_cg_sum, nv_blocks, out + 3, block_sums, in, n); }, judge(3), bytes});
  return r;
}

size_result scan_at(std::size_t n, std::mt19937& rng) {
  std::vector<int> host(n);
  auto expected = std::make_shared<std::vector<int>>(n);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  long long running = 0;
  for (std::size_t i = 0; i < n; ++i) (*expected)[i] = static_cast<int>(running += host[i] = dist(rng));
  int* in = device_copy_of(host);
  int* copy_out = device_array<int>(n);
  const auto judge = [=](int* out) {
    return [=] {
      const std::vector<int> got = to_host(out, n);
      for (std::size_t i = 0; i < n; ++i)
        if (got[i] != (*expected)[i])
          return "out[" + std::to_string(i) + "] = " + std::to_string(got[i]) + ", expected " +
                 std::to_string((*expected)[i]);
      return std::string();
    };
  };
  size_result r{n, {}};
  add_copies(r.variants, in, copy_out, n);
  const double bytes = 8.0 * n;
  int* cub_out = device_array<int>(n);
  const nvidia_rivals::cub_call<int, nvidia_rivals::cub_inclusive_sum> cub_scan(n, {});
  check(cub_scan.prepared(), "cub scratch");
  r.variants.push_back(
      {"cub DeviceScan::InclSum", "2 kernels", [=] { check(cub_scan(in, cub_out), "cub"); }, judge(cub_out), bytes});
  int* look_back_out = device_array<int>(n);
  r.variants.push_back({"cohort device_incl_scan", "1 kernel",
                        [=] { cg::device_inclusive_scan(in, look_back_out, n, cg::plus<int>()); }, judge(look_back_out),
                        bytes});
  int* grid_out = device_array<int>(n);
  const unsigned grid_blocks = resident(cohort_grid_scan_kernel);
  r.variants.push_back({"cohort grid_incl_scan", launch_text(grid_blocks) + " coop",
                        [=] { cooperative(cohort_grid_scan_kernel, grid_blocks, in, grid_out, n); }, judge(grid_out),
                        bytes});
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
  const std::string which = argc > 2 ? argv[2] : "all";
  const std::size_t largest = std::size_t{1} << (argc > 3 ? std::atoi(argv[3]) : 28);
  rival_timing::print_device(cg::get_device_properties());
  std::mt19937 rng(20261124);
  std::vector<size_result> reduces, scans;
  for (const std::size_t n : {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 28}) {
    if (which == "scan" || n > largest) continue;
    reduces.push_back(reduce_at(n, rng));
    time_all(reduces.back().variants, repetitions);
  }
  for (const std::size_t n : {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 26}) {
    if (which == "reduce" || n > largest) continue;
    scans.push_back(scan_at(n, rng));
    time_all(scans.back().variants, repetitions);
  }
  if (!reduces.empty()) print_table("reduce float32, sum", reduces);
  if (!scans.empty()) print_table("inclusive scan int32, sum", scans);
  return 0;
}
