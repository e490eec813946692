// CUDA code passes the dynamic shared size as an int; a launch config takes
// it without a narrowing error or a conversion warning (built with -Wall
// -Wextra -Wconversion -Werror).
#include <cohort/cohort.hpp>

namespace launch_int_shared {

__global__ void kernel(int* out) { out[0] = 1; }

// The extents are unsigned, as dim3's constructor takes them (an int there is a
// sign conversion, which clang's -Wconversion reports, as with CUDA's dim3).
void launch_with_int_sizes(int* out, int shared_bytes, unsigned blocks, unsigned threads) {
  const cohort::launch_config config{dim3(1), dim3(32), shared_bytes};
  const cohort::launch_config with_stream{dim3(blocks), dim3(threads), shared_bytes, cohort::stream_t{}};
  cohort::launch(kernel, config, out);
  cohort::launch(kernel, with_stream, out);
  cohort::launch(kernel, {dim3(1), dim3(32), shared_bytes}, out);
}

}  // namespace launch_int_shared
