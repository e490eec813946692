// A kernel and its launch in a header (launch_spellings.cu, through launch_spellings_outer.h).
#pragma once

__global__ void twice_index(int* out) { out[threadIdx.x] = 2 * static_cast<int>(threadIdx.x); }

inline void launch_from_inner_header(int* out, int n) { twice_index<<<1, n>>>(out); }
