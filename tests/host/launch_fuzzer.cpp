// A seeded fuzzer of launch configurations and per-thread sync programs:
// random grid and block shapes (odd ones included), cooperative or not,
// ordered or shuffled schedules, and a random program of barriers, shared
// memory exchanges, atomics, grid barriers, tile reductions and early exits,
// interpreted by every thread. Each launch is checked against a host model of
// the same program, or, where a misuse was planted, must fail with that
// misuse's error. COHORT_FUZZ_SEED picks another seed; COHORT_FUZZ_LAUNCHES
// another count.
#include <gmock/gmock.h>

#include <cohort/cohort.hpp>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;

namespace {

enum step_kind : int { exchange, count, leave, grid_exchange, tile_reduce };
enum planted : int { none, divergent_barrier, grid_sync_uncooperative, arrive_twice };

template <unsigned Size>
__device__ unsigned tile_sum(unsigned v) {
  return cg::reduce(cg::tiled_partition<Size>(cg::this_thread_block()), v, cg::plus<unsigned>());
}

__device__ unsigned tile_sum(unsigned size, unsigned v) {
  switch (size) {
    case 1:
      return tile_sum<1>(v);
    case 2:
      return tile_sum<2>(v);
    case 4:
      return tile_sum<4>(v);
    case 8:
      return tile_sum<8>(v);
    case 16:
      return tile_sum<16>(v);
    default:
      return tile_sum<32>(v);
  }
}

__global__ void interpret(const int* program, int steps, unsigned seed, unsigned* out, unsigned* slots,
                          unsigned* counters, int misuse) {
  auto block = cg::this_thread_block();
  auto grid = cg::this_grid();
  unsigned* shared = cg::dynamic_shared<unsigned>();
  const unsigned n = block.size();
  const unsigned t = block.thread_rank();
  const unsigned long long gid = static_cast<unsigned long long>(blockIdx.x + blockIdx.y * gridDim.x) * n + t;
  const unsigned long long total = static_cast<unsigned long long>(gridDim.x) * gridDim.y * n;
  unsigned v = cohort_test::mix(seed ^ static_cast<unsigned>(gid));
  shared[t] = 0;
  __syncthreads();
  if (misuse == divergent_barrier) {
    if (t % 2)
      __syncthreads();
    else
      __syncthreads();
  } else if (misuse == grid_sync_uncooperative) {
    grid.sync();
  } else if (misuse == arrive_twice) {
    auto first = block.barrier_arrive();
    auto second = block.barrier_arrive();
    block.barrier_wait(std::move(second));
    block.barrier_wait(std::move(first));
  }
  for (int i = 0; i < steps; ++i) {
    const int k = program[2 * i + 1];
    switch (program[2 * i]) {
      case exchange:
        shared[t] = v;
        __syncthreads();
        v = cohort_test::mix(v + shared[(t + static_cast<unsigned>(k)) % n]);
        __syncthreads();
        break;
      case count: {
        unsigned* c = &counters[(blockIdx.x + blockIdx.y * gridDim.x) * steps + i];
        atomicAdd(c, v & 0xffu);
        __syncthreads();
        v = cohort_test::mix(v ^ *c);
        break;
      }
      case leave:
        if (t != 0 && t % static_cast<unsigned>(k) == static_cast<unsigned>(k) - 1) {
          out[gid] = v;
          return;
        }
        break;
      case grid_exchange:
        slots[gid] = v;
        grid.sync();
        v = cohort_test::mix(v + slots[(gid + static_cast<unsigned>(k)) % total]);
        grid.sync();
        break;
      case tile_reduce:
        v += tile_sum(static_cast<unsigned>(k), v);
        break;
    }
  }
  out[gid] = v;
}

struct fuzz_case {
  dim3 grid, block;
  bool cooperative;
  std::vector<int> program;  // (kind, k) pairs
  unsigned seed;
  int misuse;
  std::string schedule;
};

// The program's result for every thread, computed on the host.
std::vector<unsigned> model(const fuzz_case& c) {
  const unsigned n = c.block.x * c.block.y * c.block.z;
  const unsigned blocks = c.grid.x * c.grid.y;
  const unsigned long long total = static_cast<unsigned long long>(blocks) * n;
  const int steps = static_cast<int>(c.program.size() / 2);
  std::vector<unsigned> v(total), out(total, 0), shared(total, 0), slots(total, 0);
  std::vector<bool> live(total, true);
  for (unsigned long long g = 0; g < total; ++g) v[g] = cohort_test::mix(c.seed ^ static_cast<unsigned>(g));
  for (int i = 0; i < steps; ++i) {
    const unsigned k = static_cast<unsigned>(c.program[2 * i + 1]);
    switch (c.program[2 * i]) {
      case exchange:
        for (unsigned long long g = 0; g < total; ++g)
          if (live[g]) shared[g] = v[g];
        for (unsigned long long g = 0; g < total; ++g)
          if (live[g]) {
            const unsigned long long base = g / n * n;
            v[g] = cohort_test::mix(v[g] + shared[base + (g - base + k) % n]);
          }
        break;
      case count:
        for (unsigned b = 0; b < blocks; ++b) {
          unsigned sum = 0;
          for (unsigned t = 0; t < n; ++t)
            if (live[b * n + t]) sum += v[b * n + t] & 0xffu;
          for (unsigned t = 0; t < n; ++t)
            if (live[b * n + t]) v[b * n + t] = cohort_test::mix(v[b * n + t] ^ sum);
        }
        break;
      case leave:
        for (unsigned long long g = 0; g < total; ++g) {
          const unsigned t = static_cast<unsigned>(g % n);
          if (live[g] && t != 0 && t % k == k - 1) {
            out[g] = v[g];
            live[g] = false;
          }
        }
        break;
      case grid_exchange: {
        for (unsigned long long g = 0; g < total; ++g)
          if (live[g]) slots[g] = v[g];
        for (unsigned long long g = 0; g < total; ++g)
          if (live[g]) v[g] = cohort_test::mix(v[g] + slots[(g + k) % total]);
        break;
      }
      case tile_reduce:
        for (unsigned long long base = 0; base < total; base += k) {
          unsigned sum = 0;
          for (unsigned j = 0; j < k; ++j) sum += v[base + j];
          for (unsigned j = 0; j < k; ++j) v[base + j] += sum;
        }
        break;
    }
  }
  for (unsigned long long g = 0; g < total; ++g)
    if (live[g]) out[g] = v[g];
  return out;
}

fuzz_case draw(std::mt19937& rng) {
  const auto pick = [&rng](unsigned lo, unsigned hi) { return std::uniform_int_distribution<unsigned>(lo, hi)(rng); };
  fuzz_case c;
  for (;;) {
    c.block = dim3(pick(1, 64), pick(1, 4), pick(1, 2));
    if (c.block.x * c.block.y * c.block.z <= 256) break;
  }
  c.grid = dim3(pick(1, 4), pick(1, 2), 1);
  c.cooperative = pick(0, 1) == 1;
  c.seed = pick(0, ~0u);
  c.schedule = pick(0, 2) == 0 ? "shuffle:" + std::to_string(pick(1, 1000)) : "ordered";
  const unsigned n = c.block.x * c.block.y * c.block.z;
  bool exited = false;
  for (unsigned s = pick(1, 6); s > 0; --s) {
    int kind = static_cast<int>(pick(0, 4));
    if (kind == grid_exchange && !c.cooperative) kind = exchange;
    if (kind == tile_reduce && exited) kind = count;
    int k = static_cast<int>(pick(1, n + 3));
    if (kind == leave) {
      k = static_cast<int>(pick(2, 7));
      exited = true;
    }
    if (kind == grid_exchange) k = static_cast<int>(pick(1, 1000));
    if (kind == tile_reduce) {
      unsigned size = 32;
      while (size > 1 && (n % size != 0 || pick(0, 2) == 0)) size /= 2;
      k = static_cast<int>(size);
    }
    c.program.push_back(kind);
    c.program.push_back(k);
  }
  c.misuse = none;
  // A second arrival of a block's only thread completes the phase its first
  // one began, as on CUDA: a misuse only where the block has other threads.
  if (pick(0, 9) == 0) {
    c.misuse = static_cast<int>(pick(1, 3));
    if (c.misuse == grid_sync_uncooperative && c.cooperative) c.misuse = arrive_twice;
    if (c.misuse != grid_sync_uncooperative && n < 2) c.misuse = none;
  }
  return c;
}

cg::errc expected_error(int misuse) {
  switch (misuse) {
    case divergent_barrier:
      return cg::errc::barrier_mismatch;
    case grid_sync_uncooperative:
      return cg::errc::not_cooperative;
    default:
      return cg::errc::barrier_mismatch;
  }
}

// ThreadSanitizer creates and destroys its record of every fiber at each
// launch (about 0.2 s a launch here, against 0.25 ms without it): a tenth of
// the launches keeps a TSan run of the suite within ctest's time limit.
#if defined(__SANITIZE_THREAD__)
constexpr int default_launches = 500;
#else
constexpr int default_launches = 5000;
#endif

TEST(LaunchFuzzer, EveryLaunchIsVerifiedOrAClearError) {
  const char* seed_text = std::getenv("COHORT_FUZZ_SEED");
  const char* count_text = std::getenv("COHORT_FUZZ_LAUNCHES");
  const unsigned seed = seed_text ? static_cast<unsigned>(std::strtoul(seed_text, nullptr, 10)) : 20261124u;
  const int launches = count_text ? std::atoi(count_text) : default_launches;
  std::mt19937 rng(seed);
  int verified = 0, clean_errors = 0, other = 0;
  for (int l = 0; l < launches; ++l) {
    const fuzz_case c = draw(rng);
    const cohort_test::scoped_env schedule("COHORT_SCHEDULE", c.schedule.c_str());
    const unsigned n = c.block.x * c.block.y * c.block.z;
    const std::size_t total = static_cast<std::size_t>(c.grid.x) * c.grid.y * n;
    const int steps = static_cast<int>(c.program.size() / 2);
    cg::device_buffer<int> program(c.program);
    cg::device_buffer<unsigned> out(std::vector<unsigned>(total, 0)), slots(std::vector<unsigned>(total, 0)),
        counters(std::vector<unsigned>(static_cast<std::size_t>(c.grid.x) * c.grid.y * steps + 1, 0));
    const cg::launch_config cfg{c.grid, c.block, n * sizeof(unsigned)};
    const std::string what = "launch " + std::to_string(l) + " (seed " + std::to_string(seed) + "): grid " +
                             std::to_string(c.grid.x) + "x" + std::to_string(c.grid.y) + ", block " +
                             std::to_string(c.block.x) + "x" + std::to_string(c.block.y) + "x" +
                             std::to_string(c.block.z) + (c.cooperative ? ", cooperative" : "") + ", " + c.schedule;
    try {
      if (c.cooperative)
        cg::launch_cooperative(interpret, cfg, program.data(), steps, c.seed, out.data(), slots.data(), counters.data(),
                               c.misuse);
      else
        cg::launch(interpret, cfg, program.data(), steps, c.seed, out.data(), slots.data(), counters.data(), c.misuse);
      if (c.misuse != none) {
        ++other;
        ADD_FAILURE() << what << ": the planted misuse " << c.misuse << " raised no error";
      } else if (out.to_host() == model(c)) {
        ++verified;
      } else {
        ++other;
        ADD_FAILURE() << what << ": results differ from the model";
      }
    } catch (const cg::error& e) {
      if (c.misuse != none && e.kind() == expected_error(c.misuse)) {
        ++clean_errors;
      } else {
        ++other;
        ADD_FAILURE() << what << ": unexpected error: " << e.what();
      }
    }
  }
  std::printf("fuzzed launches: %d verified, %d clean errors, %d other\n", verified, clean_errors, other);
  EXPECT_EQ(other, 0);
}

}  // namespace
