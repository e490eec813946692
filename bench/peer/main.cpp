// One side (cohort or HIP-CPU, chosen by the side header the build names) of
// the side-by-side benchmark. Each row is the fastest of a few repetitions in
// this process (on a machine shared with other work, a repetition can only be
// slowed down by it); scripts/peer-bench.py runs the sides' processes in turns
// and takes min / median / max over processes.
//
// usage: peer_<side>_<flags> [WORKERS [ROW-PREFIX]]: only the rows whose name
// starts with ROW-PREFIX run (e.g. "block barrier", for a profiler).
// Output: one line per row, "row<TAB>value<TAB>unit".
#include PEER_SIDE_HEADER

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "kernels.hpp"

namespace {

double fastest_seconds(int repetitions, const std::function<void()>& run) {
  run();  // warm: stacks, pools, pages
  std::vector<double> t;
  for (int i = 0; i < repetitions; ++i) {
    const auto start = std::chrono::steady_clock::now();
    run();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return *std::min_element(t.begin(), t.end());
}

void row(const std::string& name, double value, const char* unit) {
  std::printf("%s\t%.4g\t%s\n", name.c_str(), value, unit);
}

// The plain loop saxpy is measured against: what a CPU programmer writes.
[[gnu::noinline]] void plain_saxpy(float a, const float* x, float* y, unsigned n) {
  for (unsigned i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned workers = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : std::thread::hardware_concurrency();
  side::set_workers(workers);
  const std::string suffix = "/w" + std::to_string(workers);
  const std::string only = argc > 2 ? argv[2] : "";
  const auto wanted = [&](const char* name) { return std::string(name).rfind(only, 0) == 0; };
  int* sink = static_cast<int*>(std::malloc(sizeof(int)));

  // Blocks enough for every worker; the per-thread figure divides by all of them.
  const unsigned blocks = 2 * std::max(1u, workers);
  for (const unsigned threads : {256u, 1024u}) {
    if (!wanted("block barrier")) break;
    const int rounds = 100;
    const double s =
        fastest_seconds(5, [&] { side::launch<barrier_rounds>(dim3(blocks), dim3(threads), rounds, sink); });
    row("block barrier " + std::to_string(threads) + suffix, s * 1e9 / (double(blocks) * threads * rounds),
        "ns/thread");
  }
  if (wanted("thread start")) {
    // A thread's start, one barrier and its end, over enough blocks that the
    // launch does not count: what a thread of a block with barriers costs
    // besides its barriers.
    const unsigned many = 1u << 14;
    const double s = fastest_seconds(5, [&] { side::launch<barrier_rounds>(dim3(many), dim3(256), 1, sink); });
    row("thread start, 1 barrier, end (256)" + suffix, s * 1e9 / (double(many) * 256), "ns/thread");
  }
  if (wanted("shuffle")) {
    const int rounds = 64;
    const unsigned threads = 1024;
    const double s =
        fastest_seconds(5, [&] { side::launch<shuffle_rounds>(dim3(blocks), dim3(threads), rounds, sink); });
    row("shuffle xor" + suffix, s * 1e9 / (double(blocks) * threads * rounds), "ns/lane");
  }
  if (wanted("tree reduction")) {
    const unsigned n = 1u << 24;
    std::vector<float> in(n, 1.0f), sums(n / 256);
    const double s =
        fastest_seconds(1, [&] { side::launch<tree_reduce>(dim3(n / 256), dim3(256), in.data(), sums.data()); });
    double total = 0;
    for (float v : sums) total += v;
    if (total != n) std::fprintf(stderr, "tree reduction: wrong sum %g\n", total), std::exit(1);
    row("tree reduction 2^24" + suffix, s * 1e3, "ms");
  }
  if (wanted("saxpy")) {
    const unsigned n = 1u << 22;
    std::vector<float> x(n, 1.0f), y(n, 2.0f);
    const double s =
        fastest_seconds(9, [&] { side::launch<saxpy>(dim3(n / 256), dim3(256), 0.5f, x.data(), y.data(), n); });
    row("saxpy 4M" + suffix, s * 1e3, "ms");
    const double p = fastest_seconds(9, [&] { plain_saxpy(0.5f, x.data(), y.data(), n); });
    row("saxpy 4M plain loop", p * 1e3, "ms");
  }
  if (wanted("launch")) {
    const double s = fastest_seconds(201, [&] { side::launch<empty_kernel>(dim3(1), dim3(1)); });
    row("launch overhead" + suffix, s * 1e6, "us");
  }
  std::free(sink);
}
