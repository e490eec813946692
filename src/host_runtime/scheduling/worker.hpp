// Running blocks on the calling OS thread (worker.cpp), for the launches.
#pragma once

#include <cstddef>

namespace cohort::detail::host {

struct launch_state;
struct scheduled_block;

// Runs blocks [first, end) of the launch, in order, each to its end, on the
// calling OS thread, while the launch is worth running them; returns the
// fibers they started. A block's error is the launch's (launch_state::fail).
std::size_t run_blocks(launch_state& launch, unsigned long long first, unsigned long long end);
// Called by the runner that ran the last thread of block `b`: when the block
// is over and the worker's blocks go on, finishes it and starts the next one
// on the same runner, which then runs its threads (true). A block that never
// waits thus runs from start to end without a fiber switch, and main gets
// control back only once the runner's blocks are done or one of them waits.
bool run_next_block(scheduled_block& b);
// The same where the next block can reuse the record as it is (a block whose
// threads ran in streaks, with none of the runtime's mechanisms: a barrier-free
// block function's), and only then (true): the loops engine's block function
// goes on with it in the same call (cohort_loops_next_block). False where
// there is none, or run_next_block's way through finish_block and start_block
// is needed; nothing is changed then.
bool run_next_block_in_record(scheduled_block& b);
// After a worker's last block of a launch: its fibers' stacks go back to its
// pool, and those beyond its share of what the process keeps are unmapped.
void trim_worker_stacks();
// Whether the calling OS thread runs a kernel thread's fiber now (for the
// signal handlers that report on it).
bool in_kernel_thread();

// Where an address lies for the kernel thread running on the calling OS
// thread (CUDA's __isShared, __isLocal): its block's shared memory (the
// __shared__ variables between the TLS spacers, the dynamic shared memory),
// its own stack, or elsewhere (also outside a kernel).
enum class kernel_address_space { shared, local, other };
kernel_address_space address_space_of(const void* address);

}  // namespace cohort::detail::host
