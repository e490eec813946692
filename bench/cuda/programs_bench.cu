// Two whole cooperative programs, each written once over a small API struct
// and built with cohort and with NVIDIA's cooperative_groups, timed in one
// process with CUDA events (rival_timing.hpp): a conjugate-gradient solver
// on a 2-D Poisson matrix in CSR form (one cooperative kernel, three
// grid.sync per iteration, tile reductions and grid atomics for the dot
// products), and a reduction of 2^25 floats repeated 100 times in one kernel
// with a grid.sync between repetitions. Both programs are checked on the host
// (the solver's true residual and the two versions' agreement, each
// repetition's sum against a host sum) before anything is timed; a wrong
// result ends the run with status 1. The registers and the largest
// cooperative grid of each kernel, as the runtime reports them, come first.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include "cooperative_programs.cuh"
#include "rival_timing.hpp"

#include <algorithm>
#include <cmath>
#include <cohort/cohort.hpp>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace cg = cohort;

namespace {

using namespace rival_timing;
using namespace cooperative_programs;

// ---- (a) conjugate gradient (the kernel: cooperative_programs.cuh) -----------

constexpr int poisson_side = 1024;  // 1M rows, 5.2M nonzeros
constexpr int solver_iterations = 200;

struct poisson_matrix {
  std::vector<int> row_start, column;
  std::vector<float> value;
};

// The 5-point Laplacian on a side x side grid with zero boundary values.
poisson_matrix poisson(int side) {
  poisson_matrix m;
  m.row_start.push_back(0);
  for (int row = 0; row < side; ++row)
    for (int col = 0; col < side; ++col) {
      const int i = row * side + col;
      const auto put = [&](int j, float v) {
        m.column.push_back(j);
        m.value.push_back(v);
      };
      if (row > 0) put(i - side, -1);
      if (col > 0) put(i - 1, -1);
      put(i, 4);
      if (col < side - 1) put(i + 1, -1);
      if (row < side - 1) put(i + side, -1);
      m.row_start.push_back(static_cast<int>(m.column.size()));
    }
  return m;
}

// ||b - A x|| / ||b||, in double.
double relative_residual(const poisson_matrix& m, const std::vector<float>& b, const std::vector<float>& x) {
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    double s = 0;
    for (int e = m.row_start[i]; e < m.row_start[i + 1]; ++e) s += static_cast<double>(m.value[e]) * x[m.column[e]];
    rr += (b[i] - s) * (b[i] - s);
    bb += static_cast<double>(b[i]) * b[i];
  }
  return std::sqrt(rr / bb);
}

struct occupancy {
  int registers, blocks_per_sm;
};

template <class Kernel>
occupancy occupancy_of(Kernel kernel, unsigned threads) {
  cudaFuncAttributes attributes{};
  check(cudaFuncGetAttributes(&attributes, kernel), "cudaFuncGetAttributes");
  int per_sm = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, static_cast<int>(threads), 0),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  return {attributes.numRegs, per_sm};
}

// Prints each version's registers and largest cooperative grid; returns the
// grid both can run, so that both are timed on the same one.
template <class Ours, class Theirs>
unsigned common_grid(const char* kernel, Ours ours, Theirs theirs, unsigned threads) {
  const int sms = cg::get_device_properties().multiprocessor_count;
  const occupancy a = occupancy_of(ours, threads), b = occupancy_of(theirs, threads);
  std::printf(
      "%s, %u threads: cohort %d registers, largest cooperative grid %d blocks; NVIDIA %d registers, %d blocks\n",
      kernel, threads, a.registers, a.blocks_per_sm * sms, b.registers, b.blocks_per_sm * sms);
  const int blocks = std::min(a.blocks_per_sm, b.blocks_per_sm) * sms;
  if (blocks == 0) {
    std::fprintf(stderr, "%s: no block of %u threads fits an SM\n", kernel, threads);
    std::exit(1);
  }
  return static_cast<unsigned>(blocks);
}

void fail(const char* what) {
  std::fprintf(stderr, "programs bench: %s\n", what);
  std::exit(1);
}

void solver_row(std::vector<row>& rows) {
  const poisson_matrix m = poisson(poisson_side);
  const int n = poisson_side * poisson_side;
  std::vector<float> b_host(static_cast<std::size_t>(n));
  std::mt19937 random(2024);
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  for (float& v : b_host) v = uniform(random);

  const cg::device_buffer<int> row_start(m.row_start), column(m.column);
  const cg::device_buffer<float> value(m.value), b(b_host);
  cg::device_buffer<float> x(n), r(n), p(n), ap(n);
  cg::device_buffer<double> dots(2 * solver_iterations + 1);
  const csr a{row_start.data(), column.data(), value.data(), n};

  const unsigned blocks =
      common_grid("conjugate_gradient", conjugate_gradient<cohort_api>, conjugate_gradient<nvidia_api>, solver_threads);
  const cg::launch_config cfg{dim3(blocks), dim3(solver_threads)};
  const auto solve = [&](auto kernel) {
    return [&, kernel] {
      check(cudaMemsetAsync(dots.data(), 0, dots.size() * sizeof(double)), "cudaMemsetAsync");
      cg::launch_cooperative(kernel, cfg, a, b.data(), x.data(), r.data(), p.data(), ap.data(), dots.data(),
                             solver_iterations);
    };
  };
  const auto ours = solve(conjugate_gradient<cohort_api>);
  const auto theirs = solve(conjugate_gradient<nvidia_api>);

  ours();
  check(cudaDeviceSynchronize(), "conjugate_gradient (cohort)");
  const std::vector<float> x_ours = x.to_host();
  theirs();
  check(cudaDeviceSynchronize(), "conjugate_gradient (NVIDIA)");
  const std::vector<float> x_theirs = x.to_host();
  const double res_ours = relative_residual(m, b_host, x_ours), res_theirs = relative_residual(m, b_host, x_theirs);
  double diff = 0, norm = 0;
  for (int i = 0; i < n; ++i) {
    diff += (static_cast<double>(x_ours[i]) - x_theirs[i]) * (static_cast<double>(x_ours[i]) - x_theirs[i]);
    norm += static_cast<double>(x_theirs[i]) * x_theirs[i];
  }
  const double disagreement = std::sqrt(diff / norm);
  std::printf(
      "conjugate gradient, %d rows, %d iterations: ||b - Ax|| / ||b|| cohort %.3e, NVIDIA %.3e; "
      "||x_cohort - x_NVIDIA|| / ||x_NVIDIA|| %.2e\n",
      n, solver_iterations, res_ours, res_theirs, disagreement);
  // From x = 0 the residual is 1; float CG on this matrix brings it well below 0.1 in 200 iterations.
  if (!(res_ours < 0.1) || !(res_theirs < 0.1)) fail("the solver's residual did not drop below 0.1");
  // The dot products sum in double, so the versions differ only by the atomics' order, which
  // 200 float iterations may amplify a little; a wrong barrier would leave them far apart.
  if (!(disagreement < 1e-2)) fail("the cohort and NVIDIA solvers disagree");

  const auto [us_ours, us_theirs] = race(ours, theirs, 1, 1000.0);
  rows.push_back({"CG 1M rows x 200 iterations", blocks, solver_threads, us_ours, us_theirs, "us"});
  print_row(rows.back());
}

// ---- (b) repeated reduction (the kernel: cooperative_programs.cuh) ---------

constexpr std::size_t reduce_elements = std::size_t{1} << 25;
constexpr int reduce_repetitions = 100;

void reduction_row(std::vector<row>& rows) {
  std::vector<float> host(reduce_elements);
  std::mt19937 random(7);
  std::uniform_real_distribution<float> uniform(0.f, 1.f);
  double expected = 0;
  for (float& v : host) expected += v = uniform(random);
  const cg::device_buffer<float> in(host);
  cg::device_buffer<double> sums(reduce_repetitions);

  const unsigned blocks =
      common_grid("repeated_sum", repeated_sum<cohort_api>, repeated_sum<nvidia_api>, reduce_threads);
  const cg::launch_config cfg{dim3(blocks), dim3(reduce_threads)};
  const auto in4 = reinterpret_cast<const float4*>(in.data());
  const auto n4 = static_cast<unsigned>(reduce_elements / 4);
  const auto reduce = [&](auto kernel) {
    return [&, kernel] {
      check(cudaMemsetAsync(sums.data(), 0, sums.size() * sizeof(double)), "cudaMemsetAsync");
      cg::launch_cooperative(kernel, cfg, in4, n4, sums.data(), reduce_repetitions);
    };
  };
  const auto ours = reduce(repeated_sum<cohort_api>);
  const auto theirs = reduce(repeated_sum<nvidia_api>);

  const auto verify = [&](const auto& launch, const char* who) {
    launch();
    check(cudaDeviceSynchronize(), "repeated_sum");
    double worst = 0;
    for (double s : sums.to_host()) worst = std::max(worst, std::abs(s - expected) / expected);
    std::printf("repeated sum (%s): host sum %.6f, worst relative error of %d repetitions %.2e\n", who, expected,
                reduce_repetitions, worst);
    // Each thread sums about a hundred floats in float; blocks and the grid add in double.
    if (!(worst < 1e-5)) fail("a repetition's sum differs from the host's");
  };
  verify(ours, "cohort");
  verify(theirs, "NVIDIA");

  const auto [us_ours, us_theirs] = race(ours, theirs, 1, 1000.0);
  rows.push_back({"sum of 2^25 floats x 100", blocks, reduce_threads, us_ours, us_theirs, "us"});
  print_row(rows.back());
}

void run() {
  const cg::device_properties p = cg::get_device_properties();
  print_device(p);
  std::vector<row> rows;
  solver_row(rows);
  reduction_row(rows);
  print_table(p, "per program run", rows);
}

}  // namespace

int main() { return rival_timing::main_of("cohort_bench_cuda_programs", run); }
