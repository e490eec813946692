// cuRAND's device API in kernels, as Monte Carlo codes use it: each thread
// seeds curandState (XORWOW) or curandStatePhilox4_32_10_t with curand_init
// and draws integers, uniform, normal and log-normal numbers. The expected
// values are those of NVIDIA's cuRAND (CUDA 13's headers): integers and
// uniform numbers compared bit for bit, normal ones to within what a GPU's
// fast sine and cosine differ from the host's.
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

struct Config {
  unsigned long long seed, subsequence, offset;
};
// Seeds, subsequences and offsets: zero, small, past 32 bits, all ones.
const Config configs[] = {{0, 0, 0}, {1234, 0, 0}, {1234, 1, 0}, {1234, 7, 3}, {42, 1000003, 1},
                          {0xdeadbeefcafef00dull, (1ull << 40) + 7, 1000}, {99, 3, (1ull << 33) + 5}, {7, ~0ull, ~0ull}};
const int kConfigs = sizeof(configs) / sizeof(configs[0]);

struct Draws {
  unsigned int integers[6];
  unsigned int uniform;             // bits of curand_uniform
  unsigned long long uniform_double;  // bits of curand_uniform_double
  float normal[2];
  double normal_double;
  float log_normal;  // mean 0.5, standard deviation 2
};

const Draws expected_xorwow[kConfigs] = {
  {{3179217846u, 1883133293u, 2220552389u, 674260989u, 306521119u, 1986458431u}, 0x3e691b51u, 0x3fc270ba33c359b6ull, -0.927174926f, 1.57642365f, -0.18590160600548308, 30.1815014f},
  {{624778773u, 1867875844u, 3739671282u, 1954919316u, 3681184389u, 2501467243u}, 0x3e4e3cd1u, 0x3fd33fd827904a8bull, -0.657692313f, -1.25434792f, -1.138048303222539, 8.32074833f},
  {{3522650202u, 3978931785u, 2198015705u, 2308946676u, 3475686971u, 75263415u}, 0x3ee60f93u, 0x3fc172878f88a6e2ull, 0.846454799f, 1.11008441f, -0.74021632626267053, 2.66352463f},
  {{324612358u, 2988894868u, 2223688508u, 906701663u, 1924992985u, 1459886507u}, 0x3f47e2f9u, 0x3fbd498d58371c44ull, 0.522044659f, -0.0820542127f, 0.37690887811268209, 1.25380635f},
  {{1589678474u, 3017103868u, 2363505670u, 3532143292u, 3716365312u, 541576960u}, 0x3f1747f1u, 0x3fdeb425e9eb45f1ull, 2.40387821f, 0.304627299f, 1.1670288417411303, 73.5421829f},
  {{3118764724u, 1849645047u, 1445094667u, 971246609u, 3525128326u, 3721420294u}, 0x3eecc135u, 0x3fe01279b6257f08ull, -0.65732801f, 0.464097857f, -2.4324787338317191, 2.11711812f},
  {{2387911963u, 2133475288u, 2783840244u, 2366038301u, 3324897442u, 498868408u}, 0x3e913bbau, 0x3fe564ff2793d98eull, -0.740327358f, 0.38758105f, 1.1935368407695126, 5.4163084f},
  {{2016331568u, 128721845u, 2769888329u, 2819252656u, 1696046785u, 1187801908u}, 0x3f347cd7u, 0x3fec81376ee577deull, 0.687503338f, 0.55749321f, -0.98896463548453117, 0.918556809f},
};
const Draws expected_philox[kConfigs] = {
  {{1713891541u, 3781805453u, 3159862348u, 2600524760u, 4175744164u, 1555169499u}, 0x3f31a575u, 0x3fa2fdfed0000000ull, 2.54409719f, -1.18635809f, 0.82078075640742854, 4.01811361f},
  {{546353992u, 3665621163u, 1140953199u, 3419031310u, 2666454581u, 482218876u}, 0x3f7a2771u, 0x3fb47edd51000000ull, -0.162294447f, 1.65918005f, 0.8588441142258092, 0.41393885f},
  {{3507855656u, 1392278645u, 3354607383u, 253049307u, 118660703u, 1698527859u}, 0x3dec198eu, 0x3fe0dfe0d6000000ull, 1.80789053f, -0.502855241f, -0.63462219886352578, 3.32308602f},
  {{502001991u, 843890362u, 2897886456u, 3571722420u, 296027329u, 3990533219u}, 0x3e299acau, 0x3fead4e938e00000ull, -0.899626374f, 1.11102235f, -0.077337030880214569, 0.374562711f},
  {{2464778196u, 2922389497u, 3195838041u, 2237986172u, 3547826783u, 3838290522u}, 0x3f4176e4u, 0x3fcffa6403000000ull, -0.0621858947f, -0.0637015924f, 0.50048149852391777, 1.03145921f},
  {{541581715u, 470377801u, 854777153u, 403941179u, 391222447u, 3680867925u}, 0x3e308a44u, 0x3f8ded4ed0000000ull, -1.48148596f, -0.438545376f, 1.1889392997196453, 0.414232254f},
  {{3541766134u, 205264093u, 758622795u, 1340276677u, 3715482360u, 4294606669u}, 0x3ed1a888u, 0x3fea91d10a000000ull, -0.198087826f, 0.502334833f, 0.74364179235578232, 0.187215686f},
  {{4087395438u, 2878132315u, 3201773348u, 4118877970u, 4284166816u, 2911687502u}, 0x3ecb4a46u, 0x3fce61b810000000ull, 0.785181046f, 0.620697498f, 2.3534066952331627, 121.246346f},
};

struct FourWide {
  unsigned int integers[4];      // curand4
  unsigned int uniform[4];       // bits of curand_uniform4
  unsigned long long uniform_double[2];  // bits of curand_uniform2_double
  float normal[4];               // curand_normal4
};
// Philox4_32_10 seeded (1234, 5, k): curand4 and its kin from the k-th number of a group of four on.
const FourWide expected_four_wide[4] = {
  {{4181881884u, 3080788858u, 2334630092u, 3180702920u}, {0x3eb8b9eeu, 0x3e7f0339u, 0x3e49dce5u, 0x3ee584c6u}, {0x3feb11d94709bd1cull, 0x3fea3d0ac8cf2112ull}, {0.733725607f, 0.142447397f, 0.909671724f, -1.19723487f}},
  {{3080788858u, 2334630092u, 3180702920u, 1549596404u}, {0x3e7f0339u, 0x3e49dce5u, 0x3ee584c6u, 0x3e1aa6f4u}, {0x3fa11e4faaecb0d8ull, 0x3fe8339325a85602ull}, {1.56206298f, -0.770025492f, -0.0460085049f, 1.35926187f}},
  {{2334630092u, 3180702920u, 1549596404u, 1069600344u}, {0x3e49dce5u, 0x3ee584c6u, 0x3e1aa6f4u, 0x3f588ecbu}, {0x3fea3d0ac8cf2112ull, 0x3fcc17f026727e8aull}, {0.909671724f, -1.19723487f, -0.0699389204f, -0.0768617764f}},
  {{3180702920u, 1549596404u, 1069600344u, 846674261u}, {0x3ee584c6u, 0x3e1aa6f4u, 0x3f588ecbu, 0x3d08f211u}, {0x3fe8339325a85602ull, 0x3fd4aa43915fcc81ull}, {-0.0460085049f, 1.35926187f, 0.747718215f, 0.636450887f}},
};

template <class State>
__global__ void draw(const Config* configs, Draws* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  State s;
  curand_init(configs[i].seed, configs[i].subsequence, configs[i].offset, &s);
  Draws d;
  for (int k = 0; k < 6; ++k) d.integers[k] = curand(&s);
  const float u = curand_uniform(&s);
  const double ud = curand_uniform_double(&s);
  memcpy(&d.uniform, &u, sizeof u);
  memcpy(&d.uniform_double, &ud, sizeof ud);
  d.normal[0] = curand_normal(&s);
  d.normal[1] = curand_normal(&s);  // the second of the pair the first call drew
  d.normal_double = curand_normal_double(&s);
  d.log_normal = curand_log_normal(&s, 0.5f, 2.0f);
  out[i] = d;
}

__global__ void four_wide(FourWide* out) {
  const int k = threadIdx.x;
  curandStatePhilox4_32_10_t s;
  curand_init(1234, 5, k, &s);
  FourWide f;
  const uint4 a = curand4(&s);
  const float4 u = curand_uniform4(&s);
  const double2 ud = curand_uniform2_double(&s);
  const float4 n = curand_normal4(&s);
  f.integers[0] = a.x, f.integers[1] = a.y, f.integers[2] = a.z, f.integers[3] = a.w;
  memcpy(f.uniform, &u, sizeof u);
  memcpy(f.uniform_double, &ud, sizeof ud);
  f.normal[0] = n.x, f.normal[1] = n.y, f.normal[2] = n.z, f.normal[3] = n.w;
  out[k] = f;
}

// The usual Monte Carlo set-up: one state per thread, kept in device memory
// between launches, seeded with the thread's index as its subsequence.
__global__ void setup_states(curandState* states, unsigned long long seed) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void estimate_pi(curandState* states, unsigned long long* hits, unsigned int* first, int draws) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  first[id] = curand(&local);
  unsigned long long inside = 0;
  for (int k = 0; k < draws; ++k) {
    const float x = curand_uniform(&local), y = curand_uniform(&local);
    inside += x * x + y * y <= 1.0f;
  }
  states[id] = local;
  atomicAdd(hits, inside);
}

__global__ void skip_ahead(unsigned int* out) {
  curandState s;
  curand_init(5, 9, 0, &s);
  skipahead(123456789ull, &s);
  skipahead_sequence(2, &s);
  out[0] = curand(&s);
  // Seeding at an offset equals seeding at 0 and skipping the same count.
  curandState a, b;
  curand_init(77, 0, 0, &a);
  skipahead_sequence(3, &a);
  skipahead(1ull << 40, &a);
  curand_init(77, 3, 1ull << 40, &b);
  out[1] = curand(&a) == curand(&b);
}

int failures = 0;

void expect(bool ok, const char* what, int row, int k) {
  if (!ok && ++failures <= 20) std::printf("mismatch: %s, row %d, item %d\n", what, row, k);
}

// A GPU's __sincosf and logf against the host's: a few units in the last place, times up to ~6.
bool near(double got, double want, double tolerance) {
  return std::fabs(got - want) <= tolerance * (1.0 + std::fabs(want));
}

void compare(const Draws* got, const Draws* want, const char* generator) {
  for (int i = 0; i < kConfigs; ++i) {
    for (int k = 0; k < 6; ++k) expect(got[i].integers[k] == want[i].integers[k], generator, i, k);
    expect(got[i].uniform == want[i].uniform, "curand_uniform", i, 0);
    expect(got[i].uniform_double == want[i].uniform_double, "curand_uniform_double", i, 0);
    expect(near(got[i].normal[0], want[i].normal[0], 1e-5), "curand_normal", i, 0);
    expect(near(got[i].normal[1], want[i].normal[1], 1e-5), "curand_normal (kept)", i, 1);
    expect(near(got[i].normal_double, want[i].normal_double, 1e-12), "curand_normal_double", i, 0);
    expect(near(got[i].log_normal, want[i].log_normal, 1e-4), "curand_log_normal", i, 0);
  }
}

int main() {
  Config* d_configs;
  Draws* d_draws;
  Draws draws[kConfigs];
  CHECK(cudaMalloc(&d_configs, sizeof configs));
  CHECK(cudaMalloc(&d_draws, sizeof draws));
  CHECK(cudaMemcpy(d_configs, configs, sizeof configs, cudaMemcpyHostToDevice));
  draw<curandState><<<1, kConfigs>>>(d_configs, d_draws, kConfigs);
  CHECK(cudaMemcpy(draws, d_draws, sizeof draws, cudaMemcpyDeviceToHost));
  compare(draws, expected_xorwow, "curand (XORWOW)");
  draw<curandStatePhilox4_32_10_t><<<1, kConfigs>>>(d_configs, d_draws, kConfigs);
  CHECK(cudaMemcpy(draws, d_draws, sizeof draws, cudaMemcpyDeviceToHost));
  compare(draws, expected_philox, "curand (Philox4_32_10)");

  FourWide* d_four;
  FourWide four[4];
  CHECK(cudaMalloc(&d_four, sizeof four));
  four_wide<<<1, 4>>>(d_four);
  CHECK(cudaMemcpy(four, d_four, sizeof four, cudaMemcpyDeviceToHost));
  for (int k = 0; k < 4; ++k) {
    const FourWide& g = four[k];
    const FourWide& w = expected_four_wide[k];
    for (int j = 0; j < 4; ++j) {
      expect(g.integers[j] == w.integers[j], "curand4", k, j);
      expect(g.uniform[j] == w.uniform[j], "curand_uniform4", k, j);
      expect(near(g.normal[j], w.normal[j], 1e-5), "curand_normal4", k, j);
    }
    for (int j = 0; j < 2; ++j) expect(g.uniform_double[j] == w.uniform_double[j], "curand_uniform2_double", k, j);
  }

  unsigned int* d_skip;
  unsigned int skip[2];
  CHECK(cudaMalloc(&d_skip, sizeof skip));
  skip_ahead<<<1, 1>>>(d_skip);
  CHECK(cudaMemcpy(skip, d_skip, sizeof skip, cudaMemcpyDeviceToHost));
  expect(skip[0] == 3866387239u, "skipahead then skipahead_sequence", 0, 0);
  expect(skip[1] == 1, "curand_init at an offset against skipahead", 0, 1);

  const int blocks = 64, threads = 128, n = blocks * threads, per_thread = 256;
  curandState* d_states;
  unsigned long long* d_hits;
  unsigned int* d_first;
  CHECK(cudaMalloc(&d_states, n * sizeof(curandState)));
  CHECK(cudaMalloc(&d_hits, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&d_first, n * sizeof(unsigned int)));
  CHECK(cudaMemset(d_hits, 0, sizeof(unsigned long long)));
  setup_states<<<blocks, threads>>>(d_states, 1234);
  estimate_pi<<<blocks, threads>>>(d_states, d_hits, d_first, per_thread);
  CHECK(cudaGetLastError());
  unsigned long long hits;
  unsigned int* first = (unsigned int*)std::malloc(n * sizeof(unsigned int));
  CHECK(cudaMemcpy(&hits, d_hits, sizeof hits, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(first, d_first, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  // Threads 0 and 1 seeded (1234, 0, 0) and (1234, 1, 0): the table's rows 1 and 2.
  expect(first[0] == expected_xorwow[1].integers[0], "thread 0's first number", 0, 0);
  expect(first[1] == expected_xorwow[2].integers[0], "thread 1's first number", 1, 0);
  const double pi = 4.0 * (double)hits / ((double)n * per_thread);
  std::printf("pi ~ %.5f from %d draws\n", pi, n * per_thread);
  expect(std::fabs(pi - 3.14159265) < 0.01, "the estimate of pi", 0, 0);

  CHECK(cudaFree(d_configs));
  CHECK(cudaFree(d_draws));
  CHECK(cudaFree(d_four));
  CHECK(cudaFree(d_skip));
  CHECK(cudaFree(d_states));
  CHECK(cudaFree(d_hits));
  CHECK(cudaFree(d_first));
  std::free(first);
  if (failures) {
    std::printf("%d mismatches\n", failures);
    return 1;
  }
  std::printf("cuRAND device API: all draws as expected\n");
  return 0;
}
