// Thrust beside hand-written kernels, as CUDA programs mix them: vectors
// filled by kernels through raw pointers, raw cudaMalloc memory sorted through
// device_ptr, results copied back with cudaMemcpy, and the usual algorithms
// (sort, sort_by_key, reduce_by_key, scans, copy_if, transform_reduce over
// zip iterators), each checked against the same computation with <algorithm>
// on seeded random input.
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_free.h>
#include <thrust/device_malloc.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/universal_vector.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#define CHECK(call)                                                                                 \
  do {                                                                                              \
    cudaError_t e_ = (call);                                                                        \
    if (e_ != cudaSuccess) {                                                                        \
      std::printf("FAIL: %s at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                                 \
    }                                                                                               \
  } while (0)

static int failures = 0;
static void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

__global__ void scale_and_offset(float* x, int n, float a, float b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = a * x[i] + b;
}

__global__ void bucket_of(const int* values, int* buckets, int n, int width) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    buckets[i] = values[i] / width;
}

struct squared {
  __host__ __device__ float operator()(float x) const { return x * x; }
};
struct is_odd {
  __host__ __device__ bool operator()(int x) const { return x & 1; }
};
struct product_of_pair {
  template <class Tuple>
  __host__ __device__ float operator()(const Tuple& t) const {
    return thrust::get<0>(t) * thrust::get<1>(t);
  }
};

int main() {
  std::mt19937 rng(20261129);
  const int n = 10007;  // not a multiple of the block

  // A vector filled on the host, changed by a kernel, read back with cudaMemcpy.
  std::vector<float> host(n);
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  for (float& v : host) v = real(rng);
  thrust::host_vector<float> staged(host.begin(), host.end());
  thrust::device_vector<float> x = staged;
  // A power-of-two scale: the product is exact, so the GPU's fused multiply-add
  // (nvcc contracts a * x + b by default) and the host's separate multiply and
  // add round alike (with 3.0f, 729 of these 10007 inputs round differently,
  // and the check failed on an H200).
  scale_and_offset<<<(n + 127) / 128, 128>>>(thrust::raw_pointer_cast(x.data()), n, 2.0f, 0.5f);
  CHECK(cudaGetLastError());
  std::vector<float> back(n, -99.0f);
  CHECK(cudaMemcpy(back.data(), thrust::raw_pointer_cast(x.data()), n * sizeof(float), cudaMemcpyDeviceToHost));
  bool same = true;
  for (int i = 0; i < n; ++i) same &= back[i] == 2.0f * host[i] + 0.5f;
  expect(same, "kernel on a device_vector's memory, copied back with cudaMemcpy");

  // Sort and reduce on the vector the kernel wrote.
  thrust::sort(x.begin(), x.end());
  std::vector<float> sorted = back;
  std::sort(sorted.begin(), sorted.end());
  thrust::host_vector<float> x_host = x;
  expect(std::equal(sorted.begin(), sorted.end(), x_host.begin()), "thrust::sort");
  const float sum_sq = thrust::transform_reduce(x.begin(), x.end(), squared(), 0.0f, thrust::plus<float>());
  double ref_sq = 0;
  for (float v : sorted) ref_sq += double(v) * v;
  expect(std::abs(sum_sq - ref_sq) < 1e-3 * ref_sq, "thrust::transform_reduce");

  // Raw cudaMalloc memory, written by a kernel, sorted through device_ptr and the thrust::device policy.
  std::uniform_int_distribution<int> ints(0, 99999);
  std::vector<int> values(n);
  for (int& v : values) v = ints(rng);
  int *d_values, *d_buckets;
  CHECK(cudaMalloc(&d_values, n * sizeof(int)));
  CHECK(cudaMalloc(&d_buckets, n * sizeof(int)));
  CHECK(cudaMemcpy(d_values, values.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  bucket_of<<<8, 96>>>(d_values, d_buckets, n, 1000);
  CHECK(cudaDeviceSynchronize());
  thrust::device_ptr<int> keys(d_buckets), vals(d_values);
  thrust::sort_by_key(thrust::device, keys, keys + n, vals);
  // Per bucket: how many values, and their sum.
  thrust::device_vector<int> bucket_ids(100), counts(100), sums(100);
  auto ends = thrust::reduce_by_key(keys, keys + n, thrust::make_constant_iterator(1), bucket_ids.begin(),
                                    counts.begin());
  thrust::reduce_by_key(keys, keys + n, vals, thrust::make_discard_iterator(), sums.begin());
  const int buckets = static_cast<int>(ends.first - bucket_ids.begin());
  std::vector<int> ref_counts(100, 0), ref_sums(100, 0);
  for (int v : values) ++ref_counts[v / 1000], ref_sums[v / 1000] += v;
  thrust::host_vector<int> got_counts = counts, got_sums = sums, got_ids = bucket_ids;
  bool buckets_ok = buckets == 100;
  for (int b = 0; b < buckets && buckets_ok; ++b)
    buckets_ok = got_ids[b] == b && got_counts[b] == ref_counts[b] && got_sums[b] == ref_sums[b];
  expect(buckets_ok, "sort_by_key and reduce_by_key on cudaMalloc memory through device_ptr");

  // The sorted values back through cudaMemcpy: sorted by bucket, each bucket's values a permutation.
  std::vector<int> values_back(n);
  CHECK(cudaMemcpy(values_back.data(), d_values, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool grouped = true;
  for (int i = 1; i < n; ++i) grouped &= values_back[i - 1] / 1000 <= values_back[i] / 1000;
  std::vector<int> a = values, b = values_back;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  expect(grouped && a == b, "values carried by sort_by_key");

  // Scans and stream compaction, into device_malloc memory read back with cudaMemcpy.
  thrust::device_vector<int> seq(n);
  thrust::sequence(seq.begin(), seq.end(), 1);
  thrust::device_ptr<int> scanned = thrust::device_malloc<int>(n);
  thrust::inclusive_scan(seq.begin(), seq.end(), scanned);
  int last = 0;
  CHECK(cudaMemcpy(&last, thrust::raw_pointer_cast(scanned + (n - 1)), sizeof last, cudaMemcpyDeviceToHost));
  expect(last == n * (n + 1) / 2, "inclusive_scan into device_malloc memory");
  thrust::exclusive_scan(thrust::device, d_values, d_values + n, d_buckets);
  std::vector<int> ex(n), ref_ex(n);
  CHECK(cudaMemcpy(ex.data(), d_buckets, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::exclusive_scan(values_back.begin(), values_back.end(), ref_ex.begin(), 0);
  expect(ex == ref_ex, "exclusive_scan on raw pointers");
  const int odd = static_cast<int>(thrust::count_if(thrust::device, d_values, d_values + n, is_odd()));
  thrust::device_vector<int> odds(odd);
  thrust::copy_if(thrust::device_pointer_cast(d_values), thrust::device_pointer_cast(d_values + n), odds.begin(),
                  is_odd());
  std::vector<int> ref_odds;
  std::copy_if(values_back.begin(), values_back.end(), std::back_inserter(ref_odds), [](int v) { return v & 1; });
  thrust::host_vector<int> got_odds = odds;
  expect(ref_odds.size() == got_odds.size() && std::equal(ref_odds.begin(), ref_odds.end(), got_odds.begin()),
         "count_if and copy_if");
  thrust::device_free(scanned);

  // A dot product over a zip of two vectors, one of them universal memory a kernel wrote.
  thrust::universal_vector<float> u(n, 1.0f);
  scale_and_offset<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(u.data()), n, 2.0f, 0.0f);
  CHECK(cudaDeviceSynchronize());
  thrust::device_vector<float> w(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(n));
  const float dot = thrust::transform_reduce(thrust::make_zip_iterator(thrust::make_tuple(u.begin(), w.begin())),
                                             thrust::make_zip_iterator(thrust::make_tuple(u.end(), w.end())),
                                             product_of_pair(), 0.0f, thrust::plus<float>());
  const double ref_dot = 2.0 * (double(n) - 1) * n / 2;
  expect(std::abs(dot - ref_dot) < 1e-4 * ref_dot, "transform_reduce over a zip with universal_vector");

  CHECK(cudaFree(d_values));
  CHECK(cudaFree(d_buckets));
  if (failures) return 1;
  std::printf("PASS: thrust_interop\n");
  return 0;
}
