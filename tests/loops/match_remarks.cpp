// The loops pass's remark on __match_*_sync and tiles' match_* (the test
// loops_match_remarks): an int's, a double's, a 12-byte struct's and a tile's
// on the lane arrays, a 24-byte struct's through the records.
#include <cohort/cohort.hpp>

namespace cg = cohort;

struct twelve_bytes {
  int a, b, c;
};
struct twenty_four_bytes {
  long long a, b, c;
};

__global__ void remark_matches(const int* in, unsigned long long* out) {
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const int v = in[threadIdx.x];
  int pred = 0;
  out[5 * threadIdx.x] = __match_any_sync(0xffffffffu, v);
  out[5 * threadIdx.x + 1] = __match_all_sync(0xffffffffu, static_cast<double>(v), &pred) + pred;
  out[5 * threadIdx.x + 2] = __match_any_sync(0xffffffffu, twelve_bytes{v, 1, 2});
  out[5 * threadIdx.x + 3] = tile.match_any(static_cast<float>(v));
  out[5 * threadIdx.x + 4] = __match_any_sync(0xffffffffu, twenty_four_bytes{v, 1, 2});
}
