// The services block functions call (tools/loops-pass/runtime_abi.hpp):
// cohort_loops_begin_block (the block's thread positions, frames and resume
// points), cohort_loops_next_block (a barrier-free block function's next
// block, in the same call), cohort_loops_check_site (threads that stopped at
// different barriers fail the launch, as on fibers), cohort_loops_enter_thread
// (the thread about to fail the launch) and cohort_loops_unchecked_copy.
// Collectives: loops_collectives.cpp.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <numeric>
#include <source_location>
#include <sstream>
#include <vector>

#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "launch/launch_state.hpp"
#include "launch/loops_block.hpp"
#include "scheduling/runtime_tls.hpp"
#include "scheduling/scheduler.hpp"
#include "scheduling/worker.hpp"

namespace cohort::detail::host {

// One worker's frames and resume points, reused block after block: on the
// heap, as the runtime's other per-worker state, its pointer among the
// runtime's thread-locals (runtime_tls.hpp).
struct loops_storage {
  struct free_memory {
    void operator()(void* p) const { std::free(p); }
  };
  std::unique_ptr<unsigned char[], free_memory> frames;
  std::size_t frame_capacity = 0;
  std::unique_ptr<std::uint32_t[]> resumes;
  std::size_t resume_capacity = 0;
  std::vector<std::uint32_t> order;
  // The lane arrays (loops_block::lane_in, lane_arg, lane_out), grown to the largest block.
  std::unique_ptr<std::byte[], free_memory> lanes;
  std::size_t lane_capacity = 0;
  // A kernel with grid barriers in a launch that is not cooperative: its kept
  // store (its grid barrier fails the launch: loops_grid.cpp).
  std::vector<std::byte> kept;
  loops_block block{};
};

namespace {

void end_loops_storage(void* s) {
  delete static_cast<loops_storage*>(s);
  this_loops_storage = nullptr;
}

loops_storage& storage() {
  if (this_loops_storage == nullptr) [[unlikely]] {
    this_loops_storage = new loops_storage;
    at_thread_exit(&end_loops_storage, this_loops_storage);
  }
  return *this_loops_storage;
}

}  // namespace

}  // namespace cohort::detail::host

using namespace cohort::detail::host;

extern "C" {

// Every thread starts at the kernel's beginning (resume point 0); frames are
// 64-byte aligned, each frame_bytes long (a multiple of its largest alignment).
loops_block* cohort_loops_begin_block(std::uint64_t frame_bytes) {
  block_record& b = *current_block;
  loops_storage& s = storage();
  const std::size_t count = b.thread_count;
  const std::size_t bytes = count * frame_bytes;
  if (bytes > s.frame_capacity) {
    const std::size_t rounded = (bytes + 63) / 64 * 64;
    s.frames.reset(static_cast<unsigned char*>(std::aligned_alloc(64, rounded)));
    if (!s.frames) throw std::bad_alloc();
    s.frame_capacity = rounded;
  }
  if (count > s.resume_capacity) {
    s.resumes = std::make_unique<std::uint32_t[]>(count);
    s.resume_capacity = count;
  }
  // Only the region loop of a kernel with a barrier in thread-dependent control
  // flow reads the resume points, and its frame always holds the barrier's site:
  // a barrier-free kernel (frame_bytes 0) is spared the fill, once a block.
  if (frame_bytes != 0) std::fill_n(s.resumes.get(), count, 0u);
  if (count > s.lane_capacity) {
    // Per rank: its value and result (max_exchange_bytes each) and its argument; 64-byte aligned.
    s.lanes.reset(
        static_cast<std::byte*>(std::aligned_alloc(64, (count + 63) / 64 * 64 * (2 * max_exchange_bytes + 8))));
    if (!s.lanes) throw std::bad_alloc();
    s.lane_capacity = (count + 63) / 64 * 64;
  }
  current_position = &streak_position;
  current_thread = b.threads;
  s.block = {&streak_position,
             s.frames.get(),
             s.resumes.get(),
             b.block_dim.x,
             b.block_dim.y,
             b.block_dim.z,
             b.thread_count,
             frame_bytes,
             nullptr,
             s.lanes.get(),
             reinterpret_cast<std::uint64_t*>(s.lanes.get() + s.lane_capacity * max_exchange_bytes),
             s.lanes.get() + s.lane_capacity * (max_exchange_bytes + 8),
             0,
             nullptr};
  // COHORT_SCHEDULE=shuffle: the threads of each region in an order drawn
  // from the block's generator (seeded from the schedule's seed and the block).
  if (auto& rt = static_cast<block_runtime&>(b); rt.shuffling) {
    s.order.resize(count);
    std::iota(s.order.begin(), s.order.end(), 0u);
    std::shuffle(s.order.begin(), s.order.end(), *rt.shuffle);
    s.block.order = s.order.data();
  }
  return &s.block;
}

// A barrier-free block function ran every thread of its block: it goes on with
// the worker's next block where the runtime would only renumber the record
// (run_next_block_in_record), sparing a return to the runner and a
// cohort_loops_begin_block per block; else (none left, a shuffled schedule
// that draws each block's order, a launch of a level, a failure) it returns,
// and the runner goes on as after any block function.
std::uint32_t cohort_loops_next_block(loops_block*) {
  block_record& b = *current_block;
  b.live = 0;  // every thread ran to its end
  if (!run_next_block_in_record(static_cast<scheduled_block&>(b))) return 0;
  b.next_unstarted = b.thread_count;  // the block function starts every thread
  current_thread = b.threads;
  return 1;
}

// A kernel with grid barriers outside a phased launch (loops_grid.cpp): its
// kept store zeros, as at a block's start.
loops_block* cohort_loops_begin_unphased_block(std::uint64_t frame_bytes, std::uint64_t kept_bytes) {
  loops_block* block = cohort_loops_begin_block(frame_bytes);
  std::vector<std::byte>& kept = storage().kept;
  kept.assign(kept_bytes, std::byte{0});
  block->kept_store = kept.data();
  return block;
}

// The thread of the step about to call a runtime function that fails the
// launch: the message names it, and reads its lane, as on fibers.
void cohort_loops_enter_thread(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t row) {
  ::threadIdx = {x, y, z};
  streak_position = {{x, y, z}, row};
  current_position = &streak_position;
  current_thread = current_block->threads + row + x;
}

// Threads `first` and `rank` stopped at barriers whose source_location
// records differ: the same call site after all, or the launch fails.
void cohort_loops_check_site(loops_block* block, unsigned first, unsigned rank) {
  auto site_of = [block](unsigned r) {
    std::source_location where;
    std::memcpy(static_cast<void*>(&where), block->frames + r * block->frame_bytes, sizeof where);
    return where;
  };
  const std::source_location first_site = site_of(first), other_site = site_of(rank);
  if (same_site(first_site, other_site)) return;
  auto& rt = static_cast<block_runtime&>(*current_block);
  current_thread = rt.threads + rank;
  std::ostringstream s;
  s << "threads of block " << index_text(rt.block_index) << " in kernel `" << kernel_name(rt.launch->entry->kernel)
    << "` wait at different block barrier call sites: thread " << index_text(rt.threads[first].index) << " at "
    << site(first_site) << " and thread " << index_text(rt.threads[rank].index) << " at " << site(other_site)
    << "; every thread of a block must reach the same barrier call";
  fail_block(cohort::errc::barrier_mismatch, s.str());
}

// In place of memcpy_async's checking calls in a block function: the launch
// chose loops while the block checks copies, which choose_launch_engine never
// does for a kernel that has them; the launch fails rather than skip the checks.
[[noreturn]] void cohort_loops_unchecked_copy(std::source_location where) {
  fail_block(cohort::errc::invalid_argument,
             "memcpy_async at " + site(where) + " in kernel `" + kernel_name(current_runtime().launch->entry->kernel) +
                 "` reached COHORT_CHECK=memcpy's checks on the loops engine, which does not run them; a launch in "
                 "that mode runs such a kernel on fibers");
}

}  // extern "C"
