// Batched reduce sum v1 and
// v2, one block per batch, and the full reduce sum, one cooperative launch
// with grid.sync() between stages; each checked, then timed for latency and
// effective bandwidth as the seed reports them.
//
// Usage: reduce_sum_cooperative_groups [batch_size] [elements_per_batch]
// The seed runs 2048 x 262144; the default here, 64 x 16384, takes well under
// a second on two CPU cores.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include <cohort/cohort.hpp>

#include "common/device_summary.hpp"
#include "common/random_input.hpp"
#include "common/sum_check.hpp"
#include "common/timing.hpp"
#include "reduce/batched_v1.hpp"
#include "reduce/batched_v2.hpp"
#include "reduce/full_reduce.hpp"

namespace {

using namespace cohort_kernels;

constexpr std::size_t num_threads = 256;
constexpr std::size_t num_block_elements = num_threads * 1024;
constexpr int num_warmups = 10;
constexpr int num_repeats = 10;

// Prints the seed's latency and effective bandwidth lines for work that moves
// bytes through device memory.
void report_performance(const std::function<void()>& work, std::size_t bytes) {
  const double latency_us = mean_of(time_us(work, num_repeats, num_warmups));
  std::printf("Latency: %.4f ms\n", latency_us / 1e3);
  std::printf("Effective Bandwidth: %.3f GB/s\n", gigabytes_per_second(static_cast<double>(bytes), latency_us));
}

// Kernel is batched_reduce_sum_v1 or _v2: a block per batch.
template <auto Kernel>
bool profile_batched(const std::vector<float>& input, std::size_t batch_size, std::size_t per_batch) {
  const cohort::device_buffer<float> in(input);
  cohort::device_buffer<float> out(batch_size);
  const auto run = [&] {
    cohort::launch<Kernel>({static_cast<unsigned>(batch_size), num_threads}, out.data(), in.data(), per_batch);
  };
  run();
  const std::vector<float> sums = out.to_host();
  std::size_t wrong = 0;
  for (std::size_t b = 0; b < batch_size; ++b) {
    const sum_check check = check_sum(input.data() + b * per_batch, per_batch, sums[b]);
    if (!check.ok && wrong++ == 0)
      std::printf("batch %zu: expected %.6f but got %.6f\n", b, check.reference, static_cast<double>(sums[b]));
  }
  if (wrong) {
    std::printf("%zu of %zu batch sums wrong\nFAIL\n", wrong, batch_size);
    return false;
  }
  report_performance(run, (input.size() + batch_size) * sizeof(float));
  std::printf("PASS\n");
  return true;
}

bool profile_full_reduce(const std::vector<float>& input) {
  const std::size_t n = input.size();
  // The seed's grid: one block per SM (its comment shows the occupancy-sized
  // alternative, which sum_cooperative uses).
  const unsigned blocks = static_cast<unsigned>(cohort::get_device_properties().multiprocessor_count);
  const cohort::device_buffer<float> in(input);
  cohort::device_buffer<float> out(1);
  cohort::device_buffer<float> workspace(full_reduce_workspace_size(n, num_block_elements, blocks));
  const auto run = [&] {
    cohort::launch_cooperative<full_reduce_sum<num_threads, num_block_elements>>({blocks, num_threads}, out.data(),
                                                                                 in.data(), n, workspace.data());
  };
  run();
  const float sum = out.to_host()[0];
  const sum_check check = check_sum(input, sum);
  std::printf("Sum: %.6f, reference %.6f, error %.3g (tolerance %.3g)\n", static_cast<double>(sum), check.reference,
              check.error, check.tolerance);
  if (!check.ok) {
    std::printf("FAIL\n");
    return false;
  }
  report_performance(run, (n + 1) * sizeof(float));
  std::printf("PASS\n");
  return true;
}

std::string rule(char c) { return std::string(50, c); }

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::size_t batch_size = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 64;
    const std::size_t per_batch = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 16384;
    if (batch_size == 0 || per_batch == 0) {
      std::fprintf(stderr, "usage: %s [batch_size] [elements_per_batch]  (both > 0; default 64 16384)\n", argv[0]);
      return 2;
    }
    const std::vector<float> input = random_floats(batch_size * per_batch);

    std::printf("%s\nDevice: %s\n%s\n", rule('~').c_str(), device_summary(cohort::get_device_properties()).c_str(),
                rule('~').c_str());
    std::printf("Batch Size: %zu\nNumber of Elements Per Batch: %zu\n%s\n", batch_size, per_batch, rule('=').c_str());

    std::printf("Batched Reduce Sum V1\n");
    bool ok = profile_batched<batched_reduce_sum_v1<num_threads>>(input, batch_size, per_batch);
    std::printf("%s\nBatched Reduce Sum V2\n", rule('-').c_str());
    ok = profile_batched<batched_reduce_sum_v2<num_threads>>(input, batch_size, per_batch) && ok;
    std::printf("%s\nFull Reduce Sum\n", rule('-').c_str());
    ok = profile_full_reduce(input) && ok;
    std::printf("%s\n%s\n", rule('-').c_str(), ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\nFAIL\n", e.what());
    return 1;
  }
}
