// Launches of the loops engine's memcpy_async and split-barrier benchmark
// kernels (async_kernels.cpp, clang + the loops pass).
#pragma once

namespace loops_bench {

// Double-buffered streaming: `blocks` blocks of `block` threads each stream
// their share of `n` floats into shared memory in chunks of 4 × `block` floats
// with memcpy_async on the block (the next chunk issued before wait_prior<1>),
// each thread summing its four elements of every chunk; one sum per thread in `out`.
void copy_stages(const float* in, float* out, unsigned n, unsigned blocks, unsigned block);
// `rounds` rounds of barrier_arrive, a thread's own work, barrier_wait per thread.
void split_barriers(unsigned rounds, unsigned* out, unsigned blocks, unsigned block);

}  // namespace loops_bench
