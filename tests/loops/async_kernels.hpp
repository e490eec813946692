// Kernels with memcpy_async and split block barriers for the loops engine's
// tests (async_test.cpp), built by clang with the loops pass
// (docs/loops-engine.md, "memcpy_async and split block barriers").
#pragma once

#include <vector>

#include "cohort/host/engine.hpp"

namespace loops_tests {

using cohort::host::engine_choice;

// Double-buffered: each block streams `chunks` chunks of `chunk` floats (at most
// 512) into shared memory with memcpy_async on the block, the next chunk in
// flight while the threads read this one (wait_prior<1>, then wait), each
// thread summing its strided share; one sum per thread.
std::vector<float> double_buffered(const std::vector<float>& in, unsigned blocks, unsigned block, unsigned chunks,
                                   unsigned chunk);
engine_choice double_buffered_engine();

// Tiles of `tile` (8 or 32) in 1-D blocks of `block` threads (a partial last
// tile where `block` is not a multiple): each tile copies two runs of 2 × tile
// ints with memcpy_async on the tile, waits for the first (wait_prior<1>), reads
// it, waits for the second (wait), reads it. `in` holds 3 × (block + tile) ints a block.
std::vector<int> tile_copies(const std::vector<int>& in, unsigned blocks, unsigned block, unsigned tile);
engine_choice tile_copies_engine(unsigned tile);

// Rounds of barrier_arrive, independent work, barrier_wait, a read of another
// thread's slot and a block barrier, in blocks of block_x × block_y.
std::vector<float> split_rounds(const std::vector<float>& in, unsigned blocks, unsigned block_x, unsigned block_y,
                                unsigned rounds);
engine_choice split_rounds_engine();

// The same after the threads at and past `live` have returned: the split
// barrier in thread-dependent control flow (a resume point per thread).
std::vector<float> split_after_exit(const std::vector<float>& in, unsigned blocks, unsigned block, unsigned live,
                                    unsigned rounds);
engine_choice split_after_exit_engine();

// Threads below 16 arrive and wait; the others call __syncthreads(): different barrier call sites.
void split_against_sync(unsigned block);
extern const unsigned split_arrive_line, split_sync_line;

// Misuse the fiber engine diagnoses, kept on fibers: a token waited on twice; two arrivals before a wait.
void split_token_twice(unsigned block);
engine_choice split_token_twice_engine();
void split_arrives_twice(unsigned block);
engine_choice split_arrives_twice_engine();

// memcpy_async on the block of 256 ints into shared memory; `write`: every
// thread writes its destination element before the wait (the checking mode's error).
std::vector<int> copy_then_wait(const std::vector<int>& in, bool write);
engine_choice copy_then_wait_engine();
extern const unsigned copy_then_wait_line;

// Calls the function a block function calls in place of memcpy_async's checking calls.
void unchecked_copy_reached();

}  // namespace loops_tests
