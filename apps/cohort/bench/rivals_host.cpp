// The host build has no rivals: CUB and NVIDIA's cooperative groups need a GPU.
#include "bench/rivals.hpp"

namespace cohort_cli {

std::vector<cohort_examples::reduce_variant> reduce_rivals() { return {}; }
std::vector<scan_variant> scan_rivals() { return {}; }
std::vector<sync_variant> sync_rivals() { return {}; }

}  // namespace cohort_cli
