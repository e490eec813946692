// The wording of warp-collective diagnostics: each names the collective, its
// call site, the kernel, the block, the threads involved and the group.
#include <bit>
#include <sstream>
#include <string_view>
#include <vector>

#include "cohort/detail/host/language/warp_intrinsics.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "launch/launch_state.hpp"
#include "synchronization/rendezvous.hpp"

namespace cohort::detail::host {

namespace {

// "0-15,17,20-21"
std::string lane_list(std::uint64_t lanes) {
  std::ostringstream s;
  const char* separator = "";
  while (lanes != 0) {
    const unsigned first = static_cast<unsigned>(std::countr_zero(lanes));
    const unsigned run = static_cast<unsigned>(std::countr_one(lanes >> first));
    s << separator << first;
    if (run > 1) s << '-' << first + run - 1;
    separator = ",";
    lanes = run + first >= 64 ? 0 : lanes & ~(low_lanes(first + run));
  }
  return s.str();
}

std::string group_text(const member_set& m, const block_record& b) {
  const unsigned warp_size = b.warp_size;
  std::ostringstream s;
  if (m.is_span() && m.count == b.thread_count) {
    s << "the block's " << m.count << " threads";
  } else if (m.is_span()) {
    s << "the tile of " << m.count << " threads at block ranks " << m.base << '-' << m.base + m.count - 1
      << " (wider than a warp of " << warp_size << ')';
  } else {
    s << "the " << m.count << (m.count == 1 ? " thread at lane " : " threads at lanes ") << lane_list(m.lanes)
      << " of warp " << m.base / warp_size;
  }
  return s.str();
}

std::string thread_text(const thread_record& t) { return "thread " + index_text(t.index); }

// Whether an open record is a __*_sync intrinsic's: its first member's last
// intrinsic (its slot's mask) was this call.
bool from_intrinsic(const block_runtime& rt, const rendezvous_record& rec) {
  const collective_slot& s = rt.slots[rec.first->rank];
  return !rec.members.is_span() && s.mask_lanes == rec.members.lanes && same_site(s.mask_site, rec.site);
}

// As kernel code spells it: __syncwarp shares tile.sync()'s operation.
std::string op_text(const block_runtime& rt, const rendezvous_record& rec) {
  return rec.op == &sync_op && from_intrinsic(rt, rec) ? "__syncwarp" : rec.op->name;
}
// The same for the running thread's call (its slot notes an intrinsic's site).
std::string op_text(const block_runtime& rt, const collective_call& call) {
  const collective_slot& s = rt.slots[current_thread->rank];
  return call.op == &sync_op && same_site(s.mask_site, call.where) ? "__syncwarp" : call.op->name;
}

// Where a member that has not arrived waits, when the block has stalled.
std::string whereabouts(const block_runtime& rt, const thread_record& t) {
  switch (t.waiting) {
    case wait_kind::block_barrier:
      return "at a block barrier (" + site(t.wait_site) + ")";
    case wait_kind::grid_barrier:
      return "at a grid barrier (" + site(t.wait_site) + ")";
    case wait_kind::cluster_barrier:
      return "at a cluster barrier (" + site(t.wait_site) + ")";
    case wait_kind::multi_grid_barrier:
      return "at a multi-grid barrier (" + site(t.wait_site) + ")";
    case wait_kind::collective: {
      const auto* other = reinterpret_cast<const rendezvous_record*>(t.wait_phase);
      return "in `" + op_text(rt, *other) + "` (" + site(t.wait_site) + ")";
    }
    default:
      return "elsewhere";
  }
}

}  // namespace

void shuffle_source_absent(const combine_context& c, unsigned lane, unsigned source) {
  const block_runtime& rt = current_runtime();
  const thread_record& reader = rt.threads[c.warp_base + lane];
  std::ostringstream s;
  s << "shuffle at " << site(c.site) << " in kernel `" << kernel_name(rt.launch->entry->kernel) << "`, block "
    << index_text(rt.block_index) << ": thread " << index_text(reader.index) << " (lane " << lane << ") reads lane "
    << source << ", which is not in the shuffle's mask or has exited; CUDA leaves that value "
    << "undefined. Include every source lane in the mask (e.g. __activemask() or a full mask), or select the "
    << "source from the lanes that take part";
  fail_block(errc::invalid_argument, s.str());
}

void usage_error(errc kind, const std::string& what, std::source_location where) {
  const block_runtime& rt = current_runtime();
  fail_block(kind, what + " at " + site(where) + " " + position(*rt.launch, rt, *current_thread));
}

void fail_lane_outside_mask(const char* intrinsic, std::uint64_t mask, std::source_location where) {
  // Only the *_sync intrinsics take a mask, so tile.sync()'s operation here is __syncwarp.
  const std::string_view name = intrinsic == std::string_view(sync_op.name) ? "__syncwarp" : intrinsic;
  std::ostringstream s;
  s << name << " with mask 0x" << std::hex << mask << std::dec << " is called by lane " << lane_id()
    << ", which the mask does not name (lanes that exist in this warp: 0x" << std::hex << existing_lanes() << std::dec
    << "); every calling lane must be in the mask";
  usage_error(errc::invalid_argument, s.str(), where);
}

void fail_shuffle_width(const char* intrinsic, int width, std::source_location where) {
  usage_error(errc::invalid_argument,
              std::string(intrinsic) + " with width " + std::to_string(width) +
                  ": the width must be a power of two from 1 to the warp size, " + std::to_string(warp_size()),
              where);
}

void fail_member_exited(const block_runtime& rt, const rendezvous_record& rec, const thread_record& gone) {
  std::ostringstream s;
  s << "collective `" << op_text(rt, rec) << "` at " << site(rec.site) << " " << position(*rt.launch, rt, *rec.first)
    << " can never complete: " << thread_text(gone) << " exited without reaching it; the group is "
    << group_text(rec.members, rt)
    << ", and every member of a group must take part in each of its collectives (only sync() lets members leave "
       "early)";
  fail_block(errc::unreachable_barrier, s.str());
}

void fail_mask_mismatch(const block_runtime& rt, const rendezvous_record& rec, const thread_record& gone,
                        std::uint64_t its_lanes) {
  std::ostringstream s;
  s << "lanes of one warp call `" << op_text(rt, rec) << "` at " << site(rec.site) << " with different masks "
    << position(*rt.launch, rt, *rec.first) << ": " << thread_text(*rec.first) << " waits with mask 0x" << std::hex
    << rec.members.lanes << ", which names " << thread_text(gone) << ", and that thread called it with mask 0x"
    << its_lanes << std::dec << " and exited; every lane a mask names must call the intrinsic with the same mask "
    << "(CUDA leaves the result undefined, and here each mask's lanes would get a partial result)";
  fail_block(errc::collective_mismatch, s.str());
}

void fail_mismatch(const block_runtime& rt, const rendezvous_record& rec, const collective_call& call) {
  std::ostringstream s;
  s << "members of one group call different collectives " << position(*rt.launch, rt, *current_thread) << ": "
    << thread_text(*current_thread) << " calls `" << op_text(rt, call) << "` at " << site(call.where) << " while "
    << thread_text(*rec.first) << " waits in `" << op_text(rt, rec) << "` at " << site(rec.site) << "; the group is "
    << group_text(rec.members, rt)
    << ", and its members must call the same collectives (with the same value type) in the same order";
  fail_block(errc::collective_mismatch, s.str());
}

void fail_non_uniform(const block_runtime& rt, const rendezvous_record& rec, const collective_call& call) {
  const auto argument = [&](std::uint64_t arg) {
    std::ostringstream a;
    if (rec.op->arg_is_address)
      a << reinterpret_cast<const void*>(arg);
    else
      a << static_cast<unsigned>(arg);
    return a.str();
  };
  std::ostringstream s;
  s << "`" << call.op->name << "` at " << site(call.where) << " " << position(*rt.launch, rt, *current_thread)
    << " needs the same " << rec.op->arg_name << " from every member of " << group_text(rec.members, rt) << ": "
    << thread_text(*rec.first) << " passed " << argument(rec.first_arg) << " (at " << site(rec.site) << ") and "
    << thread_text(*current_thread) << " passed " << argument(rt.slots[current_thread->rank].arg);
  fail_block(errc::non_uniform_argument, s.str());
}

namespace {

// Two lanes each waiting in an intrinsic whose mask names the other, with
// masks that differ (lane 0 at __syncwarp(0xffffffff), lane 1 at
// __syncwarp(0x3)): neither call can complete. A GPU may hang.
std::optional<std::string> describe_mask_cycle(const block_runtime& rt, const rendezvous_record& rec) {
  if (!from_intrinsic(rt, rec)) return std::nullopt;
  const block_record& b = rt;
  // The intrinsic record a member of rec's warp waits at, if any.
  const auto intrinsic_of = [&](unsigned r) -> const rendezvous_record* {
    const thread_record& t = b.threads[r];
    if (t.waiting != wait_kind::collective) return nullptr;
    const auto* in = reinterpret_cast<const rendezvous_record*>(t.wait_phase);
    return from_intrinsic(rt, *in) ? in : nullptr;
  };
  const auto names = [](const rendezvous_record& in, unsigned r) {
    return ((in.members.lanes >> (r - in.members.base)) & 1) != 0;
  };
  const auto waits = [&](unsigned who, const rendezvous_record& in, unsigned named) {
    std::ostringstream w;
    w << thread_text(b.threads[who]) << " waits in `" << op_text(rt, in) << "` at " << site(in.site) << " with mask 0x"
      << std::hex << in.members.lanes << std::dec << ", which names lane " << named - in.members.base;
    return w.str();
  };
  std::optional<std::string> text;
  for_each_member(rec.members, [&](unsigned missing) {
    const rendezvous_record* other = intrinsic_of(missing);
    if (text || other == nullptr || other == &rec || other->members.lanes == rec.members.lanes) return;
    for_each_member(rec.members, [&](unsigned here) {
      if (text || intrinsic_of(here) != &rec || !names(*other, here)) return;
      std::ostringstream s;
      s << "deadlock in kernel `" << kernel_name(rt.launch->entry->kernel) << "`, block " << index_text(b.block_index)
        << ": lanes of warp " << rec.members.base / b.warp_size
        << " wait for each other with different masks: " << waits(here, rec, missing) << ", and "
        << waits(missing, *other, here)
        << "; every lane a mask names must call the intrinsic with the same mask (CUDA leaves this undefined: a "
        << "GPU may hang)";
      text = s.str();
    });
  });
  return text;
}

}  // namespace

std::optional<std::string> describe_collective_stall(const block_runtime& rt) {
  const block_record& b = rt;
  for (const rendezvous_record* head : rt.collectives.open)
    for (const rendezvous_record* rec = head; rec != nullptr; rec = rec->next)
      if (auto cycle = describe_mask_cycle(rt, *rec)) return cycle;
  for (const rendezvous_record* head : rt.collectives.open) {
    if (head == nullptr) continue;
    const rendezvous_record& rec = *head;
    std::ostringstream s;
    s << "deadlock in kernel `" << kernel_name(rt.launch->entry->kernel) << "`, block " << index_text(b.block_index)
      << ": collective `" << op_text(rt, rec) << "` at " << site(rec.site) << " (first reached by "
      << thread_text(*rec.first) << ") can never complete: " << rec.arrived << " of the " << rec.expected
      << " members of " << group_text(rec.members, b) << " arrived";
    // The members that are missing, grouped by where they wait.
    struct absentees {
      std::string where;
      const thread_record* first;
      unsigned count;
    };
    std::vector<absentees> missing;
    for_each_member(rec.members, [&](unsigned r) {
      if (arrived_at(b, rec, r, nullptr) || has_exited(b, r, nullptr)) return;
      std::string where = whereabouts(rt, b.threads[r]);
      for (absentees& a : missing)
        if (a.where == where) {
          ++a.count;
          return;
        }
      missing.push_back({std::move(where), &b.threads[r], 1});
    });
    for (const absentees& a : missing) {
      s << "; " << thread_text(*a.first);
      if (a.count > 1) s << " and " << a.count - 1 << (a.count == 2 ? " other" : " others");
      s << (a.count > 1 ? " wait " : " waits ") << a.where;
    }
    s << "; every member of a group must reach each of its collectives";
    return s.str();
  }
  return std::nullopt;
}

}  // namespace cohort::detail::host
