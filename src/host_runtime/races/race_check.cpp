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

#include "cohort/detail/host/launch.hpp"
#include "cohort/detail/host/runtime/sync_points.hpp"
#include "cohort/errors.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "launch/launch_state.hpp"
#include "memory/memory_check.hpp"
#include "races/access_record.hpp"
#include "races/device_shadow.hpp"
#include "races/race_symbols.hpp"
#include "scheduling/runtime_tls.hpp"

namespace cohort::detail::host {

namespace {

// A byte's last write and two reads of distinct threads in its interval: a
// third reader replaces the second (a write racing with only that one is
// missed; docs say so).
struct byte_cell {
  access_record write;
  std::array<access_record, 2> reads;
};

bool is_release(int order) { return order >= static_cast<int>(std::memory_order_release); }

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
    runtime = &static_cast<const block_runtime&>(b);
    linear = runtime->linear;
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
    releases = 0;
    acquired.clear();
    own_acquired.assign(b.thread_count, 0);
    next_interval();
    return true;
  }

  void next_interval() {
    if (++epoch == 0) [[unlikely]] {  // wrapped: every record would look current
      std::fill(static_cells.begin(), static_cells.end(), byte_cell{});
      std::fill(dynamic_cells.begin(), dynamic_cells.end(), byte_cell{});
      epoch = 1;
    }
    if (runtime != nullptr && on) {
      const block_barriers& levels = runtime->barriers;
      phase = static_cast<std::uint32_t>(levels.grid.phases_arrived + levels.cluster.phases_arrived +
                                         levels.multi_grid.phases_arrived);
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

  void access(std::uintptr_t address, std::size_t size, bool write, bool atomic, std::uintptr_t pc) {
    byte_cell* cell;
    std::size_t offset;
    race_place place;
    if (address - dynamic_begin < dynamic_size) {
      offset = address - dynamic_begin;
      size = std::min(size, dynamic_size - offset);
      cell = &dynamic_cells[offset];
      place = race_place::dynamic_shared;
    } else if (address - static_begin < static_size) {
      offset = address - static_begin;
      size = std::min(size, static_size - offset);
      cell = &static_cells[offset];
      place = race_place::shared_variables;
    } else {
      return device_access_at(address, size, write, atomic, pc);
    }
    const unsigned me = thread_rank();
    const access_record now = record(me, atomic, pc, 0);
    for (std::size_t i = 0; i < size; ++i, ++cell) {
      byte_cell& c = *cell;
      const race_site where{address + i, offset + i, place};
      if (races_with(c.write, now))
        found(write ? race_kind::write_after_write : race_kind::read_after_write, c.write, now, where);
      if (write) {
        for (const access_record& r : c.reads)
          if (races_with(r, now)) found(race_kind::write_after_read, r, now, where);
        if (!atomic || c.write.atomic || c.write.epoch != epoch) c.write = now;
      } else {
        record_read(c, now);
      }
    }
  }

  // Between blocks (block_order.hpp): a release ends the block's span of
  // accesses that an acquirer of what it publishes is ordered after.
  void release() { ++releases; }
  void publish(std::uintptr_t address) {
    if (releases == 0 && acquired.empty()) return;  // nothing released: nothing to tell
    block_clock told = acquired;
    told.raise(static_cast<std::uint32_t>(linear), releases);
    log->flags.publish(address, told);
  }
  void acquire(std::uintptr_t address) {
    block_clock got;
    log->flags.acquire(address, got);
    std::uint32_t& own = own_acquired[thread_rank()];
    own = std::max(own, got.of(static_cast<std::uint32_t>(linear)));
    acquired.join(got);
  }

 private:
  struct race_site {
    std::uintptr_t address;
    std::size_t offset;
    race_place place;
  };

  std::size_t own(unsigned rank) const { return (std::size_t{rank} << lane_bits) + (rank & (warp_size - 1)); }

  access_record record(unsigned me, bool atomic, std::uintptr_t pc, std::uint8_t bytes) const {
    return {pc,     epoch, clocks[own(me)], static_cast<std::uint32_t>(linear), static_cast<std::uint16_t>(me),
            atomic, bytes};
  }

  // Whether `earlier`, in this interval by another thread of this block, is
  // not ordered before `now` by a sync of their warp (and not both atomic).
  bool races_with(const access_record& earlier, const access_record& now) const {
    if (earlier.epoch != epoch || earlier.thread == now.thread || (earlier.atomic && now.atomic)) return false;
    if ((earlier.thread >> lane_bits) != (now.thread >> lane_bits)) return true;
    return earlier.clock > clocks[(std::size_t{now.thread} << lane_bits) + (earlier.thread & (warp_size - 1))];
  }

  // The same for device memory, where `earlier` may be another block's.
  bool races_with(const device_access& earlier, const device_access& now) const {
    if (earlier.at.epoch == 0 || (earlier.at.bytes & now.at.bytes) == 0) return false;
    if (earlier.at.block == now.at.block)  // a lock or flag between threads of the block orders them too
      return races_with(earlier.at, now.at) && own_acquired[now.at.thread] <= earlier.released;
    if (earlier.at.atomic && now.at.atomic) return false;
    return earlier.phase >= phase && acquired.of(earlier.at.block) <= earlier.released;
  }

  // An atomic write takes the place of the last write only where that was
  // an atomic too, or is over: a plain write of this interval stays, for the
  // other threads' atomics to race with.
  bool superseded_by_atomic(const device_access& last) const {
    return last.at.atomic || last.at.epoch == 0 ||
           (last.at.block == static_cast<std::uint32_t>(linear) && last.at.epoch != epoch);
  }

  void record_read(byte_cell& c, const access_record& now) {
    access_record& first = c.reads[0];
    if (first.epoch != epoch || first.thread == now.thread)
      first = now;
    else
      c.reads[1] = now;
  }

  // A first read slot that races with nothing to come from this thread is
  // taken again; else the second.
  void record_read(device_cell& c, const device_access& now) {
    device_access& first = c.reads[0];
    const bool same_thread = first.at.block == now.at.block && first.at.thread == now.at.thread;
    if (first.at.epoch == 0 || same_thread || !races_with(first, now))
      first = now;
    else
      c.reads[1] = now;
  }

  // Word by word: a cell of device memory is an aligned 4-byte word, each
  // record naming the bytes it touched; a word accessed narrower than whole
  // has a cell per byte (device_shadow.hpp).
  void device_access_at(std::uintptr_t address, std::size_t size, bool write, bool atomic, std::uintptr_t pc) {
    const unsigned me = thread_rank();
    while (size > 0) {
      const std::uintptr_t word = address & ~std::uintptr_t{3};
      const std::size_t first = address - word, count = std::min<std::size_t>(size, 4 - first);
      const auto bytes = static_cast<std::uint8_t>(((1u << count) - 1) << first);
      if (shadow_page* page = lock_shadow_page(word, log_id)) {
        const std::size_t index = word % shadow_page_bytes / 4;
        device_cell& c = page->cells[index];
        // The next word's cell, both its cache lines: the next thread of the
        // block usually touches it, after this one's other accesses (a
        // grid-stride loop's strides defeat the hardware's prefetchers, and
        // each 96-byte cell would be a miss; measured 2x on a gather).
        __builtin_prefetch(reinterpret_cast<const char*>(&c + 1), 1);
        __builtin_prefetch(reinterpret_cast<const char*>(&c + 2) - 1, 1);
        const device_access now{record(me, atomic, pc, bytes), releases, phase};
        const race_site where{address, 0, race_place::device};
        if (bytes != 0xf || page->is_split(index)) [[unlikely]]
          update_by_byte(*page, index, now, write, atomic, where);
        else
          update(c, now, write, atomic, where);
        unlock_shadow_page(*page);
      }
      address += count;
      size -= count;
    }
  }

  // Out of the common path's way: a word accessed narrower than whole.
  [[gnu::noinline]] void update_by_byte(shadow_page& page, std::size_t index, const device_access& now, bool write,
                                        bool atomic, const race_site& where) {
    device_cell* by_byte = byte_cells_of(page, index);
    if (by_byte == nullptr) return update(page.cells[index], now, write, atomic, where);  // past the budget
    for (unsigned b = 0; b < 4; ++b)
      if (now.at.bytes >> b & 1) update(by_byte[b], now, write, atomic, where);
  }

  void update(device_cell& c, const device_access& now, bool write, bool atomic, const race_site& where) {
    // A word's atomics are one modification order: this one comes after
    // the atomic reads recorded, which no access of this thread to come
    // can race with any more than with this one.
    if (atomic)
      for (device_access& r : c.reads)
        if (r.at.atomic) r.at.epoch = 0;
    if (races_with(c.write, now))
      found(write ? race_kind::write_after_write : race_kind::read_after_write, c.write.at, now.at, where);
    if (write) {
      for (const device_access& r : c.reads)
        if (races_with(r, now)) found(race_kind::write_after_read, r.at, now.at, where);
      if (!atomic || superseded_by_atomic(c.write)) c.write = now;
    } else {
      record_read(c, now);
    }
  }

  void found(race_kind kind, const access_record& earlier, const access_record& later, const race_site& where) {
    if (!reported.insert({earlier.pc, later.pc, kind}).second) return;
    const block_record& b = *block;
    // The earlier thread's index, in another block of the same shape.
    const auto index_of = [&](unsigned rank) {
      return uint3{rank % b.block_dim.x, rank / b.block_dim.x % b.block_dim.y, rank / (b.block_dim.x * b.block_dim.y)};
    };
    log->add({kind, where.place, earlier.atomic, later.atomic, where.offset, where.address, b.block_index, linear,
              earlier.block == static_cast<std::uint32_t>(linear) ? linear : earlier.block, index_of(earlier.thread),
              b.threads[later.thread].index, earlier.pc, later.pc});
  }

  race_log* log = nullptr;
  std::uint64_t log_id = 0;
  const block_runtime* runtime = nullptr;
  unsigned long long linear = 0;
  unsigned warp_size = 32;
  unsigned lane_bits = 5;
  std::uint32_t epoch = 0;
  std::vector<byte_cell> static_cells, dynamic_cells;
  // Per thread, its warp's lanes' clocks as it has seen them (its own at its lane).
  std::vector<std::uint32_t> clocks;
  std::vector<std::uint32_t> joined;  // lanes_synchronized's
  // The followed block's place in the grid's order (block_order.hpp).
  std::uint32_t releases = 0;
  std::uint32_t phase = 0;
  block_clock acquired;
  // Per thread, the most of its own block's releases it acquired (a lock
  // between the block's threads): its block's accesses stamped below that
  // are ordered before its own.
  std::vector<std::uint32_t> own_acquired;
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
  shadow_of(shadow).access(address, size, write, false, pc);
}

namespace {

// The shadow following the running block, or null where nothing is checked
// (host code, an unchecked launch).
race_shadow* checking() {
  const block_record* b = current_block;
  if (b == nullptr) return nullptr;
  race_window* w = this_race_window;
  if (w == nullptr) {
    auto* s = new race_shadow;
    at_thread_exit(&delete_shadow, s);
    w = this_race_window = s;
  }
  if (!w->following(*b) && !shadow_of(*w).follow(*b)) return nullptr;
  return w->on ? &shadow_of(*w) : nullptr;
}

}  // namespace

void race_access_in_new_block(std::uintptr_t address, std::size_t size, bool write, std::uintptr_t pc) {
  if (race_shadow* s = checking(); s && (s->holds(address) || may_be_device_memory(address)))
    s->access(address, size, write, false, pc);
}

void race_atomic_starts(std::uintptr_t address, std::size_t size, bool writes, int order, std::uintptr_t pc) {
  race_shadow* s = checking();
  if (s == nullptr) return;
  if (writes && is_release(order)) s->release();
  if (s->holds(address)) return s->access(address, size, writes, true, pc);
  // A flag between blocks may be anywhere (a __device__ variable too); only
  // device memory has a shadow.
  if (may_be_device_memory(address)) s->access(address, size, writes, true, pc);
  if (writes) s->publish(address);
}

void race_atomic_ended(std::uintptr_t address, bool reads) {
  if (!reads) return;
  if (race_shadow* s = checking(); s && !s->holds(address)) s->acquire(address);
}

void race_fence(int order) {
  if (!is_release(order)) return;  // an atomic that reads acquires by itself
  if (race_shadow* s = checking()) s->release();
}

// The report.
namespace {

const char* kind_name(race_kind k) {
  switch (k) {
    case race_kind::read_after_write:
      return "read-after-write";
    case race_kind::write_after_read:
      return "write-after-read";
    case race_kind::write_after_write:
      return "write-after-write";
  }
  return "";
}
std::string verb(bool reads, bool atomic) {
  return std::string(atomic ? "atomically " : "") + (reads ? "read" : "wrote");
}
std::string earlier_verb(const race_found& r) { return verb(r.kind == race_kind::write_after_read, r.earlier_atomic); }
std::string later_verb(const race_found& r) { return verb(r.kind == race_kind::read_after_write, r.later_atomic); }

bool between_blocks(const race_found& r) { return r.earlier_block_linear != r.block_linear; }

std::string place_of(const race_found& r) {
  if (r.place == race_place::device) return device_place(reinterpret_cast<const void*>(r.address));
  return shared_place(r.place == race_place::dynamic_shared, r.offset);
}

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
                  kernel_name(kernel) +
                  "` would be checked for nothing: build the kernels' target with "
                  "cohort::race_instrumentation (CMake), or the program with cohort-cxx --races");
}

bool races_found(const launch_state& launch) { return !launch.races.races.empty(); }

void throw_race_report(const launch_state& launch) {
  // One race per pair of source lines (an unrolled loop has many
  // instructions on one line; the same two lines may race both ways, as
  // read-after-write for some threads and write-after-read for others), in
  // block order, then as found.
  // A sort by (first block, place in the list): stable, with no temporary buffer (libstdc++ 12's, which
  // std::stable_sort takes, uses a function clang warns is deprecated).
  std::vector<const race_found*> all;
  for (const race_found& r : launch.races.races) all.push_back(&r);
  const auto first_block = [](const race_found* r) { return std::min(r->block_linear, r->earlier_block_linear); };
  std::sort(all.begin(), all.end(), [&](const race_found* a, const race_found* b) {
    return first_block(a) != first_block(b) ? first_block(a) < first_block(b) : std::less<>{}(a, b);
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
    << ", two threads accessing the same bytes, at least one writing and not both atomically, with nothing ordering "
       "the two accesses";
  if (races.size() > races_in_full) s << "; the first " << races_in_full << " in full";
  bool within = false, between = false;
  for (const distinct& d : races) (between_blocks(*d.first) ? between : within) = true;
  for (std::size_t i = 0; i < races.size() && i < races_in_full; ++i) {
    const race_found& r = *races[i].first;
    s << "\n  " << i + 1 << ". " << kind_name(r.kind);
    if (between_blocks(r)) {
      const uint3 earlier_block = block_index_of(launch, r.earlier_block_linear);
      s << " between blocks " << index_text(r.block) << " and " << index_text(earlier_block) << ": thread "
        << index_text(r.later_thread) << " of block " << index_text(r.block) << " " << later_verb(r) << " at "
        << races[i].later << ", thread " << index_text(r.earlier_thread) << " of block " << index_text(earlier_block)
        << " " << earlier_verb(r) << " at " << races[i].earlier;
    } else {
      s << " in block " << index_text(r.block) << ": thread " << index_text(r.later_thread) << " " << later_verb(r)
        << " at " << races[i].later << ", thread " << index_text(r.earlier_thread) << " " << earlier_verb(r) << " at "
        << races[i].earlier;
    }
    s << "; address 0x" << std::hex << r.address << std::dec << ", " << place_of(r);
  }
  if (races.size() > races_in_full) s << "\n  ... and " << races.size() - races_in_full << " more";
  if (within) s << "\nput a __syncthreads() (or the warp's __syncwarp()) between the two accesses, or make them atomic";
  if (between)
    s << "\nbetween blocks: have the writer's block __threadfence() before the atomic that sets a flag, and the reader "
         "read that flag atomically before its access; or put a grid.sync() between them, or split the kernel in two";
  throw kernel_error(error(errc::data_race, s.str()));
}

}  // namespace cohort::detail::host
