// The seeds' use of multi_grid_group (§8): a conjugate-gradient solve of
// A x = b, A = tridiag(-1, 4, -1), in one multi-device cooperative launch,
// each device's grid owning a slice of the rows. Each iteration needs two dot
// products over every device (reduce on the multi_grid_group) and the
// direction vector's neighbours from other slices (multi_grid.sync() before
// the product A p). The vectors live in one allocation every grid reads: on
// the host backend any device's memory; on several GPUs it needs peer access
// (`cohort doctor` says whether the GPUs have it). The solution is checked
// against the residual computed on the CPU.
#include <cohort/cohort.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

#include "common/example_main.hpp"

namespace cg = cohort;

namespace {

struct vectors {
  double *x, *r, *p, *ap;
  unsigned long long n;
};

__global__ void conjugate_gradient(vectors v, unsigned long long rows_per_grid, int iterations) {
  const cg::multi_grid_group mg = cg::this_multi_grid();
  const cg::grid_group grid = cg::this_grid();
  const unsigned long long first = mg.grid_rank() * rows_per_grid, last = first + rows_per_grid;
  double rr_local = 0;
  for (unsigned long long i = first + grid.thread_rank(); i < last; i += grid.num_threads())
    rr_local += v.r[i] * v.r[i];
  double rr = cg::reduce(mg, rr_local, cg::plus<double>());
  for (int it = 0; it < iterations && rr > 1e-24; ++it) {
    double pap_local = 0;
    for (unsigned long long i = first + grid.thread_rank(); i < last; i += grid.num_threads()) {
      const double left = i > 0 ? v.p[i - 1] : 0, right = i + 1 < v.n ? v.p[i + 1] : 0;
      v.ap[i] = 4 * v.p[i] - left - right;
      pap_local += v.p[i] * v.ap[i];
    }
    const double alpha = rr / cg::reduce(mg, pap_local, cg::plus<double>());
    double rr_next_local = 0;
    for (unsigned long long i = first + grid.thread_rank(); i < last; i += grid.num_threads()) {
      v.x[i] += alpha * v.p[i];
      v.r[i] -= alpha * v.ap[i];
      rr_next_local += v.r[i] * v.r[i];
    }
    const double rr_next = cg::reduce(mg, rr_next_local, cg::plus<double>());
    // Every grid has read p for A p (the reduce above synchronized them) before p changes.
    for (unsigned long long i = first + grid.thread_rank(); i < last; i += grid.num_threads())
      v.p[i] = v.r[i] + rr_next / rr * v.p[i];
    rr = rr_next;
    mg.sync();  // the new p, every slice of it, before the next A p
  }
}

}  // namespace

int main(int argc, char** argv) {
  return cohort_kernels::run_example(
      argc, argv,
      {"multi_device_cg: conjugate gradient over every device in one multi-device cooperative launch (seed 002 §8)",
       "[rows per device] [iterations]  (defaults 4096 200)",
       {4096, 200}},
      [](const std::vector<unsigned>& args) {
        const int devices = cg::device_count();
        for (int d = 1; d < devices; ++d)
          if (!cg::can_access_peer(d, 0)) {
            std::printf(
                "device %d cannot reach device 0's memory, where the vectors live; this example needs peer "
                "access between the devices (`cohort doctor` lists it), or one device: "
                "CUDA_VISIBLE_DEVICES=0\n",
                d);
            return false;
          }
        const unsigned long long rows = args[0], n = rows * static_cast<unsigned long long>(devices);
        std::vector<double> b(n);
        for (unsigned long long i = 0; i < n; ++i) b[i] = std::sin(0.01 * static_cast<double>(i)) + 1.0;
        std::vector<double> zero(n, 0.0);
        cg::device_buffer<double> x(zero), r(b), p(b), ap(zero);
        const vectors v{x.data(), r.data(), p.data(), ap.data(), n};
        const int threads = 256;
        const int blocks = std::max(1, std::min(cg::max_cooperative_grid(conjugate_gradient, threads), 8));
        std::vector<cg::device_launch> grids;
        for (int d = 0; d < devices; ++d) grids.push_back({d, {dim3(blocks), dim3(threads)}});
        const int iterations = static_cast<int>(args[1]);
        cg::launch_cooperative_multi_device(conjugate_gradient, grids,
                                            [&](unsigned) { return std::tuple{v, rows, iterations}; });
        for (int d = devices - 1; d >= 0; --d) {  // ends on device 0, where the vectors live
          cg::set_device(d);
          cg::device_synchronize();
        }
        const auto solution = x.to_host();
        double residual = 0, norm = 0;
        for (unsigned long long i = 0; i < n; ++i) {
          const double left = i > 0 ? solution[i - 1] : 0, right = i + 1 < n ? solution[i + 1] : 0;
          const double e = b[i] - (4 * solution[i] - left - right);
          residual += e * e;
          norm += b[i] * b[i];
        }
        const double relative = std::sqrt(residual / norm);
        std::printf("%d device(s), %llu rows, %d blocks x %d threads per grid: relative residual %.3e\n", devices, n,
                    blocks, threads, relative);
        return relative < 1e-9;
      });
}
