// cohort's side of the side-by-side benchmark with its kernels compiled by
// clang and the loops pass (docs/loops-engine.md): main.cpp unchanged, so that
// the kernels the loops pass lowers run on the loops engine.
#define PEER_SIDE_HEADER "cohort_side.hpp"
#include "main.cpp"
