// COHORT_CHECK=races: the shadow of a block's shared memory, the ordering of
// its threads, and the report (race_check.hpp says how it works).
#include "races/race_check.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

#include "launch/block_runtime.hpp"
#include "cohort/detail/host/runtime/sync_points.hpp"
#include "cohort/errors.hpp"
#include "cohort/detail/host/launch.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/launch_state.hpp"
#include "races/race_symbols.hpp"
#include "scheduling/runtime_tls.hpp"

namespace cohort::detail::host {

namespace {

// One access: the instruction (its hook's return address), the thread's
// block rank, the block's interval and the thread's own clock then.
struct access_record {
  std::uintptr_t pc;
  std::uint32_t epoch;  // 0: none
  std::uint32_t clock;
  std::uint32_t thread;
};

// A byte's last write and two reads of distinct threads in its interval: a
// third reader replaces the second (a write racing with only that one is
// missed; docs say so).
struct byte_cell {
  access_record write;
  std::array<access_record, 2> reads;
};

}  // namespace

class race_shadow : public race_window {
 public:
  // Follows the block that runs now on this OS thread; false when its launch
  // is not checked.
  bool follow(const block_record& b) {
    block = &b;
    serial = b.serial;
    launch_state& launch = *static_cast<const scheduled_block&>(b).launch;
    on = launch.races.on;
    if (!on) return false;
    if (launch.races.id != log_id) {
      log_id = launch.races.id;
      reported.clear();
    }
    log = &launch.races;
    linear = static_cast<const block_runtime&>(b).linear;
    warp_size = b.warp_size;
    lane_bits = static_cast<unsigned>(__builtin_ctz(warp_size));
    static_begin = tls_low_spacer_end();
    static_size = tls_high_spacer_address() - static_begin;
    dynamic_begin = reinterpret_cast<std::uintptr_t>(b.dynamic_shared);
    dynamic_size = b.dynamic_shared ? launch.config.dynamic_shared_bytes : 0;
    if (static_cells.size() < static_size) static_cells.resize(static_size);
    if (dynamic_cells.size() < dynamic_size) dynamic_cells.resize(dynamic_size);
    clocks.assign(std::size_t{b.thread_count} << lane_bits, 0);
    for (unsigned t = 0; t < b.thread_count; ++t) clocks[own(t)] = 1;
    next_interval();
    return true;
  }

  void next_interval() {
    if (++epoch == 0) [[unlikely]] {  // wrapped: every record would look current
      std::fill(static_cells.begin(), static_cells.end(), byte_cell{});
      std::fill(dynamic_cells.begin(), dynamic_cells.end(), byte_cell{});
      epoch = 1;
    }
  }

  void lanes_synchronized(const unsigned* who, unsigned first, unsigned count) {
    const auto rank = [&](unsigned i) { return who ? who[i] : first + i; };
    const unsigned warp = rank(0) >> lane_bits;
    if ((rank(count - 1) >> lane_bits) != warp) return next_interval();  // wider than a warp: the whole block
    joined.assign(warp_size, 0);
    for (unsigned i = 0; i < count; ++i)
      for (unsigned l = 0; l < warp_size; ++l) joined[l] = std::max(joined[l], clocks[(rank(i) << lane_bits) + l]);
    for (unsigned i = 0; i < count; ++i) {
      const unsigned r = rank(i);
      std::copy(joined.begin(), joined.end(), clocks.begin() + (std::ptrdiff_t{r} << lane_bits));
      ++clocks[own(r)];
    }
  }

  void access(std::uintptr_t address, std::size_t size, bool write, std::uintptr_t pc) {
    byte_cell* cell;
    std::size_t offset;
    bool in_dynamic;
    if (address - dynamic_begin < dynamic_size) {
      offset = address - dynamic_begin;
      size = std::min(size, dynamic_size - offset);
      cell = &dynamic_cells[offset];
      in_dynamic = true;
    } else if (address - static_begin < static_size) {
      offset = address - static_begin;
      size = std::min(size, static_size - offset);
      cell = &static_cells[offset];
      in_dynamic = false;
    } else {
      return;
    }
    const unsigned me = thread_rank();
    const access_record now{pc, epoch, clocks[own(me)], me};
    for (std::size_t i = 0; i < size; ++i, ++cell) {
      byte_cell& c = *cell;
      const race_site where{address + i, offset + i, in_dynamic};
      if (races_with(c.write, me)) found(write ? race_kind::write_after_write : race_kind::read_after_write, c.write, now, where);
      if (write) {
        for (const access_record& r : c.reads)
          if (races_with(r, me)) found(race_kind::write_after_read, r, now, where);
        c.write = now;
      } else {
        record_read(c, now);
      }
    }
  }

 private:
  struct race_site {
    std::uintptr_t address;
    std::size_t offset;
    bool in_dynamic;
  };

  std::size_t own(unsigned rank) const { return (std::size_t{rank} << lane_bits) + (rank & (warp_size - 1)); }

  // Whether `earlier`, in this interval by another thread, is not ordered
  // before what thread `me` does now by a sync of their warp.
  bool races_with(const access_record& earlier, unsigned me) const {
    if (earlier.epoch != epoch || earlier.thread == me) return false;
    if ((earlier.thread >> lane_bits) != (me >> lane_bits)) return true;
    return earlier.clock > clocks[(std::size_t{me} << lane_bits) + (earlier.thread & (warp_size - 1))];
  }

  void record_read(byte_cell& c, const access_record& now) {
    access_record& first = c.reads[0];
    if (first.epoch != epoch || first.thread == now.thread)
      first = now;
    else
      c.reads[1] = now;
  }

  void found(race_kind kind, const access_record& earlier, const access_record& later, const race_site& where) {
    if (!reported.insert({earlier.pc, later.pc, kind}).second) return;
    log->add({kind, where.in_dynamic, where.offset, where.address, block->block_index, linear,
              block->threads[earlier.thread].index, block->threads[later.thread].index, earlier.pc, later.pc});
  }

  race_log* log = nullptr;
  std::uint64_t log_id = 0;
  unsigned long long linear = 0;
  unsigned warp_size = 32;
  unsigned lane_bits = 5;
  std::uint32_t epoch = 0;
  std::vector<byte_cell> static_cells, dynamic_cells;
  // Per thread, its warp's lanes' clocks as it has seen them (its own at its lane).
  std::vector<std::uint32_t> clocks;
  std::vector<std::uint32_t> joined;  // lanes_synchronized's
  std::set<std::tuple<std::uintptr_t, std::uintptr_t, race_kind>> reported;  // this launch's, from this thread
};

namespace {

void delete_shadow(void* shadow) { delete static_cast<race_shadow*>(shadow); }

race_shadow& shadow_of(race_window& w) { return static_cast<race_shadow&>(w); }

}  // namespace

void races_interval_ends(race_window& shadow) { shadow_of(shadow).next_interval(); }

// A block's threads all arrive at a cuda::barrier of the block's size, so its
// phase orders them all; one of fewer threads orders only those, and taking it
// for the whole block can only hide races (docs say so).
void races_block_synchronized() { race_interval_ends(); }

void races_lanes_synchronized(race_window& shadow, const unsigned* who, unsigned first, unsigned count) {
  shadow_of(shadow).lanes_synchronized(who, first, count);
}

void race_record(race_window& shadow, std::uintptr_t address, std::size_t size, bool write, std::uintptr_t pc) {
  shadow_of(shadow).access(address, size, write, pc);
}

void race_access_in_new_block(std::uintptr_t address, std::size_t size, bool write, std::uintptr_t pc) {
  race_window* w = this_race_window;
  if (w == nullptr) {
    auto* s = new race_shadow;
    at_thread_exit(&delete_shadow, s);
    w = this_race_window = s;
  }
  if (shadow_of(*w).follow(*current_block) && w->holds(address)) race_record(*w, address, size, write, pc);
}

// The report.
namespace {

const char* kind_name(race_kind k) {
  switch (k) {
    case race_kind::read_after_write: return "read-after-write";
    case race_kind::write_after_read: return "write-after-read";
    case race_kind::write_after_write: return "write-after-write";
  }
  return "";
}
const char* earlier_verb(race_kind k) { return k == race_kind::write_after_read ? "read" : "wrote"; }
const char* later_verb(race_kind k) { return k == race_kind::read_after_write ? "read" : "wrote"; }

constexpr std::size_t races_in_full = 10;

}  // namespace

namespace {
std::atomic<bool> instrumented_code{false};
}  // namespace

void race_instrumentation_loaded() { instrumented_code.store(true, std::memory_order_relaxed); }

void require_race_instrumentation(const void* kernel) {
  if (instrumented_code.load(std::memory_order_relaxed)) return;
  throw error(errc::invalid_argument,
              "COHORT_CHECK=races, but no code of this program is built for race checking, so kernel `" +
                  kernel_name(kernel) + "` would be checked for nothing: build the kernels' target with "
                  "cohort::race_instrumentation (CMake), or the program with cohort-cxx --races");
}

bool races_found(const launch_state& launch) { return !launch.races.races.empty(); }

void throw_race_report(const launch_state& launch) {
  // One race per pair of source lines (an unrolled loop has many
  // instructions on one line; the same two lines may race both ways, as
  // read-after-write for some threads and write-after-read for others), in
  // block order, then as found.
  // A sort by (block, place in the list): stable, with no temporary buffer (libstdc++ 12's, which
  // std::stable_sort takes, uses a function clang warns is deprecated).
  std::vector<const race_found*> all;
  for (const race_found& r : launch.races.races) all.push_back(&r);
  std::sort(all.begin(), all.end(), [](const race_found* a, const race_found* b) {
    return a->block_linear != b->block_linear ? a->block_linear < b->block_linear : std::less<>{}(a, b);
  });
  struct distinct {
    const race_found* first;
    std::string earlier, later;
  };
  std::vector<distinct> races;
  std::set<std::pair<std::string, std::string>> seen;
  for (const race_found* r : all) {
    std::string earlier = source_line_of(r->earlier_pc), later = source_line_of(r->later_pc);
    if (seen.insert(std::minmax(earlier, later)).second) races.push_back({r, std::move(earlier), std::move(later)});
  }
  std::ostringstream s;
  s << "data race in kernel `" << kernel_name(launch.entry->kernel) << "` (COHORT_CHECK=races): " << races.size()
    << (launch.races.dropped ? "+" : "") << " distinct race" << (races.size() == 1 ? "" : "s")
    << " between threads of a block on shared memory, with no barrier or warp sync between the two accesses";
  if (races.size() > races_in_full) s << "; the first " << races_in_full << " in full";
  for (std::size_t i = 0; i < races.size() && i < races_in_full; ++i) {
    const race_found& r = *races[i].first;
    s << "\n  " << i + 1 << ". " << kind_name(r.kind) << " in block " << index_text(r.block) << ": thread "
      << index_text(r.later_thread) << " " << later_verb(r.kind) << " at " << races[i].later << ", thread "
      << index_text(r.earlier_thread) << " " << earlier_verb(r.kind) << " at " << races[i].earlier << "; address 0x"
      << std::hex << r.address << std::dec << ", " << shared_place(r.in_dynamic, r.offset);
  }
  if (races.size() > races_in_full) s << "\n  ... and " << races.size() - races_in_full << " more";
  s << "\nput a __syncthreads() (or the warp's __syncwarp()) between the two accesses, or make them atomic";
  throw kernel_error(error(errc::data_race, s.str()));
}

}  // namespace cohort::detail::host
