// The host build's rivals: the C++ standard library's parallel algorithms
// (libstdc++ runs them on TBB; without TBB these rows are left out), and the
// host's native whole-array algorithms that device_reduce and the device scans
// run on (cohort/detail/host/algorithms/array_algorithms.hpp), measured against them.
#include "bench/rivals.hpp"

#include <cohort/cohort.hpp>
#include <cohort/detail/host/algorithms/array_algorithms.hpp>

#if COHORT_CLI_PARALLEL_STL
#include <execution>
#include <numeric>
#endif

namespace cohort_cli {

namespace {

namespace host = cohort::detail::host;

std::string parts_text(std::size_t n) { return std::to_string(host::parts_for(n)) + " worker part(s)"; }

cohort_kernels::reduce_plan plan_array_reduce(std::size_t n) {
  return {parts_text(n), [n](const float* in, float* out) { host::host_reduce(in, n, out, cohort::plus<float>{}); }};
}

scan_plan plan_array_scan(std::size_t n) {
  return {parts_text(n), [n](const int* in, int* out) { host::host_inclusive_scan(in, out, n, cohort::plus<int>{}); }};
}

#if COHORT_CLI_PARALLEL_STL
cohort_kernels::reduce_plan plan_std_reduce(std::size_t n) {
  return {"std::execution::par_unseq",
          [n](const float* in, float* out) { *out = std::reduce(std::execution::par_unseq, in, in + n, 0.0f); }};
}

scan_plan plan_std_scan(std::size_t n) {
  return {"std::execution::par_unseq",
          [n](const int* in, int* out) { std::inclusive_scan(std::execution::par_unseq, in, in + n, out); }};
}
#endif

}  // namespace

std::vector<cohort_kernels::reduce_variant> reduce_rivals() {
  return {
      {"host-array-reduce", "the host's native reduce of a whole array (device_reduce's body)", &plan_array_reduce},
#if COHORT_CLI_PARALLEL_STL
      {"std-reduce-par-unseq", "std::reduce(std::execution::par_unseq, ...)", &plan_std_reduce},
#endif
  };
}

std::vector<scan_variant> scan_rivals() {
  return {
      {"host-array-scan", &plan_array_scan},
#if COHORT_CLI_PARALLEL_STL
      {"std-inclusive-scan-par-unseq", &plan_std_scan},
#endif
  };
}

std::vector<sync_variant> sync_rivals() { return {}; }

}  // namespace cohort_cli
